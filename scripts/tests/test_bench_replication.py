"""Replicated runs: intervals, pairing by seed, censoring, offered load,
seeds, settings in time and the end-host profiles."""

from __future__ import annotations

import json
import math
import random
from pathlib import Path

import pytest
from tcdump import tc_dump

from aqmtools.bench import archive, report, testbed
from aqmtools.bench.experiment import PKT_BYTES, describe_spec, expand_spec, load, time_to_queue
from aqmtools.bench.intervals import betainc, mean_ci, paired, t_cdf, t_ppf
from aqmtools.bench.run import requested_bytes, run_name, select_seeds
from aqmtools.bench.stats import (
    censored_quantile,
    iperf_goodputs,
    iperf_unconnected,
    read_web,
    udp_goodputs,
    udp_window_counts,
)

HEADER = (
    "user,conn,server,start_us,first_byte_us,end_us,req_bytes,resp_bytes,persistent,status,"
    "req_size\n"
)

EXP = """
name = "t"
rate = "10mbit"
duration = 30
warmup = 5
tuning_seeds = [1, 2]
reporting_seeds = [11, 12, 13]
loads = [0.9]
ecn = [false]
clients = 4
servers = 2
rtt_ms = [10, 150]
workload = "web"
[[qdisc]]
name = "droptail"
spec = "pfifo limit {290ms}"
[[qdisc]]
name = "red"
spec = "red limit {290ms:bytes} min {10ms:bytes} max {30ms:bytes} avpkt 1000"
"""


def _row(start: int, end: int | None, got: int, status: str, size: int) -> str:
    e = "" if end is None else str(end)
    return f"0,0,10.2.1.2:8080,{start},,{e},300,{got},1,{status},{size}\n"


# --- the statistics -------------------------------------------------------


def test_t_quantiles_are_the_tables() -> None:
    # two-sided 95% quantiles of Student's t (any statistics table)
    for df, t in ((1, 12.7062), (2, 4.3027), (4, 2.7764), (9, 2.2622), (30, 2.0423)):
        assert t_ppf(0.975, df) == pytest.approx(t, abs=1e-4)
    assert t_ppf(0.025, 4) == pytest.approx(-2.7764, abs=1e-4)
    assert t_cdf(0.0, 5) == pytest.approx(0.5)
    # I_x(1, 1) is x; I_x(a, b) = 1 - I_{1-x}(b, a)
    assert betainc(1, 1, 0.3) == pytest.approx(0.3)
    assert betainc(2.5, 0.5, 0.7) == pytest.approx(1 - betainc(0.5, 2.5, 0.3))


def test_interval_against_a_known_value() -> None:
    iv = mean_ci([1.0, 2.0, 3.0, 4.0, 5.0])
    # s = sqrt(2.5), t(0.975, 4) = 2.776445: half = 2.776445 * sqrt(2.5 / 5)
    assert iv.mean == 3.0 and iv.n == 5
    assert iv.half == pytest.approx(2.776445 * math.sqrt(0.5), rel=1e-5)
    assert iv.fmt(".2f") == "3.00 ± 1.96"
    one = mean_ci([4.0])
    assert one.n == 1 and math.isnan(one.half) and one.fmt(".1f") == "4.0"
    assert mean_ci([math.nan, 2.0, 4.0]).n == 2
    assert mean_ci([]).fmt(".1f") == "-"


def test_interval_covers_the_true_mean_95_percent_of_the_time() -> None:
    rng = random.Random(5)
    covered = 0
    for _ in range(4000):
        iv = mean_ci([rng.gauss(10.0, 3.0) for _ in range(5)])
        covered += iv.lo <= 10.0 <= iv.hi
    assert 0.935 <= covered / 4000 <= 0.965


