"""Per-packet cost of the qdiscs (make bench-pps): the plan the test VM
runs, pktgen's result text, and the summary of a results folder.

The kernel's pktgen, in queue_xmit mode, builds every packet and hands it
to dev_queue_xmit() on a dummy device, so each one goes through the qdisc
layer, in one of these states of the queue:
- "empty": the qdisc is the device's root and its queue stays empty, the
  dequeue following each enqueue at once; except that pfifo, codel and
  fq_codel set TCQ_F_CAN_BYPASS, with which the kernel hands a packet
  that finds their queue empty straight to the device, never calling
  their enqueue or dequeue (__dev_xmit_skb()): their figure there is of
  that bypass, which no qdisc of ours takes (BYPASS below);
- "leaf" (not run by default): the qdisc as the only leaf of a prio, which
  never bypasses, so every qdisc enqueues and dequeues every packet, at
  the price of prio's own work, the same for all;
- "standing": the qdisc as the leaf of an htb class at a rate far below
  pktgen's, so every enqueue meets a full or growing queue, and nearly
  every packet is dropped;
- "mq" (not run by default): the qdisc as both children of mq on ppsq0,
  a dummy device with two tx queues (handles 11: and 12:), measured
  twice: pktgen's thread on CPU 0 (kpktgend_0) alone, then its threads
  on CPUs 0 and 1 together. XPS maps each CPU to its own tx queue:
  pktgen's packets have no socket, so dev_queue_xmit() picks their queue
  by the sending CPU (netdev_pick_tx()), where without XPS a flow hash
  would send both threads' packets into both queues. So each thread
  sends through one instance, with flows of its own. mq's children are
  the tx queues' own qdiscs (mq is not on the packets' path), so pfifo,
  codel and fq_codel take the bypass here as in "empty". A qdisc whose
  instances share no lock or cache line scales from one thread to two
  as fq_codel does (near 2 on 2 CPUs if the emulation runs the two vCPUs
  in parallel). No noqueue row: mq gives each tx queue a child (the
  default qdisc) until it is given one, so a dummy device with mq has
  children whatever we do, and the device alone is not measurable there.
The dummy device frees what it is given. A measurement's cost per packet
is pktgen's own elapsed time over the packets it offered, sent and
refused alike (NET_XMIT_DROP and NET_XMIT_CN count as pktgen's "errors",
not in its pps), so it is the time of one pass through pktgen's loop:
building the packet, the stack, the qdisc, and freeing it. The row
"noqueue" (the dummy device without a qdisc) is that loop without a
qdisc.

Flows: pktgen steps the UDP source port and the source address one by one
with every packet (mod_cur_headers(), the sequential modes), the port
through [udp_src_min, udp_src_max) and the address through [src_min,
src_max] (both ends included: the two ranges differ in pktgen). With A
addresses and P ports, A and P coprime, the k-th packet carries the
(k mod P)-th port and the (k mod A)-th address, which by the Chinese
remainder theorem are A x P = N
distinct pairs, each sent once every N packets, in the same order in
every round: N flows, round robin. split_flows() finds such an A and P
for N (1,000,000 = 64 addresses x 15,625 ports); pktgen's own "flows"
and "flowlen" remember a destination address per flow, at most 65,536 of
them (MAX_CFLOWS), so they are left off.

Rounds: round r runs every (queue, flows) cell, and in each every qdisc
once, in an order shuffled per round and cell (seeded, so a plan can be
run again). Each figure is the median over the rounds; the ratios are of
medians, against fq_codel's in the same run. In an mq cell each qdisc's
two measurements (1 and 2 threads) come one after the other, in an order
drawn per round, cell and qdisc; FLOWS there is the number of flows of
each thread, and so of each queue: thread 0 sends the plan's range (the
same as in the other states), thread 1 as many addresses just above it,
2 x FLOWS flows in all with two threads.

Usage: python3 -m aqmtools.bench.pps plan [--rounds N] [--flows N,N,...]
           [--states S,S,...] [--only NAME]... [--seed N] [--count]
       python3 -m aqmtools.bench.pps report OUT [-o FILE]
  plan: one line per step for scripts/bench/pps-guest.sh, the instance
  measurements first:
    instance - - - NAME KIND MODULE - - - - SPEC
    measure ROUND STATE FLOWS NAME KIND MODULE SRC_MIN SRC_MAX SPORT_MIN SPORT_MAX SPEC
    measure ROUND mq FLOWS NAME KIND MODULE SRC_MIN SRC_MAX SPORT_MIN SPORT_MAX THREADS
        SRC1_MIN SRC1_MAX SPEC   (one line; SRC1_*: thread 1's addresses, "- -" at 1 thread)
  (SPEC "-": no qdisc; MODULE "ours", "linux" or "-", see Qdisc)
  report: OUT/raw.jsonl (or raw.jsonl.xz) into OUT/summary.md, or FILE
  ("-": standard output); OUT may also be the raw file itself
"""

from __future__ import annotations

import argparse
import ipaddress
import json
import lzma
import random
import re
import statistics
import sys
from collections import defaultdict
from collections.abc import Callable, Iterable, Iterator, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any


@dataclass(frozen=True)
class Qdisc:
    """A qdisc of the comparison.

    spec: tc's words for it (after "handle 10:"), "" for no qdisc;
    module: "ours" (net/sched/sch_KIND.ko of this tree), "linux" (the test
    kernel's sch_KIND.ko, loaded in place of ours: the two sch_sfb have
    one name) or "-" (built into the test kernel); ours: one of this
    project's (the flow-scaling goal and the memory it reports)."""

    name: str
    kind: str
    spec: str
    module: str = "-"
    ours: bool = False
    label: str = ""

    @property
    def title(self) -> str:
        return self.label or self.name

    @property
    def baseline(self) -> bool:
        """No qdisc: pktgen and the stack alone (the empty queue only)."""
        return not self.spec


