"""Tests of scripts/bench/aqmstat, the qdisc statistics sampler.

They run the sanitized build (aqmstat-asan) in private network namespaces
(`unshare -n`): a veth pair between two of them when the kernel has veth,
else the loopback of one. The device under test gets an htb root (1:) with
one class at 1 Mbit/s and the qdisc under test as its leaf (10:); UDP
bursts through it fill and overflow the leaf. Once the queue is empty
again nothing moves, so the last record aqmstat writes must equal
`tc -s -j qdisc show` key for key.

Needs root (namespaces, tc) and gcc with libnl's headers (make deps).

The decoders of the project's own kinds (the xstats structs of
include/uapi/linux/pkt_aqm.h) are also checked without a kernel: each one,
fed a struct whose members all differ, must emit every member under its
name and with tc's scale. Needs gcc only.
"""

from __future__ import annotations

import itertools
import json
import os
import re
import shutil
import signal
import subprocess
import sys
import time
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pytest

TOP = Path(__file__).resolve().parents[2]
BENCH = TOP / "scripts" / "bench"

GENERIC = ("bytes", "packets", "qlen", "backlog", "drops", "requeues", "overlimits")
GENERIC_COUNTERS = ("bytes", "packets", "drops", "requeues", "overlimits")
IDENTITY = ("t", "wall", "dev", "handle", "parent", "kind")

CAN_NETNS = os.geteuid() == 0 and shutil.which("unshare") is not None and bool(shutil.which("tc"))


def _need_netns() -> None:
    if not CAN_NETNS:
        pytest.skip("needs root, unshare and tc (network namespaces)")


@dataclass(frozen=True)
class Kind:
    """A leaf qdisc to test: tc arguments and what aqmstat must decode."""

    args: tuple[str, ...]
    keys: tuple[str, ...] = ()  # xstats keys every record must have
    counters: tuple[str, ...] = ()  # xstats keys that never decrease
    volatile: tuple[str, ...] = ()  # keys that move while idle (timers)
    probs: tuple[str, ...] = ()  # keys in [0, 1]
    # keys of the project's longer xstats of a Linux kind (sfb): in every
    # record when the kernel's qdisc is the project's, else in none
    ours: tuple[str, ...] = ()
    ours_counters: tuple[str, ...] = ()

    @property
    def name(self) -> str:
        return self.args[0]


KINDS = [
    Kind(("pfifo", "limit", "5")),
    Kind(
        ("fq_codel", "limit", "8"),
        keys=(
            "maxpacket",
            "drop_overlimit",
            "new_flow_count",
            "ecn_mark",
            "ce_mark",
            "memory_used",
            "drop_overmemory",
            "new_flows_len",
            "old_flows_len",
        ),
        counters=("drop_overlimit", "new_flow_count", "ecn_mark", "ce_mark"),
    ),
    Kind(
        ("pie", "limit", "8"),
        keys=("prob", "delay", "avg_dq_rate", "pkts_in", "overlimit", "dropped", "maxq"),
        counters=("pkts_in", "overlimit", "dropped", "ecn_mark"),
        volatile=("prob", "delay", "avg_dq_rate"),
        probs=("prob",),
    ),
    Kind(
        (
            *("red", "limit", "12000", "min", "2000", "max", "6000", "avpkt", "1000"),
            *("burst", "3", "bandwidth", "1mbit", "probability", "0.5"),
        ),
        keys=("marked", "early", "pdrop", "other"),
        counters=("marked", "early", "pdrop", "other"),
    ),
    Kind(
        ("sfb", "limit", "8"),
        keys=(
            *("earlydrop", "penaltydrop", "bucketdrop", "queuedrop", "childdrop", "marked"),
            *("maxqlen", "maxprob", "avgprob"),
        ),
        counters=("earlydrop", "penaltydrop", "bucketdrop", "queuedrop", "childdrop", "marked"),
        probs=("maxprob", "avgprob"),
        ours=(
            *("levels", "bins", "penalized", "penalty_drops_bytes", "memory"),
            *(f"polluted_{j}" for j in range(16)),
        ),
        ours_counters=("penalty_drops_bytes",),
        # flows penalized in the last second: time, not packets, ages it
        volatile=("penalized",),
    ),
    Kind(
        ("codel", "limit", "8"),
        keys=(
            *("count", "lastcount", "ldelay", "dropping", "drop_next", "maxpacket"),
            *("ecn_mark", "drop_overlimit", "ce_mark"),
        ),
        counters=("ecn_mark", "drop_overlimit", "ce_mark"),
        volatile=("drop_next",),
    ),
    Kind(
        ("hhf", "limit", "8"),
        keys=("drop_overlimit", "hh_overlimit", "tot_hh", "cur_hh"),
        counters=("drop_overlimit", "hh_overlimit", "tot_hh"),
    ),
]


