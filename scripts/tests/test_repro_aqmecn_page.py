"""The AQM/ECN paper's reproduction page (aqmtools.repro.aqmecn_page): the
claims' verdicts and the page itself, on synthetic results folders built
as test_repro_page.py builds the DCN paper's."""

from __future__ import annotations

import json
import math
import shutil
from collections.abc import Callable
from pathlib import Path

import pytest
from reprocheck import page_text, run_python, unquoted_markers
from tcdump import tc_dump

from aqmtools.bench.experiment import Experiment, load
from aqmtools.bench.intervals import mean_ci
from aqmtools.repro import aqmecn, page, plan
from aqmtools.repro import aqmecn_page as ap

SEEDS = (101, 102, 103)
UNIFORM_FILE = "repro-aqmecn-paper.toml"
WIDE_FILE = "repro-aqmecn-widertt-paper.toml"
FILES = {ap.UNIFORM: UNIFORM_FILE, ap.WIDE: WIDE_FILE}

# webgen's client log, as run.py leaves it (test_repro_page.py's columns)
HEADER = (
    "user,conn,server,start_us,first_byte_us,end_us,req_bytes,resp_bytes,persistent,status,"
    "req_size\n"
)

# a run's base response time (ms), loss (%) and utilization (%) from its
# configuration, load, ECN and seed
Base = Callable[[str, float, bool, int], float]


_q = tc_dump


def _run(
    out: Path,
    exp: Experiment,
    qdisc: str,
    load_: float,
    ecn: bool,
    seed: int,
    base_ms: float,
    loss_pct: float = 1.0,
    util_pct: float = 90.0,
) -> None:
    """A run of EXP's web workload: ten exchanges of BASE_MS x 0.2, 0.4,
    ... 2 (so every quantile is proportional to BASE_MS: the median 1.2
    times it, the 90th percentile twice), a bottleneck that lost LOSS_PCT
    of its arrivals and sent UTIL_PCT of 10 Mbit/s over 10 s."""
    d = out / f"{qdisc}-load{round(load_ * 100)}-ecn{int(ecn)}-s{seed}"
    d.mkdir(parents=True)
    names = [q.name for q in exp.qdiscs]
    meta = {
        "experiment": exp.name,
        "order": names.index(qdisc),
        "qdisc": qdisc,
        "spec": "pfifo limit 24",
        "load": load_,
        "ecn": ecn,
        "seed": seed,
        "seed_set": "reporting",
        "reference": "droptail-29ms",
        "workload": "web",
        "hosts": exp.hosts,
        "host_sysctls": ["net.ipv4.tcp_sack=0"],
        "host_route": "window 16384",
        "cc": "reno",
        "users": round(load_ * 60),
        "duration_s": 10.0,
        "warmup_s": 1.0,
        "drain_s": 5.0,
        "rate_bps": 100_000_000 if qdisc == "uncongested" else 10_000_000,
        "experiment_rate_bps": 10_000_000,
        "client_rtts_ms": exp.client_rtts_ms(seed),
        "exit_codes": [0],
        "netem_drops": 0,
        "valid": True,
    }
    (d / "run.json").write_text(json.dumps(meta))
    rows = [
        f"0,0,10.2.1.2:8080,1000000,,{1_000_000 + round(base_ms * k * 200)},300,1000,1,ok,1000\n"
        for k in range(1, 11)
    ]
    (d / "web-c1.csv").write_text(HEADER + "".join(rows))
    (d / "tc-before.json").write_text(json.dumps({"down": _q(0, 0, 0), "up": []}))
    drops = round(loss_pct * 100)
    sent = round(util_pct / 100 * 10_000_000 * 10 / 8)
    (d / "tc-after.json").write_text(
        json.dumps({"down": _q(10_000 - drops, sent, drops), "up": []})
    )


def _folder(
    out: Path,
    file: str,
    rt: Base,
    loss: Base | None = None,
    util: Base | None = None,
    only: Callable[[str], bool] | None = None,
) -> Path:
    """The runs of FILE on SEEDS (of the configurations ONLY keeps), with
    response times RT, loss LOSS and utilization UTIL."""
    out.mkdir(parents=True)
    shutil.copy(plan.EXPERIMENTS / file, out / "experiment.toml")
    exp = load((plan.EXPERIMENTS / file).read_text())
    for q, ld, e, s in exp.runs(list(SEEDS)):
        if only is not None and not only(q.name):
            continue
        _run(
            out,
            exp,
            q.name,
            ld,
            e,
            s,
            rt(q.name, ld, e, s),
            loss(q.name, ld, e, s) if loss else 1.0,
            util(q.name, ld, e, s) if util else 90.0,
        )
    return out


