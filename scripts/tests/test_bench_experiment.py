"""Experiment files and the testbed commands built from them."""

from __future__ import annotations

from pathlib import Path

import pytest

from aqmtools.bench import testbed
from aqmtools.bench.experiment import Experiment, load, parse_rate

EXPERIMENTS = Path(__file__).resolve().parents[2] / "scripts/bench/experiments"

MINIMAL = """
name = "t"
rate = "10mbit"
duration = 30
warmup = 5
seed = 7
loads = [0.9, 1.05]
ecn = [false, true]
clients = 4
servers = 2
rtt_ms = [10, 150]
workload = "web"
[[qdisc]]
name = "droptail"
spec = "pfifo limit 240"
[[qdisc]]
name = "pi"
spec = "pi qref 24"
"""


def _exp(text: str = MINIMAL) -> Experiment:
    return load(text)


def test_shipped_experiments_load() -> None:
    files = sorted(EXPERIMENTS.glob("*.toml"))
    assert {f.stem for f in files} >= {"short", "full"}
    for f in files:
        exp = load(f.read_text())
        assert exp.name == f.stem
        kinds = {q.kind for q in exp.qdiscs}
        if f.stem in ("short", "full"):
            # the comparison of issue 12: the project's and Linux's AQMs
            assert {"pfifo", "pi", "dcn", "blue", "red", "pie", "codel", "fq_codel"} <= kinds


def test_rates() -> None:
    assert parse_rate("10mbit") == 10_000_000
    assert parse_rate("1.5mbit") == 1_500_000
    assert parse_rate("100kbit") == 100_000
    for bad in ("10", "10mb", "mbit", "-1mbit", "0mbit"):
        with pytest.raises(ValueError):
            parse_rate(bad)


def test_runs_cover_every_combination_in_order() -> None:
    runs = _exp().runs()
    assert len(runs) == 2 * 2 * 2
    assert {s for *_, s in runs} == {7}
    assert [(q.name, ld, e) for q, ld, e, _ in runs[:3]] == [
        ("droptail", 0.9, False),
        ("pi", 0.9, False),
        ("droptail", 0.9, True),
    ]


def test_ecn_runs_use_ecn_spec_and_skip_queues_that_cannot_mark() -> None:
    text = MINIMAL.replace(
        'spec = "pfifo limit 240"', 'spec = "pfifo limit 240"\necn_runs = false'
    ).replace('spec = "pi qref 24"', 'spec = "pi qref 24"\necn_spec = "pi qref 24 ecn"')
    exp = _exp(text)
    runs = exp.runs()
    assert [(q.name, ld, e) for q, ld, e, _ in runs] == [
        ("droptail", 0.9, False),
        ("pi", 0.9, False),
        ("pi", 0.9, True),
        ("droptail", 1.05, False),
        ("pi", 1.05, False),
        ("pi", 1.05, True),
    ]
    pi = exp.qdiscs[1]
    assert pi.spec_for(False) == "pi qref 24"
    assert pi.spec_for(True) == "pi qref 24 ecn"
    # without ecn_spec an ECN run installs spec itself
    assert exp.qdiscs[0].spec_for(True) == "pfifo limit 240"


@pytest.mark.parametrize(
    "extra",
    ['ecn_spec = "red limit 1000"', 'ecn_spec = "pi ecn"\necn_runs = false', "ecn_runs = 1"],
)
def test_bad_ecn_keys(extra: str) -> None:
    with pytest.raises(ValueError):
        load(MINIMAL.replace('spec = "pi qref 24"', 'spec = "pi qref 24"\n' + extra))


def test_module_picks_the_project_or_the_kernel() -> None:
    exp = _exp(MINIMAL.replace('spec = "pi qref 24"', 'spec = "pi qref 24"\nmodule = "linux"'))
    assert exp.qdiscs[0].module == ""
    assert exp.qdiscs[1].module == "linux"
    with pytest.raises(ValueError):
        load(MINIMAL.replace('spec = "pi qref 24"', 'spec = "pi qref 24"\nmodule = "ours"'))


def test_rtts_are_seeded_and_in_range() -> None:
    a, b = _exp().client_rtts_ms(), _exp().client_rtts_ms()
    assert a == b and len(a) == 4
    assert all(10 <= x <= 150 for x in a)
    other = load(MINIMAL.replace("seed = 7", "seed = 8")).client_rtts_ms()
    assert other != a


