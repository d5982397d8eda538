"""Experiment files (scripts/bench/experiments/*.toml): what to run.

An experiment names the bottleneck, the paths, the workload and the qdiscs
to compare; every run of it with the same seed builds the same testbed
(the same RTT per client host) and offers the same request sequence.
"""

from __future__ import annotations

import random
import re
import tomllib
from dataclasses import dataclass, field
from typing import Any

_RATE_UNITS = {"bit": 1, "kbit": 10**3, "mbit": 10**6, "gbit": 10**9}
_NAME = re.compile(r"^[a-z0-9][a-z0-9_.-]*$")
WORKLOADS = ("web", "long", "web+long", "flent")
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


@dataclass(frozen=True)
class Qdisc:
    """One configuration under test: a name for the plots, tc's words.

    ecn_spec is what the runs with ECN at the end hosts install instead
    (for most AQMs marking is an option of the qdisc: "pi ... ecn"); without
    it they install spec. ecn_runs = false leaves the qdisc out of those
    runs (a queue that cannot mark, such as pfifo, would repeat its run).
    module = "linux" runs the test kernel's own module of the kind where the
    project has one of the same name (sfb): the two cannot be loaded at
    once, so the runner swaps them; "" (the default) runs the project's.
    """

    name: str
    spec: str
    ecn_spec: str = ""
    ecn_runs: bool = True
    module: str = ""

    @property
    def kind(self) -> str:
        return self.spec.split()[0]

    def spec_for(self, ecn: bool) -> str:
        """The tc words of a run with or without ECN at the end hosts."""
        return self.ecn_spec if ecn and self.ecn_spec else self.spec


@dataclass(frozen=True)
class Experiment:
    """A whole comparison, as read from its file."""

    name: str
    description: str
    rate_bps: int
    duration_s: float
    warmup_s: float
    seed: int
    loads: list[float]
    ecn: list[bool]
    clients: int
    servers: int
    rtt_ms: tuple[float, float]
    workload: str
    qdiscs: list[Qdisc]
    cc: str = "reno"
    long_flows: int = 0
    udp_rate_bps: int = 0
    calibrate_users: int = 40
    flent_tests: list[str] = field(default_factory=list)
    flent_streams: int = 4
    window: int = 0

    def client_rtts_ms(self) -> list[float]:
        """The minimum RTT of each client host, drawn uniformly from
        rtt_ms with the experiment's seed (a flow's RTT is its host's)."""
        rng = random.Random(self.seed)
        lo, hi = self.rtt_ms
        return [round(rng.uniform(lo, hi), 1) for _ in range(self.clients)]

    def runs(self) -> list[tuple[Qdisc, float, bool]]:
        """(qdisc, load, ecn) of every run, in the order they run."""
        return [
            (q, load, e)
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
    qdiscs = []
    for q in _get(t, "qdisc", list):
        if not isinstance(q, dict):
            raise ValueError("each [[qdisc]] needs name and spec")
        qd = Qdisc(
            _get(q, "name", str),
            _get(q, "spec", str),
            _get(q, "ecn_spec", str, ""),
            _get(q, "ecn_runs", bool, True),
            _get(q, "module", str, ""),
        )
        if qd.module not in MODULES:
            raise ValueError(f"qdisc {qd.name!r}: module must be one of {MODULES}")
        if not _NAME.match(qd.name) or not qd.spec.strip():
            raise ValueError(f"qdisc {qd.name!r}: bad name or empty spec")
        if qd.ecn_spec and qd.ecn_spec.split()[0] != qd.kind:
            raise ValueError(f"qdisc {qd.name!r}: ecn_spec must be of the same kind as spec")
        if qd.ecn_spec and not qd.ecn_runs:
            raise ValueError(f"qdisc {qd.name!r}: ecn_spec with ecn_runs = false")
        qdiscs.append(qd)
    names = [q.name for q in qdiscs]
    if not qdiscs or len(set(names)) != len(names):
        raise ValueError("qdisc names must be present and unique")
    exp = Experiment(
        name=name,
        description=_get(t, "description", str, ""),
        rate_bps=parse_rate(_get(t, "rate", str)),
        duration_s=_get(t, "duration", float),
        warmup_s=_get(t, "warmup", float, 0.0),
        seed=_get(t, "seed", int),
        loads=[float(x) for x in loads],
        ecn=list(ecn),
        clients=_get(t, "clients", int),
        servers=_get(t, "servers", int),
        rtt_ms=(float(rtt[0]), float(rtt[1])),
        workload=workload,
        qdiscs=qdiscs,
        cc=_get(t, "cc", str, "reno"),
        long_flows=_get(t, "long_flows", int, 0),
        udp_rate_bps=parse_rate(t["udp_rate"]) if "udp_rate" in t else 0,
        calibrate_users=_get(t, "calibrate_users", int, 40),
        flent_tests=list(_get(t, "flent_tests", list, [])),
        flent_streams=_get(t, "flent_streams", int, 4),
        window=_get(t, "window", int, 0),
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
    return exp
