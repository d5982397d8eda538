"""Processes the run had to stop (issue 33: BLUE's Figure 13 with the paper's
end hosts, seed 101, 2026-11-29): the run records how many it stopped and
the report lists such a run among its problems; iperf3's output of a
stopped client that is not JSON is read as the object it wrote last; a
client whose test never began (some of its -P streams never connected)
counts every stream, none with a byte."""

from __future__ import annotations

import json
import sys
from pathlib import Path

import pytest
from test_bench_long_streams import LONG
from test_bench_window_goodputs import INTERRUPT, START, _flow, _write_run

from aqmtools.bench import archive, run
from aqmtools.bench.experiment import load
from aqmtools.bench.stats import (
    iperf_goodputs,
    iperf_json,
    iperf_overran,
    iperf_stopped,
    iperf_unconnected,
    process_streams,
    read_run,
    run_goodputs,
)

STOPPED = "process stopped at the run's end"


def _tabbed(text: str) -> str:
    """TEXT (one JSON object) laid out as iperf3 -J writes it: tabs."""
    return json.dumps(json.loads(text), indent="\t")


def _twice_unclosed(text: str, cut: int) -> str:
    """What iperf 3.12 left of a stopped client in repro-blue-fig13-paper
    (blue, 75%, seed 101): its output cut off after CUT characters, then
    the whole object again, without its closing brace."""
    whole = _tabbed(text)
    assert whole.endswith("}")
    return whole[:cut] + whole[:-1]