class Netns:
    """A process holding a fresh network namespace (`unshare -n`)."""

    def __init__(self) -> None:
        self.proc = subprocess.Popen(["unshare", "-n", "sleep", "1000000"])
        # unshare execs sleep in the same process once the namespace is made
        for _ in range(500):
            if os.readlink(f"/proc/{self.proc.pid}/ns/net") != os.readlink("/proc/self/ns/net"):
                return
            time.sleep(0.01)
        raise RuntimeError("unshare -n did not make a namespace")

    def cmd(self, *args: str) -> list[str]:
        return ["nsenter", "-t", str(self.proc.pid), "-n", *args]

    def run(self, *args: str, check: bool = True) -> subprocess.CompletedProcess[str]:
        return subprocess.run(self.cmd(*args), check=check, capture_output=True, text=True)

    def close(self) -> None:
        self.proc.kill()
        self.proc.wait()


@dataclass
class Bed:
    """The device under test, in namespace ns, and where to send to."""

    ns: Netns
    dev: str
    dst: str
    peer: Netns | None

    def tc_show(self) -> list[dict[str, Any]]:
        out = self.ns.run("tc", "-s", "-j", "qdisc", "show", "dev", self.dev).stdout
        got: list[dict[str, Any]] = json.loads(out)
        return got

    def set_leaf(self, kind: Kind) -> None:
        self.ns.run("tc", "qdisc", "del", "dev", self.dev, "parent", "1:1", "handle", "10:",
                    check=False)  # fmt: skip
        r = self.ns.run(
            "tc", "qdisc", "add", "dev", self.dev, "parent", "1:1", "handle", "10:", *kind.args,
            check=False,
        )  # fmt: skip
        if r.returncode != 0:
            # the host's kernel may lack Linux's AQMs; the test VM has them
            # all, and selftests/net/aqmstat-kinds.sh sets AQMSTAT_ALL_KINDS
            # there, so that a missing one fails instead
            if "unknown" in r.stderr.lower() and not os.environ.get("AQMSTAT_ALL_KINDS"):
                pytest.skip(f"the running kernel lacks the {kind.name} qdisc: {r.stderr.strip()}")
            raise AssertionError(f"tc qdisc add {' '.join(kind.args)}: {r.stderr}")

    def burst(self, count: int = 300, size: int = 1000) -> None:
        """COUNT UDP datagrams at once: the 1 Mbit/s class queues and drops."""
        code = (
            "import socket, sys\n"
            "s = socket.socket(socket.AF_INET, socket.SOCK_DGRAM)\n"
            "for _ in range(int(sys.argv[2])):\n"
            "    try:\n"
            "        s.sendto(b'x' * int(sys.argv[3]), (sys.argv[1], 9))\n"
            "    except OSError:\n"
            "        pass\n"
        )
        self.ns.run(sys.executable, "-c", code, self.dst, str(count), str(size))

    def wait_idle(self) -> list[dict[str, Any]]:
        """tc -s -j once every qdisc of the device is empty"""
        for _ in range(1000):
            show = self.tc_show()
            if all(q["qlen"] == 0 for q in show):
                return show
            time.sleep(0.01)
        raise AssertionError(f"queue never drained: {show}")


