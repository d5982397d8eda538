"""Many unresponsive UDP flows beside long TCP flows (issue 34): the
experiment keys, where the flows run, and the report's fairness table."""

from __future__ import annotations

import json
import math
import random
import time
from dataclasses import replace
from pathlib import Path

import pytest

from aqmtools.bench import pairs, report, rttshare, run
from aqmtools.bench.experiment import load
from aqmtools.bench.run import IPERF_PORT, iperf_flows
from aqmtools.bench.stats import LinkFigures, Run, WebLog, unresponsive

EXPERIMENTS = Path(__file__).resolve().parents[2] / "scripts/bench/experiments"

LONG = """
name = "t"
rate = "10mbit"
duration = 60
warmup = 10
seed = 1
loads = [1.0]
ecn = [false]
clients = 8
servers = 2
rtt_ms = [10, 150]
workload = "long"
long_flows = 40
[[qdisc]]
name = "fq_codel"
spec = "fq_codel limit 1000 noecn"
"""


def _with(extra: str, text: str = LONG) -> str:
    return text.replace("long_flows = 40", "long_flows = 40\n" + extra)


# --- the experiment's keys --------------------------------------------------


def test_a_plain_rate_is_one_flow_unless_told() -> None:
    plain = load(LONG)
    assert (plain.udp_rate_bps, plain.udp_flows, plain.udp_share) == (0, 0, 0.0)
    one = load(_with('udp_rate = "2mbit"'))
    assert (one.udp_rate_bps, one.udp_flows, one.udp_share) == (2_000_000, 1, 0.0)
    many = load(_with('udp_rate = "2mbit"\nudp_flows = 5'))
    assert (many.udp_rate_bps, many.udp_flows) == (2_000_000, 5)


def test_share_is_a_multiple_of_the_fair_share() -> None:
    # 10 Mbit/s over 40 TCP + 32 UDP flows, twice: 277777.8 bit/s
    exp = load(_with('udp_rate = "share:2"\nudp_flows = 32'))
    assert exp.udp_rate_bps == round(2 * 10_000_000 / 72) == 277_778
    assert (exp.udp_flows, exp.udp_share) == (32, 2.0)
    # one flow by default; N may be a fraction; spaces and case are tc's
    one = load(_with('udp_rate = " Share:1.5 "'))
    assert one.udp_rate_bps == round(1.5 * 10_000_000 / 41)
    assert (one.udp_flows, one.udp_share) == (1, 1.5)
    # without a long workload only the UDP flows share the link (long_flows
    # there starts nothing)
    web = load(_with('udp_rate = "share:1"\nudp_flows = 4').replace('"long"', '"web"'))
    assert web.udp_rate_bps == 2_500_000


@pytest.mark.parametrize(
    "extra",
    [
        "udp_flows = 2",  # without udp_rate
        'udp_rate = "2mbit"\nudp_flows = 0',
        'udp_rate = "2mbit"\nudp_flows = -1',
        'udp_rate = "2mbit"\nudp_flows = true',
        'udp_rate = "2mbit"\nudp_flows = 1.5',
        'udp_rate = "2mbit"\nudp_flows = "3"',
        'udp_rate = "share:0"',
        'udp_rate = "share:-1"',
        'udp_rate = "share:"',
        'udp_rate = "share:x"',
        'udp_rate = "share:2mbit"',
        'udp_rate = "share"',
        'udp_rate = "2"',
        "udp_rate = 2",
    ],
)
def test_bad_udp_keys_are_refused(extra: str) -> None:
    with pytest.raises(ValueError):
        load(_with(extra))


def test_long_starts_stay_those_of_the_published_runs() -> None:
    """The TCP flows' start offsets on a seed are what they were when the
    single UDP flow drew one more value last: dcn-udp's two flows on its
    seed 1 start as in docs/results/dcn-2026-11-24-udp."""
    exp = load((EXPERIMENTS / "dcn-udp.toml").read_text())
    assert (exp.long_flows, exp.udp_flows) == (2, 1)
    assert exp.long_starts_s(1) == [0.016, 0.866, 0.269]
    for seed in (1, 101, 102):
        rng = random.Random(f"long-starts-{seed}")
        drawn = [round(rng.uniform(0, 1), 3) for _ in range(3)]
        assert exp.long_starts_s(seed) == drawn
    # more UDP flows move no TCP flow's start
    base = load(_with('udp_rate = "2mbit"'))
    many = load(_with('udp_rate = "share:2"\nudp_flows = 32'))
    for seed in (1, 101):
        assert many.long_starts_s(seed)[:40] == base.long_starts_s(seed)[:40]
        assert many.long_starts_s(seed)[:40] == load(LONG).long_starts_s(seed)