@pytest.mark.parametrize(
    ("old", "new"),
    [
        ("rtt_ms = [10, 150]", "rtt_ms = [150, 10]"),
        ("loads = [0.9, 1.05]", "loads = []"),
        ("loads = [0.9, 1.05]", "loads = [3.0]"),
        ("warmup = 5", "warmup = 30"),
        ('workload = "web"', 'workload = "long"'),
        ('workload = "web"', 'workload = "ftp"'),
        ('name = "pi"', 'name = "droptail"'),
        ("clients = 4", "clients = 0"),
        ("seed = 7", 'seed = "x"'),
        ('rate = "10mbit"', 'rate = "fast"'),
        ('name = "t"', 'name = "T t"'),
    ],
)
def test_bad_files_are_refused(old: str, new: str) -> None:
    assert old in MINIMAL
    with pytest.raises(ValueError):
        load(MINIMAL.replace(old, new))


def test_netem_holds_what_is_in_flight() -> None:
    # 100 Mbit/s (10 x 10) for 75 ms is 625 MTU-sized packets one way
    assert testbed.netem_limit(10_000_000, 75) == 4 * 625
    assert testbed.netem_limit(1_000_000, 5) == 1000
    assert testbed.htb_burst(10_000_000) == 15000
    assert testbed.htb_burst(1_000_000_000) == 250_000


def test_setup_commands() -> None:
    exp = _exp()
    tb = testbed.make(exp, "wbT")
    cmds = [" ".join(c) for c in testbed.setup(tb, exp, ecn=True)]
    assert cmds.count("ip link add bl0 netns wbT-rl type veth peer name br0 netns wbT-rr") == 1
    # every client's access link delays half its RTT each way, nothing else
    for i, c in enumerate(tb.clients, start=1):
        half = f"{c.rtt_ms / 2:.3f}ms"
        limit = str(testbed.netem_limit(exp.rate_bps, c.rtt_ms / 2))
        assert f"tc -n {c.ns} qdisc add dev eth0 root netem delay {half} limit {limit}" in cmds
        assert f"tc -n wbT-rl qdisc add dev c{i} root netem delay {half} limit {limit}" in cmds
    assert sum("netem" in c for c in cmds) == 2 * len(tb.clients)
    # the bottleneck: htb at the rate, each way, with a leaf 10:
    for dev, ns in (("br0", "wbT-rr"), ("bl0", "wbT-rl")):
        assert (
            f"tc -n {ns} class add dev {dev} parent 1: classid 1:1 htb "
            "rate 10000000bit ceil 10000000bit burst 15000 cburst 15000"
        ) in cmds
    # offloads off on every veth end, ECN and the experiment's cc on every host
    assert sum("ethtool -K" in c for c in cmds) == 2 + 2 * (4 + 2)
    hosts = tb.clients + tb.servers
    assert sum(c.endswith("net.ipv4.tcp_ecn=1") for c in cmds) == len(hosts)
    assert sum(c.endswith("tcp_congestion_control=reno") for c in cmds) == len(hosts)


def test_window_clamps_every_end_host_route() -> None:
    exp = load(MINIMAL.replace("workload =", "window = 16384\nworkload ="))
    tb = testbed.make(exp, "wbT")
    cmds = [" ".join(c) for c in testbed.setup(tb, exp, ecn=False)]
    routes = [c for c in cmds if "route add default" in c]
    assert len(routes) == len(tb.clients) + len(tb.servers)
    assert all(c.endswith(" window 16384") for c in routes)
    assert not any("window" in c for c in testbed.setup(tb, _exp(), ecn=False))
    for bad in ("window = 100", "window = -1", "window = true"):
        with pytest.raises(ValueError):
            load(MINIMAL.replace("workload =", bad + "\nworkload ="))


def test_qdisc_change_is_delete_then_add_both_ways() -> None:
    tb = testbed.make(_exp(), "wbT")
    cmds = [" ".join(c) for c in testbed.set_qdisc(tb, "dcn limit 1000 qref 24")]
    assert cmds == [
        "tc -n wbT-rr qdisc del dev br0 parent 1:1 handle 10:",
        "tc -n wbT-rr qdisc add dev br0 parent 1:1 handle 10: dcn limit 1000 qref 24",
        "tc -n wbT-rl qdisc del dev bl0 parent 1:1 handle 10:",
        "tc -n wbT-rl qdisc add dev bl0 parent 1:1 handle 10: dcn limit 1000 qref 24",
    ]


def test_ecn_and_rate_changes_reach_every_host_and_both_ways() -> None:
    tb = testbed.make(_exp(), "wbT")
    ecn = [" ".join(c) for c in testbed.set_ecn(tb, False)]
    assert ecn == [
        f"ip netns exec {h.ns} sysctl -qw net.ipv4.tcp_ecn=0" for h in tb.clients + tb.servers
    ]
    rate = [" ".join(c) for c in testbed.set_rate(tb, 100_000_000)]
    assert rate == [
        f"tc -n {ns} class change dev {dev} parent 1: classid 1:1 htb rate 100000000bit "
        "ceil 100000000bit burst 25000 cburst 25000"
        for ns, dev in (("wbT-rr", "br0"), ("wbT-rl", "bl0"))
    ]
