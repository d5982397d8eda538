"""The BLUE paper's reproduction (issue 33, items 3 and 4): its numbers
and claims as transcribed (aqmtools/repro/blue.py), equation (1), and its
experiment files (scripts/bench/experiments/repro-blue-*.toml and
repro-sfb-*.toml), down to tc's reading of their words."""

from __future__ import annotations

import os
import re
from pathlib import Path

import pytest
from reprocheck import (
    EPERM,
    PAPERS,
    check_part_claims,
    same_but_hosts,
    tc_add,
    tc_with_plugins,
    unquoted,
)

from aqmtools.bench.experiment import Experiment, load
from aqmtools.repro import blue, plan

STORE = PAPERS / blue.STORE_TEXT
SECTION = re.compile(r"\bsection\b", re.I)
SIZES = ("17.8ms", "35.6ms", "53.3ms", "80ms", "124ms", "178ms")
KB = (100, 200, 300, 450, 700, 1000)


def _exp(name: str) -> Experiment:
    return load((plan.EXPERIMENTS / name).read_text())


def _by(exp: Experiment) -> dict[str, str]:
    """Each configuration's words with ECN, at the experiment's rate."""
    return {q.name: q.spec_for(True, exp.rate_of(q)) for q in exp.qdiscs}


def _value(words: str, key: str) -> str:
    w = words.split()
    return w[w.index(key) + 1]


# --- the paper's numbers and claims -----------------------------------------------


def _quotes() -> list[str]:
    return [
        *(s.quote for s in blue.SETTINGS),
        *(c.quote for c in blue.CLAIMS),
        *(c.quote for c in blue.CALCULATIONS),
        *(e.caption for e in blue.EXHIBITS),
        *(blue.table3_quote(0, row) for row in blue.TABLE3_ROWS),
    ]


@pytest.mark.skipif(not STORE.is_file(), reason="the paper store is not on this machine")
def test_every_quotation_is_in_the_papers_text() -> None:
    assert unquoted(STORE.read_text(encoding="utf-8"), _quotes()) == []


def test_table_iii_as_printed() -> None:
    assert blue.table3(2.0, blue.TOTAL, blue.SFB) == 1.86
    assert blue.table3(2.0, blue.NONRESPONSIVE, blue.RED) == 0.03
    assert blue.table3(45.0, blue.TCP, blue.SFQRED) == 2.53
    assert blue.table3(45.0, blue.NONRESPONSIVE, blue.SFRED) == 40.24
    assert blue.table3_quote(0, blue.TOTAL) == ("Total 1.86 1.79 3.10 3.60 44.85 13.39 42.80 46.47")
    # the rows add up, to the table's rounding, but in two cells as printed
    for rate in blue.TABLE3_RATES:
        for i, scheme in enumerate(blue.TABLE3_SCHEMES):
            total, nonresp, tcp = (blue.TABLE3[(rate, row)][i] for row in blue.TABLE3_ROWS)
            off = abs(total - nonresp - tcp)
            if (rate, scheme) in blue.TABLE3_INCONSISTENT:
                assert off == pytest.approx(0.1)
            else:
                assert off <= 0.011


def test_the_claims_say_where_the_paper_makes_them_and_what_tests_them() -> None:
    check_part_claims(blue)


# --- equation (1) ------------------------------------------------------------------


def test_equation_1_gives_the_papers_numbers() -> None:
    two = blue.eq1(2, 23, 8)
    one = blue.eq1(1, 46, 8)
    # 8.96% (36) and 16.12% (64), to the paper's rounding
    assert round(100 * two, 2) == 8.96 and round(400 * two) == 36
    assert round(100 * one, 2) == 16.12 and round(400 * one) == 64
    assert two == pytest.approx((1 - (22 / 23) ** 8) ** 2)
    # at our bins: 32 a level for 23, one level of 64 for 46
    assert round(100 * blue.eq1(2, 32, 8), 2) == 5.03
    assert round(100 * blue.eq1(1, 64, 8), 2) == 11.84
    assert blue.eq1(3, 10, 0) == 0.0 and blue.eq1(1, 2, 1) == 0.5
    assert blue.polluted_bins(23, 8) == pytest.approx(6.883, abs=1e-3)


def test_random_bins_agree_with_equation_1() -> None:
    d = blue.simulate(2, 23, 8, 400, 300, 1)
    assert abs(d.mean - blue.eq1(2, 23, 8)) < 4 * d.half
    assert d.count_p5 <= 36 <= d.count_p95
    assert d.polluted == pytest.approx(blue.polluted_bins(23, 8), abs=0.3)
    # seeded: the same draws again
    assert blue.simulate(2, 23, 8, 400, 300, 1) == d
    one = blue.simulate(1, 46, 8, 100, 300, 2)
    assert abs(one.mean - blue.eq1(1, 46, 8)) < 4 * one.half


