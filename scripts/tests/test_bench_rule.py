"""The rule a candidate default is judged by (aqmtools.bench.rule)."""

from __future__ import annotations

from pathlib import Path

import pytest
from test_bench_replication import _run

from aqmtools.bench import rule
from aqmtools.bench.rule import Cell, Rule, RunFigures, judge


def _cell(
    unfinished: list[int], loss: list[float], large: list[int], seeds: tuple[int, ...] = (1, 2, 3)
) -> Cell:
    rows = zip(seeds, unfinished, loss, large, strict=True)
    return Cell([RunFigures(s, u, lo, g) for s, u, lo, g in rows])


def test_earlier_rule_allows_one_more_unfinished_than_the_reference() -> None:
    earlier = Rule(per_large=0, large_share=0)
    ref = _cell([0, 0, 0], [6.0, 6.0, 6.0], [3, 3, 3])
    assert judge(ref, _cell([1, 0, 0], [6.0, 6.0, 6.0], [0, 0, 0]), earlier).passed
    j = judge(ref, _cell([1, 1, 0], [6.0, 6.0, 6.0], [3, 3, 3]), earlier)
    assert (j.max_unfinished, j.unfinished_ok, j.passed) == (1, False, False)


def test_unfinished_allowance_grows_with_the_large_transfers_of_a_cell() -> None:
    # 30 responses over 1 MB completed by the reference: 3 + 1 + 3
    ref = _cell([1, 1, 1], [5.0, 5.0, 5.0], [10, 10, 10])
    assert judge(ref, _cell([3, 2, 2], [5.0, 5.0, 5.0], [10, 10, 10]), Rule()).passed
    j = judge(ref, _cell([3, 3, 2], [5.0, 5.0, 5.0], [10, 10, 10]), Rule())
    assert (j.max_unfinished, j.unfinished_ok) == (7, False)
    # 9 completed: a tenth rounds down to nothing
    few = _cell([0, 0, 0], [5.0] * 3, [3, 3, 3])
    assert judge(few, _cell([1, 1, 0], [5.0] * 3, [3, 3, 3]), Rule()).max_unfinished == 1


def test_a_candidate_that_completes_too_few_large_transfers_fails() -> None:
    ref = _cell([0, 0, 0], [6.0, 6.0, 6.0], [3, 3, 3])
    j = judge(ref, _cell([0, 0, 0], [1.0, 1.0, 1.0], [2, 2, 2]), Rule())
    assert (j.min_large_done, j.large_ok, j.passed) == (7, False, False)
    assert j.unfinished_ok and j.loss_ok
    assert judge(ref, _cell([0, 0, 0], [1.0, 1.0, 1.0], [3, 2, 2]), Rule()).passed


def test_loss_bound_is_on_the_means_over_the_seeds() -> None:
    ref = _cell([0, 0, 0], [5.0, 6.0, 7.0], [1, 1, 1])
    assert judge(ref, _cell([0, 0, 0], [4.5, 6.5, 8.5], [1, 1, 1]), Rule()).loss_ok
    j = judge(ref, _cell([0, 0, 0], [4.5, 6.5, 8.53], [1, 1, 1]), Rule())
    assert not j.loss_ok and j.max_loss_pct == pytest.approx(6.5)


def test_runs_on_other_seeds_are_not_judged() -> None:
    ref = _cell([0, 0, 0], [6.0] * 3, [1] * 3)
    with pytest.raises(ValueError, match="different seeds"):
        judge(ref, _cell([0, 0, 0], [6.0] * 3, [1] * 3, seeds=(1, 2, 4)), Rule())


def test_main_reads_a_results_folder(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    # b drops 1.0-1.5 points more than a (10,000 packets a run): fails (b)
    for k, seed in enumerate((11, 12, 13)):
        _run(tmp_path, "a", seed, 100, [50, 60, 70], 2 * k)
        _run(tmp_path, "b", seed, 200 + 50 * k, [50, 60, 70], 2 * k + 1)
    assert rule.main(["rule", str(tmp_path), "b", "--reference", "a"]) == 1
    out = capsys.readouterr().out
    assert "load 0.9, seeds [11, 12, 13]: FAIL" in out
    assert "(b) loss 2.50 <= 1.50: no" in out
    assert rule.main(["rule", str(tmp_path), "b", "--reference", "a", "--loss-points", "2"]) == 0
    assert rule.main(["rule", str(tmp_path), "c", "--reference", "a"]) == 2
