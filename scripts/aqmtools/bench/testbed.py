"""The emulated WAN in network namespaces, as commands.

    c1 ..... cK --- rl ====== rr --- s1 ..... sS
    clients   netem  bottleneck (htb + qdisc   servers
    (one RTT         under test, each way)
     each)

Two routers joined by one veth pair: the bottleneck, in each direction
(rl -> rr carries requests and ACKs, rr -> rl the responses), shaped by
htb with the qdisc under test as the leaf (handle 10:), as the DCN paper's
figure 4 testbed has a separate bottleneck segment per direction. Each
client host has its own access link to rl with netem delaying both ways by
half of that host's RTT: the propagation delay is on hops other than the
bottleneck, and netem's queue holds rate x delay with room to spare, so it
is never the bottleneck (run.py checks that it dropped nothing). Servers
are one hop from rr without delay. Offloads are off on every veth, so that
the qdiscs see wire-sized packets, and netem has no jitter, so packet order
is kept.

Everything here builds command lines (lists of argv); run.py executes them,
and the tests check them without a kernel.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

from aqmtools.bench.experiment import PAPER_WINDOW, Experiment

MTU = 1500
# the uncongested setting raises the bottleneck this many times
UNCONGESTED_FACTOR = 10

Cmd = list[str]


@dataclass(frozen=True)
class Host:
    """One end host: its namespace, its address, its RTT (clients)."""

    ns: str
    addr: str
    rtt_ms: float


@dataclass(frozen=True)
class Testbed:
    """Names and addresses of one instance of the testbed."""

    prefix: str
    clients: list[Host]
    servers: list[Host]

    @property
    def left(self) -> str:
        return f"{self.prefix}-rl"

    @property
    def right(self) -> str:
        return f"{self.prefix}-rr"

    @property
    def namespaces(self) -> list[str]:
        return [self.left, self.right] + [h.ns for h in self.clients + self.servers]

    def bottlenecks(self) -> list[tuple[str, str, str]]:
        """(namespace, device, direction) of the bottleneck's two ways:
        "down" (server to client: responses) first, then "up"."""
        return [(self.right, "br0", "down"), (self.left, "bl0", "up")]


def make(exp: Experiment, prefix: str, seed: int | None = None) -> Testbed:
    """The hosts of EXP's testbed on SEED (default the calibration's),
    namespaces named PREFIX-*."""
    clients = [
        Host(f"{prefix}-c{i}", f"10.1.{i}.2", rtt)
        for i, rtt in enumerate(exp.client_rtts_ms(seed), start=1)
    ]
    servers = [Host(f"{prefix}-s{j}", f"10.2.{j}.2", 0.0) for j in range(1, exp.servers + 1)]
    return Testbed(prefix, clients, servers)


def netem_limit(rate_bps: int, one_way_ms: float) -> int:
    """Packets netem must hold so that it never drops: what the access
    link has in flight one way at the uncongested rate, in MTU-sized data
    packets, twice over for the ACKs that may share the queue (one per data
    packet at most), doubled again for bursts; at least 1000."""
    in_flight = UNCONGESTED_FACTOR * rate_bps * one_way_ms / 1000 / (8 * MTU)
    return max(1000, math.ceil(4 * in_flight))


def htb_burst(rate_bps: int) -> int:
    """htb bucket in bytes: 2 ms at the rate, at least 10 MTUs."""
    return max(10 * MTU, rate_bps * 2 // 1000 // 8)


def _ns(ns: str, line: str) -> Cmd:
    """The command LINE (words without spaces in them) run in namespace NS:
    ip and tc switch namespaces themselves (one process less per command,
    which counts in an emulated VM)."""
    argv = line.split()
    if argv[0] in ("ip", "tc"):
        return [argv[0], "-n", ns, *argv[1:]]
    return ["ip", "netns", "exec", ns, *argv]


def _link(a_ns: str, a_dev: str, b_ns: str, b_dev: str) -> Cmd:
    return f"ip link add {a_dev} netns {a_ns} type veth peer name {b_dev} netns {b_ns}".split()


# The MACs of the bottleneck link's two ends, bl0 (left) and br0 (right).
# Only the workload crosses it: its neighbours are permanent (no ARP probe
# leaves a router seconds after the traffic stopped, between the samplers'
# last record and tc-after.json) and it has no IPv6 (no DAD, MLD or router
# solicitation), so the qdisc's counters are the workload's alone.
BOTTLENECK_MACS = ("02:00:0a:00:00:01", "02:00:0a:00:00:02")


def _bottleneck_link(tb: Testbed) -> list[Cmd]:
    (lmac, rmac), (lns, rns) = BOTTLENECK_MACS, (tb.left, tb.right)
    return [
        f"ip link add bl0 netns {lns} address {lmac} type veth "
        f"peer name br0 netns {rns} address {rmac}".split(),
        _ns(lns, "sysctl -qw net.ipv6.conf.bl0.disable_ipv6=1"),
        _ns(rns, "sysctl -qw net.ipv6.conf.br0.disable_ipv6=1"),
    ]


def _bottleneck_neighbours(tb: Testbed) -> list[Cmd]:
    (lmac, rmac), (lns, rns) = BOTTLENECK_MACS, (tb.left, tb.right)
    return [
        _ns(lns, f"ip neigh replace 10.0.0.2 lladdr {rmac} dev bl0 nud permanent"),
        _ns(rns, f"ip neigh replace 10.0.0.1 lladdr {lmac} dev br0 nud permanent"),
    ]


def _htb_class(ns: str, dev: str, verb: str, rate_bps: int) -> Cmd:
    burst = htb_burst(rate_bps)
    rate = f"{rate_bps}bit"
    return _ns(
        ns,
        f"tc class {verb} dev {dev} parent 1: classid 1:1 htb rate {rate} ceil {rate} "
        f"burst {burst} cburst {burst}",
    )


# The end hosts' TCP, per experiment (hosts = "..."): sysctls of every end
# host's namespace and options of its default route.
#   linux: today's defaults: initial window 10, SACK, the experiment's cc
#     (cubic or reno), minimum RTO 200 ms; nothing changed.
#   paper: the papers' end hosts as closely as Linux allows (the DCN and
#     AQM/ECN papers ran FreeBSD 4.x): a 16 KB window (the route's window
#     clamp), a 1 s minimum RTO (RFC 2988 as those stacks had it), an
#     initial window of 2 segments (RFC 2414's for 1460-byte segments), no
#     SACK and no D-SACK, and no RACK loss detection (tcp_recovery = 0:
#     three duplicate ACKs, as Reno's fast retransmit); the cc is the
#     experiment's (reno for the papers). paper_window changes the window's
#     clamp, or leaves it out (0), for a paper whose TCP had none.
HOST_PROFILES: dict[str, tuple[list[str], str]] = {
    "linux": ([], ""),
    "paper": (
        ["net.ipv4.tcp_sack=0", "net.ipv4.tcp_dsack=0", "net.ipv4.tcp_recovery=0"],
        f" window {PAPER_WINDOW} initcwnd 2 rto_min 1000ms",
    ),
}


def host_profile(exp: Experiment) -> tuple[list[str], str]:
    """(sysctls, default-route options) of EXP's end hosts."""
    sysctls, route = HOST_PROFILES[exp.hosts]
    if exp.hosts == "paper" and exp.paper_window != PAPER_WINDOW:
        clamp = f" window {exp.paper_window}" if exp.paper_window else ""
        route = route.replace(f" window {PAPER_WINDOW}", clamp)
    # window: the largest receive window an end host advertises (route
    # metric RTAX_WINDOW clamps the connection's window), as the DCN paper's
    # testbed ran every end system with a 16 KB TCP window (section 4)
    if exp.window:
        route += f" window {exp.window}"
    return sysctls, route