def test_the_calculations_hold_but_the_polluted_bins() -> None:
    results = {c.key: blue.calculate(c, 200, 1) for c in blue.CALCULATIONS}
    assert {k for k, r in results.items() if r.holds is not True} == {"polluted-2x23"}
    assert results["polluted-2x23"].holds is None
    assert results["eq1-2x23"].ours.startswith("8.9555% (35.82 of 400)")
    assert results["eq1-1x46"].ours.startswith("16.1240% (64.50 of 400)")
    # Figure 17: one level of 900 bins is the least from 433 flows on
    assert blue.single_level_best_from() == 433
    assert blue.fig17(2, 433) >= blue.fig17(1, 433) and blue.fig17(2, 432) < blue.fig17(1, 432)


# --- our configurations -------------------------------------------------------------


def test_the_paper_is_planned_with_its_hosts_first() -> None:
    files = [f.name for f in plan.paper_files("blue")]
    assert len(files) == 12
    assert all(f.endswith("-paper.toml") for f in files[:6])
    assert [f.replace("-paper", "-linux") for f in files[:6]] == files[6:]
    for f in files:
        exp = _exp(f)
        assert exp.name == f.removesuffix(".toml")
        assert exp.hosts == ("paper" if "-paper" in f else "linux")
        assert exp.reporting_seeds == [101, 102, 103, 104, 105] and exp.tuning_seeds == []
        assert exp.rate_bps == 10_000_000 and exp.ecn == [True] and exp.cc == "reno"
        assert exp.workload == "long" and exp.udp_share == 0
        # a part (one seed) takes at most two hours
        assert len(exp.runs([101])) * plan.run_s(exp) <= 2 * 3600


def test_the_two_host_profiles_run_the_same_experiment() -> None:
    for f in plan.PAPERS["blue"][:6]:
        same_but_hosts(f, f.replace("-paper", "-linux"))


@pytest.mark.parametrize(("sources", "flows"), [(1000, 89), (4000, 356)])
def test_figure_5_runs_r1_r4_and_b1_b4_at_six_buffers(sources: int, flows: int) -> None:
    exp = _exp(f"repro-blue-fig5-{sources}-paper.toml")
    # the sources on at a time (2 s in 5), scaled by 10/45
    assert exp.long_flows == flows == round(sources * 2 / 5 * 10 / 45)
    assert exp.rtt_ms == (60, 60) and (exp.duration_s, exp.warmup_s) == (100, 50)
    by = _by(exp)
    assert len(by) == 48
    wlogs = [blue.nearest_wlog(blue.scaled_wq(w, blue.PACKET_RATE_RATIO)) for _, w in blue.TABLE1]
    assert wlogs == [10, 6, 3, 1]
    for size, kb in zip(SIZES, KB, strict=True):
        buffer = round(kb * 1000 * 10 / 45)
        for k, wlog in enumerate(wlogs, start=1):
            words = by[f"red-r{k}-{size}"]
            assert words.startswith("red ") and words.endswith(
                " probability 0.99999 bandwidth 10mbit ecn"
            )
            limit, lo, hi = (int(_value(words, x)) for x in ("limit", "min", "max"))
            assert abs(limit - buffer) <= 1
            assert abs(lo - 0.2 * buffer) <= 1 and abs(hi - 0.8 * buffer) <= 1
            burst, avpkt = int(_value(words, "burst")), int(_value(words, "avpkt"))
            assert blue.tc_red_wlog(lo, burst, avpkt) == wlog, words
            # the least burst that gives it
            assert blue.tc_red_wlog(lo, burst - 1, avpkt) != wlog
        for (name, freeze, d1, d2), k in zip(blue.TABLE2, range(1, 5), strict=True):
            words = by[f"blue-b{k}-{size}"]
            assert words == (
                f"blue bytelimit {int(_value(words, 'bytelimit'))} freeze_time {freeze}ms "
                f"delta1 {d1:g} delta2 {d2:g} ecn ecn_ceil 1"
            ), name
            assert abs(int(_value(words, "bytelimit")) - buffer) <= 1


def test_figure_13_sweeps_the_connections_at_the_testbeds_settings() -> None:
    exp = _exp("repro-blue-fig13-paper.toml")
    assert exp.long_flows_by_load and exp.rtt_ms == (1, 1)
    assert [exp.long_flows_at(x) for x in exp.loads] == [20, 50, 100, 150, 200]
    by = _by(exp)
    assert set(by) == {"red", "blue"}
    red = by["red"]
    assert (_value(red, "limit"), _value(red, "min"), _value(red, "max")) == (
        "50000",
        "10000",
        "40000",
    )
    # w_q 2^-9 for the testbed's 0.002
    assert blue.tc_red_wlog(10000, int(_value(red, "burst")), 1514) == 9 == blue.nearest_wlog(0.002)
    assert by["blue"] == (
        "blue bytelimit 50000 delta1 0.01 delta2 0.001 freeze_time 50ms ecn ecn_ceil 1"
    )


