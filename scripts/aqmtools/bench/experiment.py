"""Experiment files (scripts/bench/experiments/*.toml): what to run.

An experiment names the bottleneck, the paths, the workload and the qdiscs
to compare, and the seeds it runs on; every run of it with the same seed
builds the same testbed (the same RTT per client host), offers the same
request sequence and starts its long flows at the same offsets, so two
qdiscs run on one seed are compared on the same offered workload.

Seeds come in two sets that never meet: tuning_seeds, on which settings
may be tried and chosen, and reporting_seeds, which published tables use
and which no tuning has seen. "seed = N" is short for tuning_seeds = [N].

Queue lengths, targets and buffers in a qdisc's spec may be given as a
time, converted at the bottleneck's rate: "{29ms}" becomes the packets of
PKT_BYTES that the bottleneck sends in 29 ms, "{29ms:bytes}" those bytes;
so one experiment is the same experiment at 4, 10 or 100 Mbit/s.

Many long flows: long_streams (default 1) runs that many of the long
TCP flows in one iperf3 process (iperf3 -P), so that hundreds of flows
need tens of processes, not hundreds; each stream is a flow of its own in
the results. long_flows_by_load = true (a "long" workload only) makes the
load the share of long_flows that a run starts (round(long_flows x load)):
one file then sweeps the number of flows, as the papers' "number of
connections" axes do; without it the load of a long workload starts
nothing and names the runs only.

Flows that join on a schedule: long_steps = [[0, 17], [50, 33], ...]
(a long workload, without long_flows_by_load) starts the long flows in
steps, each [SECOND, TOTAL] bringing the run's long flows up to TOTAL at
SECOND (each process of a step at its seeded offset after it), the last
TOTAL being long_flows: a load that grows during the run, as the papers'
"50 more flows every 50 s". All flows end with the run.

Connections that exist before the load: long_connect = S (a "long"
workload without UDP flows or steps) gives the long flows up to S seconds
to connect, every one, across a bottleneck that lets their handshakes
and iperf3's control messages go first (testbed.connect_qdisc), before
the qdisc under test goes on; the run's time (its warm-up, its measured
window) begins then. The papers' "N
long-lived connections" exist before they are measured; started under the
qdisc under test, a process's streams connect across the queue their
siblings already fill, and a handshake, which carries no ECN, is dropped
where the data would be marked (run.Bench.connect_first says more).

Unresponsive traffic: udp_rate gives udp_flows (default 1) UDP flows
(iperf3) beside the workload, each sending at that rate, a rate
("2mbit") or a multiple of the fair share ("share:2"), the share being
the bottleneck's rate over the long-lived flows (the long TCP flows of a
long workload and the UDP flows), computed when the file is read.

A [[qdisc]] may give the upstream bottleneck (requests and ACKs) a qdisc
of its own, up_spec (default: the same words as downstream), for a qdisc
that acts on every packet whether or not a queue forms, such as netem's
fixed loss, which must not drop the ACKs.

End hosts with hosts = "paper" clamp their window to 16 KB; paper_window
sets another clamp in bytes, or none (0), for a paper whose TCP had no
window limit.

A [[qdisc]] may run on a bottleneck of its own rate, at least the
experiment's: the papers' uncongested reference is the same population of
users on a link ten times faster. Its users are still those of the
experiment's rate (the load names a population, not a fraction of its
link), so it is offered exactly the workload of the other qdiscs of that
load and seed; its link and its time placeholders follow its own rate.
"""

from __future__ import annotations

import itertools
import random
import re
import tomllib
from dataclasses import dataclass, field
from typing import Any