def _offset(seed: int) -> float:
    """A seed's effect, shared by every configuration on it (ms)."""
    return 40.0 * (seed - SEEDS[0])


def _judge(key: str, *dirs: Path) -> list[page.Judgement[str]]:
    folders = [page.read_folder(d) for d in dirs]
    profs, _ = ap.profiles(folders)
    claim = next(c for c in ap.CLAIMS if c.key == key)
    return ap.judge(claim, profs[0])


def _claim_a(tmp_path: Path, ared_minus_droptail: dict[int, float]) -> page.Judgement[str]:
    """Claim (a) on runs where ARED byte-mode's base response time is that
    of drop-tail 240 (300 ms and the seed's effect) plus the seed's given
    difference."""

    def rt(q: str, ld: float, e: bool, s: int) -> float:
        base = 300 + _offset(s)
        return base + ared_minus_droptail[s] if q.startswith("ared-bytes-") else base

    out = _folder(
        tmp_path / "repro-aqmecn-paper",
        UNIFORM_FILE,
        rt,
        only=lambda q: q == "droptail-29ms" or q.startswith("ared-bytes-"),
    )
    js = _judge("a", out)
    # judged for each of the two sizes of the paper's targets
    assert [j.variant for j in js] == list(ap.VARIANTS)
    assert len({j.verdict for j in js}) == 1
    return js[0]


def test_a_claim_that_holds_on_every_seed_is_reproduced(tmp_path: Path) -> None:
    j = _claim_a(tmp_path, {101: -100, 102: -90, 103: -110})
    assert j.verdict == page.REPRODUCED, j.why
    assert j.why == "all 4 comparisons hold (each interval inside its claimed range)"
    # 2 loads x (median, 90th percentile)
    assert len(j.outcomes) == 4
    line = j.outcomes[0].line()
    # the median is 1.2 times the base: -120 ms on average
    assert line.startswith(
        "RT p50 at 90%: ared-bytes-2.9ms (no ECN) minus droptail-29ms (no ECN): -120 ± "
    )
    assert "(3 seeds: 101, 102, 103); claimed below 0: significant, as claimed" in line


def test_a_claim_that_holds_only_on_average_is_in_direction_only(tmp_path: Path) -> None:
    j = _claim_a(tmp_path, {101: -60, 102: 20, 103: -40})
    assert j.verdict == page.IN_DIRECTION, j.why
    assert j.why == "every mean difference in its claimed range, 4 of 4 within noise"
    assert all(o.state == "noise" for o in j.outcomes)
    assert "within noise, mean as claimed" in j.outcomes[0].line()


def test_a_contradicted_claim_is_not_reproduced(tmp_path: Path) -> None:
    j = _claim_a(tmp_path, {101: 100, 102: 90, 103: 110})
    assert j.verdict == page.NOT_REPRODUCED
    assert j.why.startswith(
        "failing (the interval wholly outside the claimed range): RT p50 at 90%: ared-bytes-2.9ms"
    )
    assert "significant, AGAINST the claim" in j.outcomes[1].line()


def test_a_missing_configuration_is_not_attempted_and_named(tmp_path: Path) -> None:
    out = _folder(
        tmp_path / "repro-aqmecn-paper",
        UNIFORM_FILE,
        lambda q, ld, e, s: 300.0,
        only=lambda q: q == "droptail-29ms",
    )
    for j in _judge("a", out):
        assert j.verdict == page.NOT_ATTEMPTED
        assert f"no run of ared-bytes-{j.variant} (no ECN) at 98% in `repro-aqmecn-paper`" in j.why
    # claim (o) needs the wide RTT classes' folder, which is not there
    for j in _judge("o", out):
        assert j.verdict == page.NOT_ATTEMPTED
        assert j.why == (
            "missing: no runs of `repro-aqmecn-widertt-paper` (wide RTT classes, end hosts `paper`)"
        )