def test_pairing_by_seed_removes_the_seed_effect() -> None:
    # the seed moves both qdiscs alike (+-5); b is always 1 above a
    a = {s: 10.0 + 5 * math.sin(s) for s in range(1, 6)}
    b = {s: a[s] + 1.0 + 0.01 * (s % 2) for s in range(1, 6)}
    p = paired(a, b)
    assert p.seeds == [1, 2, 3, 4, 5]
    assert p.significant and p.diff.mean == pytest.approx(1.006)
    assert p.verdict(".2f").endswith(", higher")
    # unpaired, the seeds' spread hides the same difference
    assert mean_ci(list(b.values())).lo < mean_ci(list(a.values())).hi
    # only common seeds are paired; a noisy difference is within noise
    c = {1: 10.0, 2: 14.0, 3: 6.0, 9: 0.0}
    q = paired({1: 10.0, 2: 10.0, 3: 10.0}, c)
    assert q.seeds == [1, 2, 3] and not q.significant
    assert q.verdict(".1f") == "+0.0 ± 9.9, within noise"
    assert paired({1: 1.0}, {2: 1.0}).verdict(".1f") == "-"
    assert paired({1: 1.0}, {1: 3.0}).verdict(".1f") == "+2.0, one seed"


# --- censoring and offered load ------------------------------------------


def test_cut_off_exchanges_are_censored_not_left_out() -> None:
    text = HEADER + "".join(
        [
            _row(0, 100_000, 1000, "ok", 1000),
            _row(0, 200_000, 1000, "ok", 1000),
            _row(0, 300_000, 1000, "ok", 1000),
            # cut off after 5 s with 40 KB of 5 MB
            _row(1_000_000, 6_000_000, 40_000, "unfinished", 5_000_000),
            _row(0, 50_000, 0, "warmup", 777),
            _row(0, 10, 0, "error", 2000),
        ]
    )
    web = read_web([text])
    assert len(web.done) == 3 and web.unfinished == 1 and web.errors == 1
    assert web.censored_s == [5.0]
    # requested: everything measured, whatever its outcome
    assert web.offered_bytes == 3000 + 5_000_000 + 2000
    assert requested_bytes(text) == web.offered_bytes
    # the median is exact: the censored time (5 s) lies above it
    assert censored_quantile([e.seconds for e in web.done], web.censored_s, 0.5) == (0.2, False)
    # the maximum is the censored one: a lower bound
    assert censored_quantile([e.seconds for e in web.done], web.censored_s, 1.0) == (5.0, True)
    # a log from before webgen logged the cut-off time: counted, not censored
    old = read_web([HEADER + _row(0, None, 0, "unfinished", 9)])
    assert old.unfinished == 1 and old.cut == []


# --- seeds, time settings, host profiles ----------------------------------


def test_seed_sets_and_the_run_order() -> None:
    exp = load(EXP)
    assert exp.tuning_seeds == [1, 2] and exp.reporting_seeds == [11, 12, 13]
    assert exp.seed == 1
    runs = exp.runs([11, 12])
    assert [(q.name, s) for q, _, _, s in runs] == [
        ("droptail", 11),
        ("red", 11),
        ("droptail", 12),
        ("red", 12),
    ]
    assert run_name(*runs[1]) == "red-load90-ecn0-s11"
    assert select_seeds(exp, "", []) == [11, 12, 13]
    assert select_seeds(exp, "tuning", []) == [1, 2]
    assert select_seeds(exp, "all", [12, 2]) == [2, 12]
    with pytest.raises(SystemExit):
        select_seeds(exp, "", [99])
    # only tuning seeds: those are run by default
    only = load(EXP.replace("reporting_seeds = [11, 12, 13]\n", ""))
    assert select_seeds(only, "", []) == [1, 2]


