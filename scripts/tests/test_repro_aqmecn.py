"""The AQM/ECN paper's reproduction (issue 33): its numbers and claims as
transcribed (aqmtools/repro/aqmecn.py), and its experiment files
(scripts/bench/experiments/repro-aqmecn-*.toml)."""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from reprocheck import PAPERS, norm, unquoted

from aqmtools.bench.experiment import Experiment, load
from aqmtools.repro import aqmecn, plan

TOP = Path(__file__).resolve().parents[2]
STORE = PAPERS / aqmecn.STORE_TEXT
UNIFORM_FILES = ("repro-aqmecn-paper.toml", "repro-aqmecn-linux.toml")
WIDE_FILES = ("repro-aqmecn-widertt-paper.toml", "repro-aqmecn-widertt-linux.toml")
SECTION = re.compile(r"\b(section|abstract)\b", re.I)


def _exp(name: str) -> Experiment:
    return load((plan.EXPERIMENTS / name).read_text())


# --- the paper's numbers and claims -----------------------------------------


def test_the_claims_each_say_where_the_paper_makes_them() -> None:
    assert len(aqmecn.CLAIMS) >= 10
    keys = [c.key for c in aqmecn.CLAIMS]
    assert len(set(keys)) == len(keys)
    for c in aqmecn.CLAIMS:
        assert c.statement and c.quote and c.test
        assert bool(c.note) == bool(c.qualifier)
        assert SECTION.search(c.where), c.key
        assert c.loads and all(x in aqmecn.PREDECESSOR_LOADS for x in c.loads)
        assert c.rtts in (aqmecn.UNIFORM, aqmecn.MEASURED)
    # the abstract's bullets and the conclusions are all there
    wheres = " ".join(c.where for c in aqmecn.CLAIMS)
    for part in ("first bullet", "second bullet", "third bullet"):
        assert f"abstract, {part}" in wheres and f"section VIII, {part}" in wheres
    assert "and fourth bullets" in wheres and "section VIII, last paragraph" in wheres
    assert aqmecn.claim("a") is aqmecn.CLAIMS[0] and aqmecn.claim("zz") is None


def test_the_points_give_their_numbers_as_quoted() -> None:
    for p in aqmecn.POINTS:
        assert p.load in aqmecn.LOADS and p.section
        assert p.percent is not None or p.seconds is not None
        assert set(p.schemes) <= set(aqmecn.SCHEMES)
        if p.percent is not None:
            assert 0 < p.percent < 100 and f"{p.percent:g}%" in p.quote
        if p.seconds is not None:
            ms = round(p.seconds * 1000, 6)
            assert f"{ms:g} ms" in p.quote or f"{p.seconds:g} second" in p.quote
        assert p.approx == bool(re.search(r"\b(about|approximately)\b", p.quote))
        # a design that ran without ECN in a point with ECN
        assert set(p.no_ecn) <= set(p.schemes) and (p.ecn or not p.no_ecn)
    by_key = {p.key: p for p in aqmecn.POINTS}
    assert len(by_key) == len(aqmecn.POINTS)
    assert by_key["viii-90-85pct"].no_ecn == (aqmecn.ARED_BYTE,)
    assert (by_key["fig4-90-125ms"].percent, by_key["fig4-90-125ms"].seconds) == (40, 0.125)
    assert (by_key["fig4-98-300ms"].percent, by_key["fig4-98-300ms"].seconds) == (65, 0.3)
    assert by_key["fig5-98-50s"].percent == 99.95
    assert by_key["fig10-98-ecn-250ms"].rtts == aqmecn.MEASURED


