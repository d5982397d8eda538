"""The verdict on a qdisc under an unresponsive flood (hostile.sh)."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from aqmtools.flood import Flood, main, read, settled, verdict


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


def test_a_held_flood_passes_with_measured_figures() -> None:
    f = settled(flood(700, 178, 60), 3)
    assert f is not None
    assert f.seconds == pytest.approx(6)
    assert f.sent == 178 * 9 - 178 * 3
    assert f.arrived == 700 * 9 - 700 * 3
    assert f.overload == pytest.approx(700 / 178, rel=0.01)
    assert f.marked == 12
    assert (f.mean_qlen, f.max_qlen, f.samples) == (60, 60, 13)
    assert verdict(f, 1000) is None


def test_queue_growth_counts_as_arrivals() -> None:
    # nothing dropped, the queue grows from 100 to 900: 800 arrivals more
    r = [rec(0, 0, 0, 100), rec(2, 400, 0, 600), rec(4, 800, 0, 900)]
    f = settled(r, 0)
    assert f is not None and f.arrived == 800 + 800
    assert verdict(f, 1000) == "the mean queue is not under half the limit 1000"


def test_each_way_of_failing() -> None:
    base = Flood(6, 4000, 1000, 2900, 0, 100, 200, 300)
    assert verdict(base, 1000) is None
    assert "no flood" in str(verdict(Flood(6, 1400, 1000, 300, 0, 100, 200, 300), 1000))
    assert verdict(Flood(6, 4000, 1000, 2900, 0, 100, 1000, 300), 1000) == (
        "the queue reached its limit 1000"
    )
    assert verdict(Flood(6, 4000, 1000, 0, 0, 100, 200, 300), 1000) == "nothing dropped"
    assert verdict(None, 1000) == "the records do not cover the window"


def test_records_that_miss_the_window() -> None:
    assert settled([], 3) is None
    assert settled([rec(0, 0, 0, 0), rec(2, 10, 0, 0)], 3) is None


def test_main_prints_a_tap_status(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    p = tmp_path / "ect.jl"
    p.write_text("".join(json.dumps(r) + "\n" for r in flood(700, 178, 60)))
    assert read(p.read_text())[0]["t"] == 100
    assert main(["flood.py", str(p), "1000", "3"]) == 0
    out = capsys.readouterr().out
    assert out.startswith("0 4200 arrivals in 6.0 s at 3.93 x the 1068 sent: ")
    assert main(["flood.py", str(p), "50", "3"]) == 0
    assert capsys.readouterr().out.startswith("1 ")
    assert main(["flood.py"]) == 2
