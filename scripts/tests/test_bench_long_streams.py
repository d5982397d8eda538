"""Many long flows (issue 33, the BLUE paper's reproduction): several TCP
flows to an iperf3 process (long_streams), the number of flows set by the
load (long_flows_by_load), the goodput of each stream, the UDP flows'
losses over the measured window, the plan's time for longer runs and the
page's summary of aqmstat records."""

from __future__ import annotations

import json
import signal
import sys
import time
from pathlib import Path

import pytest

from aqmtools.bench import run
from aqmtools.bench.experiment import load
from aqmtools.bench.run import IPERF_PORT
from aqmtools.bench.stats import (
    Run,
    iperf_goodputs,
    iperf_unconnected,
    read_run,
    udp_whole_test,
    udp_window_counts,
)
from aqmtools.repro import page, plan

LONG = """
name = "t"
rate = "10mbit"
duration = 60
warmup = 10
reporting_seeds = [101]
loads = [1.0]
ecn = [true]
clients = 8
servers = 2
rtt_ms = [60, 60]
workload = "long"
long_flows = 89
[[qdisc]]
name = "blue"
spec = "blue"
"""


def _with(extra: str, text: str = LONG) -> str:
    return text.replace("long_flows = 89", "long_flows = 89\n" + extra)


# --- the keys -----------------------------------------------------------------


def test_defaults_keep_one_flow_a_process_and_every_flow_at_every_load() -> None:
    exp = load(LONG)
    assert (exp.long_streams, exp.long_flows_by_load) == (1, False)
    assert exp.long_processes(89) == [1] * 89
    assert exp.long_flows_at(0.5) == exp.long_flows_at(1.0) == 89


def test_streams_spread_the_flows_evenly_over_as_few_processes_as_allowed() -> None:
    exp = load(_with("long_streams = 12"))
    assert exp.long_processes(89) == [12] + [11] * 7
    assert sum(exp.long_processes(356)) == 356 and len(exp.long_processes(356)) == 30
    assert max(exp.long_processes(356)) <= 12
    assert exp.long_processes(12) == [12] and exp.long_processes(0) == []


def test_the_load_sets_the_number_of_flows_when_asked() -> None:
    text = _with("long_flows_by_load = true").replace("long_flows = 89", "long_flows = 200")
    exp = load(text.replace("loads = [1.0]", "loads = [0.1, 0.25, 1.0]"))
    assert [exp.long_flows_at(x) for x in exp.loads] == [20, 50, 200]
    assert exp.long_flows_at(0.001) == 1


@pytest.mark.parametrize(
    "extra",
    [
        "long_streams = 0",
        "long_streams = 129",
        "long_streams = true",
        "long_streams = 2.5",
        'long_flows_by_load = "yes"',
        'long_flows_by_load = true\nudp_rate = "share:2"',
    ],
)
def test_bad_keys_are_refused(extra: str) -> None:
    with pytest.raises(ValueError):
        load(_with(extra))


def test_the_load_sets_flows_only_of_a_long_workload() -> None:
    web = _with("long_flows_by_load = true").replace('"long"', '"web+long"')
    with pytest.raises(ValueError, match="long_flows_by_load"):
        load(web)


# --- where the processes run --------------------------------------------------


def _bench(tmp_path: Path, text: str) -> run.Bench:
    return run.Bench(load(text), tmp_path, tmp_path)


