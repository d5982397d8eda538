"""The RED-family paper's reproduction (issue 33, item 5): its settings,
claims and figures as transcribed (aqmtools/repro/queuelaw.py), equation
(2) and what it computes, and the experiment files
(scripts/bench/experiments/repro-queuelaw-*.toml) with the configurations
the issue lists, down to tc's reading of their words.

The paper states no value of equation (2) (its Figure 4 is lost), so the
equation is checked against what it must give: [10]'s square-root law at
small p, its own algebra (linear in N, RTLD x SR subtracted, p_d + 1
dividing), the inverse that solve_p computes, and the stable flows that
red_stable_flows gives, at the paper's network (RTLD x SR = 200 packets)."""

from __future__ import annotations

import itertools
import math
import os
import re

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
from aqmtools.repro import plan
from aqmtools.repro import queuelaw as ql

STORE = PAPERS / ql.STORE_TEXT
PARTS = ("drop", "mark", "steps")


def _exp(name: str) -> Experiment:
    return load((plan.EXPERIMENTS / name).read_text())


# --- the paper's words ------------------------------------------------------------


def _quotes() -> list[str]:
    return [
        *(s.quote for s in ql.SETTINGS),
        *(c.quote for c in ql.CLAIMS),
        *(c.quote for c in ql.CALCULATIONS),
        *(e.caption for e in ql.EXHIBITS),
        "$$q = \\frac{N \\times avg_tcp_wind(p_d + p_m)}{p_d + 1} - RTLD \\times SR \\quad (2)$$",
    ]


@pytest.mark.skipif(not STORE.is_file(), reason="the paper store is not on this machine")
def test_every_quotation_and_equation_2_are_in_the_papers_text() -> None:
    assert unquoted(STORE.read_text(encoding="utf-8"), _quotes()) == []


@pytest.mark.skipif(not STORE.is_file(), reason="the paper store is not on this machine")
def test_every_figure_of_the_text_is_an_exhibit() -> None:
    captions = re.findall(r"^Fig\. (\d+)\. ", STORE.read_text(encoding="utf-8"), re.M)
    assert sorted(int(x) for x in captions) == list(range(1, 19))
    # Fig. 3 (the network) is lost whole; LOST says so
    assert [e.name for e in ql.EXHIBITS] == [f"Fig. {n}" for n in range(1, 19) if n != 3]
    assert any("Fig. 3" in what for what, _ in ql.LOST)


def test_the_claims_say_where_the_paper_makes_them_and_what_tests_them() -> None:
    check_part_claims(ql)
    assert [c.key for c in ql.CALCULATIONS] == [f"E{i}" for i in range(1, 8)]


# --- equation (2) ----------------------------------------------------------------------


def test_the_window_model_is_padhye_et_al_without_timeouts() -> None:
    # ((1 - p) / p + E[W]) / (b E[W] / 2 + 1): at p = 0.1, E[W] = 6 and the
    # window 15 / 4 (b = 1); at p = 1, E[W] = 2 and the window 1
    assert ql.expected_peak(0.1) == pytest.approx(6.0)
    assert ql.window(0.1) == pytest.approx(3.75)
    assert ql.window(1.0) == pytest.approx(1.0)
    assert ql.window(1.0, 2) == pytest.approx(4 / 7)
    assert ql.window(0.0) == math.inf
    # the square-root law, sqrt(3 / (2 b p)), at small p
    for b in (1, 2):
        p = 1e-6
        assert ql.window(p, b) == pytest.approx(math.sqrt(3 / (2 * b * p)), rel=1e-2)
    # falling with p
    ps = [0.001, 0.01, 0.02, 0.05, 0.1, 0.2, 0.5, 1.0]
    assert all(ql.window(a) > ql.window(b) for a, b in itertools.pairwise(ps))