def test_equal_within_the_margin_is_reproduced_and_beyond_it_not(tmp_path: Path) -> None:
    # REM with ECN 2% slower than PI with ECN, well below drop-tail: claim (h)
    def rt(rem_over_pi: float) -> Base:
        def f(q: str, ld: float, e: bool, s: int) -> float:
            base = 300 + _offset(s) + (s - 102) ** 2
            if q.startswith("rem-bytes-") and e:
                return base * rem_over_pi
            return base if q.startswith("pi-") and e else 2 * base

        return f

    def only(q: str) -> bool:
        return q == "droptail-29ms" or q.startswith(("pi-", "rem-bytes-"))

    out = _folder(tmp_path / "a" / "repro-aqmecn-paper", UNIFORM_FILE, rt(1.02), only=only)
    js = _judge("h", out)
    assert [j.verdict for j in js] == [page.REPRODUCED] * 2, js[0].why
    same = [o for o in js[0].outcomes if o.check.figure == "RT p90" and "pi-bytes" in o.line()]
    assert (
        "claimed within ±" in same[0].line() and "10% of pi-bytes-2.9ms (ECN)'s" in same[0].line()
    )
    assert "the whole interval inside that range, as claimed" in same[0].line()
    # PI in packet mode is printed beside it, and does not count
    assert any(o.line().startswith("(reported, not counted) ") for o in js[0].outcomes)
    # 30% slower: the two are not alike
    out = _folder(tmp_path / "b" / "repro-aqmecn-paper", UNIFORM_FILE, rt(1.3), only=only)
    js = _judge("h", out)
    assert [j.verdict for j in js] == [page.NOT_REPRODUCED] * 2
    assert "minus pi-bytes-2.9ms (ECN)" in js[0].why
    assert "the whole interval outside that range, AGAINST the claim" in js[0].outcomes[3].line()


def test_no_better_is_reproduced_only_with_a_narrow_interval(tmp_path: Path) -> None:
    # claim (i): ARED with ECN against ARED without, by seed as a fraction
    def rt(ecn_over: dict[int, float]) -> Base:
        def f(q: str, ld: float, e: bool, s: int) -> float:
            base = 300 + _offset(s)
            return base * ecn_over[s] if e else base

        return f

    def only(q: str) -> bool:
        return q.startswith("ared-") and "newgentle" not in q

    # ECN 1-3% slower: no improvement, and the interval says so
    out = _folder(
        tmp_path / "a" / "repro-aqmecn-paper",
        UNIFORM_FILE,
        rt({101: 1.01, 102: 1.03, 103: 1.02}),
        only=only,
    )
    assert {j.verdict for j in _judge("i", out)} == {page.REPRODUCED}
    # 4% faster on average, but the interval reaches past -10%: within noise
    noisy = {101: 0.95, 102: 1.08, 103: 0.85}
    out = _folder(tmp_path / "b" / "repro-aqmecn-paper", UNIFORM_FILE, rt(noisy), only=only)
    js = _judge("i", out)
    assert {j.verdict for j in js} == {page.IN_DIRECTION}, js[0].why
    line = js[0].outcomes[0].line()
    assert "claimed not below -" in line and "(10% of ared-2.9ms (no ECN)'s " in line
    assert line.endswith("the interval crosses its edge, mean inside it")
    # 30% faster on every seed: ECN improved ARED
    out = _folder(
        tmp_path / "c" / "repro-aqmecn-paper",
        UNIFORM_FILE,
        rt({101: 0.7, 102: 0.72, 103: 0.69}),
        only=only,
    )
    assert {j.verdict for j in _judge("i", out)} == {page.NOT_REPRODUCED}


