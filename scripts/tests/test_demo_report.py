"""Tests of the demo summary table."""

from __future__ import annotations

import json
from pathlib import Path

from aqmtools.demo_report import load_row, main, percentile, ping_rtts, table

PING = """PING 198.18.2.2 (198.18.2.2) 56(84) bytes of data.
64 bytes from 198.18.2.2: icmp_seq=1 ttl=63 time=41.2 ms
64 bytes from 198.18.2.2: icmp_seq=2 ttl=63 time=120 ms
64 bytes from 198.18.2.2: icmp_seq=3 ttl=63 time=80.5 ms
"""


def _write(d: Path, name: str) -> None:
    iperf = {
        "end": {
            "sum_received": {"bits_per_second": 9.5e6},
            "sum_sent": {"retransmits": 12},
        }
    }
    (d / f"{name}.iperf.json").write_text(json.dumps(iperf))
    tc = [{"kind": "red", "drops": 40, "marked": 7, "packets": 5000}]
    (d / f"{name}.tc.json").write_text(json.dumps(tc))
    (d / f"{name}.ping.txt").write_text(PING)
    (d / f"{name}.qdisc.txt").write_text("red limit 1000\n")


def test_ping_rtts() -> None:
    assert ping_rtts(PING) == [41.2, 120.0, 80.5]


def test_percentile() -> None:
    vals = [float(v) for v in range(1, 101)]
    assert percentile(vals, 95) == 95.0
    assert percentile(vals, 50) == 50.0
    assert percentile([3.0], 95) == 3.0


def test_row_and_table(tmp_path: Path) -> None:
    _write(tmp_path, "red")
    r = load_row(tmp_path, "red")
    assert r.goodput_mbit == 9.5
    assert r.retransmits == 12
    assert r.rtt_median_ms == 80.5
    assert (r.drops, r.marks) == (40, 7)
    out = table([r])
    assert "red" in out.splitlines()[2]
    assert "9.50" in out


def test_main_missing_results(tmp_path: Path) -> None:
    assert main(["r", str(tmp_path), "pfifo"]) == 1