def test_equation_2_at_the_papers_network() -> None:
    net = ql.PAPER
    assert (net.sr_pps, net.rtld_s, net.pipe) == (2500.0, 0.08, pytest.approx(200.0))
    # q = N avg_tcp_wind(p_d + p_m) / (p_d + 1) - RTLD x SR
    assert ql.queue_law(100, 0.1, 0.0, net) == pytest.approx(100 * 3.75 / 1.1 - 200)
    assert ql.queue_law(100, 0.0, 0.1, net) == pytest.approx(100 * 3.75 - 200)
    assert ql.queue_law(300, 0.05, 0.05, net) == pytest.approx(300 * 3.75 / 1.05 - 200)
    # linear in N
    q = [ql.queue_law(n, 0.01, 0.0, net) for n in (100, 200, 300)]
    assert q[2] - q[1] == pytest.approx(q[1] - q[0]) and q[0] == pytest.approx(994.3, abs=0.05)
    # no queue where the flows cannot fill the link
    assert ql.queue_law(100, 0.5, 0.0, net) < 0 and ql.queue(100, 0.5, 0.0, net) == 0.0
    assert ql.notified(0.1, True) == (0.0, 0.1) and ql.notified(0.1, False) == (0.1, 0.0)


def test_our_network_keeps_a_flows_packets_a_second() -> None:
    assert ql.OURS.sr_pps == pytest.approx(10e6 / 8 / 1514)
    assert ql.OURS.pipe == pytest.approx(66.05, abs=0.01)
    assert abs(ql.FLOW_SCALE - 0.3303) < 1e-4
    assert [ql.our_flows(n) for n in ql.FIG4_FLOWS] == [33, 66, 99]
    assert ql.our_steps() == [(0, 17), (50, 33), (100, 50), (150, 66), (200, 83), (250, 99)]
    # the queue law in packets scales with the flows: the same delay
    for n in ql.FIG4_FLOWS:
        ours = ql.queue_law(n * ql.FLOW_SCALE, 0.01, 0.0, ql.OURS) / ql.OURS.sr_pps
        assert ours == pytest.approx(ql.queue_law(n, 0.01, 0.0, ql.PAPER) / ql.PAPER.sr_pps)


def test_solve_p_and_the_stable_flows_invert_equation_2() -> None:
    for n, q, mark in ((100, 500, False), (300, 500, True), (200, 300, False)):
        p = ql.solve_p(n, q, mark, ql.PAPER)
        assert ql.queue_law(n, *ql.notified(p, mark), ql.PAPER) == pytest.approx(q, abs=1e-6)
    # a queue even p = 1 exceeds
    assert ql.solve_p(1000, 10, False, ql.PAPER) == 1.0
    for mark in (False, True):
        n = ql.red_stable_flows(ql.MAX_P, ql.MAX_TH, mark, ql.PAPER)
        assert ql.queue_law(n, *ql.notified(ql.MAX_P, mark), ql.PAPER) == pytest.approx(300)
    drop = ql.red_stable_flows(0.1, 300, False, ql.PAPER)
    mark = ql.red_stable_flows(0.1, 300, True, ql.PAPER)
    assert drop == pytest.approx(1.1 * mark) and drop == pytest.approx(500 * 1.1 / 3.75)


def test_the_calculations_as_computed() -> None:
    one = {c.key: ql.calculate(c) for c in ql.CALCULATIONS}
    two = {c.key: ql.calculate(c, ql.OTHER_B) for c in ql.CALCULATIONS}
    assert {k: r.holds for k, r in one.items()} == {
        "E1": True,
        "E2": False,
        "E3": True,
        "E4": True,
        "E5": True,
        "E6": True,
        "E7": None,
    }
    # b = 2 turns E2 and E3 about: no window of p alone holds both
    assert (two["E2"].holds, two["E3"].holds) == (True, False)
    assert one["E2"].ours == "146.7 flows" and two["E2"].ours == "216.5 flows"
    assert one["E3"].ours == "133.3 flows" and two["E3"].ours == "196.8 flows"
    assert one["E4"].ours == "up to 471 flows"
    assert one["E5"].ours.startswith("0, 0, 100 packets")
    assert "0.0015, 0.0187, 0.0682" in one["E7"].ours


# --- our configurations -------------------------------------------------------------


def test_the_paper_is_planned_with_its_hosts_first() -> None:
    files = [f.name for f in plan.paper_files("queuelaw")]
    assert files == [f"repro-queuelaw-{p}-{h}.toml" for h in ("paper", "linux") for p in PARTS]
    for f in files:
        exp = _exp(f)
        assert exp.name == f.removesuffix(".toml")
        assert exp.hosts == ("paper" if "-paper" in f else "linux")
        # the paper's TCP had no window limit
        assert exp.paper_window == 0 if exp.hosts == "paper" else exp.window == 0
        assert exp.reporting_seeds == [101, 102, 103, 104, 105] and exp.tuning_seeds == []
        assert exp.rate_bps == 10_000_000 and exp.cc == "reno" and exp.workload == "long"
        assert exp.rtt_ms == (80, 80) and exp.udp_rate_bps == 0
        # a part (one seed) takes at most two hours
        assert len(exp.runs([101])) * plan.run_s(exp) <= 2 * 3600