def test_the_wider_rtts_smaller_effect_is_judged_across_two_folders(tmp_path: Path) -> None:
    # drop-tail 240 is 600 ms (and the seed's effect); the best AQM with ECN
    # takes 300 ms off it with the uniform RTTs, 50 with the wide classes
    def rt(gain: float) -> Base:
        def f(q: str, ld: float, e: bool, s: int) -> float:
            base = 600 + _offset(s)
            if q.startswith("pi-bytes-") and e:
                return base - gain - 5 * (s - 102)
            return base

        return f

    def only(q: str) -> bool:
        return q == "droptail-29ms" or q.startswith(("pi-", "rem-bytes-", "ared-"))

    uni = _folder(tmp_path / "repro-aqmecn-paper", UNIFORM_FILE, rt(300), only=only)
    wide = _folder(tmp_path / "repro-aqmecn-widertt-paper", WIDE_FILE, rt(50), only=only)
    js = _judge("p", uni, wide)
    assert [j.verdict for j in js] == [page.REPRODUCED] * 2, js[0].why
    line = js[0].outcomes[0].line()
    # the 90th percentile is twice the base: 600 ms taken off, then 100: -500
    assert line.startswith(
        "RT p90 at 90%: (droptail-29ms minus the best AQM with ECN), wide RTT classes minus "
        "uniform RTTs: -500 ± "
    )
    assert "(unpaired, Welch's interval); claimed below 0: significant, as claimed" in line
    assert "uniform RTTs: droptail-29ms minus pi-bytes-2.9ms (ECN), the best, +600 ±" in line
    # with one folder only, not attempted
    assert _judge("p", uni)[0].verdict == page.NOT_ATTEMPTED


def test_welch_interval() -> None:
    iv = ap.welch([1.0, 2.0, 3.0], [11.0, 12.0, 13.0, 14.0])
    assert iv.mean == pytest.approx(10.5) and iv.n == 3
    # variances 1 and 5/3: se^2 = 1/3 + 5/12, about 4.96 degrees of freedom
    assert iv.half == pytest.approx(2.2317, abs=1e-3)
    assert math.isnan(ap.welch([1.0], [2.0, 3.0]).half)
    assert ap.welch([], [1.0]).n == 0


def _all_claims_hold(q: str, ld: float, e: bool, s: int) -> float:
    """Response times under which most claims hold (made up)."""
    base = 500 + _offset(s) + 7 * (s % 2)
    if q == "uncongested":
        return 0.5 * base
    if q.startswith(("pi", "rem")) and e:
        return 0.6 * base
    if q.startswith("ared-bytes") and not e:
        return 0.7 * base
    return base


def test_the_page_with_runs_prints_ours_beside_the_papers(tmp_path: Path) -> None:
    uni = _folder(tmp_path / "repro-aqmecn-paper", UNIFORM_FILE, _all_claims_hold)
    nowhere = tmp_path / "repro-aqmecn-widertt-paper"
    text = page_text(tmp_path / "aqmecn.md", "aqmecn", uni, nowhere)
    assert "nan" not in text
    assert f"- `{nowhere}`: no such folder (not run yet)." in text
    assert "- `repro-aqmecn-linux` (end hosts `linux`, uniform RTTs" in text
    assert "reporting seeds run: 101, 102, 103 of 101, 102, 103, 104, 105; 279 of 465 runs" in text
    # a figure's block: drop-tail 240 at 90% and 98%, median and 90th percentile
    p50 = mean_ci([b * 1.2 for b in (507.0, 540.0, 587.0)]).fmt(".0f")
    p90 = mean_ci([b * 2 for b in (507.0, 540.0, 587.0)]).fmt(".0f")
    row = f"| `droptail-29ms` | drop-tail (240 in time; 24 as packets) | no ECN | {p50} | {p90} |"
    assert row in text
    # the tables: utilization 90%, completed as many as the uncongested link
    assert (
        "| `pi-bytes-2.9ms` | PI, byte mode (24 in time) | ECN | 1.00 ± 0.00 | 90.0 ± 0.0 " in text
    )
    assert "100.0 ± 0.0" in text
    # a point: all ten exchanges of 0.2-2 x 600 ms take more than 125 ms
    assert "| fig4-90-125ms | `droptail-29ms` |" in text
    assert "0.0 ± 0.0 (of 0.125 s)" in text
    # the wide RTT classes' exhibits and claims are not attempted, and say why
    assert (
        "Ours, end hosts `paper`: not attempted (no runs of `repro-aqmecn-widertt-paper` "
        "(wide RTT classes, end hosts `paper`))." in text
    )
    assert "**not attempted**: missing: no runs of `repro-aqmecn-widertt-paper`" in text
    # every claim has a verdict for each size of the targets
    for c in aqmecn.CLAIMS:
        for t in ap.VARIANTS:
            assert f"| ({c.key}) {c.statement} | {c.where} | `paper` | `-{t}` | " in text
    assert "| (a) " in text and "| reproduced |" in text
    # the linux hosts ran nothing: no verdict of theirs, and the page says why
    assert "| `linux` |" not in text
    assert (
        "Not attempted with end hosts `linux`: no runs of `repro-aqmecn-linux` or "
        "`repro-aqmecn-widertt-linux`." in text
    )


