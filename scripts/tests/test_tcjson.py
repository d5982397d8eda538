"""The reader of the selftests' qdisc sampler files."""

from __future__ import annotations

from pathlib import Path

import pytest

from aqmtools.tcjson import arrays, leaf_samples


def test_arrays_one_after_the_other() -> None:
    assert arrays('[{"a": 1}]\n[{"a": 2}, {"a": 3}]  \n') == [[{"a": 1}], [{"a": 2}, {"a": 3}]]
    assert arrays("") == []
    with pytest.raises(ValueError):
        arrays('[{"a": 1}] {"a": 2}')


def test_leaf_samples_keep_the_handle_in_order(tmp_path: Path) -> None:
    f = tmp_path / "s.jl"
    f.write_text(
        '[{"handle": "1:", "qlen": 9}, {"handle": "10:", "qlen": 1}]\n'
        '[{"handle": "1:", "qlen": 9}, {"handle": "10:", "qlen": 2}]\n'
    )
    assert [q["qlen"] for q in leaf_samples(str(f))] == [1, 2]
    assert [q["qlen"] for q in leaf_samples(str(f), "1:")] == [9, 9]