@pytest.mark.parametrize(
    ("old", "new"),
    [
        ("reporting_seeds = [11, 12, 13]", "reporting_seeds = [11, 2]"),
        ("tuning_seeds = [1, 2]", "tuning_seeds = [1, 2]\nseed = 3"),
        ("tuning_seeds = [1, 2]\nreporting_seeds = [11, 12, 13]", ""),
        ("reporting_seeds = [11, 12, 13]", "reporting_seeds = [0]"),
        ("{290ms}", "{290}"),
        ('workload = "web"', 'workload = "web"\nhosts = "bsd"'),
        ('workload = "web"', 'workload = "web"\nreference = "pie"'),
        ('workload = "web"', 'workload = "web"\ndrain = -1'),
        ('workload = "web"', 'workload = "web"\nhosts = "paper"\nwindow = 65535'),
    ],
)
def test_bad_seed_and_setting_keys(old: str, new: str) -> None:
    assert old in EXP
    with pytest.raises(ValueError):
        load(EXP.replace(old, new))


def test_seeds_change_rtts_and_start_times_and_repeat_them() -> None:
    exp = load(EXP)
    assert exp.client_rtts_ms(11) == load(EXP).client_rtts_ms(11)
    assert exp.client_rtts_ms(11) != exp.client_rtts_ms(12)
    long = load(EXP.replace('workload = "web"', 'workload = "web+long"\nlong_flows = 3'))
    a, b = long.long_starts_s(11), long.long_starts_s(11)
    assert a == b and len(a) == 3 and all(0 <= x < 1 for x in a)
    assert long.long_starts_s(12) != a
    fixed = load(EXP.replace('workload = "web"', 'workload = "web"\nrtt_classes_ms = [10, 50]'))
    assert fixed.client_rtts_ms(11) == fixed.client_rtts_ms(12) == [10.0, 50.0, 10.0, 50.0]


def test_reseeding_moves_only_the_access_links() -> None:
    exp = load(EXP)
    tb = testbed.make(exp, "wbT", 11)
    new, cmds = testbed.reseed(tb, exp, 12)
    assert [c.rtt_ms for c in new.clients] == exp.client_rtts_ms(12)
    assert len(cmds) == 2 * exp.clients
    assert all(" qdisc change dev " in " ".join(c) and "netem delay" in " ".join(c) for c in cmds)
    half = f"{exp.client_rtts_ms(12)[0] / 2:.3f}ms"
    assert cmds[0][:4] == ["tc", "-n", "wbT-c1", "qdisc"] and half in cmds[0]


def test_time_settings_convert_at_the_bottleneck_rate() -> None:
    # 290 ms at 10 Mbit/s: 362,500 bytes, 239.4 full-sized packets
    assert time_to_queue(0.29, 10_000_000) == round(362_500 / PKT_BYTES) == 239
    assert time_to_queue(0.29, 10_000_000, "bytes") == 362_500
    assert time_to_queue(0.0029, 100_000_000) == 24
    assert time_to_queue(1e-6, 1_000_000) == 1
    exp = load(EXP)
    red = exp.qdiscs[1]
    assert red.spec_for(False, exp.rate_bps) == "red limit 362500 min 12500 max 37500 avpkt 1000"
    assert red.spec_for(False) == red.spec
    assert expand_spec("pfifo limit {290ms}", 4_000_000) == "pfifo limit 96"
    assert expand_spec("dcn qref {2.9ms}", 100_000_000) == "dcn qref 24"
    assert describe_spec("pfifo limit {290ms}", 10_000_000) == "pfifo limit 239 (290ms)"
    with pytest.raises(ValueError):
        expand_spec("pfifo limit {29 ms}", 10_000_000)


