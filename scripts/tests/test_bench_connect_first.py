"""Connections that exist before the load (experiment long_connect,
run.Bench.connect_first): the long flows connect across a pfifo that drops
nothing, the qdisc under test goes on once every one has (or the phase's
time is up), and the run's time begins then. Issue 33: in BLUE's Figure 13
with the paper's hosts, RED at 50-200 flows left clients with 16-22 of
their 25 streams connected, their tests never begun."""

from __future__ import annotations

import json
import re
import time
from pathlib import Path

import pytest
from test_bench_window_goodputs import _flow, _write_run

from aqmtools.bench import run
from aqmtools.bench.experiment import load
from aqmtools.bench.run import connect_limit, connected_streams, established
from aqmtools.bench.stats import connect_words, read_run, run_times

LATE = "long flows not connected before the load"

BASE = """
name = "t"
rate = "10mbit"
duration = 60
warmup = 10
tuning_seeds = [1]
loads = [1.0]
clients = 2
servers = 2
rtt_ms = [1, 1]
workload = "long"
long_flows = 7
long_streams = 4
long_connect = 20

[[qdisc]]
name = "red"
spec = "red limit 60000 min 10000 max 40000 avpkt 1514 burst 10 bandwidth 10mbit"
"""

# ss -Htn state established: no state column, the peer fourth
SS = """0      0      10.1.1.2:40000 10.2.1.2:5201
0      0      10.1.1.2:40002 10.2.1.2:5201
0      0      [::ffff:10.1.1.2]:40003 [::ffff:10.2.1.2]:5201
0      0      10.1.1.2:22 10.9.9.9:51234
"""


def test_long_connect_is_read_and_checked() -> None:
    assert load(BASE).long_connect_s == 20.0
    assert load(BASE.replace("long_connect = 20", "")).long_connect_s == 0.0
    cases = [
        (("long_connect = 20", "long_connect = -1"), "0 (none) to 300"),
        (("long_connect = 20", "long_connect = 301"), "0 (none) to 300"),
        (('workload = "long"', 'workload = "web+long"'), "without udp_rate"),
        (("long_flows = 7", 'long_flows = 7\nudp_rate = "1mbit"'), "without udp_rate"),
        (("long_flows = 7", "long_flows = 7\nlong_steps = [[0, 3], [20, 7]]"), "long_steps"),
    ]
    for (old, new), msg in cases:
        with pytest.raises(ValueError, match=re.escape(msg)):
            load(BASE.replace(old, new))


def test_established_sockets_are_counted_by_peer_port() -> None:
    assert established(SS) == {5201: 3, 51234: 1}
    assert established("") == {}
    # the control connection is each port's first socket, not a stream
    assert connected_streams({5201: 5, 5202: 4}, {5201: 3, 5202: 4, 9: 2}) == 2 + 3
    assert connected_streams({5201: 5}, {5201: 9}) == 4
    assert connected_streams({5201: 5}, {}) == 0