def _leaf(ns: str, dev: str, spec: str) -> Cmd:
    return _ns(ns, f"tc qdisc add dev {dev} parent 1:1 handle 10: {spec}")


def setup(tb: Testbed, exp: Experiment, ecn: bool) -> list[Cmd]:
    """Commands that build TB (with a pfifo leaf at each bottleneck)."""
    cmds: list[Cmd] = [["ip", "netns", "add", ns] for ns in tb.namespaces]
    cmds += _bottleneck_link(tb)
    addrs = [(tb.left, "bl0", "10.0.0.1/30"), (tb.right, "br0", "10.0.0.2/30")]
    for i, c in enumerate(tb.clients, start=1):
        cmds.append(_link(c.ns, "eth0", tb.left, f"c{i}"))
        addrs += [(c.ns, "eth0", f"{c.addr}/24"), (tb.left, f"c{i}", f"10.1.{i}.1/24")]
    for j, s in enumerate(tb.servers, start=1):
        cmds.append(_link(s.ns, "eth0", tb.right, f"s{j}"))
        addrs += [(s.ns, "eth0", f"{s.addr}/24"), (tb.right, f"s{j}", f"10.2.{j}.1/24")]
    for ns, dev, addr in addrs:
        cmds.append(_ns(ns, f"ip addr add {addr} dev {dev}"))
        cmds.append(_ns(ns, f"ethtool -K {dev} tso off gso off gro off"))
        cmds.append(_ns(ns, f"ip link set {dev} up"))
    cmds += [_ns(ns, "ip link set lo up") for ns in tb.namespaces]
    cmds += [_ns(r, "sysctl -qw net.ipv4.ip_forward=1") for r in (tb.left, tb.right)]
    cmds += _bottleneck_neighbours(tb)
    cmds.append(_ns(tb.left, "ip route add 10.2.0.0/16 via 10.0.0.2"))
    cmds.append(_ns(tb.right, "ip route add 10.1.0.0/16 via 10.0.0.1"))
    sysctls, route = host_profile(exp)
    for i, h in enumerate(tb.clients + tb.servers):
        gw = "10.1" if i < len(tb.clients) else "10.2"
        subnet = h.addr.split(".")[2]
        cmds += [
            _ns(h.ns, f"ip route add default via {gw}.{subnet}.1{route}"),
            _ns(h.ns, f"sysctl -qw net.ipv4.tcp_ecn={int(ecn)}"),
            _ns(h.ns, f"sysctl -qw net.ipv4.tcp_congestion_control={exp.cc}"),
            # no ssthresh or RTT carried from one run to the next
            _ns(h.ns, "sysctl -qw net.ipv4.tcp_no_metrics_save=1"),
        ]
        cmds += [_ns(h.ns, f"sysctl -qw {kv}") for kv in sysctls]
    cmds += _netems(tb, exp.rate_bps, "add")
    for ns, dev, _ in tb.bottlenecks():
        cmds.append(_ns(ns, f"tc qdisc add dev {dev} root handle 1: htb default 1"))
        cmds.append(_htb_class(ns, dev, "add", exp.rate_bps))
        cmds.append(_leaf(ns, dev, "pfifo limit 1000"))
    return cmds