def test_host_profiles_set_their_sysctls_and_route_options() -> None:
    linux = load(EXP)
    paper = load(EXP.replace('workload = "web"', 'workload = "web"\nhosts = "paper"'))
    assert testbed.host_profile(linux) == ([], "")
    sysctls, route = testbed.host_profile(paper)
    assert set(sysctls) == {
        "net.ipv4.tcp_sack=0",
        "net.ipv4.tcp_dsack=0",
        "net.ipv4.tcp_recovery=0",
    }
    assert route == " window 16384 initcwnd 2 rto_min 1000ms"
    tb = testbed.make(paper, "wbT", 11)
    cmds = [" ".join(c) for c in testbed.setup(tb, paper, ecn=False)]
    hosts = tb.clients + tb.servers
    routes = [c for c in cmds if "route add default" in c]
    assert len(routes) == len(hosts)
    assert all(c.endswith(" window 16384 initcwnd 2 rto_min 1000ms") for c in routes)
    assert sum(c.endswith("net.ipv4.tcp_sack=0") for c in cmds) == len(hosts)
    assert sum(c.endswith("net.ipv4.tcp_recovery=0") for c in cmds) == len(hosts)
    plain = [" ".join(c) for c in testbed.setup(tb, linux, ecn=False)]
    assert not any("tcp_sack" in c or "initcwnd" in c or "rto_min" in c for c in plain)


# --- the report over seeds ------------------------------------------------


_q = tc_dump


def _run(out: Path, qdisc: str, seed: int, drops: int, rts_ms: list[int], order: int) -> None:
    d = out / f"{qdisc}-load90-ecn0-s{seed}"
    d.mkdir(parents=True)
    meta = {
        "experiment": "t",
        "order": order,
        "qdisc": qdisc,
        "spec": "pfifo limit 239",
        "spec_template": "pfifo limit {290ms}",
        "load": 0.9,
        "ecn": False,
        "seed": seed,
        "seed_set": "reporting",
        "reference": "a",
        "users": 3,
        "duration_s": 10.0,
        "warmup_s": 1.0,
        "drain_s": 5.0,
        "rate_bps": 10_000_000,
        "client_rtts_ms": [20.0 + seed, 80.0],
        "exit_codes": [0],
        "netem_drops": 0,
        "valid": True,
    }
    (d / "run.json").write_text(json.dumps(meta))
    rows = [_row(1_000_000, 1_000_000 + ms * 1000, 1000, "ok", 1000) for ms in rts_ms]
    rows.append(_row(2_000_000, 9_000_000, 5000, "unfinished", 2_000_000))
    (d / "web-c1.csv").write_text(HEADER + "".join(rows))
    (d / "tc-before.json").write_text(json.dumps({"down": _q(0, 0, 0), "up": []}))
    after = {"down": _q(10_000 - drops, 11_000_000, drops), "up": []}
    (d / "tc-after.json").write_text(json.dumps(after))


def test_report_gives_intervals_and_pairs_by_seed(tmp_path: Path) -> None:
    # b drops 20 more packets than a on every seed; the seeds move both
    for k, seed in enumerate((11, 12, 13)):
        _run(tmp_path, "a", seed, 100 + 50 * k, [50, 60, 70], 2 * k)
        _run(tmp_path, "b", seed, 120 + 50 * k, [50 + k, 60, 70], 2 * k + 1)
    assert report.main(["report", str(tmp_path)]) == 0
    table = (tmp_path / "summary.md").read_text()
    assert "Seeds: 11, 12, 13 (reporting)." in table
    assert "`pfifo limit {290ms}`, at this rate `pfifo limit 239`" in table
    # loss of a: 1.00, 1.50, 2.00 %: 1.50 ± t(0.975, 2) * 0.5 / sqrt(3)
    half = t_ppf(0.975, 2) * 0.5 / math.sqrt(3)
    assert f"| a | 3 | 17.8 ± 0.0 | 1.50 ± {half:.2f} |" in table
    # the unfinished 2 MB exchange, cut off after 7 s, is counted and makes
    # the p99 a lower bound
    assert "| >= 7000 ± 0 | >= 7000 ± 0 |" in table
    assert "(0, 3 unfinished)" in table
    # paired: +0.20 loss on every seed, significant though the intervals overlap
    assert "| b | 3 | +0.20 ± 0.00, higher |" in table
    assert "within noise" in table
    assert (tmp_path / "intervals-ecn0.png").stat().st_size > 1000
    # state plots for the first seed's runs only
    assert sorted(p.name for p in tmp_path.glob("state-*.png")) == []