# the settings of scripts/bench/experiments/short.toml: limit 1000 packets
# where the qdisc takes one, each one's defaults otherwise
QDISCS: tuple[Qdisc, ...] = (
    Qdisc("noqueue", "noqueue", "", label="noqueue (no qdisc)"),
    Qdisc("pfifo", "pfifo", "pfifo limit 1000"),
    Qdisc(
        "red",
        "red",
        "red limit 360000 min 30000 max 90000 avpkt 1000 burst 45 bandwidth 10mbit adaptive",
    ),
    Qdisc("pie", "pie", "pie limit 1000"),
    Qdisc("codel", "codel", "codel limit 1000"),
    Qdisc("fq_codel", "fq_codel", "fq_codel limit 1000"),
    Qdisc("hhf", "hhf", "hhf limit 1000"),
    Qdisc("sfb-linux", "sfb", "sfb limit 1000", "linux", label="sfb (Linux's)"),
    Qdisc("dcn", "dcn", "dcn limit 1000", "ours", True),
    Qdisc("pi", "pi", "pi limit 1000", "ours", True),
    Qdisc("rem", "rem", "rem limit 1000", "ours", True),
    Qdisc("ared", "ared", "ared limit 1000", "ours", True),
    Qdisc("riops", "riops", "riops limit 1000", "ours", True),
    Qdisc("afd", "afd", "afd limit 1000", "ours", True),
    Qdisc("blue", "blue", "blue limit 1000", "ours", True),
    Qdisc("sfb", "sfb", "sfb limit 1000", "ours", True, label="sfb (ours)"),
)
BY_NAME = {q.name: q for q in QDISCS}
REFERENCE = "fq_codel"
FLOWS: tuple[int, ...] = (1, 1_000, 100_000, 1_000_000)
STATES: tuple[str, ...] = ("empty", "standing")
# mq last: the other states' cells come first in a round, so their
# shuffled orders do not change when it is added
ALL_STATES: tuple[str, ...] = ("empty", "leaf", "standing", "mq")
# the qdiscs that set TCQ_F_CAN_BYPASS (the test kernel's sch_fifo.c,
# sch_codel.c, sch_fq_codel.c): as the root with the queue empty, the
# kernel sends around them
BYPASS = frozenset({"pfifo", "codel", "fq_codel"})
STATE_TITLES = {
    "empty": "Queue empty (the qdisc as root: the dequeue follows at once, or the bypass)",
    "leaf": "Queue empty, the qdisc as the leaf of a prio (no bypass)",
    "standing": "Standing queue and drops (the qdisc as the leaf of a rate-limited htb)",
    "mq": "Multiqueue (the qdisc as each child of mq, pktgen on 1 and 2 threads)",
}
# pktgen's threads of the mq state (kpktgend_0 and kpktgend_1), one a tx queue
MQ_THREADS = 2
# a 2-thread run below fq_codel's scaling by more than this share is marked
MQ_MARGIN = 0.1
ROUNDS = 5
SEED = 1

# the flows' source addresses: from 198.18.0.1 in 198.18.0.0/15 (RFC 2544's
# benchmarking range; the packets never leave the dummy device)
ADDR_BASE = "198.18.0.1"
ADDR_SPAN = 131_070
# source ports from 1024; udp_src_max, exclusive, is a u16 in pktgen
PORT_BASE = 1024
PORT_SPAN = 65_535 - PORT_BASE


# --- flows -------------------------------------------------------------------
def factorize(n: int) -> dict[int, int]:
    """N's prime factors and their powers."""
    if n < 1:
        raise ValueError(f"{n}: a number of flows is at least 1")
    out: dict[int, int] = {}
    p = 2
    while p * p <= n:
        while n % p == 0:
            out[p] = out.get(p, 0) + 1
            n //= p
        p += 1
    if n > 1:
        out[n] = out.get(n, 0) + 1
    return out


def unitary_divisors(n: int) -> list[int]:
    """The divisors d of N coprime with N / d, ascending."""
    divs = [1]
    for p, k in factorize(n).items():
        divs += [d * p**k for d in divs]
    return sorted(divs)


@dataclass(frozen=True)
class FlowSplit:
    """N flows as ADDRS source addresses x PORTS source ports, coprime."""

    addrs: int
    ports: int

    @property
    def flows(self) -> int:
        return self.addrs * self.ports

    def pktgen(self, part: int = 0) -> dict[str, str]:
        """pktgen's settings: src_min..src_max, both included, and
        udp_src_min..udp_src_max, the maximum excluded (equal for one
        port: pktgen then leaves the port alone). PART k > 0: the k-th
        range of as many addresses after the first (another thread's
        flows in the mq state), the same ports."""
        base = ipaddress.IPv4Address(ADDR_BASE) + part * self.addrs
        return {
            "src_min": str(base),
            "src_max": str(base + self.addrs - 1),
            "udp_src_min": str(PORT_BASE),
            "udp_src_max": str(PORT_BASE + (self.ports if self.ports > 1 else 0)),
        }


