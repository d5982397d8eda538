"""The verdict on a qdisc under an unresponsive ECT(0) flood (hostile.sh)."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from aqmtools.flood import Flood, compare, main, read, settled


def rec(t: float, packets: int, drops: int, qlen: int, marks: int = 0) -> dict[str, Any]:
    return {"t": t, "packets": packets, "drops": drops, "qlen": qlen, "bytes": 0, "marks": marks}


def flood(arrive_pps: float, send_pps: float, qlen: int, secs: int = 9) -> list[dict[str, Any]]:
    """Records every 0.5 s of a queue held at QLEN (filled in the first
    second), arrivals and departures at the given rates."""
    out = []
    for i in range(2 * secs + 1):
        t = i / 2
        q = min(qlen, int(qlen * t))
        sent = int(send_pps * t)
        arrived = int(arrive_pps * t)
        out.append(rec(100 + t, sent, arrived - sent - q, q, marks=i))
    return out


def test_figures_measured_over_the_settled_window() -> None:
    f = settled(flood(700, 178, 60), 3)
    assert f is not None
    assert f.seconds == pytest.approx(6)
    assert f.sent == 178 * 9 - 178 * 3
    assert f.arrived == 700 * 9 - 700 * 3
    assert f.overload == pytest.approx(700 / 178, rel=0.01)
    assert f.marked == 12
    assert (f.mean_qlen, f.max_qlen, f.samples) == (60, 60, 13)


def test_queue_growth_counts_as_arrivals() -> None:
    # nothing dropped, the queue grows from 100 to 900: 800 arrivals more
    f = settled([rec(0, 0, 0, 100), rec(2, 400, 0, 600), rec(4, 800, 0, 900)], 0)
    assert f is not None and f.arrived == 800 + 800
    assert f.mean_qlen == pytest.approx(1600 / 3)


def test_ect_must_win_no_queue() -> None:
    held = settled(flood(700, 178, 60), 3)
    # a controller slow to climb: at the limit with and without ECN
    slow = settled(flood(700, 178, 1000), 3)
    assert compare(held, held, 1000) is None
    assert compare(slow, slow, 1000) is None
    # marking instead of dropping: the ECT(0) flood sits at the limit
    assert compare(slow, held, 1000) == "ECT(0) kept a longer queue: mean 1000 against 60 + 100"
    # within a tenth of the limit is the same queue
    assert compare(settled(flood(700, 178, 160), 3), held, 1000) is None


def test_each_other_way_of_failing() -> None:
    ok = Flood(6, 4000, 1000, 2900, 0, 100, 200, 300)
    weak = Flood(6, 1400, 1000, 300, 0, 100, 200, 300)
    assert "no ECT(0) flood" in str(compare(weak, ok, 1000))
    assert "no not-ECT flood" in str(compare(ok, weak, 1000))
    unmarked = Flood(6, 4000, 1000, 0, 2900, 100, 200, 300)
    assert compare(unmarked, ok, 1000) == "the ECT(0) flood was never dropped"
    assert compare(None, ok, 1000) == "the ECT(0) records do not cover the window"
    assert settled([], 3) is None
    assert settled([rec(0, 0, 0, 0), rec(2, 10, 0, 0)], 3) is None


def test_main_prints_a_tap_status(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    held, full = tmp_path / "held.jl", tmp_path / "full.jl"
    held.write_text("".join(json.dumps(r) + "\n" for r in flood(700, 178, 60)))
    full.write_text("".join(json.dumps(r) + "\n" for r in flood(700, 178, 1000)))
    assert read(held.read_text())[0]["t"] == 100
    assert main(["flood.py", str(held), str(held), "1000", "3"]) == 0
    out = capsys.readouterr().out
    assert out.startswith("0 ECT(0): 4200 arrivals in 6.0 s at 3.93 x the 1068 sent: ")
    assert "; not-ECT: 4200 arrivals" in out
    assert main(["flood.py", str(full), str(held), "1000", "3"]) == 0
    assert capsys.readouterr().out.startswith("1 ")
    assert main(["flood.py", str(held)]) == 2
