"""The report's configurations list says when netem marks in place of
dropping: sch_netem counts each mark as a drop and sends the packet, so
such a run's 'loss %' is the share notified, p / (1 + p), not packets
lost (the RED-family paper's mark runs, repro-queuelaw-mark-*)."""

from __future__ import annotations

from types import SimpleNamespace
from typing import Any, cast

import pytest

from aqmtools.bench import report
from aqmtools.bench.stats import Run


def _results(*specs: tuple[str, str, bool]) -> report.Results:
    runs = []
    for name, spec, ecn in specs:
        meta: dict[str, Any] = {"qdisc": name, "spec": spec, "ecn": ecn, "load": 1.0}
        meta |= {"rate_bps": 10e6, "seed": 101}
        runs.append(cast(Run, SimpleNamespace(meta=meta)))
    return report.Results(runs)


@pytest.mark.parametrize(
    ("spec", "marks"),
    [
        ("netem limit 100000 loss random 20% ecn", True),
        ("netem ecn loss random 1%", True),
        ("netem limit 100000 loss random 20%", False),
        ("red limit 50000 min 10000 max 40000 avpkt 1514 ecn", False),
        ("", False),
    ],
)
def test_netem_marks_only_for_a_netem_with_ecn(spec: str, marks: bool) -> None:
    assert report.netem_marks(spec) is marks


def test_the_configurations_say_what_loss_means_for_a_marking_netem() -> None:
    text = "\n".join(
        report.specs(
            _results(
                ("p0.2", "netem limit 100000 loss random 20% ecn", True),
                ("p0.5", "netem limit 100000 loss random 50% ecn", True),
                ("red", "red limit 50000 min 10000 max 40000 avpkt 1514 ecn", True),
            )
        )
    )
    (note,) = [ln for ln in text.splitlines() if ln.startswith("netem marks")]
    assert "(p0.2, p0.5)" in note
    assert "p / (1 + p)" in note
    assert "red" not in note


def test_no_word_on_netem_where_it_drops() -> None:
    text = "\n".join(report.specs(_results(("p0.2", "netem limit 100000 loss random 20%", False))))
    assert "netem marks" not in text