def test_the_tables_and_figures_the_text_names() -> None:
    names = [e.name for e in aqmecn.EXHIBITS]
    assert len(set(names)) == len(names)
    for n in ("Fig. 1", "Fig. 5", "Fig. 6(a)-(d)", "Fig. 10(a)-(d)", "Table II", "Table IV"):
        assert aqmecn.exhibit(n) is not None
    assert aqmecn.exhibit("Table I") is None
    # no table's values survive in the extraction; every result exhibit is cited
    for e in aqmecn.EXHIBITS:
        if e.name.startswith("Table"):
            assert e.values_lost and e.statements
        assert e.section and e.what
    assert all(what and why for what, why in aqmecn.LOST)
    # the claims the reproduction page links to each exhibit
    assert set(aqmecn.EXHIBIT_CLAIMS) == set(names)
    keys = {c.key for c in aqmecn.CLAIMS}
    assert all(set(ks) <= keys for ks in aqmecn.EXHIBIT_CLAIMS.values())


def test_the_settings_as_printed() -> None:
    values = {s.what: s.value for s in aqmecn.SETTINGS}
    assert values["drop-tail buffers"] == "24 or 240 packets"
    assert values["ARED's thresholds for the target of 24"] == "(12, 36)"
    assert values["minimum RTTs, sections IV and V"] == "between 10 and 150 ms"
    assert aqmecn.TARGETS_PKTS == (24, 240) and aqmecn.LOADS == (0.9, 0.98)
    for s in aqmecn.SETTINGS:
        assert s.section and s.quote


def _norm(text: str) -> str:
    """TEXT without what the extraction garbles: its ligatures and its own
    quotation marks (Ò Ó) and apostrophe (Õ), then what every extraction
    does (reprocheck.norm)."""
    text = text.replace("\u00de", "fi").replace("\u00df", "fl")
    text = re.sub("[\u00d2\u00d3]", "", text)
    return norm(text.replace("\u00d5", "'"))


def _quotes() -> list[str]:
    return [
        *(s.quote for s in aqmecn.SETTINGS),
        *(p.quote for p in aqmecn.POINTS),
        *(c.quote for c in aqmecn.CLAIMS),
        *(c.qualifier for c in aqmecn.CLAIMS if c.qualifier),
        *(q for e in aqmecn.EXHIBITS for _, q in e.statements),
        *(e.caption for e in aqmecn.EXHIBITS if e.caption),
    ]


@pytest.mark.skipif(not STORE.is_file(), reason="the paper store is not on this machine")
def test_every_quotation_is_in_the_papers_text() -> None:
    assert unquoted(STORE.read_text(encoding="utf-8"), _quotes(), _norm) == []


# --- our configurations -------------------------------------------------------


def test_the_paper_is_planned_with_its_hosts_first() -> None:
    files = [f.name for f in plan.paper_files("aqmecn")]
    assert files == [UNIFORM_FILES[0], WIDE_FILES[0], UNIFORM_FILES[1], WIDE_FILES[1]]
    for f in files:
        exp = _exp(f)
        assert exp.name == f.removesuffix(".toml")
        assert exp.hosts == ("paper" if "-paper" in f else "linux")
        assert exp.reporting_seeds == [101, 102, 103, 104, 105] and exp.tuning_seeds == []
        assert exp.rate_bps == 10_000_000 and exp.ecn == [False, True]
        assert exp.reference == "droptail-29ms" and exp.cc == "reno"
        assert exp.workload == "web"


def test_the_two_host_profiles_run_the_same_experiment() -> None:
    for paper, linux in (UNIFORM_FILES, WIDE_FILES):
        a, b = _exp(paper), _exp(linux)
        assert a.qdiscs == b.qdiscs and a.loads == b.loads
        assert a.rtt_ms == b.rtt_ms and a.rtt_classes_ms == b.rtt_classes_ms
        assert (a.duration_s, a.warmup_s, a.drain_s) == (b.duration_s, b.warmup_s, b.drain_s)


