"""The run's start line (aqmtools.bench.gate and run.Bench.start_workload):
processes spawned one by one start together when released, the UDP flows
UDP_HANDSHAKE_S before the rest, whatever the spawning took."""

from __future__ import annotations

import json
import subprocess
import time
from pathlib import Path
from typing import Any

import pytest

from aqmtools.bench import run
from aqmtools.bench.experiment import load
from aqmtools.bench.gate import Gate
from aqmtools.bench.run import UDP_HANDSHAKE_S, listening_ports
from aqmtools.bench.stats import last_connect_s

BASE = """
name = "t"
rate = "10mbit"
duration = 60
warmup = 10
tuning_seeds = [1]
loads = [1.0]
clients = 8
servers = 2
rtt_ms = [10, 150]
rtt_classes_ms = [10, 50, 100, 150]
workload = "long"
long_flows = 3
udp_flows = 2
udp_rate = "share:2"

[[qdisc]]
name = "afd"
spec = "afd"
"""


def _stamp(path: Path) -> list[str]:
    return ["sh", "-c", f"date +%s.%N > {path}"]


def test_held_processes_start_together_at_the_release(tmp_path: Path) -> None:
    gate = Gate()
    files = [tmp_path / f"p{i}" for i in range(3)]
    delays = [0.0, 0.0, 0.5]
    procs = []
    for f, d in zip(files, delays, strict=True):
        procs.append(subprocess.Popen(gate.wrap(_stamp(f), d), stdin=gate.fileno()))
        # spawned well apart, as the VM spawns them
        time.sleep(0.2)
    assert gate.wait_ready(10.0) == 3 == gate.held
    time.sleep(0.3)
    assert not any(f.exists() for f in files), "a held process ran before the release"
    released = time.time()
    gate.release()
    for p in procs:
        assert p.wait(10) == 0
    at = [float(f.read_text()) for f in files]
    # the first two within a fraction of a second of the release, not of
    # their spawning (0.2 s apart); the third its half second later
    assert all(released <= t < released + 0.4 for t in at[:2])
    assert released + 0.5 <= at[2] < released + 1.0


def test_a_process_that_never_reaches_the_line_is_counted(tmp_path: Path) -> None:
    gate = Gate()
    ok = subprocess.Popen(gate.wrap(_stamp(tmp_path / "ok")), stdin=gate.fileno())
    # one that dies before the line (its wrapper never runs)
    dead = subprocess.Popen(["false"], stdin=gate.fileno())
    gate.held += 1
    assert gate.wait_ready(1.0) == 1
    gate.release()
    assert ok.wait(10) == 0 and dead.wait(10) == 1
    assert (tmp_path / "ok").exists()


def test_an_unheld_command_waits_its_delay_after_its_spawn() -> None:
    bench = run.Bench(load(BASE), Path("/nonexistent"), Path("/nonexistent"))
    assert bench.held(["iperf3"]) == ["iperf3"]
    assert bench.held(["iperf3"], 0.25) == ["sh", "-c", 'sleep 0.25; exec "$@"', "sh", "iperf3"]


def test_listening_ports_of_ss() -> None:
    out = (
        "LISTEN 0      4096         0.0.0.0:8080       0.0.0.0:*\n"
        "LISTEN 0      5                  *:5201             *:*\n"
        "LISTEN 0      5               [::]:5240          [::]:*\n"
    )
    assert listening_ports(out) == {8080, 5201, 5240}
    assert listening_ports("") == set()


def test_workload_is_spawned_held_and_released_in_order(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    exp = load(BASE)
    bench = run.Bench(exp, tmp_path, tmp_path)
    events: list[tuple[str, Any]] = []

    def spawn(cmd: list[str], stdout: Path | None = None, stderr: Path | None = None) -> None:
        events.append(("spawn", (cmd, id(bench.gate) if bench.gate else None)))

    def release(self: Gate) -> None:
        events.append(("release", id(self)))

    monkeypatch.setattr(bench, "spawn", spawn)
    monkeypatch.setattr(bench, "wait_listening", lambda fs: events.append(("listen", len(fs))))
    monkeypatch.setattr(Gate, "wait_ready", lambda self, t: self.held)
    monkeypatch.setattr(Gate, "release", release)
    monkeypatch.setattr(time, "sleep", lambda s: events.append(("sleep", s)))
    start = bench.start_workload(60.0, 0, 101, tmp_path, 3)
    assert start["start_held"] == start["start_ready"] == 5
    kinds = [e for e, _ in events]
    # the 5 servers, unheld, all listening before any client is spawned
    assert kinds[:6] == ["spawn"] * 5 + ["listen"]
    assert all(gate is None for e, (c, gate) in events[:5] if e == "spawn")
    clients = [v for e, v in events[6:] if e == "spawn"]
    udp = [(c, g) for c, g in clients if "-u" in c]
    tcp = [(c, g) for c, g in clients if "-u" not in c]
    assert len(udp) == 2 and len(tcp) == 3
    first, rest = {g for _, g in udp}, {g for _, g in tcp}
    assert len(first) == len(rest) == 1 and first != rest
    # the UDP flows' gate, their handshake's time, then the rest's
    tail = [(e, v) for e, v in events if e != "spawn"][1:]
    assert tail == [("release", *first), ("sleep", UDP_HANDSHAKE_S), ("release", *rest)]
    offsets = exp.long_starts_s(101)
    for k, (c, _) in enumerate(tcp):
        # held in the client's namespace: ip netns exec NS sh -c SCRIPT sh iperf3 ...
        assert c[:3] == ["ip", "netns", "exec"] and c[4:6] == ["sh", "-c"]
        assert f"sleep {offsets[k]:g};" in c[6] and "read" in c[6]
        # they start UDP_HANDSHAKE_S after the run and end with it
        assert c[c.index("-t") + 1] == f"{60.0 - UDP_HANDSHAKE_S - offsets[k]:g}"
    for c, _ in udp:
        assert c[c.index("-t") + 1] == "60"


def test_last_connect_is_the_latest_stamp_plus_its_second() -> None:
    meta = {"start_wall": 1000.25}

    def flow(secs: int | None, connected: bool = True) -> str:
        start: dict[str, Any] = {"connected": [{"socket": 5}] if connected else []}
        if secs is not None:
            start["timestamp"] = {"timesecs": secs}
        return json.dumps({"start": start, "end": {}})

    texts = [flow(1011), flow(1014), flow(None), flow(1090, connected=False), ""]
    # 1014 + 1 - 1000.25: a flow that never connected is not counted
    assert last_connect_s(meta, texts) == pytest.approx(14.75)
    assert last_connect_s({}, texts) is None
    assert last_connect_s(meta, [flow(None)]) is None
