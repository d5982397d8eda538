"""Run an experiment on the netns testbed (inside the test VM, as root).

For each (seed, load, ecn, qdisc) of the experiment: the access links
take the seed's RTTs, the qdisc goes on both bottlenecks, aqmstat samples
both every 10 ms, the workload runs for the experiment's duration and then
drains (no new exchange; those under way get the drain's time to finish),
and everything lands in OUT/<run>/: the webgen logs, iperf3 JSON, aqmstat
JSON lines, tc -s -j of the bottleneck and of every netem before and
after, and run.json with what was run. A run whose netem dropped a packet
is marked invalid (netem must never be the bottleneck). Loads are
calibrated first, the papers' way: a population of calibrate_users on the
uncongested bottleneck (ten times the rate) gives the load one user
offers (the bytes it requests, whether or not they arrive), and each
load's population follows. The calibration is kept in OUT and reused
when more runs are added to OUT later (an experiment run in parts). A
qdisc with a rate of its own (the uncongested reference) runs with both
bottlenecks and the netem limits at that rate, offered the population of
the experiment's rate.

Usage: python3 -m aqmtools.bench.run EXPERIMENT.toml OUT TOOLS_DIR
           [--only NAME]... [--run RUN]... [--seeds tuning|reporting|all] [--seed N]...
  TOOLS_DIR: where webgen and aqmstat were built (scripts/bench)
  --seeds: which of the experiment's seed sets to run (default: the
  reporting seeds, or the tuning seeds of an experiment without any)
"""

from __future__ import annotations

import argparse
import json
import math
import os
import signal
import subprocess
import sys
import time
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from aqmtools.bench import testbed
from aqmtools.bench.experiment import PKT_BYTES, Experiment, Qdisc, load
from aqmtools.bench.gate import Gate, delayed
from aqmtools.bench.stats import leaf, read_web
from aqmtools.bench.testbed import Cmd, Testbed

WEB_PORT = 8080
# the flent tests that take their number of TCP streams as a parameter
FLENT_STREAMS = {"tcp_nup": "upload_streams", "tcp_ndown": "download_streams"}
IPERF_PORT = 5201
SAMPLE_MS = 10
# what the UDP flows are given to connect before the other traffic starts
UDP_HANDSHAKE_S = 1.5
# each UDP datagram's payload (bytes), which stats.udp_goodputs assumes
UDP_PAYLOAD = 1400
# how long a process outliving its run has between SIGTERM and SIGKILL:
# an iperf3 writes its whole -J output on SIGTERM, which for 25 streams
# takes more than the 3 s this was in the VM (Figure 13, RED, 50 flows,
# seed 105 at 20a724c: a client killed with nothing written, its 25 flows
# without a result)
TERM_GRACE_S = 15.0
# at most how long the iperf3 servers get to listen, and the workload's
# processes to reach the start line (gate.Gate), before the run starts
# without the late ones (its problems then say "process missed the start")
READY_TIMEOUT_S = 120.0
# the data queue while the long flows connect (experiment long_connect,
# testbed.connect_qdisc): a drop-tail queue of this long at the run's
# rate, which the qdisc under test discards when it goes on
CONNECT_QUEUE_S = 0.05


def log(msg: str) -> None:
    print(f"[bench] {msg}", file=sys.stderr, flush=True)


def out_of_tree(kind: str, sys_module: Path = Path("/sys/module")) -> bool | None:
    """Whether the loaded sch_KIND is an out-of-tree module (the project's:
    the kernel taints itself "O" when it loads one), None when none is
    loaded. Linux's own modules are in-tree."""
    taint = sys_module / f"sch_{kind}" / "taint"
    try:
        return "O" in taint.read_text()
    except FileNotFoundError:
        return None


def sh(cmd: Cmd, check: bool = True) -> str:
    p = subprocess.run(cmd, capture_output=True, text=True, check=False)
    if check and p.returncode:
        raise RuntimeError(f"{' '.join(cmd)}: exit {p.returncode}: {p.stderr.strip()}")
    return p.stdout


def run_all(cmds: list[Cmd], check: bool = True) -> None:
    for c in cmds:
        sh(c, check)


def ns(name: str, *argv: str) -> Cmd:
    return ["ip", "netns", "exec", name, *argv]


def tc_json(namespace: str, dev: str) -> Any:
    return json.loads(sh(["tc", "-n", namespace, "-s", "-j", "qdisc", "show", "dev", dev]) or "[]")


def run_name(q: Qdisc, load_: float, ecn: bool, seed: int) -> str:
    return f"{q.name}-load{round(load_ * 100)}-ecn{int(ecn)}-s{seed}"


def users_for(load_: float, rate_bps: int, per_user_bps: float) -> int:
    """The population that offers LOAD x the bottleneck."""
    return max(1, math.ceil(load_ * rate_bps / per_user_bps))