def _netems(tb: Testbed, rate_bps: int, verb: str) -> list[Cmd]:
    """The access links' netems of TB, sized for a bottleneck of RATE_BPS."""
    cmds = []
    for i, c in enumerate(tb.clients, start=1):
        half = c.rtt_ms / 2
        netem = f"netem delay {half:.3f}ms limit {netem_limit(rate_bps, half)}"
        cmds.append(_ns(c.ns, f"tc qdisc {verb} dev eth0 root {netem}"))
        cmds.append(_ns(tb.left, f"tc qdisc {verb} dev c{i} root {netem}"))
    return cmds


def reseed(tb: Testbed, exp: Experiment, seed: int, rate_bps: int = 0) -> tuple[Testbed, list[Cmd]]:
    """The testbed of SEED (its client RTTs) and the commands that change
    the access links' netem delays of TB to it, their limits sized for a
    bottleneck of RATE_BPS (default the experiment's rate)."""
    new = make(exp, tb.prefix, seed)
    return new, _netems(new, rate_bps or exp.rate_bps, "change")


def set_rate(tb: Testbed, rate_bps: int) -> list[Cmd]:
    """The bottleneck's rate, both ways (the uncongested setting of the
    calibration, or a qdisc's own rate)."""
    return [_htb_class(ns, dev, "change", rate_bps) for ns, dev, _ in tb.bottlenecks()]