def split_flows(n: int, max_addrs: int = ADDR_SPAN, max_ports: int = PORT_SPAN) -> FlowSplit:
    """N flows as coprime numbers of addresses and ports, the fewest
    addresses that leave at most MAX_PORTS ports."""
    for a in unitary_divisors(n):
        if a <= max_addrs and n // a <= max_ports:
            return FlowSplit(a, n // a)
    raise ValueError(
        f"{n} flows: no coprime split into <= {max_addrs} addresses x <= {max_ports} ports"
    )


def split_flows_mq(n: int) -> FlowSplit:
    """N flows of each of the mq state's threads: as split_flows(), the
    same split unless it takes more addresses than one thread's share of
    the span (MQ_THREADS disjoint ranges in it)."""
    return split_flows(n, max_addrs=ADDR_SPAN // MQ_THREADS)


def pktgen_flows(settings: dict[str, str], count: int) -> Iterator[tuple[int, int]]:
    """The (source address, source port) of COUNT packets as pktgen steps
    them (pktgen_setup_inject(), then mod_cur_headers() before each
    packet, without the random flags): a model for the tests."""
    smin = int(ipaddress.IPv4Address(settings["src_min"]))
    smax = int(ipaddress.IPv4Address(settings["src_max"]))
    pmin, pmax = int(settings["udp_src_min"]), int(settings["udp_src_max"])
    saddr, port = smin, pmin
    for _ in range(count):
        if pmin < pmax:
            port += 1
            if port >= pmax:
                port = pmin
        if smin < smax:
            saddr += 1
            if saddr > smax:
                saddr = smin
        yield saddr, port


# --- the plan ----------------------------------------------------------------
@dataclass(frozen=True)
class Step:
    """One line of the plan: an instance measurement (memory of fresh
    instances) or a measurement of a cell in a round."""

    what: str
    qdisc: Qdisc
    round: int = 0
    state: str = ""
    flows: int = 0
    # the mq state's pktgen threads (1 or 2), 0 in the other states
    threads: int = 0

    def line(self) -> str:
        q = self.qdisc
        spec = q.spec or "-"
        if self.what == "instance":
            return f"instance - - - {q.name} {q.kind} {q.module} - - - - {spec}"
        if self.state == "mq":
            split = split_flows_mq(self.flows)
            s = split.pktgen()
            t1 = split.pktgen(1)
            src1 = f"{t1['src_min']} {t1['src_max']}" if self.threads > 1 else "- -"
            spec = f"{self.threads} {src1} {spec}"
        else:
            s = split_flows(self.flows).pktgen()
        return (
            f"measure {self.round} {self.state} {self.flows} {q.name} {q.kind} {q.module} "
            f"{s['src_min']} {s['src_max']} {s['udp_src_min']} {s['udp_src_max']} {spec}"
        )


def plan(
    qdiscs: Sequence[Qdisc] = QDISCS,
    flows: Sequence[int] = FLOWS,
    rounds: int = ROUNDS,
    seed: int = SEED,
    states: Sequence[str] = STATES,
) -> list[Step]:
    """The instance measurements of every qdisc, then ROUNDS rounds: in
    each, every (state, flows) cell, and in each cell every qdisc once in
    an order shuffled for that round and cell; in an mq cell, each
    qdisc's measurements at 1 and 2 threads together, in a drawn order."""
    steps = [Step("instance", q) for q in qdiscs if not q.baseline]
    for r in range(1, rounds + 1):
        rng = random.Random(seed * 1000 + r)
        for state in states:
            for n in flows:
                cell = [q for q in qdiscs if state == "empty" or not q.baseline]
                rng.shuffle(cell)
                if state != "mq":
                    steps += [Step("measure", q, r, state, n) for q in cell]
                    continue
                for q in cell:
                    order = (1, MQ_THREADS) if rng.random() < 0.5 else (MQ_THREADS, 1)
                    steps += [Step("measure", q, r, state, n, t) for t in order]
    return steps


# --- pktgen's result ---------------------------------------------------------
# show_results() in net/core/pktgen.c, as /proc/net/pktgen/DEV prints it
# after "Result: " (frags is -1 when pktgen holds no packet at the stop)
RESULT_RE = re.compile(
    r"Result: OK: (?P<elapsed>\d+)\(c(?P<busy>\d+)\+d(?P<idle>\d+)\) usec, "
    r"(?P<sent>\d+) \((?P<size>\d+)byte,(?P<frags>-?\d+)frags\)\s*\n"
    r"\s*(?P<pps>\d+)pps (?P<mbps>\d+)Mb/sec \((?P<bps>\d+)bps\) errors: (?P<errors>\d+)"
)


@dataclass(frozen=True)
class PktgenResult:
    """pktgen's figures of one run: elapsed, busy and idle time in us, the
    packets sent (NET_XMIT_SUCCESS), their size, its pps and bps (of the
    packets sent) and the errors (every other return: a drop)."""

    elapsed_us: int
    busy_us: int
    idle_us: int
    sent: int
    pkt_size: int
    pps: int
    bps: int
    errors: int

    @property
    def offered(self) -> int:
        """Packets pktgen handed to dev_queue_xmit()."""
        return self.sent + self.errors

    @property
    def ns_per_packet(self) -> float:
        """Elapsed time over the packets offered."""
        if self.offered == 0:
            raise ValueError("pktgen offered no packet")
        return self.elapsed_us * 1000 / self.offered

    @property
    def drop_share(self) -> float:
        return self.errors / self.offered if self.offered else 0.0

    @property
    def idle_share(self) -> float:
        """The share of the elapsed time pktgen gave the CPU away (its
        "d"): another task ran, and the cost of that run is the higher."""
        return self.idle_us / self.elapsed_us if self.elapsed_us else 0.0


def parse_result(text: str) -> PktgenResult:
    """pktgen's result in TEXT (/proc/net/pktgen/DEV after a run); a
    ValueError naming pktgen's own result line when the run gave none."""
    m = RESULT_RE.search(text)
    if not m:
        line = next((x for x in text.splitlines() if x.startswith("Result:")), "no Result line")
        raise ValueError(f"no pktgen result: {line.strip()}")
    g = {k: int(v) for k, v in m.groupdict().items()}
    return PktgenResult(
        g["elapsed"], g["busy"], g["idle"], g["sent"], g["size"], g["pps"], g["bps"], g["errors"]
    )


# --- the results -------------------------------------------------------------
@dataclass(frozen=True)
class Measurement:
    round: int
    state: str
    flows: int
    qdisc: str
    result: PktgenResult
    memory: int | None
    kmem_delta_kb: int

    @property
    def ns(self) -> float:
        return self.result.ns_per_packet


@dataclass(frozen=True)
class MqMeasurement:
    """A measurement of the mq state: pktgen's result of each thread that
    sent (kpktgend_0, then kpktgend_1)."""

    round: int
    flows: int
    qdisc: str
    results: tuple[PktgenResult, ...]

    @property
    def threads(self) -> int:
        return len(self.results)

    @property
    def mpps(self) -> float:
        """The aggregate throughput: the packets all threads offered over
        the longest of their elapsed times, in millions a second."""
        elapsed = max(r.elapsed_us for r in self.results)
        return sum(r.offered for r in self.results) / elapsed if elapsed else 0.0


@dataclass(frozen=True)
class Instance:
    """Fresh instances of a qdisc: N of them added on N devices, the
    kernel's unreclaimable slab, vmalloc and per-CPU memory before, with
    them and after their deletion (kB), and the memory one reports."""

    qdisc: str
    n: int
    kmem_kb: tuple[int, int, int]
    memory: int | None

    @property
    def slab_bytes(self) -> float:
        """Kernel memory one instance took."""
        return (self.kmem_kb[1] - self.kmem_kb[0]) * 1024 / self.n


@dataclass
class Raw:
    meta: dict[str, Any] = field(default_factory=dict)
    host: dict[str, Any] = field(default_factory=dict)
    measurements: list[Measurement] = field(default_factory=list)
    instances: list[Instance] = field(default_factory=list)
    failures: list[str] = field(default_factory=list)
    done: dict[str, Any] | None = None
    # the mq state's measurements, and how many of its steps failed (in
    # failures too)
    mq: list[MqMeasurement] = field(default_factory=list)
    mq_failed: int = 0


def leaf_of(dump: Any) -> dict[str, Any] | None:
    """The qdisc under test (handle 10:) in a tc -s -j dump."""
    if isinstance(dump, list):
        for q in dump:
            if isinstance(q, dict) and q.get("handle") == "10:":
                return q
    return None


def memory_of(dump: Any) -> int | None:
    """The bytes the qdisc under test reports in its xstats ("memory":
    dcn, afd, riops and our sfb), or None."""
    q = leaf_of(dump)
    if q is None or not isinstance(q.get("memory"), int):
        return None
    return int(q["memory"])


def read_raw(lines: Iterable[str]) -> Raw:
    """The records of raw.jsonl (scripts/bench/pps-guest.sh)."""
    raw = Raw()
    for n, line in enumerate(lines, 1):
        if not line.strip():
            continue
        try:
            rec = json.loads(line)
        except json.JSONDecodeError:
            # the last line of a run the VM's end cut short
            raw.failures.append(f"line {n}: not JSON: {line[:60]}...")
            continue
        kind = rec.get("type")
        if kind == "meta":
            raw.meta = rec
        elif kind == "done":
            raw.done = rec
        elif kind == "host":
            raw.host = rec
        elif kind == "instance":
            if rec.get("error"):
                raw.failures.append(f"instance {rec['qdisc']}: {rec['error']}")
                continue
            kb = rec["kmem_kb"]
            raw.instances.append(
                Instance(rec["qdisc"], int(rec["n"]), (kb[0], kb[1], kb[2]), memory_of(rec["tc"]))
            )
        elif kind == "measure" and rec.get("state") == "mq":
            read_mq(raw, rec)
        elif kind == "measure":
            what = f"round {rec['round']} {rec['state']} {rec['flows']} flows {rec['qdisc']}"
            if rec.get("error"):
                raw.failures.append(f"{what}: {rec['error']}")
                continue
            try:
                res = parse_result(rec["pktgen"])
            except ValueError as e:
                raw.failures.append(f"{what}: {e}")
                continue
            if res.offered == 0:
                raw.failures.append(f"{what}: pktgen offered no packet")
                continue
            kb = rec["kmem_kb"]
            raw.measurements.append(
                Measurement(
                    int(rec["round"]),
                    rec["state"],
                    int(rec["flows"]),
                    rec["qdisc"],
                    res,
                    memory_of(rec["tc"]),
                    int(kb[1]) - int(kb[0]),
                )
            )
        else:
            raise ValueError(f"line {n}: unknown record type {kind!r}")
    return raw


def read_mq(raw: Raw, rec: dict[str, Any]) -> None:
    """A measure record of the mq state into RAW: "threads" and "pktgen",
    the list of the threads' result texts (a failure if a thread gave no
    result or offered nothing)."""
    threads = int(rec.get("threads", 1))
    what = f"round {rec['round']} mq {rec['flows']} flows {rec['qdisc']}, {fmt_threads(threads)}"
    texts = rec.get("pktgen")
    if isinstance(texts, str):
        texts = [texts]
    if not isinstance(texts, list):
        texts = []
    err = str(rec.get("error") or "")
    if not err and (threads < 1 or len(texts) != threads):
        err = f"{threads} threads but {len(texts)} pktgen results"
    results: list[PktgenResult] = []
    for i, text in enumerate([] if err else texts):
        try:
            res = parse_result(str(text))
        except ValueError as e:
            err = f"thread {i}: {e}"
            break
        if res.offered == 0:
            err = f"thread {i}: pktgen offered no packet"
            break
        results.append(res)
    if err:
        raw.failures.append(f"{what}: {err}")
        raw.mq_failed += 1
        return
    raw.mq.append(MqMeasurement(int(rec["round"]), int(rec["flows"]), rec["qdisc"], tuple(results)))


def load_raw(path: Path) -> Raw:
    """A results folder's raw.jsonl (or raw.jsonl.xz), or that file."""
    if path.is_dir():
        plain = path / "raw.jsonl"
        path = plain if plain.exists() else path / "raw.jsonl.xz"
    if path.suffix == ".xz":
        with lzma.open(path, "rt", encoding="utf-8") as f:
            return read_raw(f)
    with open(path, encoding="utf-8") as f:
        return read_raw(f)


Cell = tuple[str, int, str]


def medians(ms: Iterable[Measurement]) -> dict[Cell, float]:
    """The median cost in ns of each (state, flows, qdisc) over its rounds."""
    costs: dict[Cell, list[float]] = defaultdict(list)
    for m in ms:
        costs[(m.state, m.flows, m.qdisc)].append(m.ns)
    return {c: statistics.median(v) for c, v in costs.items()}


def spreads(ms: Iterable[Measurement]) -> dict[Cell, float]:
    """(max - min) / median of each cell's costs over its rounds."""
    costs: dict[Cell, list[float]] = defaultdict(list)
    for m in ms:
        costs[(m.state, m.flows, m.qdisc)].append(m.ns)
    return {c: (max(v) - min(v)) / statistics.median(v) for c, v in costs.items()}


def ratio(meds: dict[Cell, float], state: str, flows: int, a: str, b: str) -> float | None:
    """A's median over B's in one cell, or None when either is missing."""
    x, y = meds.get((state, flows, a)), meds.get((state, flows, b))
    if x is None or y is None or y == 0:
        return None
    return x / y


def scaling(meds: dict[Cell, float], state: str, q: str, lo: int, hi: int) -> float | None:
    """Q's median at HI flows over its median at LO flows."""
    x, y = meds.get((state, hi, q)), meds.get((state, lo, q))
    if x is None or y is None or y == 0:
        return None
    return x / y


# --- goals -------------------------------------------------------------------
@dataclass(frozen=True)
class Goal:
    """QDISC's cost at most BOUND x AGAINST's, in the same cell."""

    qdisc: str
    against: str
    bound: float

    @property
    def text(self) -> str:
        times = "" if self.bound == 1 else f"{self.bound:g} x "
        return f"{BY_NAME[self.qdisc].title} <= {times}{BY_NAME[self.against].title}"


GOALS: tuple[Goal, ...] = (
    Goal("dcn", "fq_codel", 1.05),
    Goal("afd", "fq_codel", 1.05),
    Goal("pi", "pie", 1.0),
    Goal("blue", "pie", 1.0),
    Goal("sfb", "sfb-linux", 0.8),
)
# each of ours: the cost at SCALE_HI flows at most SCALE_BOUND x at SCALE_LO
SCALE_LO = 1_000
SCALE_HI = 1_000_000
SCALE_BOUND = 1.2


def verdict(value: float | None, bound: float) -> str:
    if value is None:
        return "not measured"
    return "met" if value <= bound else "missed"


# --- the summary -------------------------------------------------------------
def fmt_flows(n: int) -> str:
    return f"{n:,}"


def fmt_threads(n: int) -> str:
    return f"{n} thread" + ("" if n == 1 else "s")


def fmt_bytes(b: float | None) -> str:
    if b is None:
        return "not reported"
    if abs(b) >= 1024 * 1024:
        return f"{b / 1024 / 1024:.1f} MiB"
    if abs(b) >= 1024:
        return f"{b / 1024:.1f} KiB"
    return f"{b:.0f} B"


def cell_rows(
    qdiscs: Sequence[Qdisc],
    states: Sequence[str],
    flows: Sequence[int],
    text: Callable[[Cell], str],
) -> list[list[str]]:
    """A row per qdisc: its title, then TEXT of each (state, flows, qdisc)
    cell, the states outer and the numbers of flows inner."""
    return [[q.title, *(text((st, n, q.name)) for st in states for n in flows)] for q in qdiscs]


def table(head: Sequence[str], rows: Iterable[Sequence[str]], left: int = 1) -> list[str]:
    """A markdown table, its first LEFT columns left-aligned."""
    out = ["| " + " | ".join(head) + " |"]
    out.append("|" + "|".join("---" if i < left else "---:" for i in range(len(head))) + "|")
    out += ["| " + " | ".join(r) + " |" for r in rows]
    return out


def accel_of(vm_log: str) -> str:
    """kvm or tcg, from scripts/vm/run.sh's "booting ... with ACCEL"."""
    found = re.findall(r"booting \S+ with (\w+)", vm_log)
    return found[-1] if found else "unknown"


def summary(raw: Raw, accel: str = "unknown") -> str:
    """summary.md; ACCEL is the VM's acceleration when the raw data does
    not say it (scripts/bench-pps.sh adds it at the end)."""
    accel = raw.host.get("accel", accel)
    ms = raw.measurements
    flows = sorted({m.flows for m in ms})
    rounds = sorted({m.round for m in ms} | {m.round for m in raw.mq})
    meta = raw.meta
    out = ["# Per-packet cost of the qdiscs (`make bench-pps`)", ""]
    out.append(
        f"Kernel {meta.get('kernel', '?')}, {meta.get('cpus', '?')} CPUs"
        f" ({meta.get('cpu', '?')}), VM acceleration {accel};"
        f" {len(rounds)} rounds, {meta.get('duration_s', '?')} s per measurement after"
        f" {meta.get('warmup_s', '?')} s of warm-up, {meta.get('pkt_size', '?')}-byte packets"
        f" (pktgen's size, without the 4-byte FCS), pktgen {meta.get('pktgen', '?')} in"
        f" queue_xmit mode on a dummy device; standing queue: the qdisc as the leaf of"
        f" htb at {meta.get('rate', '?')}."
    )
    if raw.done:
        out.append(f"The run took {raw.done.get('seconds', 0) / 60:.0f} minutes.")
    out.append("")
    if accel == "tcg":
        out += [
            "**Measured on an emulated CPU (TCG): it has no caches to miss, so the"
            " figures say nothing of how the cost grows with the flows, and little"
            " of the ratios.**",
            "",
        ]
    if ms:
        out += cost_sections(raw)
    if raw.mq or raw.mq_failed:
        out += mq_section(raw)
    if flows:
        out += ["## Flows", ""]
        out.append(
            "N flows are N distinct (source address, UDP source port) pairs, A"
            " addresses x P ports with A and P coprime, which pktgen steps together"
            " one by one: every flow once in N packets (round robin)."
        )
        out.append("")
        out += split_table(flows)
        out.append("")
    if raw.failures:
        out += ["## Failed measurements", ""]
        out += [f"- {f}" for f in raw.failures]
        out.append("")
    return "\n".join(out)


def cost_sections(raw: Raw) -> list[str]:
    """The sections of the single-queue states (empty, leaf, standing):
    the costs per state, the goals, the memory, the noise, the drops."""
    ms = raw.measurements
    meds = medians(ms)
    spr = spreads(ms)
    present = {m.qdisc for m in ms}
    qdiscs = [q for q in QDISCS if q.name in present]
    qdiscs += [BY_NAME.get(n, Qdisc(n, n, n)) for n in sorted(present - set(BY_NAME))]
    flows = sorted({m.flows for m in ms})
    states = [s for s in ALL_STATES if any(m.state == s for m in ms)]
    heads = [fmt_flows(n) for n in flows]
    out = [
        "Cost per packet: pktgen's elapsed time over the packets it offered (sent"
        " and dropped), the median over the rounds, in ns; in brackets its ratio to"
        f" {REFERENCE}'s median in the same cell. Every figure includes pktgen's"
        " building and the freeing of the packet, which the noqueue row measures"
        " alone, so the ratios are of whole passes, not of the qdiscs' own code."
        " Round r ran every qdisc once per cell, in a shuffled order; only"
        " differences well beyond the spread table below are findings.",
        "",
    ]
    for state in states:
        out += [f"## {STATE_TITLES.get(state, state)}", ""]
        bypassed = [q.name for q in qdiscs if q.name in BYPASS]
        if state == "empty" and bypassed:
            out += [
                f"{', '.join(bypassed)} set TCQ_F_CAN_BYPASS: a packet that finds"
                " their queue empty goes straight to the device, without their"
                " enqueue and dequeue, so their figures here are of that bypass."
                ' No qdisc of ours takes it; the state "leaf" (`--states'
                " empty,leaf,standing`) compares the qdiscs' own work.",
                "",
            ]
        rows = []
        for q in qdiscs:
            cells = []
            for n in flows:
                v = meds.get((state, n, q.name))
                r = ratio(meds, state, n, q.name, REFERENCE)
                if v is None:
                    cells.append("")
                else:
                    cells.append(f"{v:,.0f}" + (f" ({r:.2f})" if r is not None else ""))
            if any(cells):
                rows.append([q.title, *cells])
        out += table(["qdisc \\ flows", *heads], rows)
        out.append("")
        if state == "empty" and any(q.baseline for q in qdiscs):
            out += net_section(meds, qdiscs, flows)
    warnings = checks(ms)
    if warnings:
        out += ["**Check these cells:**", ""]
        out += [f"- {w}" for w in warnings]
        out.append("")
    out += goals_section(meds, states, flows)
    out += memory_section(raw, qdiscs, flows)
    out += ["## Noise", ""]
    out.append(
        "Spread of each cell over its rounds, (max - min) / median, in %"
        " (a cell's rounds ran minutes apart, each beside the same others):"
    )
    out.append("")
    rows = cell_rows(
        qdiscs,
        states,
        flows,
        lambda c: "" if spr.get(c) is None else f"{100 * spr[c]:.1f}",
    )
    out += table(["qdisc", *[f"{s} {h}" for s in states for h in heads]], rows)
    out.append("")
    out += drops_section(ms, qdiscs, states, flows)
    return out


def net_section(
    meds: dict[Cell, float], qdiscs: Sequence[Qdisc], flows: Sequence[int]
) -> list[str]:
    """The empty queue's costs less the noqueue row's: the qdisc layer's
    own share of a pass (for reading only: the goals are of whole
    passes, as the issue sets them)."""
    base = next(q.name for q in qdiscs if q.baseline)
    out = [
        f"The same less {base}'s cost, in the same cell: what the qdisc layer"
        " adds to a pass (enqueue, dequeue, the qdisc's locks and its share of"
        f" the flow hashing), and in brackets its ratio to {REFERENCE}'s:",
        "",
    ]
    rows = []
    for q in qdiscs:
        if q.baseline:
            continue
        cells = []
        for n in flows:
            b = meds.get(("empty", n, base))
            v, ref = meds.get(("empty", n, q.name)), meds.get(("empty", n, REFERENCE))
            if b is None or v is None:
                cells.append("")
                continue
            cell = f"{v - b:,.0f}"
            if ref is not None and ref - b > 0:
                cell += f" ({(v - b) / (ref - b):.2f})"
            cells.append(cell)
        if any(cells):
            rows.append([q.title, *cells])
    out += table(["qdisc \\ flows", *[fmt_flows(n) for n in flows]], rows)
    out.append("")
    return out


def checks(ms: Sequence[Measurement]) -> list[str]:
    """Cells whose queue was not in the state they stand for: an empty
    queue that dropped (more than 1% in the median), a standing one that
    did not (less than half: pktgen did not outrun the parent's rate, or
    the qdisc's limit held more than the run sent); and cells where pktgen
    gave more than 1% of its time to other tasks (in the median)."""
    share: dict[Cell, list[float]] = defaultdict(list)
    idle: dict[Cell, list[float]] = defaultdict(list)
    for m in ms:
        share[(m.state, m.flows, m.qdisc)].append(m.result.drop_share)
        idle[(m.state, m.flows, m.qdisc)].append(m.result.idle_share)
    out = []
    for (state, n, q), v in sorted(share.items()):
        med = statistics.median(v)
        if state in ("empty", "leaf") and med > 0.01:
            out.append(f"{q}, {fmt_flows(n)} flows, queue {state}: {100 * med:.1f}% dropped")
        elif state == "standing" and med < 0.5:
            out.append(f"{q}, {fmt_flows(n)} flows, standing queue: only {100 * med:.1f}% dropped")
        away = statistics.median(idle[(state, n, q)])
        if away > 0.01:
            out.append(
                f"{q}, {fmt_flows(n)} flows, queue {state}: pktgen gave {100 * away:.1f}%"
                " of its time to other tasks"
            )
    return out


def goals_section(
    meds: dict[Cell, float], states: Sequence[str], flows: Sequence[int]
) -> list[str]:
    out = ["## Goals (issue 34)", ""]
    out.append(
        "Ratios of medians in the same run and cell; a goal is met in a row when"
        " it is met at every number of flows. The run never fails on a goal."
    )
    out.append("")
    rows = []
    for g in GOALS:
        for state in states:
            vals = [ratio(meds, state, n, g.qdisc, g.against) for n in flows]
            cells = [v_fmt(v, g.bound) for v in vals]
            got = [v for v in vals if v is not None]
            if not got:
                overall = "not measured"
            else:
                met = sum(v <= g.bound for v in got)
                overall = "met" if met == len(got) else f"missed ({len(got) - met} of {len(got)})"
            queue = state
            if state == "empty" and g.against in BYPASS:
                queue += f" ({BY_NAME[g.against].title} bypassed)"
            rows.append([g.text, queue, *cells, overall])
    out += table(["goal", "queue", *[fmt_flows(n) for n in flows], "verdict"], rows, left=2)
    out.append("")
    out.append(
        f"Each of ours: the cost at {fmt_flows(SCALE_HI)} flows at most"
        f" {SCALE_BOUND:g} x the cost at {fmt_flows(SCALE_LO)}:"
    )
    out.append("")
    rows = []
    for q in QDISCS:
        if not q.ours:
            continue
        for state in states:
            lo, hi = meds.get((state, SCALE_LO, q.name)), meds.get((state, SCALE_HI, q.name))
            s = scaling(meds, state, q.name, SCALE_LO, SCALE_HI)
            rows.append(
                [
                    q.title,
                    state,
                    "" if lo is None else f"{lo:,.0f}",
                    "" if hi is None else f"{hi:,.0f}",
                    "" if s is None else f"{s:.2f}",
                    verdict(s, SCALE_BOUND),
                ]
            )
    out += table(
        [
            "qdisc",
            "queue",
            f"ns at {fmt_flows(SCALE_LO)}",
            f"ns at {fmt_flows(SCALE_HI)}",
            "ratio",
            "verdict",
        ],
        rows,
        left=2,
    )
    out.append("")
    return out


def v_fmt(v: float | None, bound: float) -> str:
    return "" if v is None else f"{v:.2f} {verdict(v, bound)}"


def memory_section(raw: Raw, qdiscs: Sequence[Qdisc], flows: Sequence[int]) -> list[str]:
    """Per instance: what the qdisc reports (xstats "memory") and the
    kernel memory N fresh instances took; per flow: the growth of the
    reported memory from a fresh instance to the largest number of flows,
    and the kernel memory's growth over the empty-queue runs at it."""
    inst = {i.qdisc: i for i in raw.instances}
    n_inst = next(iter(inst.values())).n if inst else 0
    top = max(flows) if flows else 0
    out = ["## Memory", ""]
    out.append(
        f"Per instance: the qdisc's own report (`memory` in its xstats: dcn, afd,"
        f" riops and our sfb report it; Linux's qdiscs and our other ones do not),"
        f" and the kernel memory (unreclaimable slab, vmalloc, per-CPU) that"
        f" {n_inst} fresh instances on as many dummy devices took, per instance."
        f" Per flow: the reported memory's growth from a fresh instance to the end"
        f" of the {fmt_flows(top)}-flow runs, over {fmt_flows(top)}; and the kernel"
        f" memory's growth over those runs with the queue empty (median over the"
        f" rounds), over {fmt_flows(top)}: indicative only, the kernel's own caches"
        f" move by some 100 kB."
    )
    out.append("")
    reported: dict[tuple[str, int], int] = {}
    kmem: dict[tuple[str, int], list[int]] = defaultdict(list)
    for m in raw.measurements:
        if m.memory is not None:
            k = (m.qdisc, m.flows)
            reported[k] = max(reported.get(k, 0), m.memory)
        if m.state == "empty":
            kmem[(m.qdisc, m.flows)].append(m.kmem_delta_kb)
    rows = []
    for q in qdiscs:
        if q.baseline:
            continue
        i = inst.get(q.name)
        fresh = i.memory if i else None
        cells = [fmt_bytes(fresh), "" if i is None else fmt_bytes(i.slab_bytes)]
        cells += [fmt_bytes(reported.get((q.name, n))) for n in flows]
        grown = reported.get((q.name, top))
        if grown is not None and fresh is not None and top:
            cells.append(f"{(grown - fresh) / top:.2f} B")
        else:
            cells.append("not reported")
        ks = kmem.get((q.name, top))
        cells.append(f"{statistics.median(ks) * 1024 / top:.2f} B" if ks and top else "")
        rows.append([q.title, *cells])
    out += table(
        [
            "qdisc",
            "instance (reported)",
            "instance (kernel)",
            *[f"reported at {fmt_flows(n)}" for n in flows],
            "per flow (reported)",
            "per flow (kernel)",
        ],
        rows,
    )
    out.append("")
    return out


def drops_section(
    ms: Sequence[Measurement], qdiscs: Sequence[Qdisc], states: Sequence[str], flows: Sequence[int]
) -> list[str]:
    """The share of packets refused (median over the rounds): near 0 with
    the queue empty, near 1 with the queue standing (else pktgen did not
    outrun the parent and the queue did not stand)."""
    share: dict[Cell, list[float]] = defaultdict(list)
    rate: dict[Cell, list[float]] = defaultdict(list)
    for m in ms:
        share[(m.state, m.flows, m.qdisc)].append(m.result.drop_share)
        rate[(m.state, m.flows, m.qdisc)].append(1e3 / m.ns)
    out = ["## Packets offered and dropped", ""]
    out.append(
        "Millions of packets offered per second and, in brackets, the share"
        " dropped (medians over the rounds): the empty queue drops none, the"
        " standing one nearly all."
    )
    out.append("")
    rows = cell_rows(
        qdiscs,
        states,
        flows,
        lambda c: (
            f"{statistics.median(rate[c]):.2f} ({100 * statistics.median(share[c]):.1f}%)"
            if share.get(c)
            else ""
        ),
    )
    out += table(["qdisc", *[f"{s} {fmt_flows(n)}" for s in states for n in flows]], rows)
    out.append("")
    return out


MqCell = tuple[int, str, int]


def mq_medians(ms: Iterable[MqMeasurement]) -> dict[MqCell, float]:
    """The median aggregate throughput (Mpps) of each (flows, qdisc,
    threads) of the mq state over its rounds."""
    rates: dict[MqCell, list[float]] = defaultdict(list)
    for m in ms:
        rates[(m.flows, m.qdisc, m.threads)].append(m.mpps)
    return {c: statistics.median(v) for c, v in rates.items()}


def mq_scaling(meds: dict[MqCell, float], flows: int, q: str) -> float | None:
    """Q's median aggregate at MQ_THREADS threads over its median at 1."""
    one, more = meds.get((flows, q, 1)), meds.get((flows, q, MQ_THREADS))
    if one is None or more is None or one == 0:
        return None
    return more / one


def mq_checks(ms: Sequence[MqMeasurement]) -> list[str]:
    """mq cells where, in the median, a thread's packets were dropped
    (more than 1%: the queues are empty) or a thread gave more than 1% of
    its time to other tasks (its CPU was not its own)."""
    drops: dict[MqCell, list[float]] = defaultdict(list)
    idle: dict[MqCell, list[float]] = defaultdict(list)
    for m in ms:
        drops[(m.flows, m.qdisc, m.threads)].append(max(r.drop_share for r in m.results))
        idle[(m.flows, m.qdisc, m.threads)].append(max(r.idle_share for r in m.results))
    out = []
    for (n, q, t), v in sorted(drops.items()):
        what = f"{q}, {fmt_flows(n)} flows, mq at {fmt_threads(t)}"
        med = statistics.median(v)
        if med > 0.01:
            out.append(f"{what}: {100 * med:.1f}% dropped")
        away = statistics.median(idle[(n, q, t)])
        if away > 0.01:
            out.append(f"{what}: pktgen gave {100 * away:.1f}% of its time to other tasks")
    return out


def mq_section(raw: Raw) -> list[str]:
    """The mq state: per number of flows and qdisc, the median aggregate
    throughput at 1 and at MQ_THREADS threads, their ratio, and that
    ratio over fq_codel's in the same run and number of flows."""
    out = [f"## {STATE_TITLES['mq']}", ""]
    ms = raw.mq
    if not ms:
        out += [
            f"All {raw.mq_failed} measurements of the state failed (see Failed"
            " measurements below): nothing was measured.",
            "",
        ]
        return out
    meds = mq_medians(ms)
    present = {m.qdisc for m in ms}
    qdiscs = [q for q in QDISCS if q.name in present]
    qdiscs += [BY_NAME.get(n, Qdisc(n, n, n)) for n in sorted(present - set(BY_NAME))]
    flows = sorted({m.flows for m in ms})
    out.append(
        "The qdisc under test as both children of mq on ppsq0, a dummy device"
        " with two tx queues, and XPS sending CPU 0's packets to tx queue 0 and"
        " CPU 1's to tx queue 1. pktgen's thread on CPU 0 alone, then its threads"
        " on CPUs 0 and 1 together, each with the number of flows of the first"
        " column, from source addresses of its own: each thread sends through one"
        " instance. Aggregate throughput: the packets offered by the threads"
        " (sent and dropped) over the longer of their elapsed times, in millions"
        " a second, the median over the rounds; scaling: the median at"
        f" {MQ_THREADS} threads over the median at 1."
    )
    out.append("")
    bypassed = [q.name for q in QDISCS if q.name in BYPASS]
    out.append(
        "The expectation (the issue's): a qdisc whose instances share no lock or"
        f" cache line scales as {REFERENCE} does, near {MQ_THREADS} on"
        f" {MQ_THREADS} CPUs if the emulation runs the two vCPUs in parallel."
        f" The last column gives each scaling over {REFERENCE}'s at the same"
        f" number of flows, marked where it is below {REFERENCE}'s by more than"
        f" {100 * MQ_MARGIN:.0f}%. {REFERENCE}'s own scaling is the VM's: near 1,"
        " the two threads did not run at once, and no ratio here says anything of"
        " what the instances share. Each child is its tx queue's own qdisc, so"
        f" {', '.join(bypassed[:-1])} and {bypassed[-1]} take the bypass"
        " here as with the queue empty (only their own queue's lock, one per"
        " instance). A ratio is not a finding unless well beyond the rounds'"
        " spread; no goal is judged met here."
    )
    out.append("")
    rows = []
    for n in flows:
        ref = mq_scaling(meds, n, REFERENCE)
        for q in qdiscs:
            one, more = meds.get((n, q.name, 1)), meds.get((n, q.name, MQ_THREADS))
            sc = mq_scaling(meds, n, q.name)
            rel = sc / ref if sc is not None and ref else None
            if rel is None:
                against = "" if sc is None else f"no {REFERENCE} scaling"
            elif rel < 1 - MQ_MARGIN:
                against = f"{rel:.2f} (below {REFERENCE}'s by more than {100 * MQ_MARGIN:.0f}%)"
            else:
                against = f"{rel:.2f}"
            rows.append(
                [
                    fmt_flows(n),
                    q.title,
                    "" if one is None else f"{one:.3f}",
                    "" if more is None else f"{more:.3f}",
                    "" if sc is None else f"{sc:.2f}",
                    against,
                ]
            )
    out += table(
        [
            "flows per thread",
            "qdisc",
            "Mpps, 1 thread",
            f"Mpps, {MQ_THREADS} threads",
            "scaling",
            f"over {REFERENCE}'s",
        ],
        rows,
        left=2,
    )
    out.append("")
    warnings = mq_checks(ms)
    if warnings:
        out += ["**Check these cells:**", ""]
        out += [f"- {w}" for w in warnings]
        out.append("")
    out.append(
        "Each thread's flows: A addresses x P ports, as in the other states;"
        " thread 1 has as many addresses, the next ones:"
    )
    out.append("")
    rows = []
    for n in flows:
        split = split_flows_mq(n)
        t0, t1 = split.pktgen(), split.pktgen(1)
        rows.append(
            [
                fmt_flows(n),
                f"{split.addrs:,} x {split.ports:,}",
                f"{t0['src_min']}-{t0['src_max']}",
                f"{t1['src_min']}-{t1['src_max']}",
            ]
        )
    out += table(["flows per thread", "addresses x ports", "thread 0", "thread 1"], rows)
    out.append("")
    return out


def split_table(flows: Sequence[int]) -> list[str]:
    """How each number of flows is made (for the docs and the summary)."""
    rows = []
    for n in flows:
        s = split_flows(n)
        p = s.pktgen()
        last_port = PORT_BASE + s.ports - 1
        rows.append(
            [
                fmt_flows(n),
                f"{s.addrs:,} x {s.ports:,}",
                f"{p['src_min']}-{p['src_max']}",
                f"{PORT_BASE}-{last_port}",
            ]
        )
    return table(["flows", "addresses x ports", "source addresses", "source ports"], rows)


# --- main --------------------------------------------------------------------
def parse_flows(text: str) -> list[int]:
    flows = [int(x.replace("_", "")) for x in text.split(",") if x.strip()]
    if not flows:
        raise ValueError("no number of flows")
    for n in flows:
        split_flows(n)
    return flows


def parse_states(text: str) -> list[str]:
    states = [x.strip() for x in text.split(",") if x.strip()]
    unknown = sorted(set(states) - set(ALL_STATES))
    if unknown or not states:
        raise argparse.ArgumentTypeError(f"{text!r}: states are some of {', '.join(ALL_STATES)}")
    return [x for x in ALL_STATES if x in states]


def main(argv: list[str]) -> int:
    ap = argparse.ArgumentParser(description=(__doc__ or "").splitlines()[0])
    sub = ap.add_subparsers(dest="cmd", required=True)
    p = sub.add_parser("plan", help="the steps for the guest, one a line")
    p.add_argument("--rounds", type=int, default=ROUNDS)
    p.add_argument("--flows", type=parse_flows, default=list(FLOWS))
    p.add_argument("--only", action="append", default=[], help="only these qdiscs (names)")
    p.add_argument(
        "--states", type=parse_states, default=list(STATES), help="empty,leaf,standing,mq"
    )
    p.add_argument("--seed", type=int, default=SEED)
    p.add_argument("--count", action="store_true", help="print the number of measurements only")
    r = sub.add_parser("report", help="summary.md from raw.jsonl")
    r.add_argument("out", type=Path)
    r.add_argument("-o", dest="output", default="")
    a = ap.parse_args(argv[1:])
    if a.cmd == "plan":
        unknown = sorted(set(a.only) - set(BY_NAME))
        if unknown:
            ap.error(f"unknown qdiscs {', '.join(unknown)} (known: {', '.join(BY_NAME)})")
        if a.rounds < 1:
            ap.error("--rounds must be at least 1")
        if "mq" in a.states:
            for n in a.flows:
                try:
                    split_flows_mq(n)
                except ValueError as e:
                    ap.error(f"--states mq: {e} (each of {MQ_THREADS} threads)")
        qdiscs = [q for q in QDISCS if not a.only or q.name in a.only]
        steps = plan(qdiscs, a.flows, a.rounds, a.seed, a.states)
        if a.count:
            print(sum(s.what == "measure" for s in steps), sum(s.what == "instance" for s in steps))
        else:
            for s in steps:
                print(s.line())
        return 0
    raw = load_raw(a.out)
    folder = a.out if a.out.is_dir() else a.out.parent
    vm_log = folder / "vm.log"
    accel = accel_of(vm_log.read_text(errors="replace")) if vm_log.exists() else "unknown"
    text = summary(raw, accel)
    if a.output == "-":
        sys.stdout.write(text)
    else:
        dest = Path(a.output) if a.output else folder / "summary.md"
        dest.write_text(text, encoding="utf-8")
        print(dest)
    return 0 if raw.measurements or raw.mq else 1


if __name__ == "__main__":
    sys.exit(main(sys.argv))
