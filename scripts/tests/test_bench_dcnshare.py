"""Tests of aqmtools.bench.dcnshare (where dcn's pref sits, and what the
largest responses get)."""

from __future__ import annotations

import math
from types import SimpleNamespace
from typing import Any, cast

import pytest

from aqmtools.bench.dcnshare import goodput_bps, large_goodputs, pref_figures
from aqmtools.bench.stats import Exchange, Run, WebLog


def _sample(t: float, pref: float, hb: int, over: int, rate: float) -> dict[str, Any]:
    return {"t": t, "pref": pref, "hb_flows": hb, "over_pref": over, "rate": rate}


def test_even_split_and_held_share() -> None:
    # 500 packets/s, Tdec 0.8 s: 400 packets per Tdec; 20 HB flows, 4 above
    # pref: an even split is 20 packets, and pref 20 is exactly it; the 4
    # flows held to 20 each carry 80 of the 400
    s = [_sample(t, 20.0, 20, 4, 500.0) for t in (16.0, 30.0, 59.0)]
    f = pref_figures(s, 0.8, 15.0, 60.0)
    assert f is not None
    assert f.samples == 3
    assert f.even == pytest.approx(1.0)
    assert f.held == pytest.approx(0.2)
    assert (f.pref, f.hb, f.over) == (20.0, 20, 4)


def test_window_and_empty_hb_are_left_out() -> None:
    s = [
        _sample(5.0, 1000.0, 3, 0, 500.0),  # before the window
        _sample(20.0, 40.0, 0, 0, 500.0),  # HB empty: no split to compare with
        _sample(21.0, 40.0, 10, 1, 0.0),  # rate not measured
        _sample(22.0, 40.0, 10, 2, 500.0),
        _sample(70.0, 40.0, 10, 2, 500.0),  # after it
        {"t": 23.0, "qlen": 3},  # another qdisc's record
    ]
    f = pref_figures(s, 0.8, 15.0, 60.0)
    assert f is not None and f.samples == 1
    assert f.even == pytest.approx(1.0)
    assert pref_figures(s[:2], 0.8, 15.0, 60.0) is None


def test_goodput_counts_what_arrived_over_the_exchange() -> None:
    e = Exchange(start_us=1_000_000, end_us=3_000_000, resp_bytes=500_000, req_size=2_000_000)
    assert goodput_bps(e) == pytest.approx(2_000_000.0)
    assert goodput_bps(Exchange(5, 5, 100)) == 0.0


def test_large_responses_by_client_rtt_finished_or_not() -> None:
    big = Exchange(0, 4_000_000, 2_000_000, 2_000_000)
    cut = Exchange(0, 8_000_000, 1_000_000, 3_000_000)
    small = Exchange(0, 1_000_000, 10_000, 10_000)
    run = SimpleNamespace(
        meta={"client_rtts_ms": [16.1, 127.7]},
        by_host={
            1: WebLog([big, small], 0, 1, 0, [cut]),
            2: WebLog([small], 0, 0, 0, []),
        },
    )
    got = large_goodputs(cast(Run, run))
    assert got == [(16.1, 4_000_000.0, True), (16.1, 1_000_000.0, False)]
    # a host without an RTT on record is kept, with an unknown RTT
    run.meta = {}
    assert all(math.isnan(rtt) for rtt, _, _ in large_goodputs(cast(Run, run)))
