"""Flows that join in steps, an upstream qdisc of its own and the paper
hosts' window (issue 33, the RED-family paper's reproduction): the
experiment keys long_steps, up_spec and paper_window, the commands and
processes they make, what run.json records, and that every experiment
file without them reads and runs as before."""

from __future__ import annotations

import json
import time
from pathlib import Path
from typing import Any

import pytest

from aqmtools.bench import run, testbed
from aqmtools.bench.experiment import PAPER_WINDOW, load
from aqmtools.bench.run import IPERF_PORT
from aqmtools.repro import plan

EXPERIMENTS = Path(__file__).resolve().parents[2] / "scripts/bench/experiments"

LONG = """
name = "t"
rate = "10mbit"
duration = 300
warmup = 10
reporting_seeds = [101]
loads = [1.0]
ecn = [false]
clients = 8
servers = 2
rtt_ms = [80, 80]
workload = "long"
long_flows = 99
[[qdisc]]
name = "red"
spec = "ared limit {200ms} min {40ms} max {120ms}"
"""
STEPS = "long_steps = [[0, 17], [50, 33], [100, 50], [150, 66], [200, 83], [250, 99]]"


def _with(extra: str, text: str = LONG) -> str:
    """TEXT with EXTRA among its top-level keys."""
    return text.replace("[[qdisc]]", extra + "\n[[qdisc]]", 1)


# --- long_steps ---------------------------------------------------------------


def test_steps_start_each_steps_processes_at_its_second() -> None:
    exp = load(_with(STEPS + "\nlong_streams = 9"))
    seconds = [0.0, 50.0, 100.0, 150.0, 200.0, 250.0]
    assert exp.long_steps == list(zip(seconds, [17, 33, 50, 66, 83, 99], strict=True))
    schedule = exp.long_schedule(99)
    # 17 flows: 9 and 8; 16: 8 and 8
    assert [s for _, s in schedule] == [9, 8, 8, 8, 9, 8, 8, 8, 9, 8, 8, 8]
    assert [t for t, _ in schedule] == [t for t in seconds for _ in range(2)]
    assert sum(s for _, s in schedule) == 99


def test_without_steps_the_schedule_is_every_process_at_once() -> None:
    exp = load(_with("long_streams = 12"))
    assert exp.long_steps == []
    assert exp.long_schedule(99) == [(0.0, s) for s in exp.long_processes(99)]
    assert load(LONG).long_schedule(3) == [(0.0, 1)] * 3


@pytest.mark.parametrize(
    "steps",
    [
        "long_steps = [[5, 17], [50, 99]]",
        "long_steps = [[0, 17], [50, 98]]",
        "long_steps = [[0, 50], [50, 33], [100, 99]]",
        "long_steps = [[0, 17], [50, 33], [50, 99]]",
        "long_steps = [[0, 17], [300, 99]]",
        "long_steps = [[0, 0], [50, 99]]",
        "long_steps = [[0, 17, 1], [50, 99]]",
        "long_steps = [[0, 17.5], [50, 99]]",
        'long_steps = [[0, "17"], [50, 99]]',
        "long_steps = [[true, 17], [50, 99]]",
        "long_steps = [17, 99]",
        "long_steps = [[0, 99]]\nlong_flows_by_load = true",
    ],
)
def test_bad_steps_are_refused(steps: str) -> None:
    with pytest.raises(ValueError):
        load(_with(steps))


def test_steps_need_long_flows() -> None:
    web = LONG.replace('"long"', '"web"').replace("long_flows = 99\n", "")
    with pytest.raises(ValueError, match="long_steps"):
        load(_with("long_steps = [[0, 1]]", web))


def _spawned(monkeypatch: pytest.MonkeyPatch, tmp_path: Path, text: str) -> list[list[str]]:
    bench = run.Bench(load(text), tmp_path, tmp_path)
    spawned: list[list[str]] = []
    monkeypatch.setattr(bench, "spawn", lambda c, stdout=None, stderr=None: spawned.append(c))
    monkeypatch.setattr(time, "sleep", lambda s: None)
    bench.start_long(300.0, tmp_path, 101)
    return [c for c in spawned if "-c" in c]


