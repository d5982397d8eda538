"""The reader of iperf3's JSON output."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from aqmtools.iperf import tcp_rates, tcp_total, udp_goodput, udp_stream_goodputs


def test_udp_goodput_takes_the_loss_off(tmp_path: Path) -> None:
    f = tmp_path / "u.json"
    f.write_text(json.dumps({"end": {"sum": {"bits_per_second": 2e6, "lost_percent": 40.0}}}))
    rate, lost = udp_goodput(str(f))
    assert rate == pytest.approx(1.2e6)
    assert lost == 40.0


def test_udp_goodput_is_never_negative(tmp_path: Path) -> None:
    f = tmp_path / "u.json"
    f.write_text(json.dumps({"end": {"sum": {"bits_per_second": 2e6, "lost_percent": 100.6}}}))
    assert udp_goodput(str(f)) == (0.0, 100.6)


def test_udp_stream_goodputs_one_a_stream(tmp_path: Path) -> None:
    f = tmp_path / "u.json"
    streams = [
        {"udp": {"bits_per_second": 2e5, "lost_percent": 50.0}},
        {"udp": {"bits_per_second": 2e5, "lost_percent": 0.0}},
        {"udp": {"bits_per_second": 2e5, "lost_percent": 101.0}},
    ]
    f.write_text(json.dumps({"end": {"streams": streams}}))
    assert udp_stream_goodputs(str(f)) == [pytest.approx(1e5), 2e5, 0.0]


def test_tcp_rates_per_stream_and_summed(tmp_path: Path) -> None:
    f = tmp_path / "t.json"
    f.write_text(
        json.dumps(
            {
                "end": {
                    "streams": [
                        {"receiver": {"bits_per_second": 1e6}},
                        {"receiver": {"bits_per_second": 3e6}},
                    ],
                    "sum_received": {"bits_per_second": 4e6},
                }
            }
        )
    )
    assert tcp_rates(str(f)) == [1e6, 3e6]
    assert tcp_total(str(f)) == 4e6


def test_a_run_without_its_end_is_an_error(tmp_path: Path) -> None:
    f = tmp_path / "e.json"
    f.write_text(json.dumps({"error": "unable to connect to server"}))
    with pytest.raises(KeyError):
        udp_goodput(str(f))