def _setup_veth(a: Netns, b: Netns) -> bool:
    for ns in (a, b):
        # no IPv6: its router solicitations and DAD would cross the qdisc
        # at any time, and the idle qdisc must stay idle
        ns.run("sysctl", "-qw", "net.ipv6.conf.all.disable_ipv6=1",
               "net.ipv6.conf.default.disable_ipv6=1", check=False)  # fmt: skip
    r = a.run("ip", "link", "add", "va", "address", "02:00:00:00:00:01", "type", "veth",
              "peer", "name", "vb", "address", "02:00:00:00:00:02",
              "netns", str(b.proc.pid), check=False)  # fmt: skip
    if r.returncode != 0:
        return False
    a.run("ip", "addr", "add", "198.18.0.1/24", "dev", "va")
    b.run("ip", "addr", "add", "198.18.0.2/24", "dev", "vb")
    a.run("ip", "link", "set", "va", "up")
    b.run("ip", "link", "set", "vb", "up")
    # no ARP either, in both directions: a permanent neighbour on each
    # side. b answers the burst with ICMP; had it to resolve a, a's ARP
    # replies would cross the qdisc under test, and its unicast probes
    # (when b's entry goes stale, 15-45 s in, 5 s after an ICMP) at any
    # time, also between tc's snapshot and aqmstat's record
    a.run("ip", "neigh", "replace", "198.18.0.2", "lladdr", "02:00:00:00:00:02",
          "dev", "va", "nud", "permanent")  # fmt: skip
    b.run("ip", "neigh", "replace", "198.18.0.1", "lladdr", "02:00:00:00:00:01",
          "dev", "vb", "nud", "permanent")  # fmt: skip
    return True


@pytest.fixture(scope="module")
def aqmstat() -> Path:
    """The sanitized build: a memory error or leak fails the test"""
    _need_netns()
    subprocess.run(["make", "-s", "-C", str(BENCH), "aqmstat-asan"], check=True)
    return BENCH / "aqmstat-asan"


@pytest.fixture(scope="module")
def bed() -> Iterator[Bed]:
    _need_netns()
    a, b = Netns(), Netns()
    try:
        if _setup_veth(a, b):
            t = Bed(a, "va", "198.18.0.2", b)
        else:
            a.run("ip", "link", "set", "lo", "up")
            t = Bed(a, "lo", "127.0.0.1", None)
        a.run("tc", "qdisc", "add", "dev", t.dev, "root", "handle", "1:", "htb", "default", "1")
        a.run("tc", "class", "add", "dev", t.dev, "parent", "1:", "classid", "1:1", "htb",
              "rate", "1mbit", "ceil", "1mbit", "burst", "3k", "cburst", "3k")  # fmt: skip
        yield t
    finally:
        a.close()
        b.close()


@dataclass
class Run:
    rc: int
    out: str
    err: str


def _start(aqmstat: Path, bed: Bed, out: Path, *args: str) -> subprocess.Popen[str]:
    return subprocess.Popen(
        bed.ns.cmd(str(aqmstat), "-d", bed.dev, "-o", str(out), *args),
        stderr=subprocess.PIPE,
        text=True,
    )


def _run(aqmstat: Path, bed: Bed, *args: str) -> Run:
    r = subprocess.run(bed.ns.cmd(str(aqmstat), *args), capture_output=True, text=True, timeout=60)
    return Run(r.returncode, r.stdout, r.stderr)


def _json_lines(text: str) -> list[dict[str, Any]]:
    """the complete lines written so far"""
    lines = text.split("\n")[:-1]
    return [json.loads(x) for x in lines]