def test_the_uniform_files_have_every_configuration_the_issue_lists() -> None:
    for f in UNIFORM_FILES:
        exp = _exp(f)
        assert exp.loads == [0.8, 0.9, 0.98] and exp.rtt_ms == (10, 150)
        assert exp.rtt_classes_ms == []
        by = {q.name: q for q in exp.qdiscs}
        rate = exp.rate_bps
        # drop-tail at the paper's two buffers, 24 and 240 packets in time
        assert by["droptail-2.9ms"].spec_for(False, rate) == "pfifo limit 2"
        assert by["droptail-29ms"].spec_for(False, rate) == "pfifo limit 24"
        assert not by["droptail-29ms"].ecn_runs and not by["uncongested"].ecn_runs
        assert exp.rate_of(by["uncongested"]) == 10 * rate
        for t, qref, qbytes in (("2.9ms", 2, 3625), ("29ms", 24, 36250)):
            pi, pib, rem = by[f"pi-{t}"], by[f"pi-bytes-{t}"], by[f"rem-bytes-{t}"]
            # PI in packet and byte mode, REM, each with and without ECN
            assert f"qref {qref} " in pi.spec_for(False, rate) and "bytemode" not in pi.spec
            assert f"bytemode qref {qbytes} " in pib.spec_for(False, rate)
            assert f"bytemode qref {qbytes} " in rem.spec_for(False, rate)
            for q in (pi, pib, rem):
                assert q.ecn_runs and "ecn" not in q.spec.split()
                assert q.ecn_spec == q.spec + " ecn ecn_ceil 1"
            # ARED in packet and byte mode, the gentle region on, with and
            # without ECN, and the new gentle forwarding
            for prefix in ("ared", "ared-bytes"):
                plain, new = by[f"{prefix}-{t}"], by[f"{prefix}-newgentle-{t}"]
                assert "gentle" in plain.spec.split() and plain.spec == new.spec
                assert ("bytemode" in plain.spec) == (prefix == "ared-bytes")
                assert plain.ecn_spec == plain.spec + " ecn"
                assert new.ecn_spec == plain.spec + " ecn ecn_gentle"
        # the thresholds: (12, 36) for the target of 24, in time
        assert "min 1 max 4 " in by["ared-2.9ms"].spec_for(False, rate)
        assert "min 12 max 36 " in by["ared-29ms"].spec_for(False, rate)
        assert "min 18125 max 54375 " in by["ared-bytes-29ms"].spec_for(False, rate)
        # 31 runs a load: 17 without ECN, 14 with
        assert len(exp.runs([101])) == 93


def test_the_wide_rtt_files_stand_in_for_the_measured_distribution() -> None:
    for f in WIDE_FILES:
        exp = _exp(f)
        assert exp.loads == [0.9, 0.98]
        rtts = exp.client_rtts_ms(101)
        assert rtts == exp.client_rtts_ms(102) == sorted(rtts)
        assert len(set(rtts)) == exp.clients == 8
        # wider than the uniform 10-150 ms on both sides of it
        assert min(rtts) >= 10 and max(rtts) > 150 and sum(r > 150 for r in rtts) >= 2
        names = {q.name for q in exp.qdiscs}
        assert not any(n.startswith(("ared-2", "ared-bytes-2", "ared-29")) for n in names)
        assert all(q.ecn_spec.endswith(" ecn ecn_gentle") for q in exp.qdiscs if q.kind == "ared")
        assert len(exp.runs([101])) == 46


def test_every_configuration_stands_for_one_of_the_papers() -> None:
    for f in plan.PAPERS["aqmecn"]:
        for q in _exp(f).qdiscs:
            stands = aqmecn.stands_for(q.name)
            assert stands, q.name
            assert all(s.scheme in aqmecn.SCHEMES for s in stands)
    uniform = {q.name for q in _exp(UNIFORM_FILES[0]).qdiscs}
    assert {s.config for s in aqmecn.STANDS} == uniform
    # the paper's 24 packets stand twice (in time and as packets), its 240 once
    assert aqmecn.configs_of(aqmecn.PI_BYTE, 24) == ["pi-bytes-2.9ms", "pi-bytes-29ms"]
    assert aqmecn.configs_of(aqmecn.DROPTAIL, 240) == ["droptail-29ms"]
    assert aqmecn.stands_for("pie") == []