def set_qdisc(tb: Testbed, spec: str, up_spec: str = "") -> list[Cmd]:
    """The qdisc under test at both bottlenecks (UP_SPEC, when given, at
    the upstream one instead): the leaf is deleted and added anew (replace
    cannot change a kind), so each run starts from a fresh state."""
    cmds = []
    for ns, dev, way in tb.bottlenecks():
        cmds.append(_ns(ns, f"tc qdisc del dev {dev} parent 1:1 handle 10:"))
        cmds.append(_leaf(ns, dev, up_spec if way == "up" and up_spec else spec))
    return cmds


# the connect phase's small packets (run.Bench.connect_first): under this
# many bytes of IPv4, a packet goes first (pure ACKs and iperf3's control
# messages, its one-byte states; its data segments are full-sized); a
# power of two
CONNECT_SMALL = 128


def connect_qdisc(tb: Testbed, limit: int) -> list[Cmd]:
    """The bottlenecks' queue while the long flows connect (experiment
    long_connect, run.Bench.connect_first): a prio leaf (handle 10:) of
    two bands. The first (10:1), served first and never full, takes what
    sets up the flows: TCP SYNs and SYN-ACKs (the SYN flag, byte 13 of a
    TCP header after an IPv4 header of 20 bytes) and packets under
    CONNECT_SMALL bytes; the second (10:2), everything else, a pfifo of
    LIMIT packets (drop-tail). So the handshakes and iperf3's control
    exchange cross at once, whatever the data queue, and the data queue
    that the qdisc under test discards when it replaces this one is
    LIMIT packets at most."""
    cmds = []
    for ns, dev, _ in tb.bottlenecks():
        cmds.append(_ns(ns, f"tc qdisc del dev {dev} parent 1:1 handle 10:"))
        cmds.append(_leaf(ns, dev, "prio bands 2 priomap " + " ".join(["1"] * 16)))
        cmds.append(_ns(ns, f"tc qdisc add dev {dev} parent 10:1 handle 11: pfifo limit 10000"))
        cmds.append(_ns(ns, f"tc qdisc add dev {dev} parent 10:2 handle 12: pfifo limit {limit}"))
        first = f"tc filter add dev {dev} parent 10: protocol ip"
        cmds.append(
            _ns(ns, f"{first} prio 1 u32 match ip protocol 6 0xff match u8 2 2 at 33 flowid 10:1")
        )
        # tot_len under CONNECT_SMALL (a power of two): its high bits clear
        mask = f"{0xFFFF & ~(CONNECT_SMALL - 1):#x}"
        cmds.append(_ns(ns, f"{first} prio 2 u32 match u16 0 {mask} at 2 flowid 10:1"))
    return cmds


def set_ecn(tb: Testbed, ecn: bool) -> list[Cmd]:
    """ECN on or off at every end host."""
    return [_ns(h.ns, f"sysctl -qw net.ipv4.tcp_ecn={int(ecn)}") for h in tb.clients + tb.servers]


def netem_qdiscs(tb: Testbed) -> list[tuple[str, str]]:
    """(namespace, device) of every netem."""
    return [(c.ns, "eth0") for c in tb.clients] + [
        (tb.left, f"c{i}") for i in range(1, len(tb.clients) + 1)
    ]


def teardown(tb: Testbed) -> list[Cmd]:
    return [["ip", "netns", "del", ns] for ns in tb.namespaces]