def _csv_rows(text: str) -> list[dict[str, Any]]:
    lines = text.split("\n")[:-1]
    if not lines:
        return []
    head = lines[0].split(",")
    rows = []
    for line in lines[1:]:
        vals = line.split(",")
        assert len(vals) == len(head), line
        row: dict[str, Any] = {}
        for k, v in zip(head, vals, strict=True):
            row[k] = v if k in ("dev", "handle", "parent", "kind") else json.loads(v)
        rows.append(row)
    return rows


def _sample_after_idle(
    aqmstat: Path, bed: Bed, tmp: Path, fmt: str, *args: str
) -> tuple[list[dict[str, Any]], list[dict[str, Any]], str]:
    """aqmstat over a burst; stopped (SIGTERM) once it has sampled the idle
    qdiscs after tc's snapshot. Returns the records, tc's snapshot, stderr."""
    out = tmp / f"out.{fmt}"
    parse = _json_lines if fmt == "json" else _csv_rows
    proc = _start(aqmstat, bed, out, "-t", "10", "-f", fmt, *args)
    try:
        # a first record before the burst, so that the burst is seen
        # arriving (aqmstat may start slowly: ASan, an emulated CPU)
        for _ in range(3000):
            if out.exists() and parse(out.read_text()):
                break
            assert proc.poll() is None, proc.stderr.read() if proc.stderr else ""
            time.sleep(0.01)
        else:
            raise AssertionError("aqmstat wrote no record before the burst")
        bed.burst()
        snap = bed.wait_idle()
        t_snap = time.time()
        handles = {q["handle"] for q in snap}
        if "-H" in args:
            handles = {args[args.index("-H") + 1]}
        # the file is flushed at least once per second
        for _ in range(3000):
            recs = parse(out.read_text()) if out.exists() else []
            after = {r["handle"] for r in recs if r["wall"] > t_snap}
            if after >= handles:
                break
            assert proc.poll() is None, proc.stderr.read() if proc.stderr else ""
            time.sleep(0.01)
        else:
            raise AssertionError("aqmstat wrote no record after the snapshot")
        proc.send_signal(signal.SIGTERM)
        _, err = proc.communicate(timeout=30)
    finally:
        if proc.poll() is None:
            proc.kill()
            proc.wait()
    assert proc.returncode == 0, err
    return parse(out.read_text()), snap, err


def _by_handle(recs: list[dict[str, Any]]) -> dict[str, list[dict[str, Any]]]:
    out: dict[str, list[dict[str, Any]]] = {}
    for r in recs:
        out.setdefault(r["handle"], []).append(r)
    return out


def _check_series(series: list[dict[str, Any]], counters: tuple[str, ...]) -> None:
    ts = [r["t"] for r in series]
    assert all(b > a for a, b in itertools.pairwise(ts)), "t not strictly increasing"
    for k in counters:
        vals = [r[k] for r in series]
        assert all(b >= a for a, b in itertools.pairwise(vals)), f"{k} decreased"


def _check_against_tc(rec: dict[str, Any], tc: dict[str, Any], volatile: tuple[str, ...]) -> None:
    """every key both print, but the identity and the timer-driven ones"""
    assert rec["kind"] == tc["kind"]
    assert rec["parent"] == ("root" if tc.get("root") else tc["parent"])
    common = (set(rec) & set(tc)) - set(IDENTITY) - set(volatile)
    assert set(GENERIC) <= common
    for k in sorted(common):
        if isinstance(tc[k], float) or isinstance(rec[k], float):
            # tc prints 6 significant digits
            assert rec[k] == pytest.approx(tc[k], rel=1e-5, abs=1e-9), k
        elif not isinstance(tc[k], dict | list):
            assert rec[k] == tc[k], k