# the words of our sfb that Linux's lacks (tc/q_sfb.c: sfb_aqm_words)
AQM_SFB_WORDS = {"levels", "bins", "penalty_bytes", "penalty_bytes_burst", "warm_raise", "red"}


@pytest.mark.parametrize(("pct", "udp"), [("4pct", 444_000), ("100pct", 10_000_000)])
def test_table_iii_runs_sfb_sfred_red_sfq_red_and_linuxs_sfb(pct: str, udp: int) -> None:
    exp = _exp(f"repro-sfb-table3-{pct}-paper.toml")
    # 400 TCP flows and the nonresponsive flow's rate, by 10/45
    assert (exp.long_flows, exp.udp_flows, exp.udp_rate_bps) == (89, 1, udp)
    assert exp.rtt_ms == (60, 60) and (exp.duration_s, exp.warmup_s) == (100, 50)
    by = _by(exp)
    assert list(by) == ["sfb", "sfred", "red", "sfq-red", "sfb-linux"]
    sfb = by["sfb"].split()
    for key, value in (("levels", "2"), ("bins", "32"), ("limit", "200"), ("target", "14")):
        assert _value(by["sfb"], key) == value
    assert _value(by["sfb"], "penalty_bytes") == "35556bit" and "rehash" in sfb
    assert _value(by["sfb"], "rehash") == "0" and "red" not in sfb
    assert by["sfred"].split()[-5:] == ["red", "red_min", "3", "red_max", "10"]
    red = by["red"]
    assert _value(red, "limit") == str(200 * 1514) and red.endswith(" ecn")
    assert blue.tc_red_wlog(int(_value(red, "min")), int(_value(red, "burst")), 1514) == 9
    sfq = by["sfq-red"]
    assert (_value(sfq, "divisor"), _value(sfq, "depth"), _value(sfq, "limit")) == (
        "64",
        "9",
        "576",
    )
    assert (_value(sfq, "min"), _value(sfq, "max")) == (str(2 * 1514), str(8 * 1514))
    assert blue.tc_red_wlog(3028, int(_value(sfq, "burst")), 1514) == 9
    assert sfq.endswith(" ecn")
    # Linux's sfb: its own words only (tc refuses ours to it), the test
    # kernel's module
    linux = next(q for q in exp.qdiscs if q.name == "sfb-linux")
    assert linux.module == "linux" and not set(linux.spec.split()) & AQM_SFB_WORDS


def test_figures_18_19_run_the_hash_fixed_moving_and_double_buffered() -> None:
    exp = _exp("repro-sfb-fig19-paper.toml")
    assert (exp.long_flows, exp.udp_flows, exp.udp_rate_bps) == (89, 8, 1_111_000)
    by = _by(exp)
    assert list(by) == ["sfb-static", "sfb-1level", "sfb-moving", "sfb-db", "sfb-db-raise"]
    words = {n: dict(zip(w.split()[1::2], w.split()[2::2], strict=False)) for n, w in by.items()}
    assert (words["sfb-static"]["rehash"], words["sfb-static"]["db"]) == ("0", "0")
    assert (words["sfb-1level"]["levels"], words["sfb-1level"]["bins"]) == ("1", "64")
    assert (words["sfb-moving"]["rehash"], words["sfb-moving"]["db"]) == ("2000", "0")
    assert (words["sfb-db"]["rehash"], words["sfb-db"]["db"]) == ("2000", "2000")
    assert by["sfb-db-raise"] == by["sfb-db"] + " warm_raise"
    # the same SFB otherwise, Table III's
    table3 = _by(_exp("repro-sfb-table3-4pct-paper.toml"))["sfb"]
    assert by["sfb-static"] == table3


# --- tc's reading of the words -------------------------------------------------------


@pytest.fixture(scope="module")
def tc_lib(tmp_path_factory: pytest.TempPathFactory) -> tuple[str, str]:
    """The installed tc and q_blue.so and q_sfb.so built for it."""
    out = tmp_path_factory.mktemp("plugins")
    return tc_with_plugins(out, ("blue", "sfb")), str(out)


def test_tc_reads_every_configurations_words(tc_lib: tuple[str, str], tmp_path: Path) -> None:
    """Every spec of the paper's files passes tc's parser (with our
    plugins) and reaches the kernel, which a user namespace refuses."""
    tc, lib = tc_lib
    # our sfb's words are sent only to our sch_sfb: a fake sysfs says it is
    module = tmp_path / "sys/module/sch_sfb"
    module.mkdir(parents=True)
    (module / "version").write_text("linux-aqm\n")
    env = dict(os.environ, TC_LIB_DIR=lib, AQM_TEST_SYSROOT=str(tmp_path))
    specs = {
        q.spec_for(e, exp.rate_of(q))
        for f in plan.PAPERS["blue"]
        for exp in [_exp(f)]
        for q in exp.qdiscs
        for e in exp.ecn
    }
    assert len(specs) >= 50
    for spec in sorted(specs):
        assert tc_add(tc, spec, env) == (2, [EPERM]), spec