def test_start_long_runs_several_streams_a_process(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    bench = _bench(tmp_path, _with("long_streams = 12"))
    spawned: list[tuple[list[str], Path | None]] = []
    monkeypatch.setattr(
        bench, "spawn", lambda c, stdout=None, stderr=None: spawned.append((c, stdout))
    )
    monkeypatch.setattr(time, "sleep", lambda s: None)
    monkeypatch.setattr(bench, "wait_listening", lambda fs: None)
    bench.start_servers()
    bench.start_long(60.0, tmp_path, 101)
    servers = [c for c, _ in spawned if "-s" in c]
    clients = [(c, out) for c, out in spawned if "-c" in c]
    assert len(servers) == len(clients) == 8
    streams = [int(c[c.index("-P") + 1]) if "-P" in c else 1 for c, _ in clients]
    assert streams == [12] + [11] * 7
    ports = [c[c.index("-p") + 1] for c, _ in clients]
    assert ports == [str(IPERF_PORT + k) for k in range(8)]
    assert [out for _, out in clients] == [tmp_path / f"iperf-tcp{k}.json" for k in range(8)]
    # a run of 20 flows (the load's share): two processes
    spawned.clear()
    bench.start_long(60.0, tmp_path, 101, 20)
    assert [c[c.index("-P") + 1] for c, _ in spawned if "-c" in c] == ["10", "10"]


def test_one_stream_a_process_runs_as_it_always_did(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    bench = _bench(tmp_path, LONG.replace("long_flows = 89", "long_flows = 3"))
    spawned: list[list[str]] = []
    monkeypatch.setattr(bench, "spawn", lambda c, stdout=None, stderr=None: spawned.append(c))
    monkeypatch.setattr(time, "sleep", lambda s: None)
    bench.start_long(60.0, tmp_path, 101)
    clients = [c for c in spawned if "-c" in c]
    assert len(clients) == 3 and not any("-P" in c for c in clients)


def test_udp_flows_are_numbered_after_the_processes(tmp_path: Path) -> None:
    bench = _bench(tmp_path, _with('long_streams = 12\nudp_rate = "1mbit"\nudp_flows = 2'))
    udp = bench.flows("udp")
    assert [f.k for f in udp] == [8, 9] and [f.port for f in udp] == [IPERF_PORT + 8, 5210]
    assert [f.k for f in bench.flows("udp", 20)] == [2, 3]
    # without long_streams, after every flow, as before
    plain = _bench(tmp_path, _with('udp_rate = "1mbit"'))
    assert [f.k for f in plain.flows("udp")] == [89]


# --- the results ----------------------------------------------------------------


def _streams(*bps: float) -> str:
    streams = [{"receiver": {"bits_per_second": b}, "sender": {"bits_per_second": b}} for b in bps]
    return json.dumps({"end": {"streams": streams, "sum_received": {"bits_per_second": sum(bps)}}})


def test_goodputs_are_per_stream_in_a_file_of_several() -> None:
    assert iperf_goodputs([_streams(1e5, 2e5, 3e5)]) == [1e5, 2e5, 3e5]
    # a file of one stream: its sum, as always
    one = json.dumps(
        {
            "end": {
                "streams": [{"receiver": {"bits_per_second": 1.0}}],
                "sum_received": {"bits_per_second": 2.0},
            }
        }
    )
    assert iperf_goodputs([one, _streams(5.0, 6.0)]) == [2.0, 5.0, 6.0]
    with pytest.raises(ValueError):
        iperf_goodputs([json.dumps({"end": {"streams": [{}, {}]}})])


# iperf3 3.12's own outputs of a flow that never connected: refused, and
# stopped (SIGTERM) while it waited on the server (an end of zeros)
_REFUSED = {
    "start": {"connected": [], "version": "iperf 3.12"},
    "intervals": [],
    "end": {},
    "error": "unable to connect to server: Connection refused",
}
_ZEROS = {"start": 0, "end": 0, "seconds": 0, "bytes": 0, "bits_per_second": 0}
_STOPPED = {
    "start": {"connected": [], "version": "iperf 3.12"},
    "intervals": [],
    "end": {"streams": [], "sum_sent": _ZEROS, "sum_received": _ZEROS},
    "error": "interrupt - the client has terminated",
}


def _cut(*streams: list[tuple[int, float]]) -> str:
    """iperf3 output of a connected flow of STREAMS, each its (bytes,
    seconds) a second, without an end result."""
    intervals = [
        {
            "streams": [{"bytes": s[i][0], "seconds": s[i][1]} for s in streams],
            "sum": {
                "bytes": sum(s[i][0] for s in streams),
                "seconds": streams[0][i][1],
            },
        }
        for i in range(len(streams[0]))
    ]
    start = {"connected": [{"socket": 5 + k} for k in range(len(streams))]}
    return json.dumps({"start": start, "intervals": intervals, "error": "interrupt"})


def test_goodputs_of_flows_without_an_end_result() -> None:
    # killed before it wrote anything: unknown
    assert iperf_goodputs(["", " \n"]) == [None, None]
    # never connected: it got nothing, one flow whatever its -P
    never = [json.dumps(_REFUSED), json.dumps(_STOPPED), json.dumps({"error": "x"})]
    assert iperf_goodputs(never) == [0.0, 0.0, 0.0]
    assert iperf_unconnected([*never, "", _streams(1.0, 2.0)]) == 3
    # connected, its intervals' bytes over their seconds: 3 MB in 2.5 s
    one = _cut([(1_000_000, 1.0), (2_000_000, 1.5)])
    assert iperf_goodputs([one]) == [pytest.approx(9.6e6)]
    # of several streams, one rate a stream
    two = _cut([(100, 1.0), (300, 1.0)], [(50, 1.0), (50, 1.0)])
    assert iperf_goodputs([two]) == [pytest.approx(1600.0), pytest.approx(400.0)]
    # connected, stopped before its first interval (an end of no time)
    early = {**_STOPPED, "start": {"connected": [{"socket": 5}]}}
    assert iperf_goodputs([json.dumps(early)]) == [None]
    assert iperf_unconnected([one, json.dumps(early)]) == 0
    # a normal result as before, beside them
    assert iperf_goodputs(["", _streams(5.0, 6.0), one]) == [None, 5.0, 6.0, pytest.approx(9.6e6)]


@pytest.mark.parametrize("text", ['{"start": {"connec', "garbage", "[1, 2]", '"x"'])
def test_goodputs_of_what_holds_no_iperf3_object_are_unknown(text: str) -> None:
    # kept, its flow unknown: the run counts it missing (stats.Run.problems)
    assert iperf_goodputs([text]) == [None]
    cut = '{\n\t"start":\t{\n\t\t"test_start":\t{\n\t\t\t"num_streams":\t3,\n\t\t\t"dur'
    assert iperf_goodputs([cut]) == [None, None, None]


def test_goodputs_refuse_intervals_without_bytes() -> None:
    bad = json.dumps({"start": {"connected": [{}]}, "intervals": [{"sum": {}}]})
    with pytest.raises(ValueError, match="intervals"):
        iperf_goodputs([bad])


def _udp_json(per_s: list[tuple[int, int]], connected: bool = True) -> str:
    intervals = [
        {"streams": [{"start": float(i), "end": i + 1.0, "packets": p, "lost_packets": lost}]}
        for i, (p, lost) in enumerate(per_s)
    ]
    start = {"connected": [{"socket": 5}] if connected else []}
    total = {
        "packets": sum(p for p, _ in per_s),
        "lost_packets": sum(x for _, x in per_s),
        "seconds": float(len(per_s)),
    }
    return json.dumps({"start": start, "intervals": intervals, "end": {"sum": total}})


def test_udp_losses_are_counted_over_the_window() -> None:
    text = _udp_json([(100, 50)] * 3 + [(100, 10)] * 4)
    # the intervals [3, 4) .. [5, 6) lie in [3, 6]
    assert udp_window_counts([text], 3.0, 6.0) == [(300, 30, 3.0)]
    assert udp_window_counts([text], 0.0, 100.0) == [(700, 190, 7.0)]
    # a flow that never started is left out
    assert udp_window_counts([_udp_json([], connected=False), text], 0.0, 1.0) == [(100, 50, 1.0)]


def test_a_gap_that_began_before_the_window_is_not_counted_in_it() -> None:
    # 100 datagrams a second for 10 s; nothing arrived from 3 s to 7 s, and
    # the receiver learnt of the 499 lost only at 7 s, when one arrived
    text = _udp_json([(100, 0)] * 3 + [(0, 0)] * 4 + [(500, 499)] + [(100, 0)] * 2)
    # in [5, 10] 500 were sent (the whole test's rate) and 201 received;
    # the receiver's own intervals would say 700 sent and 499 lost
    assert udp_window_counts([text], 5.0, 10.0) == [(500, 299, 5.0)]


def test_udp_flows_archived_without_intervals_count_their_whole_test() -> None:
    windowed = _udp_json([(100, 50)] * 3)
    # as archives of before 2026-11-28 kept them: the end only
    whole = json.dumps({"end": json.loads(windowed)["end"]})
    assert udp_window_counts([windowed, whole], 1.0, 2.0) == [(100, 50, 1.0), (300, 150, 3.0)]
    assert udp_whole_test([windowed, whole, _udp_json([], connected=False)]) == 1


def test_read_run_keeps_the_windows_udp_counts(tmp_path: Path) -> None:
    meta = {"duration_s": 4.0, "warmup_s": 2.0, "rate_bps": 10_000_000}
    (tmp_path / "run.json").write_text(json.dumps(meta))
    leaf = {"kind": "sfb", "handle": "10:", "packets": 0, "bytes": 0, "drops": 0}
    (tmp_path / "tc-before.json").write_text(json.dumps({"down": [leaf]}))
    after = {**leaf, "packets": 1000, "bytes": 1_500_000, "drops": 40}
    (tmp_path / "tc-after.json").write_text(json.dumps({"down": [after]}))
    (tmp_path / "iperf-tcp0.json").write_text(_streams(1e6, 2e6))
    (tmp_path / "iperf-udp1.json").write_text(_udp_json([(100, 90)] * 4))
    r = read_run(tmp_path)
    assert r.goodputs == [1e6, 2e6] and r.udp_window == [(200, 180, 2.0)]


def test_read_run_counts_the_tcp_flows_without_a_result(tmp_path: Path) -> None:
    meta = {"duration_s": 4.0, "warmup_s": 2.0, "rate_bps": 10_000_000}
    (tmp_path / "run.json").write_text(json.dumps(meta))
    leaf = {"kind": "sfb", "handle": "10:", "packets": 0, "bytes": 0, "drops": 0}
    (tmp_path / "tc-before.json").write_text(json.dumps({"down": [leaf]}))
    # the bottleneck sent 10 Mbit/s (the flows' 6 Mbit/s in all below fit
    # in it: stats.GOODPUT_OVER_LINK)
    sent = {**leaf, "packets": 3400, "bytes": 5_000_000}
    (tmp_path / "tc-after.json").write_text(json.dumps({"down": [sent]}))
    (tmp_path / "iperf-tcp0.json").write_text(_streams(1e6, 2e6))
    (tmp_path / "iperf-tcp1.json").write_text("")
    r = read_run(tmp_path)
    assert r.goodputs == [1e6, 2e6] and (r.tcp_missing, r.tcp_unconnected) == (1, 0)
    assert r.problems == ["TCP flow without a result"]
    # a flow that never connected counts 0 and is said
    (tmp_path / "iperf-tcp2.json").write_text(json.dumps(_STOPPED))
    r = read_run(tmp_path)
    assert r.goodputs == [1e6, 2e6, 0.0] and (r.tcp_missing, r.tcp_unconnected) == (1, 1)
    # (the run stopped it while it connected: its error says so)
    stopped = "process stopped at the run's end"
    assert r.problems == ["TCP flow without a result", "TCP flow never connected", stopped]
    (tmp_path / "iperf-tcp1.json").write_text(_streams(3e6))
    assert read_run(tmp_path).problems == ["TCP flow never connected", stopped]


# --- stopping the run's processes -------------------------------------------------

# sleeps, and on SIGTERM says so and exits (iperf3 writes its results)
_POLITE = (
    "import signal, sys, time\n"
    "def term(n, f):\n"
    "    print('term', flush=True)\n"
    "    sys.exit(0)\n"
    "signal.signal(signal.SIGTERM, term)\n"
    "print('ready', flush=True)\n"
    "time.sleep(30)\n"
)
# sleeps through SIGTERM
_DEAF = (
    "import signal, time\n"
    "signal.signal(signal.SIGTERM, signal.SIG_IGN)\n"
    "print('ready', flush=True)\n"
    "time.sleep(30)\n"
)


def _ready(path: Path) -> None:
    deadline = time.monotonic() + 10
    while "ready" not in path.read_text() and time.monotonic() < deadline:
        time.sleep(0.02)


def test_wait_all_terminates_before_it_kills(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    bench = _bench(tmp_path, LONG)
    monkeypatch.setattr(run, "TERM_GRACE_S", 0.5)
    polite, deaf = tmp_path / "polite.out", tmp_path / "deaf.out"
    bench.spawn([sys.executable, "-c", "pass"])
    bench.spawn([sys.executable, "-c", _POLITE], stdout=polite)
    bench.spawn([sys.executable, "-c", _DEAF], stdout=deaf)
    _ready(polite)
    _ready(deaf)
    t0 = time.monotonic()
    codes = bench.wait_all(0.5)
    # the one that heard SIGTERM wrote and exited; the deaf one was killed
    assert polite.read_text() == "ready\nterm\n"
    assert codes == [0, 0, -signal.SIGKILL] and bench.procs == []
    assert time.monotonic() - t0 < 10


def test_wait_all_leaves_what_ends_in_time_alone(tmp_path: Path) -> None:
    bench = _bench(tmp_path, LONG)
    bench.spawn([sys.executable, "-c", "import sys; sys.exit(3)"])
    assert bench.wait_all(10) == [3]


# --- the plan and the page ------------------------------------------------------


def test_a_longer_run_takes_its_extra_seconds_and_long_flows_no_calibration(
    tmp_path: Path,
) -> None:
    assert plan.run_s(load(LONG)) == plan.RUN_S
    longer = load(LONG.replace("duration = 60", "duration = 100"))
    assert plan.run_s(longer) == plan.RUN_S + 40
    file = plan.EXPERIMENTS / "repro-sfb-table3-4pct-paper.toml"
    lines, seconds = plan.describe_file(file, tmp_path / "x", [101])
    # five runs of 117 s, and no calibration for a long workload
    assert seconds == 5 * 117 and "calibration" not in " ".join(lines)
    assert "a load: with ECN sfb, sfred, red, sfq-red, sfb-linux" in lines[1]
    fig13 = plan.EXPERIMENTS / "repro-blue-fig13-paper.toml"
    lines, _ = plan.describe_file(fig13, tmp_path / "y", [101])
    assert "loads 10% (20 long flows), 25% (50 long flows)" in lines[1]


def test_read_folder_keeps_a_summary_of_the_records(tmp_path: Path) -> None:
    d = tmp_path / "blue-load100-ecn1-s101"
    d.mkdir()
    meta = {"qdisc": "blue", "load": 1.0, "ecn": True, "seed": 101, "seed_set": "reporting"}
    meta |= {"duration_s": 4.0, "warmup_s": 0.0, "rate_bps": 10_000_000, "start_wall": 0.0}
    (d / "run.json").write_text(json.dumps(meta))
    leaf = {"kind": "blue", "handle": "10:", "packets": 0, "bytes": 0, "drops": 0}
    for name in ("tc-before.json", "tc-after.json"):
        (d / name).write_text(json.dumps({"down": [leaf]}))
    records = [
        {"wall": float(t), "p_m": 0.5, "packets": 0, "bytes": 0, "drops": 0} for t in range(5)
    ]
    (d / "aqmstat-down.jsonl").write_text("".join(json.dumps(x) + "\n" for x in records))
    seen: list[int] = []

    def summary(r: Run) -> dict[str, float]:
        seen.append(len(r.samples))
        return {"n": float(len(r.samples))}

    f = page.read_folder(tmp_path, summary)
    assert seen == [5] and f.runs[0].meta[page.SUMMARY] == {"n": 5.0}
    # the records themselves are dropped, as before
    assert f.runs[0].samples == []
    assert page.SUMMARY not in page.read_folder(tmp_path).runs[0].meta