_RATE_UNITS = {"bit": 1, "kbit": 10**3, "mbit": 10**6, "gbit": 10**9}
_NAME = re.compile(r"^[a-z0-9][a-z0-9_.-]*$")
# web: webgen's browsing model (think times, pages); closed: webgen's
# closed-loop model (no think time, one object per connection, another
# response-size distribution), the second workload family
WORKLOADS = ("web", "long", "web+long", "closed", "closed+long", "flent")
# end-host profiles (testbed.host_profile says what each sets)
HOSTS = ("linux", "paper")
# the window (bytes) that hosts = "paper" clamp to unless paper_window
# says otherwise (testbed.HOST_PROFILES)
PAPER_WINDOW = 16384
# a full-sized packet as the bottleneck's qdisc counts it: 1500 bytes of IP
# and the 14 of the Ethernet header (veth hands the qdisc the frame)
PKT_BYTES = 1514
_TIME = re.compile(r"\{(\d+(?:\.\d+)?)(us|ms|s)(?::(bytes|packets))?\}")
_TIME_UNITS = {"us": 1e-6, "ms": 1e-3, "s": 1.0}
# the flent tests the harness runs: the AQM community's standard ones
FLENT_TESTS = ("tcp_nup", "tcp_ndown", "rrul", "rrul_be", "rtt_fair4be")


def parse_rate(text: str) -> int:
    """tc's rate syntax ("10mbit", "100kbit") in bit/s."""
    m = re.fullmatch(r"(\d+(?:\.\d+)?)\s*([a-z]+)", text.strip().lower())
    if not m or m.group(2) not in _RATE_UNITS:
        raise ValueError(f"rate {text!r}: NUMBER followed by bit, kbit, mbit or gbit expected")
    bps = round(float(m.group(1)) * _RATE_UNITS[m.group(2)])
    if bps <= 0:
        raise ValueError(f"rate {text!r} must be positive")
    return bps


# [[qdisc]] module: the project's ("") or the test kernel's ("linux")
MODULES = ("", "linux")


def time_to_queue(seconds: float, rate_bps: int, unit: str = "packets") -> int:
    """What the bottleneck sends in SECONDS at RATE_BPS, in full-sized
    packets (PKT_BYTES, rounded, at least 1) or in bytes."""
    nbytes = seconds * rate_bps / 8
    if unit == "bytes":
        return max(1, round(nbytes))
    return max(1, round(nbytes / PKT_BYTES))


def expand_spec(spec: str, rate_bps: int) -> str:
    """SPEC with every time placeholder ("{29ms}", "{29ms:bytes}") replaced
    by its packets or bytes at RATE_BPS."""

    def sub(m: re.Match[str]) -> str:
        secs = float(m.group(1)) * _TIME_UNITS[m.group(2)]
        return str(time_to_queue(secs, rate_bps, m.group(3) or "packets"))

    out = _TIME.sub(sub, spec)
    if "{" in out or "}" in out:
        raise ValueError(f"spec {spec!r}: a placeholder is {{TIME}} or {{TIME:bytes}}")
    return out


def describe_spec(spec: str, rate_bps: int) -> str:
    """SPEC with each placeholder shown as its value and its time:
    "pfifo limit {290ms}" at 10 Mbit/s is "pfifo limit 239 (290ms)"."""

    def sub(m: re.Match[str]) -> str:
        secs = float(m.group(1)) * _TIME_UNITS[m.group(2)]
        unit = m.group(3) or "packets"
        return f"{time_to_queue(secs, rate_bps, unit)} ({m.group(1)}{m.group(2)})"

    return _TIME.sub(sub, spec)