def test_report_names_a_configuration_run_at_its_own_rate(tmp_path: Path) -> None:
    # "uncongested" ran on 100 Mbit/s, offered the users of the experiment's 10
    for k, seed in enumerate((11, 12)):
        _run(tmp_path, "uncongested", seed, 0, [40, 50, 60], 2 * k)
        _run(tmp_path, "a", seed, 100, [50, 60, 70], 2 * k + 1)
        meta_file = tmp_path / f"uncongested-load90-ecn0-s{seed}" / "run.json"
        meta = json.loads(meta_file.read_text())
        meta.update(rate_bps=100_000_000, experiment_rate_bps=10_000_000, reference="a")
        meta_file.write_text(json.dumps(meta))
    assert report.main(["report", str(tmp_path)]) == 0
    table = (tmp_path / "summary.md").read_text()
    # the experiment's rate in the header, the other rate named
    assert "Experiment `t`: bottleneck 10 Mbit/s," in table
    assert "Ran on a bottleneck of its own rate: uncongested, 100 Mbit/s." in table
    assert "- uncongested, 100 Mbit/s: `pfifo limit {290ms}`, at this rate" in table
    # 8.80 Mbit/s is 8.8% of its own link; its offered load is of the
    # experiment's rate, as the others' (2,003,000 bytes in 9 s of 10 Mbit/s)
    own = "| uncongested, 100 Mbit/s | 2 | 17.8 ± 0.0 | 0.00 ± 0.00 | 8.80 ± 0.00 | 8.8 ± 0.0 |"
    assert own in table
    assert "| a | 2 | 17.8 ± 0.0 | 1.00 ± 0.00 | 8.80 ± 0.00 | 88.0 ± 0.0 |" in table
    assert "| uncongested, 100 Mbit/s | 2 | -1.00 ± 0.00, lower |" in table
    # run.json from before: its rate is the experiment's, no name changes
    old = {"qdisc": "x", "rate_bps": 4_000_000}
    assert report.label(old) == "x" and report.experiment_rate(old) == 4_000_000