def run_setting(
    exp: Experiment, q: Qdisc, load_: float, ecn: bool, per_user_bps: float
) -> tuple[int, str, int]:
    """The bottleneck's rate, the qdisc's tc words and the web users of a
    run. The rate is the qdisc's own where it has one, and its spec's
    times convert at it; the users are those of the experiment's rate
    whatever the qdisc's, so that a qdisc on a faster link is offered the
    same workload as the others of its load and seed."""
    rate = exp.rate_of(q)
    users = users_for(load_, exp.rate_bps, per_user_bps) if exp.uses_webgen else 0
    return rate, q.spec_for(ecn, rate), users


def listening_ports(ss_out: str) -> set[int]:
    """The ports of the listening sockets ss -Hltn lists."""
    ports = set()
    for line in ss_out.splitlines():
        fields = line.split()
        port = fields[3].rpartition(":")[2] if len(fields) >= 4 else ""
        if port.isdigit():
            ports.add(int(port))
    return ports


def connect_limit(rate_bps: int) -> int:
    """The connect phase's data queue in packets at RATE_BPS:
    CONNECT_QUEUE_S of full-sized packets, 10 at least."""
    return max(10, round(rate_bps * CONNECT_QUEUE_S / (8 * PKT_BYTES)))


def connect_bands(dump: list[dict[str, Any]]) -> dict[str, list[int]]:
    """[packets, drops] of the connect phase's two bands (testbed.
    connect_qdisc) in a tc -s -j dump of its bottleneck: "first" (11:, the
    handshakes and small packets) and "data" (12:)."""
    out = {}
    for name, handle in (("first", "11:"), ("data", "12:")):
        q = next((x for x in dump if x.get("handle") == handle), {})
        out[name] = [int(q.get("packets", 0)), int(q.get("drops", 0))]
    return out


def established(ss_out: str) -> dict[int, int]:
    """How many established TCP sockets ss -Htn state established lists
    with each peer port (with one state asked, ss leaves that column out:
    the peer's address is the fourth field)."""
    count: dict[int, int] = {}
    for line in ss_out.splitlines():
        fields = line.split()
        port = fields[3].rpartition(":")[2] if len(fields) >= 4 else ""
        if port.isdigit():
            count[int(port)] = count.get(int(port), 0) + 1
    return count


def connected_streams(want: dict[int, int], have: dict[int, int]) -> int:
    """The data streams connected of iperf3 clients that WANT, by server
    port, so many sockets (their streams and the control connection),
    from the established sockets HAVE by peer port: each port's sockets
    but the first, the control connection, which iperf3 sets up first."""
    return sum(max(0, min(have.get(port, 0), n) - 1) for port, n in want.items())


def connected_streams_all(want: dict[str, dict[int, int]], have: dict[str, dict[int, int]]) -> bool:
    """Whether every namespace's clients WANT (by server port, as
    connected_streams) have their sockets established in HAVE."""
    return all(have[n].get(p, 0) >= k for n, ports in want.items() for p, k in ports.items())