@dataclass(frozen=True)
class Qdisc:
    """One configuration under test: a name for the plots, tc's words.

    ecn_spec is what the runs with ECN at the end hosts install instead
    (for most AQMs marking is an option of the qdisc: "pi ... ecn"); without
    it they install spec. up_spec is what the upstream bottleneck installs
    in every run (empty: the same as downstream). ecn_runs = false leaves
    the qdisc out of those
    runs (a queue that cannot mark, such as pfifo, would repeat its run).
    module = "linux" runs the test kernel's own module of the kind where the
    project has one of the same name (sfb): the two cannot be loaded at
    once, so the runner swaps them; "" (the default) runs the project's.
    rate_bps is the bottleneck's rate in this qdisc's runs (0: the
    experiment's).
    """

    name: str
    spec: str
    ecn_spec: str = ""
    ecn_runs: bool = True
    module: str = ""
    rate_bps: int = 0
    up_spec: str = ""

    @property
    def kind(self) -> str:
        return self.spec.split()[0]

    def template_for(self, ecn: bool) -> str:
        """The spec of a run with or without ECN at the end hosts, as the
        experiment gives it (time placeholders unexpanded)."""
        return self.ecn_spec if ecn and self.ecn_spec else self.spec

    def spec_for(self, ecn: bool, rate_bps: int = 0) -> str:
        """The tc words of a run with or without ECN at the end hosts, time
        placeholders converted at RATE_BPS."""
        spec = self.template_for(ecn)
        return expand_spec(spec, rate_bps) if rate_bps else spec

    def up_spec_for(self, ecn: bool, rate_bps: int = 0) -> str:
        """The tc words of the upstream bottleneck in a run with or without
        ECN: up_spec, else the same as downstream (spec_for)."""
        if not self.up_spec:
            return self.spec_for(ecn, rate_bps)
        return expand_spec(self.up_spec, rate_bps) if rate_bps else self.up_spec


