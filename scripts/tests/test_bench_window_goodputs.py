"""The long TCP flows' goodputs over the measured window (sfred-10mbit:
flows that connected after the UDP flood had ended were reported at their
whole test's rate on the idle link), and what the archive keeps of them."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from aqmtools.bench import archive, report
from aqmtools.bench.stats import (
    FlowGoodput,
    iperf_goodputs,
    iperf_window_goodputs,
    read_run,
    run_goodputs,
)

# the run's start on the wall clock, and its measured window [2, 6] s
# after it (warm-up 2 s, duration 6 s)
START = 1000.4
T0, T1 = 2.0, 6.0
INTERRUPT = "interrupt - the client has terminated"


def _flow(
    stamp: int | None,
    *streams: list[int],
    lens: list[float] | None = None,
    error: str | None = None,
    end: bool = True,
    duration: int | None = None,
) -> str:
    """iperf3 3.12's -J output of a -R flow (the client's: it receives),
    connected at the wall-clock second STAMP (None: no timestamp), of one
    stream a list of bytes, an interval each; the intervals last LENS
    seconds (1 s each by default), the test DURATION (-t; by default as
    long as the intervals, a test that ran its time)."""
    n = len(streams[0])
    lens = lens or [1.0] * n
    bounds = [sum(lens[:k]) for k in range(n + 1)]
    if duration is None:
        duration = int(bounds[-1])

    def rec(a: float, b: float, nbytes: int, socket: int) -> dict[str, Any]:
        return {
            "socket": socket,
            "start": a,
            "end": b,
            "seconds": b - a,
            "bytes": nbytes,
            "bits_per_second": 8 * nbytes / (b - a),
            "omitted": False,
            "sender": False,
        }

    intervals = []
    for k in range(n):
        a, b = bounds[k], bounds[k + 1]
        sts = [rec(a, b, s[k], 5 + i) for i, s in enumerate(streams)]
        total = rec(a, b, sum(s[k] for s in streams), 0)
        del total["socket"]
        intervals.append({"streams": sts, "sum": total})
    start: dict[str, Any] = {
        "connected": [{"socket": 5 + i, "local_port": 50000 + i} for i in range(len(streams))],
        "version": "iperf 3.12",
    }
    if stamp is not None:
        start["timestamp"] = {"time": "x", "timesecs": stamp}
    start["test_start"] = {
        "protocol": "TCP",
        "num_streams": len(streams),
        "duration": duration,
        "reverse": 1,
    }
    j: dict[str, Any] = {"start": start, "intervals": intervals}
    if end:
        whole = bounds[-1]
        received = [rec(0, whole, sum(s), 5 + i) for i, s in enumerate(streams)]
        j["end"] = {
            "streams": [{"sender": {**r, "bytes": 0}, "receiver": r} for r in received],
            "sum_received": rec(0, whole, sum(sum(s) for s in streams), 0),
        }
    if error is not None:
        j["error"] = error
    return json.dumps(j)


def _window(texts: list[str], end_wall: float | None = None) -> list[FlowGoodput]:
    return iperf_window_goodputs(texts, START, T0, T1, end_wall)


# --- the window's arithmetic ------------------------------------------------------


def test_a_flow_that_started_with_the_run_counts_its_seconds_in_the_window() -> None:
    # stamped 0.4 s before the run's start on the wall clock (the stamp is
    # whole seconds): placed at 0; the second interval lasts 1.5 s
    text = _flow(1000, [k * 1000 for k in range(10)], lens=[1.0, 1.5] + [1.0] * 8)
    # intervals [0, 1], [1, 2.5], [2.5, 3.5], ...: of [2, 6], a third of
    # the second one's bytes and all of the third to fifth, half the sixth
    got = 1000 / 3 + 2000 + 3000 + 4000 + 5000 / 2
    assert _window([text]) == [FlowGoodput(pytest.approx(8 * got / 4))]
    # its whole test, as iperf_goodputs has it, is another figure
    assert iperf_goodputs([text]) != [pytest.approx(8 * got / 4)]


def test_a_flow_that_connected_after_the_window_gets_nothing_of_it() -> None:
    text = _flow(1007, [100_000] * 20)
    assert _window([text]) == [FlowGoodput(0.0)]
    assert iperf_goodputs([text]) == [pytest.approx(800_000.0)]


def test_a_flow_straddling_the_windows_end_counts_its_part_inside() -> None:
    # connected 3.6 s after the run's start; intervals of 1, 0.8 and 0.4 s
    # at [3.6, 4.6], [4.6, 5.4], [5.4, 5.8], then [5.8, 6.8]
    text = _flow(1004, [1000, 800, 400, 1000], lens=[1.0, 0.8, 0.4, 1.0])
    assert _window([text]) == [FlowGoodput(pytest.approx(8 * (2200 + 200) / 4))]


def test_a_file_of_several_streams_is_a_flow_a_stream() -> None:
    text = _flow(1001, [1000] * 8, [3000] * 8)
    # placed at 0.6 s: [2, 6] holds 4 seconds of each stream
    assert _window([text]) == [
        FlowGoodput(pytest.approx(8 * 4000 / 4)),
        FlowGoodput(pytest.approx(8 * 12000 / 4)),
    ]
    assert len(iperf_goodputs([text])) == 2
    # beside a file of one stream, in order
    one = _flow(1000, [500] * 8)
    assert [f.bps for f in _window([one, text])] == [
        pytest.approx(4000.0),
        pytest.approx(8000.0),
        pytest.approx(24000.0),
    ]


def test_unknown_and_never_connected_flows_keep_their_meaning() -> None:
    never = {
        "start": {"connected": [], "version": "iperf 3.12"},
        "intervals": [],
        "end": {"streams": [], "sum_received": {"seconds": 0, "bytes": 0}},
        "error": INTERRUPT,
    }
    texts = ["", json.dumps(never), json.dumps({"error": "unable to connect"})]
    assert _window(texts) == [FlowGoodput(None), FlowGoodput(0.0), FlowGoodput(0.0)]
    # connected, its test begun, stopped before its first interval:
    # unknown, as before
    start = {"connected": [{"socket": 5}], "timestamp": {"timesecs": 1000}}
    early = {**never, "start": {**start, "test_start": {"duration": 59}}}
    assert _window([json.dumps(early)]) == [FlowGoodput(None)]
    # its test never began (no test_start: stopped while its streams
    # connected): it got nothing
    assert _window([json.dumps({**never, "start": start})]) == [FlowGoodput(0.0)]


def test_files_that_do_not_place_their_intervals_give_the_whole_test() -> None:
    # an archive of before the intervals were kept: its end only
    old = json.dumps({"end": {"sum_received": {"bits_per_second": 5e6, "seconds": 59.0}}})
    assert _window([old]) == [FlowGoodput(5e6, whole_test=True)]
    # no timestamp, or a run.json without start_wall
    text = _flow(None, [1000] * 8)
    assert _window([text]) == [FlowGoodput(pytest.approx(8000.0), whole_test=True)]
    stamped = _flow(1000, [1000] * 8, [2000] * 8)
    assert iperf_window_goodputs([stamped], None, T0, T1) == [
        FlowGoodput(pytest.approx(8000.0), whole_test=True),
        FlowGoodput(pytest.approx(16000.0), whole_test=True),
    ]
    # beside flows of the window, one flow each
    flows = _window(["", old, _flow(1000, [1000] * 8)])
    assert [f.whole_test for f in flows] == [False, True, False]


def test_a_flow_the_run_stopped_is_placed_by_its_end() -> None:
    # stamped 4.6 s after the start, but its data connection came late:
    # 20 intervals of its 59 s before the run stopped it at 100 s, so they
    # began at 80
    text = _flow(1005, [100_000] * 20, error=INTERRUPT, duration=59)
    assert _window([text], end_wall=START + 100.0) == [FlowGoodput(0.0)]
    # without end_wall, by its timestamp: 1.4 s of the window
    by_stamp = [FlowGoodput(pytest.approx(8 * 140_000 / 4))]
    assert _window([text]) == by_stamp
    # stopped without an end result, or through its server: the same
    cut = _flow(1005, [100_000] * 20, error=INTERRUPT, end=False, duration=59)
    server = _flow(1005, [100_000] * 20, error="the server has terminated", duration=59)
    assert _window([cut, server], end_wall=START + 100.0) == [FlowGoodput(0.0)] * 2
    # its timestamp stays the lower bound: stopped within its first seconds
    assert _window([text], end_wall=START + 21.0) == by_stamp
    # stopped after its test's time was up (in the exchange of results):
    # its last interval ended before the stop, placed by its timestamp
    done = _flow(1005, [100_000] * 20, error=INTERRUPT)
    assert _window([done], end_wall=START + 100.0) == by_stamp
    # any other error leaves it where its timestamp puts it
    other = _flow(1005, [100_000] * 20, error="control socket has closed", duration=59)
    assert _window([other], end_wall=START + 100.0) == by_stamp


def test_what_cannot_be_read_is_refused() -> None:
    with pytest.raises(ValueError, match="window"):
        iperf_window_goodputs([_flow(1000, [1000])], START, 6.0, 6.0)
    bad = json.loads(_flow(1000, [1000] * 3))
    del bad["intervals"][1]["streams"][0]["end"]
    with pytest.raises(ValueError, match="start, end and bytes"):
        _window([json.dumps(bad)])
    two = json.loads(_flow(1000, [1000] * 3, [1000] * 3))
    two["intervals"][2]["streams"].pop()
    with pytest.raises(ValueError, match="receiving streams"):
        _window([json.dumps(two)])


# --- the run and its report -------------------------------------------------------


def _write_run(d: Path, tcp: list[str], seed: int = 101, udp: bool = True) -> None:
    """A run of web+long's kind without web logs: TCP flows of TCP (their
    iperf3 outputs), one UDP flow, a window [2, 6] s of a 10-s run."""
    d.mkdir(parents=True)
    meta = {
        "experiment": "t",
        "order": 0,
        "qdisc": "droptail",
        "spec": "pfifo",
        "load": 0.9,
        "ecn": False,
        "seed": seed,
        "seed_set": "reporting",
        "workload": "web+long",
        "users": 0,
        "duration_s": T1,
        "warmup_s": T0,
        "drain_s": 1.0,
        "rate_bps": 10_000_000,
        "client_rtts_ms": [10.0],
        "exit_codes": [0],
        "netem_drops": 0,
        "valid": True,
        "start_wall": START,
        "end_wall": START + 100.0,
    }
    (d / "run.json").write_text(json.dumps(meta))
    leaf = {"kind": "pfifo", "handle": "10:", "packets": 0, "bytes": 0, "drops": 0}
    (d / "tc-before.json").write_text(json.dumps({"down": [leaf], "up": []}))
    after = {**leaf, "packets": 3000, "bytes": 4_500_000, "drops": 50}
    (d / "tc-after.json").write_text(json.dumps({"down": [after], "up": []}))
    for k, text in enumerate(tcp):
        (d / f"iperf-tcp{k}.json").write_text(text)
    if udp:
        s = {"packets": 1000, "lost_packets": 100, "seconds": 6.0}
        (d / f"iperf-udp{len(tcp)}.json").write_text(json.dumps({"end": {"sum": s}}))


def test_read_run_and_the_report_take_the_window(tmp_path: Path) -> None:
    # 125 kB a second for 8 s from the start (1 Mbit/s), and a flow
    # stopped at the end of the run after 20 s on the then idle link
    d = tmp_path / "droptail-load90-ecn0-s101"
    late = _flow(1005, [1_250_000] * 20, error=INTERRUPT, duration=59)
    _write_run(d, [_flow(1000, [125_000] * 8), late])
    r = read_run(d)
    assert r.goodputs == [pytest.approx(1e6), 0.0] and r.tcp_whole_test == 0
    assert report.main(["report", str(tmp_path)]) == 0
    summary = (tmp_path / "summary.md").read_text()
    assert "| droptail | 1.00 | 0.00 | 1.68 | 0/1 |" in summary
    said = (
        "a TCP flow's goodput is the bytes it received in the measured window over the "
        "window's length, a UDP flow's is over its whole test (warm-up included)"
    )
    assert summary.count(said) == 2
    assert "whole test)" not in summary


def test_the_report_counts_the_flows_over_their_whole_test(tmp_path: Path) -> None:
    old = json.dumps({"end": {"sum_received": {"bits_per_second": 3e6, "seconds": 59.0}}})
    _write_run(tmp_path / "droptail-load90-ecn0-s101", [_flow(1000, [125_000] * 8), old])
    _write_run(tmp_path / "droptail-load90-ecn0-s102", [old, old], seed=102)
    r = read_run(tmp_path / "droptail-load90-ecn0-s102")
    assert r.goodputs == [3e6, 3e6] and r.tcp_whole_test == 2
    assert report.main(["report", str(tmp_path)]) == 0
    summary = (tmp_path / "summary.md").read_text()
    note = "(3 of the 4 flows, archived without their intervals: over their whole test)"
    assert summary.count(f"over the window's length {note}, a UDP flow's") == 2


# --- the archive ------------------------------------------------------------------


def test_the_archive_keeps_what_places_a_flow_in_the_window(tmp_path: Path) -> None:
    never = {"start": {"connected": []}, "intervals": [], "end": {}, "error": "x"}
    texts = [
        # with the run, of one stream and of two
        _flow(1000, [125_000] * 8, lens=[1.0, 1.5] + [1.0] * 6),
        _flow(1001, [1000] * 8, [3000] * 8),
        # straddling the window's end; stopped by the run, with and without an end
        _flow(1004, [1000, 800, 400, 1000], lens=[1.0, 0.8, 0.4, 1.0]),
        _flow(1005, [1_250_000] * 20, error=INTERRUPT, duration=59),
        _flow(1005, [1_250_000] * 20, error=INTERRUPT, end=False, duration=59),
        # never connected, killed before it wrote anything, old: its end only
        json.dumps(never),
        "",
        json.dumps({"end": {"sum_received": {"bits_per_second": 3e6, "seconds": 59.0}}}),
    ]
    d = tmp_path / "out" / "droptail-load90-ecn0-s101"
    _write_run(d, texts)
    meta = json.loads((d / "run.json").read_text())
    files = archive._run_files(d)
    packed = [files[f"iperf-tcp{k}.json"].decode() for k in range(len(texts))]
    assert run_goodputs(meta, packed) == run_goodputs(meta, texts)
    assert iperf_goodputs(packed) == iperf_goodputs(texts)
    assert [f.whole_test for f in run_goodputs(meta, packed)] == [False] * 8 + [True]
    # the flow the run stopped is still placed by its end
    assert run_goodputs(meta, [packed[3]]) == [FlowGoodput(0.0)]
    # the compact form: the timestamp, a socket a stream, the test's
    # duration, each interval's receiving streams' start, end and bytes,
    # the error, the end
    slim = json.loads(packed[1])
    assert slim["start"] == {
        "connected": [{"socket": 5}, {"socket": 6}],
        "timestamp": {"timesecs": 1001},
        "test_start": {"duration": 8},
    }
    assert slim["intervals"][0] == {
        "streams": [
            {"start": 0.0, "end": 1.0, "bytes": 1000},
            {"start": 0.0, "end": 1.0, "bytes": 3000},
        ]
    }
    assert slim["end"] == json.loads(texts[1])["end"] and "error" not in slim
    assert json.loads(packed[3])["error"] == INTERRUPT
    # kept whole: stopped without an end; as before: never connected, empty, old
    assert packed[4] == texts[4]
    assert json.loads(packed[5]) == {"end": {}, "start": {"connected": []}}
    assert packed[6] == "" and json.loads(packed[7]) == json.loads(texts[7])
    # packed again, the same bytes
    for k, text in enumerate(packed):
        (d / f"iperf-tcp{k}.json").write_text(text)
    again = archive._run_files(d)
    assert all(again[name] == files[name] for name in files)


def test_the_archive_recomputes_the_same_long_flows(tmp_path: Path) -> None:
    out = tmp_path / "out"
    late = _flow(1005, [1_250_000] * 20, error=INTERRUPT, duration=59)
    for seed in (101, 102):
        flows = [
            _flow(1000, [125_000 * (seed - 100)] * 8),
            late,
            _flow(1001, [1000] * 8, [3000] * 8),
        ]
        _write_run(out / f"droptail-load90-ecn0-s{seed}", flows, seed=seed)
    (out / "experiment.toml").write_text('name = "t"\n')
    assert report.main(["report", str(out)]) == 0
    path = archive.pack(out, tmp_path / "pub")
    copy = tmp_path / "copy"
    assert archive.main(["archive", "report", str(path), str(copy)]) == 0
    summary = (copy / "summary.md").read_text()
    assert summary == (out / "summary.md").read_text()
    # over the window: 1 and 2 Mbit/s, the late flow 0, the streams 8 and 24 kbit/s
    assert "| droptail | 1.53 ± 6.35 | 0.00 ± 0.00 | 1.68 ± 0.00 | 0/2 |" in summary
    assert "whole test)" not in summary
    # unpacked runs are packed again as they are
    archive.pack(copy, tmp_path / "pub2")
    for name in ("raw-s101.tar.xz", "raw-s102.tar.xz"):
        assert (tmp_path / "pub2" / name).read_bytes() == (tmp_path / "pub" / name).read_bytes()


def test_tcp_goodput_above_what_the_link_sent_is_a_problem(tmp_path: Path) -> None:
    # the fixture's bottleneck sent 4.5 MB in 6 s: 6 Mbit/s, headers
    # included. Two flows of 2.5 Mbit/s fit; two of 3.5 Mbit/s cannot
    # have come through it (a file placed early: its data connections were
    # late, and its bytes after the window are counted in it)
    fits = tmp_path / "fits-load90-ecn0-s101"
    _write_run(fits, [_flow(1000, [312_500] * 8), _flow(1000, [312_500] * 8)])
    r = read_run(fits)
    assert r.link.mbps == pytest.approx(6.0) and sum(r.goodputs) == pytest.approx(5e6)
    assert "TCP goodput above the link" not in r.problems
    over = tmp_path / "over-load90-ecn0-s101"
    _write_run(over, [_flow(1000, [437_500] * 8), _flow(1000, [437_500] * 8)])
    r = read_run(over)
    assert sum(r.goodputs) == pytest.approx(7e6)
    assert r.problems == ["TCP goodput above the link"]