# --- where the flows run ----------------------------------------------------


def test_flows_have_ports_of_their_own_and_take_the_hosts_in_turn() -> None:
    flows = iperf_flows(40, 32, 8, 2)
    tcp = [f for f in flows if f.proto == "tcp"]
    udp = [f for f in flows if f.proto == "udp"]
    assert len(tcp) == 40 and len(udp) == 32
    # the TCP flows where start_long always put them: port IPERF_PORT + k
    assert [(f.k, f.port, f.client, f.server) for f in tcp] == [
        (k, IPERF_PORT + k, k % 8, k % 2) for k in range(40)
    ]
    ports = [f.port for f in flows]
    assert len(set(ports)) == len(ports)
    assert not {f.port for f in udp} & {IPERF_PORT + k for k in range(40)}
    # distinct file names, numbered on after the TCP flows
    assert [f.k for f in udp] == list(range(40, 72))
    # round-robin continuing after the TCP flows: every client host, so
    # every RTT class, gets 4 of them
    assert [f.client for f in udp] == [k % 8 for k in range(40, 72)]
    assert all(sum(f.client == c for f in udp) == 4 for c in range(8))
    assert [f.server for f in udp] == [k % 2 for k in range(40, 72)]


def test_one_udp_flow_runs_where_it_always_did() -> None:
    # dcn-udp and sfred-10mbit: k = long_flows, its port, its hosts
    (udp,) = [f for f in iperf_flows(4, 1, 8, 2) if f.proto == "udp"]
    assert (udp.k, udp.port, udp.client, udp.server) == (4, IPERF_PORT + 4, 4, 0)
    (udp,) = iperf_flows(0, 1, 8, 2)
    assert (udp.proto, udp.k, udp.port, udp.client, udp.server) == ("udp", 0, IPERF_PORT, 0, 0)


def test_ports_must_exist() -> None:
    iperf_flows(65535 - IPERF_PORT, 1, 8, 2)
    with pytest.raises(ValueError):
        iperf_flows(65535 - IPERF_PORT, 2, 8, 2)