@pytest.mark.parametrize("kind", KINDS, ids=[k.name for k in KINDS])
def test_json_matches_tc_when_idle(aqmstat: Path, bed: Bed, tmp_path: Path, kind: Kind) -> None:
    bed.set_leaf(kind)
    recs, snap, err = _sample_after_idle(aqmstat, bed, tmp_path, "json")
    series = _by_handle(recs)
    assert set(series) == {"1:", "10:"}
    leaf = series["10:"]
    # one record per qdisc per sample, and stderr counts the samples
    assert len(leaf) == len(series["1:"])
    assert f"aqmstat: {len(leaf)} samples, " in err
    for r in recs:
        assert r["dev"] == bed.dev
        assert list(r)[: len(IDENTITY) + len(GENERIC)] == [*IDENTITY, *GENERIC]
    assert all(r["kind"] == kind.name and r["parent"] == "1:1" for r in leaf)
    assert all(set(kind.keys) <= set(r) for r in leaf)
    ours = bool(kind.ours) and kind.ours[0] in leaf[0]
    for r in leaf:
        assert set(kind.ours) <= set(r) if ours else not set(kind.ours) & set(r)
    for k in kind.probs:
        assert all(0.0 <= r[k] <= 1.0 for r in leaf), k
    _check_series(leaf, GENERIC_COUNTERS + kind.counters + (kind.ours_counters if ours else ()))
    _check_series(series["1:"], GENERIC_COUNTERS)
    # the burst went through and overflowed the leaf
    assert leaf[-1]["packets"] > leaf[0]["packets"]
    assert leaf[-1]["drops"] > 0
    tc = {q["handle"]: q for q in snap}
    _check_against_tc(series["1:"][-1], tc["1:"], ())
    _check_against_tc(leaf[-1], tc["10:"], kind.volatile)


def test_csv_one_qdisc(aqmstat: Path, bed: Bed, tmp_path: Path) -> None:
    bed.set_leaf(KINDS[0])
    rows, snap, _ = _sample_after_idle(aqmstat, bed, tmp_path, "csv", "-H", "10:")
    assert rows
    head = (tmp_path / "out.csv").read_text().split("\n")[0].split(",")
    assert head == [*IDENTITY, *GENERIC]
    assert {r["handle"] for r in rows} == {"10:"}
    _check_series(rows, GENERIC_COUNTERS)
    assert rows[-1]["drops"] > 0
    _check_against_tc(rows[-1], next(q for q in snap if q["handle"] == "10:"), ())


def test_count_and_handle_filter(aqmstat: Path, bed: Bed) -> None:
    bed.set_leaf(KINDS[0])
    r = _run(aqmstat, bed, "-d", bed.dev, "-n", "5", "-t", "1", "-f", "json")
    assert r.rc == 0, r.err
    recs = _json_lines(r.out)
    assert [x["handle"] for x in recs] == ["1:", "10:"] * 5
    assert "aqmstat: 5 samples, " in r.err
    r = _run(aqmstat, bed, "-d", bed.dev, "-n", "4", "-t", "1", "-f", "json", "-H", "10:")
    assert [x["handle"] for x in _json_lines(r.out)] == ["10:"] * 4
    r = _run(aqmstat, bed, "-d", bed.dev, "-n", "3", "-t", "1", "-f", "json", "-H", "root")
    assert [(x["handle"], x["parent"]) for x in _json_lines(r.out)] == [("1:", "root")] * 3


def test_duration_bounds_t(aqmstat: Path, bed: Bed) -> None:
    r = _run(aqmstat, bed, "-d", bed.dev, "-D", "0.3", "-t", "10", "-f", "json", "-H", "10:")
    assert r.rc == 0, r.err
    recs = _json_lines(r.out)
    assert recs
    assert all(0 <= x["t"] < 0.3 for x in recs)


def test_device_as_argument_and_stdout_json(aqmstat: Path, bed: Bed) -> None:
    # stdout is a pipe here: JSON lines, not the live table
    r = _run(aqmstat, bed, "-n", "1", bed.dev)
    assert r.rc == 0, r.err
    assert {x["handle"] for x in _json_lines(r.out)} == {"1:", "10:"}