def test_start_long_starts_each_step_at_its_second(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    exp = load(_with(STEPS + "\nlong_streams = 9"))
    clients = _spawned(monkeypatch, tmp_path, _with(STEPS + "\nlong_streams = 9"))
    assert len(clients) == 12
    offsets = exp.long_starts_s(101)
    for k, c in enumerate(clients):
        # ip netns exec NS sh -c 'sleep START; exec "$@"' sh iperf3 ...
        start = float(c[6].split()[1].rstrip(";"))
        step = exp.long_schedule(99)[k][0]
        assert start == pytest.approx(step + offsets[k])
        assert c[c.index("-t") + 1] == f"{300.0 - start:g}"
        assert c[c.index("-p") + 1] == str(IPERF_PORT + k)
    streams = [int(c[c.index("-P") + 1]) for c in clients]
    assert streams == [s for _, s in exp.long_schedule(99)]
    # the last step's processes run its 50 s less their offsets
    assert 49.0 < float(clients[-1][clients[-1].index("-t") + 1]) <= 50.0


def test_start_long_without_steps_is_unchanged(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    text = _with("long_streams = 12")
    clients = _spawned(monkeypatch, tmp_path, text)
    offsets = load(text).long_starts_s(101)[:9]
    # 99 flows, 12 at most to a process: 9 processes, each at its offset
    assert [c[6] for c in clients] == [f'sleep {x:g}; exec "$@"' for x in offsets]
    assert [c[c.index("-t") + 1] for c in clients] == [f"{300.0 - x:g}" for x in offsets]


def test_the_plan_names_the_steps() -> None:
    exp = load(_with(STEPS))
    assert plan._loads(exp) == (
        "100% (long flows in steps: 17 at 0 s, 33 at 50 s, 50 at 100 s, 66 at 150 s, "
        "83 at 200 s, 99 at 250 s)"
    )
    assert plan._loads(load(LONG)) == "100%"


# --- up_spec ------------------------------------------------------------------

NETEM = LONG.replace(
    'spec = "ared limit {200ms} min {40ms} max {120ms}"',
    'spec = "netem limit 100000 loss random 1%"\n'
    'ecn_spec = "netem limit 100000 loss random 1% ecn"\n'
    'up_spec = "pfifo limit {1200ms}"',
)


def test_up_spec_puts_its_own_qdisc_upstream() -> None:
    exp = load(NETEM)
    q = exp.qdiscs[0]
    assert q.up_spec_for(True, exp.rate_bps) == "pfifo limit 991"
    assert q.up_spec_for(False) == "pfifo limit {1200ms}"
    tb = testbed.make(exp, "wbT")
    cmds = [" ".join(c) for c in testbed.set_qdisc(tb, q.spec_for(True), "pfifo limit 991")]
    assert cmds == [
        "tc -n wbT-rr qdisc del dev br0 parent 1:1 handle 10:",
        "tc -n wbT-rr qdisc add dev br0 parent 1:1 handle 10: netem limit 100000 loss random 1% "
        "ecn",
        "tc -n wbT-rl qdisc del dev bl0 parent 1:1 handle 10:",
        "tc -n wbT-rl qdisc add dev bl0 parent 1:1 handle 10: pfifo limit 991",
    ]
    # without one, the same words both ways, as before
    plain = load(LONG).qdiscs[0]
    assert plain.up_spec == "" and plain.up_spec_for(False, 10_000_000) == plain.spec_for(
        False, 10_000_000
    )
    both = [" ".join(c) for c in testbed.set_qdisc(tb, "pfifo limit 5")]
    assert both == [" ".join(c) for c in testbed.set_qdisc(tb, "pfifo limit 5", "")]
    assert sum(c.endswith("handle 10: pfifo limit 5") for c in both) == 2


def test_a_bad_up_spec_is_refused() -> None:
    with pytest.raises(ValueError):
        load(NETEM.replace("{1200ms}", "{1200 ms}"))
    with pytest.raises(ValueError):
        load(NETEM.replace('up_spec = "pfifo limit {1200ms}"', "up_spec = 5"))


class _Recorder:
    """What Bench.one runs, without a testbed: the commands, and tc's
    answers (an empty leaf)."""

    def __init__(self) -> None:
        self.cmds: list[str] = []

    def sh(self, cmd: list[str], check: bool = True) -> str:
        self.cmds.append(" ".join(cmd))
        if "-j" in cmd:
            return json.dumps([{"kind": "x", "handle": "10:", "packets": 0, "drops": 0}])
        return ""


def _one(monkeypatch: pytest.MonkeyPatch, tmp_path: Path, text: str) -> tuple[Any, list[str]]:
    rec = _Recorder()
    monkeypatch.setattr(run, "sh", rec.sh)
    monkeypatch.setattr(time, "sleep", lambda s: None)
    exp = load(text)
    bench = run.Bench(exp, tmp_path, tmp_path)
    for name in ("start_aqmstat", "stop_aqmstat", "start_servers", "start_long", "wait_quiet"):
        monkeypatch.setattr(bench, name, lambda *a, **k: None)
    monkeypatch.setattr(bench, "wait_all", lambda timeout: [])
    meta = bench.one(exp.qdiscs[0], 1.0, exp.ecn[0], 101, 0.0)
    return meta, rec.cmds


def test_run_json_records_the_upstream_qdisc_and_the_steps(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    meta, cmds = _one(monkeypatch, tmp_path / "a", NETEM)
    assert meta["up_spec"] == "pfifo limit 991" and "long_steps" not in meta
    assert meta["spec"] == "netem limit 100000 loss random 1%"
    assert any(c.endswith("dev bl0 parent 1:1 handle 10: pfifo limit 991") for c in cmds)
    down = "dev br0 parent 1:1 handle 10: netem limit 100000 loss random 1%"
    assert any(c.endswith(down) for c in cmds)
    saved = json.loads((tmp_path / "a" / "red-load100-ecn0-s101" / "run.json").read_text())
    assert saved["up_spec"] == "pfifo limit 991"
    meta, _ = _one(monkeypatch, tmp_path / "b", _with(STEPS))
    steps = [[0.0, 17], [50.0, 33], [100.0, 50], [150.0, 66], [200.0, 83], [250.0, 99]]
    assert meta["long_steps"] == steps and "up_spec" not in meta
    # without either, run.json has the keys it always had
    meta, _ = _one(monkeypatch, tmp_path / "c", LONG)
    assert "up_spec" not in meta and "long_steps" not in meta


# --- paper_window ---------------------------------------------------------------

PAPER = _with('hosts = "paper"')


def test_the_paper_hosts_window_clamp_may_change_or_go() -> None:
    assert load(PAPER).paper_window == PAPER_WINDOW == testbed.PAPER_WINDOW
    route = " window 16384 initcwnd 2 rto_min 1000ms"
    assert testbed.host_profile(load(PAPER))[1] == route
    none = load(_with("paper_window = 0", PAPER))
    assert testbed.host_profile(none)[1] == " initcwnd 2 rto_min 1000ms"
    wide = load(_with("paper_window = 65535", PAPER))
    assert testbed.host_profile(wide)[1] == " window 65535 initcwnd 2 rto_min 1000ms"
    tb = testbed.make(none, "wbT")
    cmds = [" ".join(c) for c in testbed.setup(tb, none, ecn=False)]
    routes = [c for c in cmds if "route add default" in c]
    assert len(routes) == 10
    assert all(c.endswith(" initcwnd 2 rto_min 1000ms") and "window" not in c for c in routes)


@pytest.mark.parametrize(
    "text",
    [
        _with("paper_window = 0"),
        _with("paper_window = 100", PAPER),
        _with("paper_window = -1", PAPER),
        _with("paper_window = true", PAPER),
    ],
)
def test_a_bad_paper_window_is_refused(text: str) -> None:
    with pytest.raises(ValueError):
        load(text)


# --- every other experiment file, as before ---------------------------------------


def test_the_other_experiment_files_have_none_of_the_new_keys() -> None:
    """The files from before these keys: no steps (every process at second
    0, as long_processes had them), no upstream qdisc of their own, and the
    paper hosts' 16 KB window."""
    for f in sorted(EXPERIMENTS.glob("*.toml")):
        if f.stem.startswith("repro-queuelaw-"):
            continue
        exp = load(f.read_text())
        assert exp.long_steps == [] and exp.paper_window == PAPER_WINDOW, f.name
        assert all(q.up_spec == "" for q in exp.qdiscs), f.name
        n = exp.long_flows
        assert exp.long_schedule(n) == [(0.0, s) for s in exp.long_processes(n)], f.name
        for q in exp.qdiscs:
            for e in exp.ecn:
                rate = exp.rate_of(q)
                assert q.up_spec_for(e, rate) == q.spec_for(e, rate), f.name
        if exp.hosts == "paper":
            assert " window 16384 " in testbed.host_profile(exp)[1], f.name