class _Fake:
    """What connect_first runs, recorded: the Nth round of ss (one call a
    client namespace) answers from POLLS[N] (namespace -> established
    sockets by server port; the last again after the list ends), and the
    clock moves a second a sleep."""

    def __init__(self, polls: list[dict[str, dict[int, int]]], names: int) -> None:
        self.polls = polls
        self.names = names
        self.calls = 0
        self.now = 1000.0
        self.events: list[str] = []

    def sh(self, cmd: list[str], check: bool = True) -> str:
        assert cmd[:2] == ["ss", "-N"] and cmd[-3:] == ["-Htn", "state", "established"]
        poll = self.polls[min(len(self.polls) - 1, self.calls // self.names)]
        self.calls += 1
        if self.calls % self.names == 1:
            self.events.append("poll")
        return "\n".join(
            f"0 0 10.1.1.2:{40000 + i} 10.2.1.2:{port}"
            for port, n in poll.get(cmd[2], {}).items()
            for i in range(n)
        )

    def sleep(self, s: float) -> None:
        self.now += 1.0

    def run_all(self, cmds: list[list[str]], check: bool = True) -> None:
        self.events.append("qdisc " + " ".join(cmds[-1][cmds[-1].index("10:") + 1 :]))


def _bench(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path, polls: list[dict[str, dict[int, int]]]
) -> tuple[run.Bench, _Fake]:
    bench = run.Bench(load(BASE), tmp_path, tmp_path)
    fake = _Fake(polls, len(_ports(bench)))
    monkeypatch.setattr(run, "sh", fake.sh)
    monkeypatch.setattr(run, "run_all", fake.run_all)
    monkeypatch.setattr(time, "time", lambda: fake.now)
    monkeypatch.setattr(time, "sleep", fake.sleep)
    dumps = {
        "down": [
            {"handle": "10:", "kind": "prio", "qlen": 120},
            {"handle": "11:", "kind": "pfifo", "packets": 40, "drops": 0},
            {"handle": "12:", "kind": "pfifo", "packets": 900, "drops": 7},
        ],
        "up": [{"handle": "10:", "kind": "prio", "qlen": 3}],
    }
    monkeypatch.setattr(
        run, "tc_json", lambda name, dev: dumps["down" if name == bench.tb.right else "up"]
    )
    monkeypatch.setattr(bench, "start_aqmstat", lambda rundir: fake.events.append("aqmstat"))
    return bench, fake


def _ports(bench: run.Bench) -> dict[str, dict[int, int]]:
    """Each client namespace's server ports and the sockets each process
    has when connected (its streams and its control connection)."""
    want: dict[str, dict[int, int]] = {}
    sched = bench.exp.long_schedule(7)
    for f in bench.flows("tcp", 7):
        want.setdefault(bench.tb.clients[f.client].ns, {})[f.port] = sched[f.k][1] + 1
    return want


def test_the_qdisc_goes_on_once_every_flow_has_connected(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    bench0 = run.Bench(load(BASE), tmp_path, tmp_path)
    want = _ports(bench0)
    # 7 flows in 2 processes of 4 and 3 streams, on the 2 client hosts
    assert sorted(n for ports in want.values() for n in ports.values()) == [4, 5]
    half = {name: {p: 1 for p in ports} for name, ports in want.items()}
    polls = [{}, half, want]
    bench, fake = _bench(monkeypatch, tmp_path, polls)
    phase = bench.connect_first(7, 999.5, "red limit 60000", "", tmp_path)
    # three rounds of ss, then the qdisc under test, then the sampler
    assert fake.events == ["poll", "poll", "poll", "qdisc red limit 60000", "aqmstat"]
    assert phase == {
        "connect_s": 2.5,
        "connect_polled_s": 2.5,
        "connect_streams": 7,
        "connect_qlen": 123,
        "connect_bands": {"first": [40, 0], "data": [900, 7]},
    }


def test_the_qdisc_goes_on_at_the_phase_end_whatever_has_connected(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    bench0 = run.Bench(load(BASE), tmp_path, tmp_path)
    want = _ports(bench0)
    # every process but one stream of the first
    short = {name: dict(ports) for name, ports in want.items()}
    name, port = next((n, p) for n, ps in short.items() for p in ps)
    short[name][port] -= 1
    bench, fake = _bench(monkeypatch, tmp_path, [short])
    phase = bench.connect_first(7, 1000.0, "red limit 60000", "", tmp_path)
    # polled until long_connect (20 s) was up
    assert fake.events.count("poll") == 21 and fake.events[-2:] == [
        "qdisc red limit 60000",
        "aqmstat",
    ]
    assert phase["connect_s"] == 20.0 and phase["connect_streams"] == 6


def test_a_flow_not_connected_before_the_load_is_a_problem(tmp_path: Path) -> None:
    ok, late = tmp_path / "ok", tmp_path / "late"
    for d in (ok, late):
        _write_run(d, [_flow(1000, [125_000] * 8)], udp=False)
    for d, streams in ((ok, 1), (late, 0)):
        meta = json.loads((d / "run.json").read_text())
        meta.update(long_flows=1, long_connect_s=20, connect_s=1.5, connect_streams=streams)
        (d / "run.json").write_text(json.dumps(meta))
    assert LATE not in read_run(ok).problems
    assert LATE in read_run(late).problems
    # the qdisc went on after the phase's 20 s: the window outlasts the flows
    meta = json.loads((ok / "run.json").read_text())
    (ok / "run.json").write_text(json.dumps({**meta, "connect_s": 21.5}))
    assert read_run(ok).problems == ["connect phase past its time"]


def test_the_connect_phase_queue_lets_the_handshakes_first(tmp_path: Path) -> None:
    bench = run.Bench(load(BASE), tmp_path, tmp_path)
    # 50 ms of full-sized packets: 41 at 10 Mbit/s, 10 at least
    assert connect_limit(10_000_000) == 41 and connect_limit(100_000) == 10
    cmds = [" ".join(c) for c in run.testbed.connect_qdisc(bench.tb, 41)]
    for name, dev, _ in bench.tb.bottlenecks():
        mine = [c for c in cmds if f"-n {name} " in c and f" dev {dev} " in c]
        assert mine[0].endswith("parent 1:1 handle 10:") and " del " in mine[0]
        # every priority to the second band, the data's drop-tail queue
        assert mine[1].endswith("prio bands 2 priomap " + " ".join(["1"] * 16))
        assert mine[2].endswith("parent 10:1 handle 11: pfifo limit 10000")
        assert mine[3].endswith("parent 10:2 handle 12: pfifo limit 41")
        # the SYN flag (byte 33: 20 of IPv4, 13 into TCP), and tot_len < 128
        assert "match ip protocol 6 0xff match u8 2 2 at 33 flowid 10:1" in mine[4]
        assert mine[5].endswith("match u16 0 0xff80 at 2 flowid 10:1")
    assert len(cmds) == 6 * len(bench.tb.bottlenecks())


def test_headings_give_the_experiment_times_and_the_phase() -> None:
    meta = {"duration_s": 65.5, "warmup_s": 15.5, "connect_s": 5.5, "long_connect_s": 30}
    assert run_times(meta) == (60.0, 10.0)
    assert run_times({"duration_s": 60, "warmup_s": 10}) == (60.0, 10.0)
    other = {**meta, "connect_s": 12.25}
    assert connect_words([meta, other]) == (
        "the long flows connected first (handshakes ahead of the data), at most 30 s "
        "(they took 5.5-12.2 s)"
    )
    assert connect_words([{"duration_s": 60, "warmup_s": 10}]) == ""