def test_live_view_table(aqmstat: Path, bed: Bed) -> None:
    r = _run(aqmstat, bed, "-i", bed.dev, "-n", "2", "-t", "20")
    assert r.rc == 0, r.err
    frames = r.out.split("\033[H\033[2J")[1:]
    assert len(frames) == 2
    rows = [line.split() for line in frames[-1].splitlines() if line.startswith(("htb", "pfifo"))]
    assert [row[:3] for row in rows] == [["htb", "1:", "root"], ["pfifo", "10:", "1:1"]]
    # the second frame has rates: idle, so 0 packets out per second
    assert rows[1][6] == "0"


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (("-d", "nosuchdev0", "-n", "1"), "no device 'nosuchdev0'"),
        (("-H", "77:", "-n", "1"), "no qdisc 77:"),
        (("-H", "zz", "-n", "1"), "bad handle"),
        (("-f", "csv", "-n", "1"), "needs -H"),
        (("-t", "0.5", "-n", "1"), "bad interval"),
        (("-D", "1", "-n", "1"), "-D or -n"),
        (("-f", "xml", "-n", "1"), "unknown format"),
    ],
)
def test_bad_arguments_fail(aqmstat: Path, bed: Bed, args: tuple[str, ...], message: str) -> None:
    full = args if args[0] == "-d" else ("-d", bed.dev, *args)
    r = _run(aqmstat, bed, *full)
    assert r.rc != 0
    assert message in r.err
    assert r.out == ""


def test_help(aqmstat: Path) -> None:
    r = subprocess.run([str(aqmstat), "-h"], capture_output=True, text=True)
    assert r.returncode == 0
    assert r.stdout.startswith("Usage: aqmstat [-i] -d DEV")


# the project's kinds, decoded from a struct built here, without a kernel

HEADER = TOP / "include" / "uapi" / "linux" / "pkt_aqm.h"
# members that tc prints scaled: 1/256 units, u32 fractions of 2^32 (ared's
# max_p and riops's two probabilities too), rem's price in 1/2^32 packets,
# and sfb's fractions of SFB_MAX_PROB
SCALE = {
    **{"pref": 256.0, "rate": 256.0, "m_fair": 256.0, "prob": 2.0**32, "p_m": 2.0**32},
    **{"max_p": 2.0**32, "price": 2.0**32, "prob_in": 2.0**32, "prob_out": 2.0**32},
    **{"maxprob": 65535.0, "avgprob": 65535.0},
}
# a struct of the header that Linux's struct precedes in the same payload:
# the kind's name, Linux's struct (<linux/pkt_sched.h>) and its u32 members
LINUX_HEAD = {
    "sfb_aqm": (
        "sfb",
        "tc_sfb_xstats",
        (
            *("earlydrop", "penaltydrop", "bucketdrop", "queuedrop", "childdrop"),
            *("marked", "maxqlen", "maxprob", "avgprob"),
        ),
    )
}


@dataclass(frozen=True)
class Member:
    """one member of an xstats struct: an array of count is emitted as
    name_0 .. name_<count - 1>"""

    name: str
    size: int  # bytes of one element
    count: int = 1

    def record_keys(self) -> list[str]:
        return [self.name] if self.count == 1 else [f"{self.name}_{j}" for j in range(self.count)]