def test_the_archive_recomputes_the_same_summary(tmp_path: Path) -> None:
    out = tmp_path / "out"
    for k, seed in enumerate((11, 12)):
        _run(out, "a", seed, 100 + 50 * k, [50, 60, 70], 2 * k)
        _run(out, "b", seed, 120, [55, 60, 90], 2 * k + 1)
    # a trace every 10 ms over a 10-s run started at wall 1000.003 (warm-up
    # 1 s): the window's bounds fall between the thinned records
    d = out / "a-load90-ecn0-s11"
    meta = json.loads((d / "run.json").read_text())
    meta["start_wall"] = 1000.003
    (d / "run.json").write_text(json.dumps(meta))
    recs = [
        {
            "t": i / 100,
            "wall": 1000 + i / 100,
            "qlen": 3,
            "packets": 7 * i,
            "bytes": 10_000 * i,
            "drops": i,
        }
        for i in range(1200)
    ]
    (d / "aqmstat-down.jsonl").write_text("".join(json.dumps(r) + "\n" for r in recs))
    (d / "aqmstat-up.jsonl").write_text("{}\n" * 5000)
    # the same trace for a run of the second seed, thinned to one a second
    d12 = out / "a-load90-ecn0-s12"
    meta12 = json.loads((d12 / "run.json").read_text())
    meta12["start_wall"] = 1000.003
    (d12 / "run.json").write_text(json.dumps(meta12))
    (d12 / "aqmstat-down.jsonl").write_text("".join(json.dumps(r) + "\n" for r in recs))
    # warm-up exchanges: counted by the report, stored as their status only
    with (d / "web-c1.csv").open("a") as f:
        f.write(_row(10_000, 90_000, 700, "warmup", 700) * 3)
    (d / "iperf-tcp0.json").write_text(
        json.dumps(
            {"intervals": [{"x": 1}] * 1000, "end": {"sum_received": {"bits_per_second": 5e6}}}
        )
    )
    (out / "experiment.toml").write_text(EXP)
    assert report.main(["report", str(out)]) == 0
    path = archive.pack(out, tmp_path / "pub")
    assert path.name == "raw.tar.xz"
    # one archive a seed, the same bytes when packed again (a later part
    # commits no new copy of an earlier seed)
    s11 = tmp_path / "pub" / "raw-s11.tar.xz"
    assert sorted(p.name for p in (tmp_path / "pub").glob("raw-s*")) == [
        "raw-s11.tar.xz",
        "raw-s12.tar.xz",
    ]
    first = s11.read_bytes()
    archive.pack(out, tmp_path / "pub")
    assert s11.read_bytes() == first
    copy = tmp_path / "copy"
    assert archive.main(["archive", "report", str(path), str(copy)]) == 0
    assert (copy / "summary.md").read_text() == (out / "summary.md").read_text()
    kept = (copy / "a-load90-ecn0-s11" / "aqmstat-down.jsonl").read_text().splitlines()
    # one record in ten, and the window's bounds (1001.01 and 1010.00)
    assert 120 <= len(kept) <= 123
    walls = {json.loads(x)["wall"] for x in kept}
    assert {1001.01, 1010.0} <= walls
    kept12 = (copy / "a-load90-ecn0-s12" / "aqmstat-down.jsonl").read_text().splitlines()
    assert 12 <= len(kept12) <= 15
    assert {1001.01, 1010.0} <= {json.loads(x)["wall"] for x in kept12}
    assert (copy / "format").read_text() == "2\n"
    assert not (copy / "a-load90-ecn0-s11" / "aqmstat-up.jsonl").exists()
    assert "intervals" not in (copy / "a-load90-ecn0-s11" / "iperf-tcp0.json").read_text()
    # packed again from the unpacked folder, with seed 11's run of "b"
    # measured anew: seed 12's archive is the same bytes, seed 11's keeps
    # "a" as it was (not thinned twice) and takes the new "b"
    s12 = (tmp_path / "pub" / "raw-s12.tar.xz").read_bytes()
    new = copy / "b-load90-ecn0-s11"
    for f in new.iterdir():
        f.unlink()
    new.rmdir()
    _run(copy, "b", 11, 130, [56, 61, 91], 1)
    (copy / "b-load90-ecn0-s11" / "aqmstat-down.jsonl").write_text(
        "".join(json.dumps(r) + "\n" for r in recs)
    )
    archive.pack(copy, tmp_path / "pub2")
    assert (tmp_path / "pub2" / "raw-s12.tar.xz").read_bytes() == s12
    again = tmp_path / "again"
    archive.unpack(tmp_path / "pub2" / "raw.tar.xz", again)
    twice = (again / "a-load90-ecn0-s11" / "aqmstat-down.jsonl").read_text()
    assert twice.splitlines() == kept
    fresh = (again / "b-load90-ecn0-s11" / "aqmstat-down.jsonl").read_text().splitlines()
    assert 120 <= len(fresh) <= 123
    assert (again / "a-load90-ecn0-s11" / archive.ARCHIVED).exists()


def test_archived_web_logs_read_as_the_originals() -> None:
    text = HEADER + "".join(
        [
            _row(10, 90, 700, "warmup", 700),
            _row(1_000, 5_000, 1200, "ok", 1200),
            _row(2_000, 7_000, 300, "unfinished", 90_000),
            _row(3_000, None, 0, "unfinished", 4_000),
            _row(4_000, None, 0, "error", 500),
        ]
    )
    packed = archive.web_columns(text)
    lines = packed.splitlines()
    assert lines[1] == ",,,warmup,"
    # an equal request size is left out, a different one kept
    assert lines[2] == "1000,5000,1200,ok,"
    assert lines[3] == "2000,7000,300,unfinished,90000"
    assert read_web([archive.web_restore(packed)]) == read_web([text])