def test_the_page_on_no_folder_says_nothing_was_run(tmp_path: Path) -> None:
    text = page_text(tmp_path / "aqmecn.md", "aqmecn")
    assert text.startswith(f"# Reproduction: {aqmecn.SHORT_TITLE}\n")
    assert "Nothing was run yet: no results folder was given." in text
    assert "make reproduce PAPER=aqmecn" in text
    assert "python3 -m aqmtools.repro.page aqmecn docs/reproduction/aqmecn.md" in text
    for c in aqmecn.CLAIMS:
        assert f"| ({c.key}) {c.statement} | {c.where} | - | - | not attempted (no runs) |" in text
        assert f"### ({c.key}) " in text
    assert text.count("**not attempted**: no runs (of ") == len(aqmecn.CLAIMS)
    claims = text[text.index("## Claims") :]
    for word in (page.REPRODUCED, page.IN_DIRECTION, page.NOT_REPRODUCED, page.INCONCLUSIVE):
        assert f"**{word}**:" not in claims
    # the paper's numbers, settings and the experiment files' headers
    for p in aqmecn.POINTS:
        assert f'"{p.quote}"' in text
    for s in aqmecn.SETTINGS:
        assert f'"{s.quote}"' in text
    assert "## How verdicts are decided" in text
    assert "> How the paper's settings scale." in text
    assert "> - drop-tail, 24 and 240 packets" in text


def test_every_marker_quotes_a_header() -> None:
    assert unquoted_markers("aqmecn", ap.MARKERS) == []


def test_the_checks_name_configurations_the_files_run() -> None:
    assert [c.key for c in ap.CLAIMS] == [c.key for c in aqmecn.CLAIMS]
    exps = {r: load((plan.EXPERIMENTS / f).read_text()) for r, f in FILES.items()}
    for claim in ap.CLAIMS:
        for t in ap.VARIANTS:
            checks = claim.checks(t)
            assert any(c.counted for c in checks), claim.key
            for c in checks:
                assert isinstance(c, ap.Comparison)
                assert c.figure in ap.FIGS
                if isinstance(c, ap.Across):
                    for exp in exps.values():
                        names = {q.name for q in exp.qdiscs}
                        assert set(c.candidates) <= names and c.a[0] in names
                    continue
                exp = exps[c.rtts]
                by = {q.name: q for q in exp.qdiscs}
                for name, ld, ecn in (c.a, c.b):
                    assert name in by, (claim.key, name)
                    assert ld in exp.loads, (claim.key, ld)
                    assert not ecn or by[name].ecn_runs, (claim.key, name)
                    assert name.endswith(f"-{t}") or name in ("droptail-29ms", "uncongested")


def test_the_views_name_the_exhibits() -> None:
    names = {e.name for e in aqmecn.EXHIBITS}
    assert set(ap.VIEWS) <= names
    assert names - set(ap.VIEWS) == {"Fig. 1"}
    for v in ap.VIEWS.values():
        assert set(v.schemes) <= set(aqmecn.SCHEMES)
        assert all(f in ap.FIGS or f == ap.COMPLETED for f in v.figures)
    assert ap._point_of(aqmecn.POINTS[4]) == "Fig. 10(a)-(d)"


def test_module_entry_writes_the_page(tmp_path: Path) -> None:
    md = tmp_path / "aqmecn.md"
    r = run_python("-m", "aqmtools.repro.page", "aqmecn", str(md), str(tmp_path / "x"))
    assert r.returncode == 0, r.stderr
    assert md.read_text().startswith("# Reproduction:")
    # scripts/reproduce.sh's check before any run
    check = "from aqmtools.repro.page import PAGES; import sys; sys.exit('aqmecn' not in PAGES)"
    assert run_python("-c", check).returncode == 0