def _xstats_structs(text: str) -> dict[str, list[Member]]:
    """kind -> members of struct tc_<kind>_xstats, in order"""
    defines = dict(re.findall(r"^#define\s+(\w+)\s+(\d+)\s*$", text, re.M))
    text = re.sub(r"/\*.*?\*/", "", text, flags=re.S)
    return {
        kind: [
            Member(m, int(bits) // 8, int(defines.get(n, n)) if n else 1)
            for bits, m, n in re.findall(
                r"__u(8|16|32|64)\s+(\w+)\s*(?:\[\s*(\w+)\s*\])?\s*;", body
            )
        ]
        for kind, body in re.findall(r"struct\s+tc_(\w+)_xstats\s*\{(.*?)\};", text, re.S)
    }


def _layout(kind: str, members: list[Member]) -> list[tuple[str, int, int, int]]:
    """(key, value, offset, size) of every element of the payload the
    harness builds for KIND: Linux's head if any, then the struct with
    natural alignment; element i holds i + 2, pads included"""
    head = [Member(m, 4) for m in LINUX_HEAD[kind][2]] if kind in LINUX_HEAD else []
    out, off, value = [], 0, 2
    for part in (head, members):
        base = off
        off = 0
        for m in part:
            off = -(-off // m.size) * m.size
            for key in m.record_keys():
                out.append((key, value, base + off, m.size))
                value += 1
                off += m.size
        # the struct's own alignment: its size is a multiple of its largest member
        align = max((m.size for m in part), default=1)
        off = base + -(-off // align) * align
    return out


def _harness(structs: dict[str, list[Member]]) -> str:
    """C: record functions that print each field, and a main that fills
    struct tc_<argv[1]>_xstats (after Linux's struct, if it has one) with
    element i = i + 2 and decodes its first argv[2] bytes (default all)"""
    cases = []
    for kind, members in structs.items():
        layout = iter(_layout(kind, members))
        name, head, linux = LINUX_HEAD.get(kind, (kind, "", ()))
        sets = []
        if head:
            sets += [f"h.{m} = {next(layout)[1]};" for m in linux]
        for m in members:
            if m.count == 1:
                sets.append(f"st.{m.name} = {next(layout)[1]};")
            else:
                sets += [f"st.{m.name}[{j}] = {next(layout)[1]};" for j in range(m.count)]
        hsize = "sizeof(h)" if head else "0"
        cases.append(
            f'\tif (!strcmp(argv[1], "{kind}")) {{\n'
            + (f"\t\tstruct {head} h;\n" if head else "")
            + f"\t\tstruct tc_{kind}_xstats st;\n"
            f"\t\tunsigned char buf[{hsize} + sizeof(st)];\n"
            f'\t\tconst struct aqm_kind *k = aqm_kind_find("{name}");\n\n'
            f'\t\tif (!k) {{\n\t\t\tfputs("no decoder\\n", stderr);\n\t\t\treturn 2;\n\t\t}}\n'
            + ("\t\tmemset(&h, 0, sizeof(h));\n" if head else "")
            + "\t\tmemset(&st, 0, sizeof(st));\n"
            + "".join(f"\t\t{x}\n" for x in sets)
            + ("\t\tmemcpy(buf, &h, sizeof(h));\n" if head else "")
            + f"\t\tmemcpy(buf + {hsize}, &st, sizeof(st));\n"
            "\t\tk->decode(&r, buf, argc > 2 ? strtoul(argv[2], NULL, 0) : sizeof(buf));\n"
            "\t\treturn 0;\n\t}\n"
        )
    return (
        "#include <inttypes.h>\n#include <stdio.h>\n#include <stdlib.h>\n#include <string.h>\n"
        '#include <linux/pkt_sched.h>\n#include <linux/pkt_aqm.h>\n#include "aqmstat.h"\n\n'
        "static struct rec r;\n\n"
        "void rec_u64(struct rec *x, const char *k, uint64_t v)\n"
        '{ (void)x; printf("%s %" PRIu64 "\\n", k, v); }\n'
        "void rec_s64(struct rec *x, const char *k, int64_t v)\n"
        '{ (void)x; printf("%s %" PRId64 "\\n", k, v); }\n'
        "void rec_dbl(struct rec *x, const char *k, double v)\n"
        '{ (void)x; printf("%s %.17g\\n", k, v); }\n'
        "void rec_bool(struct rec *x, const char *k, bool v)\n"
        '{ (void)x; printf("%s %d\\n", k, v); }\n\n'
        "int main(int argc, char **argv)\n{\n"
        '\tif (argc < 2) {\n\t\tfputs("no kind\\n", stderr);\n\t\treturn 2;\n\t}\n'
        + "".join(cases)
        + "\treturn 3;\n}\n"
    )


# every kind of the header: one without a decoder fails below
PROJECT_KINDS = sorted(_xstats_structs(HEADER.read_text()))


@pytest.fixture(scope="module")
def decoders(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, dict[str, list[Member]]]:
    """the harness built with aqmstat_kinds.c, and the structs it knows"""
    if shutil.which("gcc") is None:
        pytest.skip("needs gcc")
    structs = _xstats_structs(HEADER.read_text())
    d = tmp_path_factory.mktemp("kinds")
    (d / "harness.c").write_text(_harness(structs))
    exe = d / "harness"
    subprocess.run(
        ["gcc", "-std=c11", "-Wall", "-Wextra", "-Werror", "-D_GNU_SOURCE",
         "-I", str(TOP / "include" / "uapi"), "-I", str(BENCH), "-o", str(exe),
         str(d / "harness.c"), str(BENCH / "aqmstat_kinds.c")],
        check=True,
    )  # fmt: skip
    return exe, structs


def _decode(exe: Path, kind: str, *length: int) -> dict[str, float]:
    r = subprocess.run([str(exe), kind, *map(str, length)], capture_output=True, text=True)
    assert r.returncode == 0, r.stderr
    got = {}
    for line in r.stdout.splitlines():
        key, val = line.split()
        assert key not in got, f"{key} emitted twice"
        got[key] = float(val)
    return got


def _expect(layout: list[tuple[str, int, int, int]], length: int) -> dict[str, float]:
    """what a decoder emits of a payload cut to LENGTH: an element wholly
    in it has its value, one past it 0 (a pad nothing)"""
    return {
        key: (value if off + size <= length else 0) / SCALE.get(key, 1.0)
        for key, value, off, size in layout
        if key != "pad"
    }


def test_header_has_the_project_kinds() -> None:
    assert {"pi", "rem", "ared", "riops", "dcn", "afd", "blue", "sfb_aqm"} <= set(PROJECT_KINDS)


@pytest.mark.parametrize("kind", PROJECT_KINDS)
def test_project_decoder_emits_every_member(
    decoders: tuple[Path, dict[str, list[Member]]], kind: str
) -> None:
    exe, structs = decoders
    layout = _layout(kind, structs[kind])
    got = _decode(exe, kind)
    want = _expect(layout, layout[-1][2] + layout[-1][3])
    assert sorted(got) == sorted(want)
    for key, value in want.items():
        assert got[key] == pytest.approx(value, rel=1e-12), key


def test_sfb_layout_is_linux_then_ours(decoders: tuple[Path, dict[str, list[Member]]]) -> None:
    """the project's part starts at byte 36, unpadded, and is 96 bytes long"""
    layout = {key: off for key, _, off, _ in _layout("sfb_aqm", decoders[1]["sfb_aqm"])}
    assert layout["avgprob"] == 32 and layout["levels"] == 36
    assert layout["penalty_drops_bytes"] == 52 and layout["polluted_15"] == 128


@pytest.mark.parametrize(
    "length",
    [36, 40, 60, 128],
    ids=["linux", "to_levels", "to_penalty_drops_bytes", "but_polluted_15"],
)
def test_sfb_decoder_reads_what_is_there(
    decoders: tuple[Path, dict[str, list[Member]]], length: int
) -> None:
    """36 bytes, Linux's sfb: its fields alone; a payload that ends within
    the project's part (an older kernel): what is there, 0 beyond"""
    exe, structs = decoders
    layout = _layout("sfb_aqm", structs["sfb_aqm"])
    got = _decode(exe, "sfb_aqm", length)
    want = _expect(layout, length)
    if length <= 36:
        want = {k: v for k, v in want.items() if k in LINUX_HEAD["sfb_aqm"][2]}
    assert sorted(got) == sorted(want)
    for key, value in want.items():
        assert got[key] == pytest.approx(value, rel=1e-12), key