def test_a_udp_flow_that_never_started_stays_so_in_the_archive(tmp_path: Path) -> None:
    d = tmp_path / "run"
    d.mkdir()
    (d / "run.json").write_text(json.dumps({"warmup_s": 1, "duration_s": 10}))
    for name in ("tc-before.json", "tc-after.json"):
        (d / name).write_text("[]")
    iv = {"start": 2.0, "end": 3.0, "packets": 10, "lost_packets": 1, "jitter_ms": 0.5}
    started = {
        "start": {"connected": [{"socket": 5}]},
        "intervals": [{"streams": [{**iv, "sender": False}], "sum": iv}],
        "end": {"sum": {"packets": 100, "lost_packets": 10, "seconds": 10.0}},
    }
    # iperf3 3.12 after a lost handshake: nothing connected, no result
    lost = {"start": {"connected": []}, "intervals": [], "end": {}}
    (d / "iperf-udp4.json").write_text(json.dumps(started))
    (d / "iperf-udp5.json").write_text(json.dumps(lost))
    files = archive._run_files(d)
    texts = [files["iperf-udp4.json"].decode(), files["iperf-udp5.json"].decode()]
    assert udp_goodputs(texts) == [pytest.approx(90 * 1400 * 8 / 10), None]
    # a flow that started keeps its end and, of each interval's receiving
    # streams, what the measured window's losses are counted from
    kept = {k: iv[k] for k in ("start", "end", "packets", "lost_packets")}
    assert json.loads(texts[0]) == {"end": started["end"], "intervals": [{"streams": [kept]}]}
    whole = [json.dumps(started), json.dumps(lost)]
    assert udp_window_counts(texts, 0.0, 10.0) == udp_window_counts(whole, 0.0, 10.0)
    assert udp_window_counts(texts, 0.0, 10.0) == [(10, 1, 1.0)]


def test_tcp_flows_stopped_without_a_result_read_the_same_from_the_archive(
    tmp_path: Path,
) -> None:
    d = tmp_path / "run"
    d.mkdir()
    (d / "run.json").write_text(json.dumps({"warmup_s": 1, "duration_s": 10}))
    for name in ("tc-before.json", "tc-after.json"):
        (d / name).write_text("[]")
    zeros = {"seconds": 0, "bytes": 0, "bits_per_second": 0}
    one = {"start": {"connected": [{"socket": 5}]}, "intervals": []}
    iv = {"sum": {"bytes": 1000, "seconds": 1.0}, "streams": [{"bytes": 1000, "seconds": 1.0}]}
    texts = {
        # killed before it wrote anything
        "iperf-tcp0.json": "",
        # never connected, stopped (iperf3 3.12 writes an end of zeros)
        "iperf-tcp1.json": json.dumps(
            {"start": {"connected": []}, "intervals": [], "end": {"sum_received": zeros}}
        ),
        # connected, stopped before its first interval
        "iperf-tcp2.json": json.dumps({**one, "end": {"sum_received": zeros}}),
        # connected, its intervals and no end
        "iperf-tcp3.json": json.dumps({**one, "intervals": [iv] * 3, "error": "x"}),
        # a normal result keeps only its end
        "iperf-tcp4.json": json.dumps(
            {**one, "intervals": [iv], "end": {"sum_received": {"bits_per_second": 8e3}}}
        ),
    }
    for name, text in texts.items():
        (d / name).write_text(text)
    files = archive._run_files(d)
    packed = [files[name].decode() for name in texts]
    assert iperf_goodputs(packed) == iperf_goodputs(list(texts.values()))
    assert iperf_goodputs(packed) == [None, 0.0, None, 8e3, 8e3]
    assert iperf_unconnected(packed) == 1
    assert packed[0] == "" and json.loads(packed[4]) == {
        "end": {"sum_received": {"bits_per_second": 8e3}}
    }
