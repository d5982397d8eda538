"""Experiment files and the testbed commands built from them."""

from __future__ import annotations

from pathlib import Path

import pytest

from aqmtools.bench import run, testbed
from aqmtools.bench.experiment import Experiment, load, parse_rate
from aqmtools.bench.run import run_name, run_setting

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
    link = (
        "ip link add bl0 netns wbT-rl address 02:00:0a:00:00:01 type veth "
        "peer name br0 netns wbT-rr address 02:00:0a:00:00:02"
    )
    assert cmds.count(link) == 1
    # only the workload crosses the bottleneck: no IPv6 on it, and each
    # router knows the other's MAC for good (no ARP probe after a run),
    # set once its address is up
    for ns, dev, peer, mac in (
        ("wbT-rl", "bl0", "10.0.0.2", "02:00:0a:00:00:02"),
        ("wbT-rr", "br0", "10.0.0.1", "02:00:0a:00:00:01"),
    ):
        assert f"ip netns exec {ns} sysctl -qw net.ipv6.conf.{dev}.disable_ipv6=1" in cmds
        neigh = f"ip -n {ns} neigh replace {peer} lladdr {mac} dev {dev} nud permanent"
        assert cmds.index(neigh) > cmds.index(f"ip -n {ns} link set {dev} up")
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


# --- a qdisc with a bottleneck rate of its own ----------------------------

OWN_RATE = MINIMAL.replace(
    'name = "droptail"\nspec = "pfifo limit 240"',
    'name = "uncongested"\nspec = "pfifo limit {29ms}"\nrate = "100mbit"\necn_runs = false',
)


def test_a_qdisc_may_run_at_its_own_rate() -> None:
    exp = load(OWN_RATE)
    ref, pi = exp.qdiscs
    assert (ref.rate_bps, pi.rate_bps) == (100_000_000, 0)
    assert (exp.rate_of(ref), exp.rate_of(pi)) == (100_000_000, 10_000_000)
    # its times convert at its own rate: 29 ms is 239 packets at 100 Mbit/s
    assert ref.spec_for(False, exp.rate_of(ref)) == "pfifo limit 239"
    # the run names stay as they are
    assert {run_name(*r) for r in exp.runs() if r[0] is ref} == {
        "uncongested-load90-ecn0-s7",
        "uncongested-load105-ecn0-s7",
    }


@pytest.mark.parametrize("rate", ['"1mbit"', '"fast"', '"0mbit"', "100"])
def test_a_qdisc_rate_below_the_experiments_or_malformed_is_refused(rate: str) -> None:
    with pytest.raises(ValueError):
        load(OWN_RATE.replace('rate = "100mbit"', f"rate = {rate}"))


def test_the_population_is_the_experiments_whatever_the_qdiscs_rate() -> None:
    exp = load(OWN_RATE)
    ref, pi = exp.qdiscs
    # 90% of 10 Mbit/s at 100 kbit/s a user: 90 users, on either link
    assert run_setting(exp, ref, 0.9, False, 100_000.0) == (100_000_000, "pfifo limit 239", 90)
    assert run_setting(exp, pi, 0.9, True, 100_000.0) == (10_000_000, "pi qref 24", 90)


def test_netem_limits_follow_the_rate_of_a_reseed() -> None:
    exp = load(OWN_RATE)
    tb = testbed.make(exp, "wbT", 7)
    same, cmds = testbed.reseed(tb, exp, 7, 100_000_000)
    assert [c.rtt_ms for c in same.clients] == [c.rtt_ms for c in tb.clients]
    for c, cmd in zip(same.clients, cmds[::2], strict=True):
        assert cmd[-1] == str(testbed.netem_limit(100_000_000, c.rtt_ms / 2))
    # without a rate: the experiment's, as setup() sizes them
    _, plain = testbed.reseed(tb, exp, 7)
    assert plain[0][-1] == str(testbed.netem_limit(exp.rate_bps, tb.clients[0].rtt_ms / 2))


class _Recorder:
    """run.run_all in place: the commands a Bench would run."""

    def __init__(self) -> None:
        self.cmds: list[str] = []

    def __call__(self, cmds: list[list[str]], check: bool = True) -> None:
        self.cmds += [" ".join(c) for c in cmds]


def test_bench_moves_the_bottleneck_and_netems_to_a_qdiscs_rate(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    rec = _Recorder()
    monkeypatch.setattr(run, "run_all", rec)
    exp = load(OWN_RATE)
    bench = run.Bench(exp, tmp_path, tmp_path)
    bench.use_seed(7)
    assert rec.cmds == []
    bench.use_seed(7, 100_000_000)
    htb = [c for c in rec.cmds if " htb rate " in c]
    assert len(htb) == 2 and all("rate 100000000bit ceil 100000000bit" in c for c in htb)
    limit = testbed.netem_limit(100_000_000, bench.tb.clients[0].rtt_ms / 2)
    assert sum(c.endswith(f" limit {limit}") for c in rec.cmds) == 2
    assert sum("netem" in c for c in rec.cmds) == 2 * exp.clients
    # back at the experiment's rate for the next qdisc, once
    rec.cmds.clear()
    bench.use_seed(7)
    bench.use_seed(7)
    assert sum("rate 10000000bit" in c for c in rec.cmds) == 2
    assert sum("netem" in c for c in rec.cmds) == 2 * exp.clients


def test_the_reproductions_experiments() -> None:
    for name, hosts in (("repro-dcn-paper", "paper"), ("repro-dcn-linux", "linux")):
        exp = load((EXPERIMENTS / f"{name}.toml").read_text())
        assert exp.hosts == hosts and exp.reporting_seeds == [101, 102, 103, 104, 105]
        assert exp.tuning_seeds == [] and exp.loads == [0.9, 0.98, 1.05]
        by = {q.name: q for q in exp.qdiscs}
        # the uncongested reference: ten times the rate, as the calibration
        ref = by["uncongested"]
        assert exp.rate_of(ref) == testbed.UNCONGESTED_FACTOR * exp.rate_bps
        assert ref.spec_for(False, exp.rate_of(ref)) == "pfifo limit 239"
        # the paper's 240 packets at 100 Mbit/s scaled in time; its 24 too,
        # and as packets beside them where the time is under 3 packets
        assert by["droptail"].spec_for(False, exp.rate_bps) == "pfifo limit 24"
        assert by["afd"].spec_for(False, exp.rate_bps) == "afd limit 1000 qref 24"
        for kind in ("pi", "dcn"):
            assert f"{kind} limit 1000 qref 2 " in by[f"{kind}-2.9ms"].spec_for(False, exp.rate_bps)
            assert f"{kind} limit 1000 qref 24 " in by[f"{kind}-24pkt"].spec
        assert all(
            "floor 0 holdoff 0" in by[n].spec and not by[n].ecn_runs
            for n in ("dcn-2.9ms", "dcn-24pkt")
        )
        # 12 runs a load, about 46 min a seed: one part a seed within 2 h
        assert len(exp.runs([101])) == 36