def split(total: int, parts: int) -> list[int]:
    """TOTAL as PARTS near-equal integers (the first ones larger)."""
    return [total // parts + (i < total % parts) for i in range(parts)]


@dataclass(frozen=True)
class Flow:
    """Where one iperf3 flow runs: its number k (which names its JSON file,
    iperf-PROTO{k}.json), the port of its own server, and the indices of
    its client and server hosts in the testbed."""

    proto: str
    k: int
    port: int
    client: int
    server: int


def iperf_flows(long_flows: int, udp_flows: int, clients: int, servers: int) -> list[Flow]:
    """The long TCP flows (k = 0 .. LONG_FLOWS - 1), then the UDP flows
    numbered on after them (k = LONG_FLOWS ..): flow k listens on
    IPERF_PORT + k, so that no two share a port, and runs from client host
    k mod CLIENTS to server host k mod SERVERS, round-robin, the UDP flows
    continuing where the TCP flows stopped (they see the RTTs in turn).
    With long_streams, a TCP "flow" here is one iperf3 process, and
    LONG_FLOWS the number of processes (Experiment.long_processes)."""
    if IPERF_PORT + long_flows + udp_flows - 1 > 65535:
        raise ValueError(f"{long_flows + udp_flows} iperf3 flows need ports beyond 65535")
    kinds = ["tcp"] * long_flows + ["udp"] * udp_flows
    return [Flow(p, k, IPERF_PORT + k, k % clients, k % servers) for k, p in enumerate(kinds)]


class Bench:
    """One testbed and the processes of the current run."""

    def __init__(self, exp: Experiment, out: Path, tools: Path) -> None:
        self.exp = exp
        self.out = out
        self.tools = tools
        self.seed = exp.seed
        # the bottleneck's rate now (netem's limits sized for it)
        self.rate_bps = exp.rate_bps
        self.tb: Testbed = testbed.make(exp, f"wb{os.getpid()}", self.seed)
        self.procs: list[subprocess.Popen[bytes]] = []
        self.samplers: list[subprocess.Popen[bytes]] = []
        # kind -> the module file loaded for it by use_module()
        self.loaded: dict[str, Path] = {}
        # the start line the workload's processes are spawned at, if any
        self.gate: Gate | None = None
        # processes the last wait_all had to stop
        self.stopped = 0

    # --- processes --------------------------------------------------------
    def spawn(self, cmd: Cmd, stdout: Path | None = None, stderr: Path | None = None) -> None:
        """Start CMD with its output in files; the child keeps its own
        descriptors, ours are closed at once. While a gate is set, CMD
        (made by held()) takes it as its standard input."""
        stdin = self.gate.fileno() if self.gate is not None else None
        with (
            open(stdout or os.devnull, "wb") as out,
            open(stderr or os.devnull, "wb") as err,
        ):
            self.procs.append(subprocess.Popen(cmd, stdin=stdin, stdout=out, stderr=err))

    def held(self, cmd: Cmd, delay: float = 0.0) -> Cmd:
        """CMD, to run DELAY seconds after the start: held at the gate
        while one is set (gate.Gate), else DELAY seconds after its spawn.
        The part of a command that runs in its namespace: the wait costs
        nothing after the release."""
        if self.gate is not None:
            return self.gate.wrap(cmd, delay)
        return delayed(cmd, delay)

    def start_servers(self, long_flows: int | None = None) -> None:
        """The iperf3 server of each UDP flow and long TCP flow (one test
        each, on the flow's own port), and a wait, of READY_TIMEOUT_S at
        most, until they all listen."""
        flows = self.flows("udp", long_flows) if self.exp.udp_rate_bps else []
        if "long" in self.exp.workload:
            flows += self.flows("tcp", long_flows)
        for f in flows:
            server = self.tb.servers[f.server]
            self.spawn(ns(server.ns, "iperf3", "-s", "-1", "-p", str(f.port)))
        self.wait_listening(flows)

    def wait_listening(self, flows: list[Flow]) -> None:
        """Wait until the server of each of FLOWS listens on its port
        (ss in the server hosts' namespaces), READY_TIMEOUT_S at most."""
        want: dict[str, set[int]] = {}
        for f in flows:
            want.setdefault(self.tb.servers[f.server].ns, set()).add(f.port)
        end = time.monotonic() + READY_TIMEOUT_S
        while want:
            for name in list(want):
                out = sh(ns(name, "ss", "-Hltn"), check=False)
                want[name] -= listening_ports(out)
                if not want[name]:
                    del want[name]
            if not want:
                return
            if time.monotonic() > end:
                log(f"iperf3 servers not listening after {READY_TIMEOUT_S:g} s: {want}")
                return
            time.sleep(0.2)

    def wait_all(self, timeout: float) -> list[int]:
        """Wait for the run's processes and return their exit statuses;
        what is left after TIMEOUT gets SIGTERM (iperf3 then writes what it
        has), and what is still left TERM_GRACE_S later SIGKILL. How many
        were left is kept in self.stopped (run.json's "stopped": the
        report lists such a run among its problems)."""
        end = time.monotonic() + timeout
        left = []
        for p in self.procs:
            try:
                p.wait(max(0.1, end - time.monotonic()))
            except subprocess.TimeoutExpired:
                p.terminate()
                left.append(p)
        self.stopped = len(left)
        if left:
            names = sorted(
                {" ".join(str(a) for a in p.args[-6:]) for p in left if isinstance(p.args, list)}
            )
            log(f"{len(left)} processes still running after {timeout:g} s, stopped: {names}")
        grace = time.monotonic() + TERM_GRACE_S
        for p in left:
            try:
                p.wait(max(0.1, grace - time.monotonic()))
            except subprocess.TimeoutExpired:
                p.kill()
        codes = [p.wait() for p in self.procs]
        self.procs = []
        return codes

    # --- testbed ----------------------------------------------------------
    def up(self, ecn: bool) -> None:
        run_all(testbed.setup(self.tb, self.exp, ecn))
        webgen = str(self.tools / "webgen")
        for s in self.tb.servers:
            subprocess.Popen(
                ns(s.ns, webgen, "server", "-p", str(WEB_PORT)),
                stdout=subprocess.DEVNULL,
                stderr=subprocess.DEVNULL,
            )
        if self.exp.workload == "flent":
            for s in self.tb.servers:
                subprocess.Popen(
                    ns(s.ns, "netserver", "-D"),
                    stdout=subprocess.DEVNULL,
                    stderr=subprocess.DEVNULL,
                )
        time.sleep(0.5)

    def down(self) -> None:
        for name in self.tb.namespaces:
            pids = sh(["ip", "netns", "pids", name], check=False).split()
            if pids:
                sh(["kill", *pids], check=False)
        run_all(testbed.teardown(self.tb), check=False)

    def use_seed(self, seed: int, rate_bps: int = 0) -> None:
        """The access links' RTTs of SEED, and the bottleneck at RATE_BPS
        (default the experiment's rate) with the netems sized for it."""
        rate = rate_bps or self.exp.rate_bps
        if seed == self.seed and rate == self.rate_bps:
            return
        if rate != self.rate_bps:
            run_all(testbed.set_rate(self.tb, rate))
        self.tb, cmds = testbed.reseed(self.tb, self.exp, seed, rate)
        run_all(cmds)
        self.seed, self.rate_bps = seed, rate

    def netem_drops(self) -> int:
        drops = 0
        for name, dev in testbed.netem_qdiscs(self.tb):
            drops += sum(q.get("drops", 0) for q in tc_json(name, dev) if q["kind"] == "netem")
        return drops

    # --- workloads --------------------------------------------------------
    def start_web(
        self, users: int, duration: float, seed: int, rundir: Path, warmup: float | None = None
    ) -> None:
        """USERS web users on the client hosts for DURATION seconds, the
        first WARMUP (default the experiment's warm-up) not logged as
        measured."""
        warm = self.exp.warmup_s if warmup is None else warmup
        servers = ",".join(f"{s.addr}:{WEB_PORT}" for s in self.tb.servers)
        webgen = str(self.tools / "webgen")
        counts = split(users, len(self.tb.clients))
        for i, c in enumerate(self.tb.clients, 1):
            n = counts[i - 1]
            if n == 0:
                continue
            cmd = [webgen, "client", "-s", servers, "-u", str(n), "-d", f"{duration:g}"]
            cmd += ["-w", f"{warm:g}", "--seed", str(seed * 1000 + i)]
            cmd += ["-g", f"{self.exp.drain_s:g}", "--model", self.model]
            cmd += ["-o", str(rundir / f"web-c{i}.csv")]
            self.spawn(ns(c.ns, *self.held(cmd)), stderr=rundir / f"web-c{i}.err")

    @property
    def model(self) -> str:
        """webgen's workload model."""
        return "closed" if self.exp.workload.startswith("closed") else "web"

    def flows(self, proto: str, long_flows: int | None = None) -> list[Flow]:
        """The iperf3 processes of PROTO ("tcp" or "udp") of a run with
        LONG_FLOWS long TCP flows (default the experiment's long_flows):
        one a UDP flow, one for each process of TCP streams."""
        n = self.exp.long_flows if long_flows is None else long_flows
        every = iperf_flows(
            len(self.exp.long_schedule(n)),
            self.exp.udp_flows,
            len(self.tb.clients),
            len(self.tb.servers),
        )
        return [f for f in every if f.proto == proto]

    def start_udp(self, duration: float, rundir: Path, long_flows: int | None = None) -> None:
        """The clients of the unresponsive UDP flows (iperf3, on a port and
        hosts of their own, see iperf_flows; their servers are
        start_servers'), for DURATION seconds. one() starts them before
        any other traffic and gives them UDP_HANDSHAKE_S, once, to
        connect: iperf3 3.12's UDP handshake is one datagram each way, with
        no retry, and a lost one ends the flow before it sends (in
        sfred-10mbit, when it started beside the web traffic's first
        second, red lost it on 2 of 3 seeds). LONG_FLOWS: the run's long
        TCP flows, after whose processes the UDP flows are numbered
        (default the experiment's)."""
        for f in self.flows("udp", long_flows):
            server, client = self.tb.servers[f.server], self.tb.clients[f.client]
            cmd = ["iperf3", "-c", server.addr, "-p", str(f.port), "-R"]
            cmd += ["-t", f"{duration:g}", "-J", "-u", "-b", str(self.exp.udp_rate_bps)]
            cmd += ["-l", str(UDP_PAYLOAD)]
            self.spawn(ns(client.ns, *self.held(cmd)), stdout=rundir / f"iperf-udp{f.k}.json")

    def start_long(
        self, duration: float, rundir: Path, seed: int, long_flows: int | None = None
    ) -> None:
        """The clients of LONG_FLOWS (default the experiment's long_flows)
        bulk TCP flows (iperf3; their servers are start_servers'), spread
        over the client hosts so that they have different RTTs, each
        process starting at its seeded offset (after its step's second,
        with long_steps) and ending DURATION seconds after the start; with
        long_streams, a process runs several flows (-P). iperf3 takes -t
        in whole seconds: a process runs up to a second less."""
        n = self.exp.long_flows if long_flows is None else long_flows
        schedule = self.exp.long_schedule(n)
        streams = [s for _, s in schedule]
        starts = self.exp.long_starts_s(seed)
        for f in self.flows("tcp", n):
            server, client = self.tb.servers[f.server], self.tb.clients[f.client]
            start = schedule[f.k][0] + starts[f.k]
            # the server sends (-R), as web servers do: downstream bottleneck
            cmd = ["iperf3", "-c", server.addr, "-p", str(f.port), "-R"]
            cmd += ["-t", f"{duration - start:g}", "-J", "-C", self.exp.cc]
            if streams[f.k] > 1:
                cmd += ["-P", str(streams[f.k])]
            held = self.held(cmd, start)
            self.spawn(ns(client.ns, *held), stdout=rundir / f"iperf-{f.proto}{f.k}.json")

    def start_workload(
        self, d: float, users: int, seed: int, rundir: Path, long_flows: int
    ) -> dict[str, Any]:
        """The run's workload of D seconds, its processes spawned at two
        start lines (gate.Gate) and released together: the UDP flows
        first, UDP_HANDSHAKE_S later everything else, so that the spawning
        does not decide when a flow starts. Return what run.json keeps of
        the start: start_wall (the first release, where the measured
        window is placed on the wall clock, as aqmstat's "wall"), and the
        processes held and at the line when it came."""
        self.start_servers(long_flows)
        udp = bool(self.exp.udp_rate_bps)
        lead = UDP_HANDSHAKE_S if udp else 0.0
        first, rest = Gate(), Gate()
        try:
            self.gate = first
            if udp:
                self.start_udp(d, rundir, long_flows)
            self.gate = rest
            # the rest starts LEAD after the run's start and ends with it
            if self.exp.uses_webgen:
                warm = max(0.0, self.exp.warmup_s - lead)
                self.start_web(users, d - lead, seed, rundir, warm)
            if "long" in self.exp.workload:
                self.start_long(d - lead, rundir, seed, long_flows)
        finally:
            self.gate = None
        ready = first.wait_ready(READY_TIMEOUT_S) + rest.wait_ready(READY_TIMEOUT_S)
        held = first.held + rest.held
        if ready < held:
            log(f"{held - ready} of {held} processes not ready after {READY_TIMEOUT_S:g} s")
        start_wall = time.time()
        first.release()
        if lead:
            time.sleep(lead)
        rest.release()
        return {"start_wall": start_wall, "start_held": held, "start_ready": ready}

    def connect_first(
        self, long_flows: int, start_wall: float, spec: str, up: str, rundir: Path
    ) -> dict[str, Any]:
        """The end of the connect phase of experiment long_connect: wait
        until every long flow of the run has connected (each iperf3
        client's control connection and streams established, ss in the
        client hosts' namespaces), long_connect_s after START_WALL at
        most; then the qdisc under test (SPEC, UP) replaces the phase's
        queue (testbed.connect_qdisc), whose packets it discards, and
        aqmstat starts. Return what run.json keeps: connect_s, the seconds
        after START_WALL the qdisc went on (the run's time begins there);
        connect_polled_s, when the last poll of ss ended; connect_streams,
        the flows connected then; connect_qlen, the packets the phase's
        queues held; connect_bands, the downstream bands' [packets, drops].

        Why: iperf3 starts a process's test once all its -P streams have
        connected, and a stream's handshake carries no ECN, so under an
        ECN qdisc that marks the data it is dropped as often as the data
        is marked. In BLUE's Figure 13 with the paper's hosts (1-s minimum
        RTO), RED at 50-200 flows left 16-22 of a process's 25 streams
        connected and the rest retrying their SYNs through the whole run."""
        want: dict[str, dict[int, int]] = {}
        schedule = self.exp.long_schedule(long_flows)
        for f in self.flows("tcp", long_flows):
            want.setdefault(self.tb.clients[f.client].ns, {})[f.port] = schedule[f.k][1] + 1
        end = start_wall + self.exp.long_connect_s
        while True:
            have = {
                # ss -N enters the namespace itself: a process less a poll
                name: established(sh(["ss", "-N", name, "-Htn", "state", "established"], False))
                for name in want
            }
            if connected_streams_all(want, have) or time.time() + 0.2 >= end:
                break
            time.sleep(0.2)
        polled = time.time() - start_wall
        streams = sum(connected_streams(want[n], have[n]) for n in want)
        dumps = {way: tc_json(name, dev) for name, dev, way in self.tb.bottlenecks()}
        run_all(testbed.set_qdisc(self.tb, spec, up))
        at = time.time() - start_wall
        self.start_aqmstat(rundir)
        if streams < long_flows:
            log(f"  {streams} of {long_flows} long flows connected after {at:.1f} s")
        return {
            "connect_s": at,
            "connect_polled_s": polled,
            "connect_streams": streams,
            "connect_qlen": sum(int(leaf(d).get("qlen", 0)) for d in dumps.values()),
            "connect_bands": connect_bands(dumps["down"]),
        }

    def run_flent(self, test: str, q: Qdisc, duration: float, rundir: Path) -> int:
        """One flent test from the first client host to the first server
        (flent's own data file and its summary land in RUNDIR)."""
        cmd = ns(self.tb.clients[0].ns, "flent", test, "-H", self.tb.servers[0].addr)
        cmd += ["-l", f"{duration:g}", "-t", q.name, "-D", str(rundir)]
        summary = rundir / f"flent-{test}.txt"
        cmd += ["-f", "summary", "-o", str(summary)]
        param = FLENT_STREAMS.get(test)
        if param:
            cmd += ["--test-parameter", f"{param}={self.exp.flent_streams}"]
        with open(rundir / f"flent-{test}.log", "wb") as err:
            p = subprocess.run(cmd, stdout=err, stderr=subprocess.STDOUT, check=False)
        # flent exits 0 even when it could not run the test: no summary is
        # the failure
        if p.returncode == 0 and not summary.exists():
            log(f"  flent {test} wrote no summary (see flent-{test}.log)")
            return 1
        return p.returncode

    def start_aqmstat(self, rundir: Path) -> None:
        """aqmstat on both bottlenecks until stop_aqmstat() (-D only as a
        bound should the run die)."""
        aqmstat = str(self.tools / "aqmstat")
        bound = 3 * self.exp.duration_s * max(1, len(self.exp.flent_tests)) + 120
        for name, dev, way in self.tb.bottlenecks():
            cmd = ns(name, aqmstat, "-d", dev, "-H", "10:", "-t", str(SAMPLE_MS))
            cmd += ["-D", f"{bound:g}", "-f", "json", "-o", str(rundir / f"aqmstat-{way}.jsonl")]
            with open(rundir / f"aqmstat-{way}.err", "wb") as err:
                self.samplers.append(subprocess.Popen(cmd, stdout=subprocess.DEVNULL, stderr=err))

    def stop_aqmstat(self) -> None:
        """End the samplers cleanly (SIGINT: a last record and a flush)."""
        for p in self.samplers:
            p.send_signal(signal.SIGINT)
        for p in self.samplers:
            try:
                p.wait(10)
            except subprocess.TimeoutExpired:
                p.kill()
                p.wait()
        self.samplers = []

    # --- runs -------------------------------------------------------------
    def leaf_counts(self) -> list[tuple[int, int, int]]:
        """Packets sent, dropped and queued by the qdisc under test of each
        bottleneck."""
        out = []
        for name, dev, _ in self.tb.bottlenecks():
            q = leaf(tc_json(name, dev))
            out.append((int(q.get("packets", 0)), int(q.get("drops", 0)), int(q.get("qlen", 0))))
        return out

    def wait_quiet(self, quiet_s: float = 1.0, limit_s: float = 15.0) -> None:
        """Wait until no packet has reached either bottleneck for QUIET_S
        (at most LIMIT_S). The workload's programs have ended, but their
        closing connections may still send: a FIN retransmitted after a
        backed-off timeout crossed the bottleneck after a fixed second of
        silence, between the samplers' last record and tc-after.json."""
        last = self.leaf_counts()
        since = start = time.monotonic()
        while time.monotonic() - since < quiet_s:
            if time.monotonic() - start > limit_s:
                log(f"the bottlenecks were not quiet for {quiet_s:g} s within {limit_s:g} s")
                return
            time.sleep(0.2)
            now = self.leaf_counts()
            if now != last:
                last, since = now, time.monotonic()

    def snapshot(self) -> dict[str, Any]:
        snap = {way: tc_json(name, dev) for name, dev, way in self.tb.bottlenecks()}
        snap["netem_drops"] = self.netem_drops()
        return snap

    def calibrate(self) -> float:
        """Bits per second one web user offers (requests), on the
        uncongested link with the calibration seed's testbed; the one
        OUT holds already, when more runs are added to it."""
        rundir = self.out / "calibration"
        saved = rundir / "calibration.json"
        if saved.exists():
            info = json.loads(saved.read_text())
            log(f"calibration: {info['per_user_bps'] / 1000:.1f} kbit/s per user (kept)")
            return float(info["per_user_bps"])
        rundir.mkdir(parents=True, exist_ok=True)
        self.use_seed(self.exp.seed)
        run_all(testbed.set_rate(self.tb, self.exp.rate_bps * testbed.UNCONGESTED_FACTOR))
        run_all(testbed.set_qdisc(self.tb, "pfifo limit 1000"))
        users = self.exp.calibrate_users
        log(f"calibration: {users} users on {testbed.UNCONGESTED_FACTOR}x the bottleneck")
        self.start_web(users, self.exp.duration_s, self.exp.seed, rundir)
        self.wait_all(self.exp.duration_s + self.exp.drain_s + 30)
        requested = received = 0
        for f in rundir.glob("web-c*.csv"):
            requested += requested_bytes(f.read_text())
            received += received_bytes(f.read_text())
        measured_s = self.exp.duration_s - self.exp.warmup_s
        per_user = 8 * requested / measured_s / users
        run_all(testbed.set_rate(self.tb, self.exp.rate_bps))
        info = {
            "users": users,
            "seconds": measured_s,
            "seed": self.exp.seed,
            "model": self.model,
            "bytes": requested,
            "received_bytes": received,
            "per_user_bps": per_user,
        }
        saved.write_text(json.dumps(info, indent=1) + "\n")
        log(f"calibration: {per_user / 1000:.1f} kbit/s per user")
        if per_user <= 0:
            raise RuntimeError("calibration: the web population received nothing")
        return per_user

    def use_module(self, q: Qdisc) -> None:
        """Load the module Q runs on, when the project and the test kernel
        both have one of its kind (sch_KIND.ko, one module name): the
        project's, or with module = "linux" the kernel's ($AQM_KDIR). The
        leaves become pfifo first, as a module in use cannot be unloaded."""
        ours = self.tools.parent.parent / "net" / "sched" / f"sch_{q.kind}.ko"
        if not ours.exists():
            return
        want = ours
        if q.module == "linux":
            want = Path(os.environ["AQM_KDIR"]) / "net" / "sched" / f"sch_{q.kind}.ko"
        if self.loaded.get(q.kind) == want:
            return
        if out_of_tree(q.kind) == (q.module != "linux"):
            # already loaded, of the wanted origin (the VM's guest loads the
            # project's modules of this tree at boot). Not unloaded: another
            # selftest beside this one may hold it (rmmod fails, and insmod
            # then fails with "File exists").
            self.loaded[q.kind] = want
            return
        # a pfifo leaf meanwhile: set_qdisc() deletes the leaf it replaces
        leaf = "parent 1:1 handle 10:"
        for ns_, dev, _ in self.tb.bottlenecks():
            sh(ns(ns_, *f"tc qdisc del dev {dev} {leaf}".split()), check=False)
            sh(ns(ns_, *f"tc qdisc add dev {dev} {leaf} pfifo limit 1000".split()))
        sh(["rmmod", f"sch_{q.kind}"], check=False)
        sh(["insmod", str(want)])
        self.loaded[q.kind] = want
        log(f"{q.name}: {want}")

    def one(
        self, q: Qdisc, load_: float, ecn: bool, seed: int, per_user_bps: float, order: int = 0
    ) -> dict[str, Any]:
        rundir = self.out / run_name(q, load_, ecn, seed)
        rundir.mkdir(parents=True, exist_ok=True)
        self.use_module(q)
        rate, spec, users = run_setting(self.exp, q, load_, ecn, per_user_bps)
        self.use_seed(seed, rate)
        run_all(testbed.set_ecn(self.tb, ecn))
        up = q.up_spec_for(ecn, rate) if q.up_spec else ""
        # with long_connect, a queue that lets handshakes first until the
        # long flows have connected (connect_first), the qdisc under test after
        connect = self.exp.long_connect_s
        if connect:
            run_all(testbed.connect_qdisc(self.tb, connect_limit(rate)))
        else:
            run_all(testbed.set_qdisc(self.tb, spec, up))
        before = self.snapshot()
        d = self.exp.duration_s
        if not connect:
            self.start_aqmstat(rundir)
        time.sleep(0.5)
        long_flows = self.exp.long_flows_at(load_)
        # the workload's processes get the connect phase's time on top of
        # the run's: each runs its duration after the phase at the latest
        start = self.start_workload(d + connect, users, seed, rundir, long_flows)
        phase: dict[str, Any] = {}
        if connect:
            phase = self.connect_first(long_flows, start["start_wall"], spec, up, rundir)
            # the qdisc under test as it began, and netem over the whole run
            before = {**self.snapshot(), "netem_drops": before["netem_drops"]}
        flent_codes = [self.run_flent(t, q, d, rundir) for t in self.exp.flent_tests]
        codes = self.wait_all(d + connect + self.exp.drain_s + 30) + flent_codes
        stopped = self.stopped
        end_wall = time.time()
        # quiet for a second, so that the samplers' last record is of the
        # idle qdisc, as tc-after.json
        self.wait_quiet()
        self.stop_aqmstat()
        after = self.snapshot()
        meta = {
            "experiment": self.exp.name,
            "order": order,
            "qdisc": q.name,
            "spec": spec,
            "spec_template": q.template_for(ecn),
            "load": load_,
            "ecn": ecn,
            "seed": seed,
            "seed_set": "reporting" if seed in self.exp.reporting_seeds else "tuning",
            "reference": self.exp.reference_qdisc(),
            "workload": self.exp.workload,
            "hosts": self.exp.hosts,
            "host_sysctls": testbed.host_profile(self.exp)[0],
            "host_route": testbed.host_profile(self.exp)[1].strip(),
            "cc": self.exp.cc,
            "drain_s": self.exp.drain_s,
            # the flows the run started (stats counts them from their files)
            "long_flows": long_flows if "long" in self.exp.workload else 0,
            "udp_flows": self.exp.udp_flows,
            "udp_rate_bps": self.exp.udp_rate_bps,
            "users": users,
            # flent runs its tests one after the other; after a connect
            # phase, the run's time begins when it ended
            "duration_s": d * max(1, len(self.exp.flent_tests)) + phase.get("connect_s", 0.0),
            "warmup_s": self.exp.warmup_s + phase.get("connect_s", 0.0),
            # the bottleneck's rate in this run, and the rate the load (the
            # population) was computed from; they differ for a qdisc with
            # a rate of its own
            "rate_bps": rate,
            "experiment_rate_bps": self.exp.rate_bps,
            "client_rtts_ms": [c.rtt_ms for c in self.tb.clients],
            "start_wall": start["start_wall"],
            "start_held": start["start_held"],
            "start_ready": start["start_ready"],
            "end_wall": end_wall,
            "exit_codes": codes,
            "stopped": stopped,
            "netem_drops": after["netem_drops"] - before["netem_drops"],
            "valid": after["netem_drops"] == before["netem_drops"],
        }
        # what only some experiments have
        if up:
            meta["up_spec"] = up
        if self.exp.long_steps:
            meta["long_steps"] = [list(x) for x in self.exp.long_steps]
        if phase:
            meta["long_connect_s"] = connect
            meta.update(phase)
        (rundir / "tc-before.json").write_text(json.dumps(before) + "\n")
        (rundir / "tc-after.json").write_text(json.dumps(after) + "\n")
        (rundir / "run.json").write_text(json.dumps(meta, indent=1) + "\n")
        return meta


def eta_s(spent: float, done: int, total: int, duration: float) -> float:
    """Seconds left for TOTAL runs when DONE took SPENT seconds (before
    the first, each is assumed to take its duration)."""
    per_run = spent / done if done else duration
    return per_run * (total - done)


def requested_bytes(csv_text: str) -> int:
    """Response bytes requested by the measured exchanges of a webgen log
    (warm-up excluded), whether they completed, failed or were cut off:
    the load offered."""
    return read_web([csv_text]).offered_bytes if csv_text else 0


def received_bytes(csv_text: str) -> int:
    """Response bytes of the completed, measured exchanges of a webgen log
    (warm-up excluded)."""
    return sum(e.resp_bytes for e in read_web([csv_text]).done) if csv_text else 0


def select_seeds(exp: Experiment, which: str, only: list[int]) -> list[int]:
    """The seeds to run: a set of the experiment's (default its reporting
    seeds, or its tuning seeds when it has none), narrowed to ONLY."""
    which = which or ("reporting" if exp.reporting_seeds else "tuning")
    seeds = {
        "tuning": exp.tuning_seeds,
        "reporting": exp.reporting_seeds,
        "all": exp.seeds,
    }[which]
    if only:
        unknown = set(only) - set(exp.seeds)
        if unknown:
            raise SystemExit(f"seeds {sorted(unknown)} are not the experiment's")
        seeds = [s for s in exp.seeds if s in only]
    return seeds


def main(argv: list[str]) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("experiment", type=Path)
    ap.add_argument("out", type=Path)
    ap.add_argument("tools", type=Path)
    ap.add_argument("--only", action="append", default=[], help="run only these qdisc names")
    ap.add_argument(
        "--run", action="append", default=[], help="run only these runs (NAME-loadL-ecnE-sSEED)"
    )
    ap.add_argument("--seeds", choices=("tuning", "reporting", "all"), default="")
    ap.add_argument("--seed", type=int, action="append", default=[], help="only these seeds")
    a = ap.parse_args(argv[1:])
    exp = load(a.experiment.read_text(encoding="utf-8"))
    seeds = select_seeds(exp, a.seeds, a.seed)
    runs = [
        r
        for r in exp.runs(seeds)
        if (not a.only or r[0].name in a.only) and (not a.run or run_name(*r) in a.run)
    ]
    if not runs:
        log("no run of the experiment matches --only/--run")
        return 1
    a.out.mkdir(parents=True, exist_ok=True)
    bench = Bench(exp, a.out, a.tools)
    t0 = time.monotonic()
    try:
        bench.up(exp.ecn[0])
        per_user = bench.calibrate() if exp.uses_webgen else 0.0
        t_runs = time.monotonic()
        every = exp.runs()
        for n, (q, load_, ecn, seed) in enumerate(runs, 1):
            done = time.monotonic() - t0
            eta = eta_s(time.monotonic() - t_runs, n - 1, len(runs), exp.duration_s)
            name = run_name(q, load_, ecn, seed)
            log(f"run {n}/{len(runs)}: {name} ({done:.0f} s, ~{eta:.0f} s left)")
            meta = bench.one(q, load_, ecn, seed, per_user, every.index((q, load_, ecn, seed)))
            if not meta["valid"]:
                log(f"  netem dropped {meta['netem_drops']} packets: run marked invalid")
    finally:
        bench.wait_all(1)
        bench.stop_aqmstat()
        bench.down()
    log(f"done: {len(runs)} runs in {time.monotonic() - t0:.0f} s")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