def test_a_cut_copy_then_an_unclosed_whole_object_reads_as_the_whole() -> None:
    flow = _flow(1001, [125_000] * 8, [250_000] * 8, error=INTERRUPT, duration=59)
    want = json.loads(flow)
    for cut in (0, 1, 40, len(_tabbed(flow)) // 2, len(_tabbed(flow)) - 3):
        text = _twice_unclosed(flow, cut)
        with pytest.raises(json.JSONDecodeError):
            json.loads(text)
        assert iperf_json(text) == want, cut
        assert iperf_goodputs([text]) == iperf_goodputs([flow]) == [1e6, 2e6]
    # a line of iperf3's before its object
    warned = "WARNING:  Size of data read does not correspond to offered length\n" + _tabbed(flow)
    assert iperf_json(warned) == want
    # a whole object as it is, and nothing to read in the others
    assert iperf_json(_tabbed(flow)) == want
    for bad in ("", "garbage", "[1]", _tabbed(flow)[:-40]):
        assert iperf_json(bad) is None


def test_a_flow_is_stopped_when_its_error_says_the_run_stopped_it() -> None:
    ended = _flow(1001, [125_000] * 8)
    client = _flow(1001, [125_000] * 8, error=INTERRUPT, duration=59)
    server = _flow(1001, [125_000] * 8, error="the server has terminated", duration=59)
    own = _flow(1001, [125_000] * 8, error="unable to send control message: Broken pipe")
    assert iperf_stopped([ended, own, ""]) == 0
    assert iperf_stopped([client, server, _twice_unclosed(client, 30)]) == 3


def _never_began(connected: int) -> str:
    """A client stopped while it connected its streams: CONNECTED of them
    had, the test had not begun (no test_start), as iperf 3.12 writes it."""
    start = {
        "connected": [{"socket": 5 + i} for i in range(connected)],
        "version": "iperf 3.12",
        "timestamp": {"time": "x", "timesecs": 1001},
    }
    zeros = {"start": 0, "end": 1090.0, "seconds": 1090.0, "bytes": 0, "bits_per_second": 0}
    per = {"sender": {**zeros, "socket": 5}, "receiver": {**zeros, "socket": 5}}
    return json.dumps(
        {
            "start": start,
            "intervals": [{"streams": [{**zeros, "socket": 5 + i} for i in range(connected)]}],
            "end": {"streams": [per] * connected, "sum_received": zeros},
            "error": INTERRUPT,
        }
    )


def test_a_client_whose_test_never_began_counts_its_every_stream() -> None:
    meta = {
        "start_wall": START,
        "warmup_s": 2.0,
        "duration_s": 6.0,
        "end_wall": START + 100.0,
        "long_flows": 7,
    }
    began = _flow(1001, *([[125_000] * 8] * 4))
    texts = [began, _never_began(2)]
    flows = run_goodputs(meta, texts)
    # 7 flows over two processes: 4 and 3; the three of the second got nothing
    assert [f.bps for f in flows] == [1e6] * 4 + [0.0] * 3
    assert iperf_unconnected(texts) == 1
    # without the experiment's flows, what it connected
    assert iperf_goodputs([_never_began(2)]) == [0.0, 0.0]


@pytest.mark.parametrize(("flows", "streams"), [(7, 4), (150, 25), (89, 12), (3, 1), (40, 40)])
def test_process_streams_spread_the_flows_as_the_experiment_does(flows: int, streams: int) -> None:
    exp = load(LONG.replace("long_flows = 89", f"long_flows = {flows}\nlong_streams = {streams}"))
    procs = exp.long_processes(flows)
    assert process_streams({"long_flows": flows}, len(procs)) == procs
    assert process_streams({"long_flows": flows, "long_steps": [[0, 1]]}, len(procs)) is None
    assert process_streams({}, len(procs)) is None


def test_a_stopped_process_is_a_problem_of_its_run(tmp_path: Path) -> None:
    ok = tmp_path / "ok"
    _write_run(ok, [_flow(1000, [125_000] * 8)])
    assert read_run(ok).problems == [] and read_run(ok).stopped == 0
    # the iperf3 files say so (archives of before run.json counted them)
    by_file = tmp_path / "by-file"
    # (cut off: 8 s of intervals of a test planned for 10)
    cut = _flow(1000, [1] * 8, error=INTERRUPT, duration=10)
    _write_run(by_file, [_flow(1000, [125_000] * 8), cut])
    assert read_run(by_file).problems == [STOPPED] and read_run(by_file).stopped == 1
    # run.json says so (a process of any kind)
    meta = json.loads((ok / "run.json").read_text())
    (ok / "run.json").write_text(json.dumps({**meta, "stopped": 2}))
    assert read_run(ok).problems == [STOPPED] and read_run(ok).stopped == 2


def test_a_flow_stopped_once_its_time_was_up_is_no_problem(tmp_path: Path) -> None:
    # the end-of-test exchange late: intervals to the planned 8 s and on
    over = _flow(1000, [125_000] * 12, error=INTERRUPT, duration=8)
    # cut off: 6 s of intervals of a test planned for 8
    cut = _flow(1000, [125_000] * 6, error=INTERRUPT, duration=8)
    assert iperf_overran([over, cut, "", "{}"]) == 1 and iperf_stopped([over, cut]) == 2
    for name, flows, stopped, problems in (
        ("over", [over], 1, []),
        # its server, sending on, was stopped too (run.json counts both)
        ("over-and-server", [over], 2, []),
        ("cut", [cut], 1, [STOPPED]),
        # a cut flow is a problem whatever run.json counts
        ("both", [over, cut], 2, [STOPPED]),
    ):
        d = tmp_path / name
        _write_run(d, [_flow(1000, [125_000] * 8), *flows])
        meta = json.loads((d / "run.json").read_text())
        (d / "run.json").write_text(json.dumps({**meta, "stopped": stopped}))
        assert read_run(d).problems == problems, name
    # run.json counts more processes than the overran flow and its server
    # (a web client, say): a problem
    d = tmp_path / "over"
    meta = json.loads((d / "run.json").read_text())
    (d / "run.json").write_text(json.dumps({**meta, "stopped": 3}))
    assert read_run(d).problems == [STOPPED]


def test_the_archive_keeps_what_it_cannot_read_and_reads_the_rest_the_same(
    tmp_path: Path,
) -> None:
    d = tmp_path / "out" / "blue-load75-ecn1-s101"
    # stopped once its test's time was up (its end exchange stuck)
    flow = _flow(1000, [125_000] * 8, [250_000] * 8, error=INTERRUPT)
    texts = [_twice_unclosed(flow, 200), "garbage", _flow(1000, [125_000] * 8)]
    _write_run(d, texts)
    files = archive._run_files(d)
    assert files["iperf-tcp1.json"] == b"garbage"
    back = tmp_path / "back" / d.name
    back.mkdir(parents=True)
    for name, data in files.items():
        (back / name).write_bytes(data)
    a, b = read_run(d), read_run(back)
    both = [(r.goodputs, r.tcp_missing, r.stopped, r.stopped_over) for r in (a, b)]
    assert both[0] == both[1]
    assert a.goodputs == [pytest.approx(1e6), pytest.approx(2e6), pytest.approx(1e6)]
    assert a.tcp_missing == 1 and a.stopped == 1 == a.stopped_over
    # its time was whole: not a problem (iperf_overran)
    assert a.problems == ["TCP flow without a result"]


def test_wait_all_counts_what_it_had_to_stop(tmp_path: Path) -> None:
    bench = run.Bench(load(LONG), tmp_path, tmp_path)
    bench.spawn([sys.executable, "-c", "pass"])
    assert bench.wait_all(10) == [0] and bench.stopped == 0
    bench.spawn([sys.executable, "-c", "import time; time.sleep(30)"])
    bench.spawn([sys.executable, "-c", "pass"])
    codes = bench.wait_all(0.5)
    assert bench.stopped == 1 and codes[0] != 0 and codes[1] == 0


def test_an_empty_file_counts_its_process_streams_missing(tmp_path: Path) -> None:
    d = tmp_path / "sfb-load100-ecn1-s101"
    _write_run(d, [_flow(1000, *([[125_000] * 8] * 3)), ""])
    meta = json.loads((d / "run.json").read_text())
    (d / "run.json").write_text(json.dumps({**meta, "long_flows": 6}))
    r = read_run(d)
    assert (len(r.goodputs), r.tcp_missing) == (3, 3)


def _udp(seconds: int, duration: int, error: str | None = None) -> str:
    """A UDP iperf3 client's output (its receiver's streams): SECONDS of
    intervals of 90 datagrams, 9 lost, of a test planned for DURATION."""
    ivs = [
        {
            "streams": [
                {"start": float(t), "end": t + 1.0, "packets": 90, "lost_packets": 9},
            ]
        }
        for t in range(seconds)
    ]
    j: dict[str, object] = {
        "start": {"connected": [{"socket": 5}], "test_start": {"duration": duration}},
        "intervals": ivs,
        "end": {"sum": {"packets": 90 * seconds, "lost_packets": 9 * seconds, "seconds": seconds}},
    }
    if error:
        j["error"] = error
    return json.dumps(j)


def test_a_udp_flow_stopped_once_its_time_was_up_reads_so_from_the_archive(
    tmp_path: Path,
) -> None:
    # repro-sfb-fig19-paper, sfb-static, seed 101 (2026-11-29): the run
    # stopped a UDP client whose intervals reached its planned time and a
    # TCP server; the archive kept neither the error nor the duration, and
    # the published page read the run as one with a process cut off
    d = tmp_path / "out" / "sfb-static-load100-ecn1-s101"
    _write_run(d, [_flow(1000, [125_000] * 8)], udp=False)
    over, cut = _udp(12, 10, INTERRUPT), _udp(6, 10, INTERRUPT)
    (d / "iperf-udp1.json").write_text(over)
    meta = json.loads((d / "run.json").read_text())
    (d / "run.json").write_text(json.dumps({**meta, "stopped": 2}))
    files = archive._run_files(d)
    back = tmp_path / "back" / d.name
    back.mkdir(parents=True)
    for name, data in files.items():
        (back / name).write_bytes(data)
    a, b = read_run(d), read_run(back)
    assert (a.stopped, a.stopped_over, a.problems) == (2, 1, [])
    assert (b.stopped, b.stopped_over, b.problems) == (a.stopped, a.stopped_over, a.problems)
    assert b.udp == a.udp and b.udp_window == a.udp_window and b.udp_missing == 0
    # a UDP flow cut off before its time stays a problem, there and back
    (d / "iperf-udp1.json").write_text(cut)
    files = archive._run_files(d)
    (back / "iperf-udp1.json").write_bytes(files["iperf-udp1.json"])
    assert read_run(d).problems == read_run(back).problems == [STOPPED]