def test_servers_listen_before_any_client_of_a_udp_flow(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    exp = load(_with('udp_rate = "share:2"\nudp_flows = 3\nrtt_classes_ms = [10, 50, 100, 150]'))
    bench = run.Bench(exp, tmp_path, tmp_path)
    spawned: list[tuple[list[str], Path | None]] = []
    waited: list[list[int]] = []

    def spawn(cmd: list[str], stdout: Path | None = None, stderr: Path | None = None) -> None:
        spawned.append((cmd, stdout))

    monkeypatch.setattr(bench, "spawn", spawn)
    monkeypatch.setattr(bench, "wait_listening", lambda fs: waited.append([f.port for f in fs]))
    monkeypatch.setattr(time, "sleep", lambda s: None)
    bench.start_servers()
    servers = [c for c, _ in spawned]
    assert all("-s" in c for c in servers) and len(servers) == 3 + exp.long_flows
    # one wait, for every server: the UDP flows' and the long flows'
    assert sorted(*waited) == [IPERF_PORT + k for k in range(exp.long_flows + 3)]
    servers = servers[:3]
    spawned.clear()
    bench.start_udp(60.0, tmp_path)
    clients = [(c, out) for c, out in spawned if "-c" in c]
    assert len(clients) == 3 == len(spawned)
    ports = [c[c.index("-p") + 1] for c, _ in clients]
    assert ports == [str(IPERF_PORT + k) for k in (40, 41, 42)]
    assert [s[s.index("-p") + 1] for s in servers] == ports
    assert [out for _, out in clients] == [tmp_path / f"iperf-udp{k}.json" for k in (40, 41, 42)]
    for c, _ in clients:
        assert c[c.index("-b") + 1] == str(exp.udp_rate_bps)
        assert c[c.index("-t") + 1] == "60"
        assert c[c.index("-l") + 1] == "1400" and "-u" in c and "-R" in c
    # from client hosts 1, 2, 3 (k = 40, 41, 42 mod 8): RTTs 10, 50, 100 ms
    hosts = [c[3] for c, _ in clients]
    assert hosts == [bench.tb.clients[k % 8].ns for k in (40, 41, 42)]
    assert [bench.tb.clients[k % 8].rtt_ms for k in (40, 41, 42)] == [10.0, 50.0, 100.0]


# --- the report's table -----------------------------------------------------

MEASURED_S = 50.0
# 10 Mbit/s measured at the bottleneck over the window
LINK_BYTES = round(10_000_000 * MEASURED_S / 8)


def _run(
    qdisc: str,
    seed: int,
    tcp: list[float],
    udp: list[float],
    missing: int = 0,
    connected: float | None = None,
) -> Run:
    meta = {
        "qdisc": qdisc,
        "seed": seed,
        "load": 1.0,
        "ecn": False,
        "rate_bps": 10_000_000,
        "warmup_s": 30.0,
    }
    link = LinkFigures(
        sent_packets=LINK_BYTES // 1514,
        sent_bytes=LINK_BYTES,
        drops=0,
        marks=None,
        loss=0.0,
        utilization=1.0,
        seconds=MEASURED_S,
    )
    return Run(
        meta, WebLog([], 0, 0, 0), link, tcp, {}, {}, [], udp, missing, tcp_connected_s=connected
    )


def test_unresponsive_figures_of_a_run() -> None:
    # 2 TCP + 2 UDP flows on 10 Mbit/s: a fair share of 2.5 Mbit/s
    r = _run("afd", 1, [1.25e6, 3.75e6], [4e6, 4.5e6])
    f = unresponsive(r)
    assert f is not None
    assert f.fair_bps == pytest.approx(2.5e6)
    assert (f.tcp_flows, f.udp_flows, f.udp_missing) == (2, 2, 0)
    assert f.udp == pytest.approx(8.5 / 5)
    assert f.tcp_lowest == pytest.approx(0.5)
    assert f.jain == pytest.approx(25 / 31.25)
    # equal rates: Jain 1, every flow at its share (4 + 1 flows: 2 Mbit/s)
    equal = unresponsive(_run("afd", 1, [2e6] * 4, [2e6]))
    assert equal is not None and equal.jain == 1.0
    assert equal.tcp_lowest == pytest.approx(1.0) and equal.udp == pytest.approx(1.0)
    # a UDP flow that never started counts 0 and is counted
    lost = unresponsive(_run("afd", 1, [2.5e6, 2.5e6], [5e6], missing=1))
    assert lost is not None and lost.udp == pytest.approx(1.0) and lost.udp_missing == 1
    # only with both kinds of flow
    assert unresponsive(_run("afd", 1, [2.5e6], [])) is None
    assert unresponsive(_run("afd", 1, [], [2.5e6])) is None


def test_unresponsive_counts_the_tcp_flows_without_a_result() -> None:
    # 3 TCP flows, one without a result, + 1 UDP flow: a fair share of 2.5
    # Mbit/s; lowest and Jain over the two known goodputs
    r = replace(_run("afd", 1, [1.25e6, 2.5e6], [2.5e6]), tcp_missing=1)
    f = unresponsive(r)
    assert f is not None and (f.tcp_flows, f.tcp_missing) == (3, 1)
    assert f.fair_bps == pytest.approx(2.5e6) and f.tcp_lowest == pytest.approx(0.5)
    assert f.jain == pytest.approx(3.75**2 / (2 * (1.25**2 + 2.5**2)))
    assert r.problems == ["TCP flow without a result"]
    # no TCP flow with a result: counted, and no lowest or Jain
    none = unresponsive(replace(_run("afd", 1, [], [2.5e6]), tcp_missing=2))
    assert none is not None and none.tcp_flows == 2
    assert math.isnan(none.tcp_lowest) and math.isnan(none.jain)


def test_unresponsive_table_means_and_intervals() -> None:
    afd = [
        _run("afd", 1, [2.5e6, 2.5e6], [3e6, 4.5e6], connected=12.0),
        _run("afd", 2, [1.25e6, 3.75e6], [4e6, 4.5e6], connected=14.0),
    ]
    fq = [_run("fq_codel", 1, [2.5e6, 2.5e6], [5e6], missing=1)]
    lines = report.unresponsive_table([afd, fq])
    assert lines[0].startswith("Unresponsive flows (mean ± 95% interval over the seeds)")
    # UDP 1.5 and 1.7: mean 1.6, s = 0.1414, t(0.975, 1) = 12.706 x 0.1;
    # lowest 1.0 and 0.5: 0.75 ± 12.706 x 0.25; Jain 1 and 0.8: 0.9 ± 1.271
    # connected by 12 and 14 s: 13 ± 12.706 x 1; unknown for fq_codel's run
    afd_row = "| afd | 2 | 2 + 2 | 1.60 ± 1.27 | 0.75 ± 3.18 | 0.900 ± 1.271 | 0/4 | 13.0 ± 12.7 |"
    assert afd_row in lines
    assert "warm-up's 30 s" in lines[0]
    # one seed: no interval; the flow that never started counts 0
    assert "| fq_codel | 1 | 2 + 2 | 1.00 | 1.00 | 1.000 | 1/2 | - |" in lines
    assert lines[-1] == ""
    # not without UDP flows, nor without long TCP flows
    assert report.unresponsive_table([[_run("afd", 1, [2.5e6], [])]]) == []
    assert report.unresponsive_table([[_run("afd", 1, [], [2.5e6])]]) == []


def test_paired_unresponsive_table_pairs_by_seed() -> None:
    # fair share 2.5 Mbit/s (2 TCP + 2 UDP flows on 10 Mbit/s)
    ref = [
        _run("sfb-linux", 1, [2.5e6, 2.5e6], [3e6, 4.5e6]),  # UDP 1.5, lowest 1.0, Jain 1
        _run("sfb-linux", 2, [1.25e6, 3.75e6], [4e6, 4.5e6]),  # 1.7, 0.5, 0.8
        _run("sfb-linux", 3, [2.5e6, 2.5e6], [4e6, 4e6]),  # 1.6, 1.0, 1
    ]
    # each seed's UDP 0.25 Mbit/s lower (0.05 of the 2 shares); the lowest
    # TCP flow and Jain as the reference's
    ours = [
        _run("sfb", 1, [2.5e6, 2.5e6], [2.75e6, 4.5e6]),
        _run("sfb", 2, [1.25e6, 3.75e6], [3.75e6, 4.5e6]),
        _run("sfb", 3, [2.5e6, 2.5e6], [3.75e6, 4e6]),
    ]
    lines = report.paired_unresponsive_table([ref, ours], "sfb-linux")
    assert lines[0].startswith("Unresponsive flows paired by seed with sfb-linux")
    # a constant difference has no spread: an interval of 0 excludes 0
    assert (
        "| sfb | 3 | -0.05 ± 0.00, lower | +0.00 ± 0.00, within noise "
        "| +0.000 ± 0.000, within noise |"
    ) in lines
    # unpaired, the seeds differ more than the qdiscs: 1.60 ± 0.25 (s = 0.1,
    # t(0.975, 2) = 4.303 over sqrt(3)) against 1.55 ± 0.25
    unpaired = report.unresponsive_table([ref, ours])
    assert unpaired[-3].startswith("| sfb-linux | 3 | 2 + 2 | 1.60 ± 0.25 |")
    assert unpaired[-2].startswith("| sfb | 3 | 2 + 2 | 1.55 ± 0.25 |")
    # the other way round; a reference of one seed, or none, gives no table
    other = report.paired_unresponsive_table([ref, ours], "sfb")
    assert any(line.startswith("| sfb-linux | 3 | +0.05 ± 0.00, higher |") for line in other)
    assert report.paired_unresponsive_table([ref[:1], ours], "sfb-linux") == []
    assert report.paired_unresponsive_table([ref, ours], "pie") == []


def _write_run(d: Path, qdisc: str, order: int, tcp: list[float], udp: list[int]) -> None:
    """A run of the long workload: no web logs, TCP and UDP flows."""
    d.mkdir(parents=True)
    meta = {
        "experiment": "t",
        "order": order,
        "qdisc": qdisc,
        "spec": qdisc,
        "load": 1.0,
        "ecn": False,
        "seed": 101,
        "seed_set": "reporting",
        "workload": "long",
        "users": 0,
        "duration_s": 10.0,
        "warmup_s": 1.0,
        "rate_bps": 10_000_000,
        "client_rtts_ms": [10.0, 50.0],
        "exit_codes": [0],
        "netem_drops": 0,
        "valid": True,
        "long_flows": len(tcp),
        "udp_flows": len(udp),
    }
    (d / "run.json").write_text(json.dumps(meta))
    leaf = {"kind": qdisc, "handle": "10:", "packets": 0, "bytes": 0, "drops": 0}
    (d / "tc-before.json").write_text(json.dumps({"down": [leaf], "up": []}))
    # 12.5 MB in the run's 10 s: 10 Mbit/s
    after = {**leaf, "packets": 8000, "bytes": 12_500_000, "drops": 5}
    (d / "tc-after.json").write_text(json.dumps({"down": [after], "up": []}))
    for k, bps in enumerate(tcp):
        end = {"end": {"sum_received": {"bits_per_second": bps}}}
        (d / f"iperf-tcp{k}.json").write_text(json.dumps(end))
    for j, packets in enumerate(udp):
        # 1400-byte datagrams over 10 s
        s = {"packets": packets, "lost_packets": 0, "seconds": 10.0}
        (d / f"iperf-udp{len(tcp) + j}.json").write_text(json.dumps({"end": {"sum": s}}))


def test_report_shows_the_table_for_runs_with_both(tmp_path: Path) -> None:
    # 2 TCP + 2 UDP flows: fair share 2.5 Mbit/s; UDP 2 x 2.24 Mbit/s
    # (2000 datagrams of 1400 bytes in 10 s) = 0.896 of its shares
    _write_run(tmp_path / "afd-load100-ecn0-s101", "afd", 0, [1e6, 4e6], [2000, 2000])
    assert report.main(["report", str(tmp_path)]) == 0
    summary = (tmp_path / "summary.md").read_text()
    assert "Unresponsive flows (mean" in summary
    assert "| afd | 1 | 2 + 2 | 0.90 | 0.40 | 0.735 | 0/2 |" in summary
    # the long flows' table as before
    assert "| afd | 5.00 | 1.00 | 4.48 | 0/1 |" in summary


def test_report_keeps_a_run_with_a_tcp_flow_without_a_result(tmp_path: Path) -> None:
    d = tmp_path / "afd-load100-ecn0-s101"
    _write_run(d, "afd", 0, [1e6, 4e6], [2000, 2000])
    # the second TCP flow's iperf3 killed before it wrote anything
    (d / "iperf-tcp1.json").write_text("")
    assert report.main(["report", str(tmp_path)]) == 0
    summary = (tmp_path / "summary.md").read_text()
    # counted among the flows (2 + 2: fair share 2.5 Mbit/s), left out of
    # TCP lowest and Jain
    assert "| afd | 1 | 2 + 2 | 0.90 | 0.40 | 1.000 | 0/2 |" in summary
    assert "| afd | 1.00 | 1.00 | 4.48 | 0/1 |" in summary
    assert "0/1 (TCP flow without a result)" in summary


def test_report_leaves_the_table_out_without_udp(tmp_path: Path) -> None:
    _write_run(tmp_path / "afd-load100-ecn0-s101", "afd", 0, [1e6, 4e6], [])
    assert report.main(["report", str(tmp_path)]) == 0
    assert "Unresponsive flows" not in (tmp_path / "summary.md").read_text()


def test_shipped_unresponsive_experiments() -> None:
    for name, m in (("unresponsive-10mbit", 32), ("unresponsive-m8-10mbit", 8)):
        exp = load((EXPERIMENTS / f"{name}.toml").read_text())
        assert (exp.workload, exp.long_flows, exp.udp_flows) == ("long", 40, m)
        assert exp.udp_share == 2.0
        assert exp.udp_rate_bps == round(2 * exp.rate_bps / (40 + m))
        assert exp.rate_bps == 10_000_000 and exp.duration_s == 80 and exp.warmup_s == 30
        assert exp.tuning_seeds == [1] and exp.reporting_seeds == [101, 102, 103]
        assert [q.name for q in exp.qdiscs] == [
            "afd",
            "afd-paper",
            "fq_codel",
            "dcn",
            "sfb",
            "sfb-linux",
            "droptail",
        ]
        assert {q.name: q.module for q in exp.qdiscs}["sfb-linux"] == "linux"
        # 10 TCP flows in each RTT class; the UDP flows spread evenly too
        rtts = exp.client_rtts_ms(101)
        flows = iperf_flows(exp.long_flows, exp.udp_flows, exp.clients, exp.servers)
        for proto, each in (("tcp", 10), ("udp", m // 4)):
            got = [rtts[f.client] for f in flows if f.proto == proto]
            assert all(got.count(c) == each for c in (10.0, 50.0, 100.0, 150.0))
    assert math.isclose(2 * 10e6 / 72, 277_777.78, rel_tol=1e-8)


def test_pairs_against_any_qdisc(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    # two qdiscs on seeds 101-102; fair share 2.5 Mbit/s; 2000 datagrams
    # in 10 s are 0.896 of two shares, 1500 are 0.672
    for seed, (a, b) in ((101, (2000, 1500)), (102, (2000, 1400))):
        for order, (q, n) in enumerate((("sfb-linux", a), ("sfb", b))):
            d = tmp_path / f"{q}-load100-ecn0-s{seed}"
            _write_run(d, q, order, [1e6, 4e6], [n, n])
            meta = json.loads((d / "run.json").read_text())
            (d / "run.json").write_text(json.dumps({**meta, "seed": seed}))
    assert pairs.main(["pairs", str(tmp_path), "sfb-linux"]) == 0
    out = capsys.readouterr().out
    assert out.startswith("## 100% load, no ECN\n")
    assert "Unresponsive flows paired by seed with sfb-linux" in out
    # 1500 and 1400 against 2000: -0.224 and -0.269, mean -0.246
    row = next(line for line in out.splitlines() if line.startswith("| sfb | 2 | -0.25 ± "))
    assert row.endswith("| +0.00 ± 0.00, within noise | +0.000 ± 0.000, within noise |")
    assert pairs.main(["pairs", str(tmp_path), "sfb"]) == 0
    assert "| sfb-linux | 2 | +0.25 ± " in capsys.readouterr().out
    # a qdisc the folder does not have, and an empty folder
    assert pairs.main(["pairs", str(tmp_path), "pie"]) == 2
    assert "no qdisc 'pie'" in capsys.readouterr().err
    assert pairs.main(["pairs", str(tmp_path / "none"), "sfb"]) == 2


def test_rttshare_by_client_rtt(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    # 8 TCP + 2 UDP flows on 10 Mbit/s: a fair share of 1 Mbit/s. Flow k
    # runs from host k mod 2: RTT 10 ms for even k, 50 ms for odd k; the
    # odd flows get half their share, flow 1 a tenth (starved: < 1/8)
    tcp = [1e6 if k % 2 == 0 else 0.5e6 for k in range(8)]
    tcp[1] = 0.1e6
    for seed in (101, 102):
        d = tmp_path / f"sfb-load100-ecn0-s{seed}"
        _write_run(d, "sfb", 0, tcp, [2000, 2000])
        meta = json.loads((d / "run.json").read_text())
        (d / "run.json").write_text(json.dumps({**meta, "seed": seed}))
    shares = rttshare.run_shares(tmp_path / "sfb-load100-ecn0-s101")
    assert shares is not None
    assert [(f.rtt_ms, f.flows, f.starved) for f in shares.by_rtt] == [(10.0, 4, 0), (50.0, 4, 1)]
    assert shares.by_rtt[0].mean == pytest.approx(1.0)
    assert shares.by_rtt[1].mean == pytest.approx(0.4) and shares.by_rtt[1].lowest == pytest.approx(
        0.1
    )
    assert rttshare.main(["rttshare", str(tmp_path)]) == 0
    out = capsys.readouterr().out.splitlines()
    assert "| sfb | 2 | 10 | 4 | 1.00 ± 0.00 | 1.00 ± 0.00 | 0.0 ± 0.0 |" in out
    assert "| sfb | 2 | 50 | 4 | 0.40 ± 0.00 | 0.10 ± 0.00 | 1.0 ± 0.0 |" in out
    assert "| sfb | 2 | all | 8 | 0.70 ± 0.00 | 0.10 ± 0.00 | 1.0 ± 0.0 |" in out
    # runs without UDP flows have nothing to say
    _write_run(tmp_path / "x" / "afd-load100-ecn0-s101", "afd", 0, tcp, [])
    assert rttshare.main(["rttshare", str(tmp_path / "x")]) == 2