@dataclass(frozen=True)
class Experiment:
    """A whole comparison, as read from its file."""

    name: str
    description: str
    rate_bps: int
    duration_s: float
    warmup_s: float
    tuning_seeds: list[int]
    reporting_seeds: list[int]
    loads: list[float]
    ecn: list[bool]
    clients: int
    servers: int
    rtt_ms: tuple[float, float]
    workload: str
    qdiscs: list[Qdisc]
    cc: str = "reno"
    long_flows: int = 0
    # the rate of each unresponsive UDP flow (0: none) and their number
    udp_rate_bps: int = 0
    udp_flows: int = 0
    # N of udp_rate = "share:N" (0: the rate was given as a rate)
    udp_share: float = 0.0
    calibrate_users: int = 40
    flent_tests: list[str] = field(default_factory=list)
    flent_streams: int = 4
    window: int = 0
    # seconds after the run's end in which no exchange starts and those
    # under way may finish (webgen -g); what is still unfinished then is
    # counted and censored, never left out
    drain_s: float = 10.0
    hosts: str = "linux"
    # fixed RTT classes (ms), dealt to the client hosts in turn, instead of
    # seeded draws from rtt_ms
    rtt_classes_ms: list[float] = field(default_factory=list)
    # the qdisc the others are compared with, paired by seed
    reference: str = ""
    # the seed whose testbed calibrates the load per user (0: the first
    # tuning seed, else the first reporting seed)
    calibration_seed: int = 0
    # long TCP flows per iperf3 process (iperf3 -P)
    long_streams: int = 1
    # a run starts round(long_flows x load) long flows (a long workload)
    long_flows_by_load: bool = False
    # (second, total long flows from then on) of each step of a run whose
    # long flows join in steps (empty: all start at once)
    long_steps: list[tuple[float, int]] = field(default_factory=list)
    # the window clamp (bytes) of hosts = "paper" (0: none)
    paper_window: int = PAPER_WINDOW
    # at most how long the long flows get to connect before the qdisc
    # under test goes on and the run's time begins (0: no such phase)
    long_connect_s: float = 0.0

    @property
    def seeds(self) -> list[int]:
        return self.tuning_seeds + self.reporting_seeds

    @property
    def seed(self) -> int:
        """The seed of the calibration."""
        return self.calibration_seed or self.seeds[0]

    @property
    def uses_webgen(self) -> bool:
        """Whether the workload has webgen's exchanges (web or closed)."""
        return self.workload.split("+")[0] in ("web", "closed")

    def reference_qdisc(self) -> str:
        return self.reference or self.qdiscs[0].name

    def rate_of(self, q: Qdisc) -> int:
        """The bottleneck's rate in Q's runs: its own, else the experiment's."""
        return q.rate_bps or self.rate_bps

    def client_rtts_ms(self, seed: int | None = None) -> list[float]:
        """The minimum RTT of each client host: the RTT classes in turn, or
        drawn uniformly from rtt_ms with SEED (a flow's RTT is its host's)."""
        if self.rtt_classes_ms:
            k = len(self.rtt_classes_ms)
            return [float(self.rtt_classes_ms[i % k]) for i in range(self.clients)]
        rng = random.Random(self.seed if seed is None else seed)
        lo, hi = self.rtt_ms
        return [round(rng.uniform(lo, hi), 1) for _ in range(self.clients)]

    def long_flows_at(self, load: float) -> int:
        """The long TCP flows a run at LOAD starts: long_flows, or with
        long_flows_by_load its share LOAD of them (rounded, at least 1)."""
        if not self.long_flows_by_load:
            return self.long_flows
        return max(1, round(self.long_flows * load))

    def long_processes(self, flows: int) -> list[int]:
        """The streams of each iperf3 process that runs FLOWS long flows:
        as few processes as long_streams allows, the flows spread evenly
        over them (the first ones one more); one stream a process, as
        always, when long_streams is 1."""
        if flows <= 0:
            return []
        procs = -(-flows // self.long_streams)
        return [flows // procs + (i < flows % procs) for i in range(procs)]

    def long_schedule(self, flows: int) -> list[tuple[float, int]]:
        """(second, streams) of each iperf3 process that runs FLOWS long
        flows: all at second 0 (long_processes), or with long_steps the
        processes of each step's new flows at its second."""
        if not self.long_steps:
            return [(0.0, s) for s in self.long_processes(flows)]
        out: list[tuple[float, int]] = []
        before = 0
        for second, total in self.long_steps:
            out += [(second, s) for s in self.long_processes(total - before)]
            before = total
        return out

    def long_starts_s(self, seed: int) -> list[float]:
        """The start offset of each long flow (and one more last when there
        is UDP traffic), in [0, 1) s, drawn with SEED: a seed moves the
        start times too. The last was the single UDP flow's, and is drawn
        and no longer used (the UDP flows, however many, all start first,
        see run.Bench.start_udp), so that the TCP flows' stay as they were
        for every experiment already run."""
        n = self.long_flows + (1 if self.udp_rate_bps else 0)
        rng = random.Random(f"long-starts-{seed}")
        return [round(rng.uniform(0, 1), 3) for _ in range(n)]

    def runs(self, seeds: list[int] | None = None) -> list[tuple[Qdisc, float, bool, int]]:
        """(qdisc, load, ecn, seed) of every run on SEEDS (default all), in
        the order they run: seed by seed, so that the runs compared on a
        seed run close together in time."""
        return [
            (q, load, e, s)
            for s in (self.seeds if seeds is None else seeds)
            for load in self.loads
            for e in self.ecn
            for q in self.qdiscs
            if q.ecn_runs or not e
        ]


def _get(table: dict[str, Any], key: str, kind: type, default: Any = None) -> Any:
    if key not in table:
        if default is None:
            raise ValueError(f"missing key {key!r}")
        return default
    value = table[key]
    if kind is float and isinstance(value, int) and not isinstance(value, bool):
        value = float(value)
    if not isinstance(value, kind) or (kind is int and isinstance(value, bool)):
        raise ValueError(f"{key!r} must be a {kind.__name__}, not {value!r}")
    return value


def load(text: str) -> Experiment:
    """An experiment from the text of its TOML file; ValueError says what
    is wrong."""
    try:
        t = tomllib.loads(text)
    except tomllib.TOMLDecodeError as e:
        raise ValueError(str(e)) from e
    name = _get(t, "name", str)
    tuning, reporting = _seeds(t)
    if not _NAME.match(name):
        raise ValueError(f"name {name!r}: lower case letters, digits, '_', '.', '-'")
    rtt = _get(t, "rtt_ms", list)
    if (
        len(rtt) != 2
        or not all(isinstance(x, int | float) for x in rtt)
        or not 0 < rtt[0] <= rtt[1]
    ):
        raise ValueError("rtt_ms must be [MIN, MAX] with 0 < MIN <= MAX")
    loads = _get(t, "loads", list)
    if not loads or not all(isinstance(x, int | float) and 0 < x <= 2 for x in loads):
        raise ValueError("loads must be fractions of the bottleneck in (0, 2]")
    ecn = _get(t, "ecn", list, [False])
    if not ecn or not all(isinstance(x, bool) for x in ecn):
        raise ValueError("ecn must be a list of booleans")
    workload = _get(t, "workload", str)
    if workload not in WORKLOADS:
        raise ValueError(f"workload {workload!r}: one of {', '.join(WORKLOADS)}")
    rate_bps = parse_rate(_get(t, "rate", str))
    long_flows = _get(t, "long_flows", int, 0)
    udp_rate_bps, udp_flows, udp_share = _udp(t, rate_bps, long_flows if "long" in workload else 0)
    qdiscs = [_qdisc(q, rate_bps) for q in _get(t, "qdisc", list)]
    names = [q.name for q in qdiscs]
    if not qdiscs or len(set(names)) != len(names):
        raise ValueError("qdisc names must be present and unique")
    exp = Experiment(
        name=name,
        description=_get(t, "description", str, ""),
        rate_bps=rate_bps,
        duration_s=_get(t, "duration", float),
        warmup_s=_get(t, "warmup", float, 0.0),
        tuning_seeds=tuning,
        reporting_seeds=reporting,
        loads=[float(x) for x in loads],
        ecn=list(ecn),
        clients=_get(t, "clients", int),
        servers=_get(t, "servers", int),
        rtt_ms=(float(rtt[0]), float(rtt[1])),
        workload=workload,
        qdiscs=qdiscs,
        cc=_get(t, "cc", str, "reno"),
        long_flows=long_flows,
        udp_rate_bps=udp_rate_bps,
        udp_flows=udp_flows,
        udp_share=udp_share,
        calibrate_users=_get(t, "calibrate_users", int, 40),
        flent_tests=list(_get(t, "flent_tests", list, [])),
        flent_streams=_get(t, "flent_streams", int, 4),
        window=_get(t, "window", int, 0),
        drain_s=_get(t, "drain", float, 10.0),
        hosts=_get(t, "hosts", str, "linux"),
        rtt_classes_ms=[float(x) for x in _get(t, "rtt_classes_ms", list, [])],
        reference=_get(t, "reference", str, ""),
        calibration_seed=_get(t, "calibration_seed", int, 0),
        long_streams=_get(t, "long_streams", int, 1),
        long_flows_by_load=_get(t, "long_flows_by_load", bool, False),
        long_steps=_steps(t),
        paper_window=_get(t, "paper_window", int, PAPER_WINDOW),
        long_connect_s=_get(t, "long_connect", float, 0.0),
    )
    if not 1 <= exp.clients <= 64 or not 1 <= exp.servers <= 64:
        raise ValueError("clients and servers must be 1..64")
    if exp.duration_s <= exp.warmup_s or exp.warmup_s < 0:
        raise ValueError("duration must exceed warmup (seconds)")
    if "long" in exp.workload and exp.long_flows <= 0:
        raise ValueError("a long workload needs long_flows > 0")
    if (exp.workload == "flent") != bool(exp.flent_tests):
        raise ValueError('flent_tests go with (and only with) workload = "flent"')
    if exp.window and not 2 * 1460 <= exp.window <= 1 << 30:
        raise ValueError("window must be 0 (the kernel's) or 2920..2^30 bytes")
    if not set(exp.flent_tests) <= set(FLENT_TESTS):
        raise ValueError(f"flent_tests: some of {', '.join(FLENT_TESTS)}")
    if exp.drain_s < 0:
        raise ValueError("drain must be >= 0 (seconds)")
    if exp.hosts not in HOSTS:
        raise ValueError(f"hosts {exp.hosts!r}: one of {', '.join(HOSTS)}")
    if not all(0 < x <= 2000 for x in exp.rtt_classes_ms):
        raise ValueError("rtt_classes_ms: RTTs in (0, 2000] ms")
    if exp.reference and exp.reference not in names:
        raise ValueError(f"reference {exp.reference!r} is not a qdisc of the experiment")
    if exp.window and exp.hosts == "paper":
        raise ValueError('hosts = "paper" sets its own window (16 KB): no window key')
    if not 1 <= exp.long_streams <= 128:
        raise ValueError("long_streams must be 1..128 (iperf3 -P)")
    if exp.long_flows_by_load and (exp.workload != "long" or exp.udp_share):
        raise ValueError(
            'long_flows_by_load needs workload = "long" and no udp_rate "share:N" '
            "(the share would differ by load)"
        )
    if "paper_window" in t and exp.hosts != "paper":
        raise ValueError('paper_window goes with hosts = "paper" (elsewhere: window)')
    if exp.paper_window and not 2 * 1460 <= exp.paper_window <= 1 << 30:
        raise ValueError("paper_window must be 0 (no clamp) or 2920..2^30 bytes")
    _check_steps(exp)
    if not 0 <= exp.long_connect_s <= 300:
        raise ValueError("long_connect must be 0 (none) to 300 seconds")
    if exp.long_connect_s and (exp.workload != "long" or exp.udp_rate_bps or exp.long_steps):
        raise ValueError('long_connect needs workload = "long" without udp_rate or long_steps')
    for q in qdiscs:
        for spec in (q.spec, q.ecn_spec, q.up_spec):
            expand_spec(spec, exp.rate_of(q))
    return exp


def _steps(t: dict[str, Any]) -> list[tuple[float, int]]:
    """long_steps as (second, total) pairs, each of a number and an integer."""
    steps = _get(t, "long_steps", list, [])
    out = []
    for x in steps:
        if (
            not isinstance(x, list)
            or len(x) != 2
            or not isinstance(x[0], int | float)
            or isinstance(x[0], bool)
            or not isinstance(x[1], int)
            or isinstance(x[1], bool)
        ):
            raise ValueError("long_steps: [SECOND, TOTAL FLOWS] pairs, such as [[0, 10], [50, 20]]")
        out.append((float(x[0]), x[1]))
    return out


def _check_steps(exp: Experiment) -> None:
    """long_steps: with long flows not set by the load, from second 0,
    seconds and totals increasing, within the run, up to long_flows."""
    steps = exp.long_steps
    if not steps:
        return
    if "long" not in exp.workload or exp.long_flows_by_load:
        raise ValueError("long_steps needs long flows (a long workload) not set by the load")
    seconds, totals = [s for s, _ in steps], [n for _, n in steps]
    if seconds[0] != 0 or any(b <= a for a, b in itertools.pairwise(seconds)):
        raise ValueError("long_steps: the first at second 0, the seconds increasing")
    if seconds[-1] >= exp.duration_s:
        raise ValueError("long_steps: every step within the run (before its duration)")
    if totals[0] < 1 or any(b <= a for a, b in itertools.pairwise(totals)):
        raise ValueError("long_steps: the totals increasing from at least 1")
    if totals[-1] != exp.long_flows:
        raise ValueError(f"long_steps: the last total must be long_flows ({exp.long_flows})")


_SHARE = re.compile(r"share:(\d+(?:\.\d+)?)")


def fair_share_bps(rate_bps: float, long_flows: int, udp_flows: int) -> float:
    """A long-lived flow's fair share of RATE_BPS among LONG_FLOWS TCP
    flows and UDP_FLOWS UDP flows."""
    return rate_bps / (long_flows + udp_flows)


def _udp(t: dict[str, Any], rate_bps: int, long_flows: int) -> tuple[int, int, float]:
    """The UDP traffic of a file: each flow's rate in bit/s, the number of
    flows and N of udp_rate = "share:N" (0 for a rate), all 0 without
    udp_rate. "share:N" is N times the fair share of RATE_BPS among
    LONG_FLOWS long TCP flows and the UDP flows (rounded to a bit/s)."""
    if "udp_rate" not in t:
        if "udp_flows" in t:
            raise ValueError("udp_flows needs udp_rate (the rate of each UDP flow)")
        return 0, 0, 0.0
    text = _get(t, "udp_rate", str)
    flows = _get(t, "udp_flows", int, 1)
    if flows < 1:
        raise ValueError(f"udp_flows must be at least 1, not {flows}")
    if not text.strip().lower().startswith("share:"):
        return parse_rate(text), flows, 0.0
    m = _SHARE.fullmatch(text.strip().lower())
    share = float(m.group(1)) if m else 0.0
    if share <= 0:
        raise ValueError(f'udp_rate {text!r}: "share:N" with N > 0 (times the fair share)')
    bps = round(share * fair_share_bps(rate_bps, long_flows, flows))
    if bps <= 0:
        raise ValueError(f"udp_rate {text!r} comes to less than 1 bit/s")
    return bps, flows, share


def _qdisc(q: Any, exp_rate_bps: int) -> Qdisc:
    """One [[qdisc]] table, checked; EXP_RATE_BPS is the experiment's rate,
    below which a qdisc's own rate is refused (the population is sized for
    the experiment's: below it the qdisc would see more than the load)."""
    if not isinstance(q, dict):
        raise ValueError("each [[qdisc]] needs name and spec")
    qd = Qdisc(
        _get(q, "name", str),
        _get(q, "spec", str),
        _get(q, "ecn_spec", str, ""),
        _get(q, "ecn_runs", bool, True),
        _get(q, "module", str, ""),
        parse_rate(_get(q, "rate", str)) if "rate" in q else 0,
        _get(q, "up_spec", str, ""),
    )
    if qd.module not in MODULES:
        raise ValueError(f"qdisc {qd.name!r}: module must be one of {MODULES}")
    if not _NAME.match(qd.name) or not qd.spec.strip():
        raise ValueError(f"qdisc {qd.name!r}: bad name or empty spec")
    if qd.ecn_spec and qd.ecn_spec.split()[0] != qd.kind:
        raise ValueError(f"qdisc {qd.name!r}: ecn_spec must be of the same kind as spec")
    if qd.ecn_spec and not qd.ecn_runs:
        raise ValueError(f"qdisc {qd.name!r}: ecn_spec with ecn_runs = false")
    if qd.rate_bps and qd.rate_bps < exp_rate_bps:
        raise ValueError(
            f"qdisc {qd.name!r}: rate {q['rate']!r} is below the experiment's "
            f"({exp_rate_bps} bit/s); a qdisc's own rate may only be higher"
        )
    return qd


def _seeds(t: dict[str, Any]) -> tuple[list[int], list[int]]:
    """The tuning and the reporting seeds of a file ("seed = N" is
    tuning_seeds = [N]): positive, unique, the two sets disjoint."""
    if "seed" in t and "tuning_seeds" in t:
        raise ValueError("seed is short for tuning_seeds: give one of them")
    tuning = [_get(t, "seed", int)] if "seed" in t else _get(t, "tuning_seeds", list, [])
    reporting = _get(t, "reporting_seeds", list, [])
    seeds = tuning + reporting
    if not seeds:
        raise ValueError("no seed: give tuning_seeds and/or reporting_seeds (or seed)")
    if not all(isinstance(x, int) and not isinstance(x, bool) and x > 0 for x in seeds):
        raise ValueError("seeds are positive integers")
    if len(set(seeds)) != len(seeds):
        raise ValueError("a seed is listed twice (tuning and reporting seeds never meet)")
    return tuning, reporting