def test_the_two_host_profiles_run_the_same_experiment() -> None:
    for part in PARTS:
        same_but_hosts(f"repro-queuelaw-{part}-paper.toml", f"repro-queuelaw-{part}-linux.toml")


@pytest.mark.parametrize(
    ("part", "ecn", "probs"),
    [
        ("drop", False, (0.01, 0.02, 0.05, 0.1, 0.2)),
        ("mark", True, (0.01, 0.02, 0.05, 0.1, 0.2, 0.5)),
    ],
)
def test_the_queue_law_runs_100_200_300_flows_at_fixed_probabilities(
    part: str, ecn: bool, probs: tuple[float, ...]
) -> None:
    exp = _exp(f"repro-queuelaw-{part}-paper.toml")
    assert exp.ecn == [ecn] and exp.long_flows_by_load
    assert [exp.long_flows_at(x) for x in exp.loads] == [ql.our_flows(n) for n in ql.FIG4_FLOWS]
    assert (exp.duration_s, exp.warmup_s) == (120, 60)
    for q, p in zip(exp.qdiscs, probs, strict=True):
        assert q.name == f"p{p:g}"
        words = f"netem limit 100000 loss random {100 * p:g}%" + (" ecn" if ecn else "")
        assert q.spec_for(ecn, exp.rate_bps) == words
        # the ACKs' way is left alone
        assert q.up_spec_for(ecn, exp.rate_bps) == "pfifo limit 1000"
    assert len(exp.qdiscs) == len(probs)
    assert len(exp.runs([101])) == 3 * len(probs)


def test_the_steps_run_red_gentle_red_and_adaptive_red_from_50_to_300_flows() -> None:
    exp = _exp("repro-queuelaw-steps-paper.toml")
    assert exp.long_steps == [(float(t), n) for t, n in ql.our_steps()]
    assert exp.long_flows == 99 and exp.duration_s == 300 and exp.ecn == [False]
    words = {q.name: q.spec_for(False, exp.rate_bps).split() for q in exp.qdiscs}
    assert list(words) == ["red", "gentle-red", "ared"]
    for name, w in words.items():
        kv = dict(zip(w[1::2], w[2::2], strict=False))
        assert w[0] == "ared"
        # the paper's 500, 100 and 300 packets, scaled as the flows
        for key, pkts in (("limit", 500), ("min", 100), ("max", 300)):
            assert abs(int(kv[key]) - pkts * ql.FLOW_SCALE) < 1, (name, key)
        assert kv["probability"] == "0.1" and kv["bandwidth"] == "10mbit"
        assert kv["avpkt"] == "1514"
        flags = set(w) & {"adaptive", "noadaptive", "gentle", "nogentle"}
        assert (
            flags
            == {
                "red": {"noadaptive", "nogentle"},
                "gentle-red": {"noadaptive", "gentle"},
                "ared": {"adaptive", "gentle"},
            }[name]
        )


# --- tc's reading of the words -------------------------------------------------------


@pytest.fixture(scope="module")
def tc_lib(tmp_path_factory: pytest.TempPathFactory) -> tuple[str, str]:
    """The installed tc and q_ared.so built for it."""
    out = tmp_path_factory.mktemp("plugins")
    return tc_with_plugins(out, ("ared",)), str(out)


def test_tc_reads_every_configurations_words(tc_lib: tuple[str, str]) -> None:
    """Every spec of the paper's files (netem's is the installed tc's own,
    ared's our plugin's) passes tc's parser and reaches the kernel, which
    a user namespace refuses."""
    tc, lib = tc_lib
    env = dict(os.environ, TC_LIB_DIR=lib)
    specs = set()
    for f in plan.PAPERS["queuelaw"]:
        exp = _exp(f)
        for q in exp.qdiscs:
            for e in exp.ecn:
                specs |= {q.spec_for(e, exp.rate_of(q)), q.up_spec_for(e, exp.rate_of(q))}
    assert len(specs) == 5 + 6 + 3 + 1
    for spec in sorted(specs):
        assert tc_add(tc, spec, env) == (2, [EPERM]), spec
