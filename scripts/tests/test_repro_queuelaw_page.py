"""The RED-family paper's reproduction page (aqmtools.repro.queuelaw_page):
what it measures of a run's aqmstat records, the claims' verdicts on
synthetic results folders, and the page itself, with no folder and with
runs."""

from __future__ import annotations

import json
import shutil
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pytest
from reprocheck import page_and_plan, page_text, unquoted_markers
from tcdump import tc_dump

from aqmtools.bench.experiment import Experiment, load
from aqmtools.repro import page, plan
from aqmtools.repro import queuelaw as ql
from aqmtools.repro import queuelaw_page as qp

SEEDS = (101, 102, 103)
RATE = 10_000_000
START = 1000.0
# records a second in a synthetic run
PER_S = 2


@dataclass
class Step:
    """A window's queue as aqmstat would sample it: the instantaneous
    queue alternates around Q by ± SD (its standard deviation), the
    average around AVG by ± AVG_SD; LOSS % of the arrivals are dropped;
    MAX_P is Adaptive RED's."""

    q: float
    sd: float = 0.0
    avg: float | None = None
    avg_sd: float = 0.0
    loss: float = 0.0
    max_p: float | None = None


def _records(
    windows: list[tuple[float, float, Step]], end: float, marks: bool = False
) -> list[dict[str, float]]:
    """aqmstat's records from START to END (seconds of the run), each
    window's (from, to, Step) in force over it; 800 arrivals a second.
    With MARKS, the loss is netem's ECN marks: counted as drops, and the
    marked packets sent all the same."""
    recs = []
    packets = drops = 0.0
    for i in range(int(end * PER_S) + 1):
        t = i / PER_S
        s = next((w for lo, hi, w in windows if lo <= t < hi), windows[-1][2])
        sign = 1 if i % 2 else -1
        r = {"wall": START + t, "t": t, "qlen": s.q + sign * s.sd, "bytes": 1514 * packets}
        r |= {"packets": packets, "drops": drops}
        if s.avg is not None:
            r |= {"qavg": s.avg + sign * s.avg_sd, "max_th": 99, "min_th": 33}
        if s.max_p is not None:
            r["max_p"] = s.max_p
        recs.append(r)
        drops += 400 * s.loss / 100
        packets += 400 * (1 if marks else 1 - s.loss / 100)
    return recs


def _run(out: Path, exp_name: str, meta: dict[str, Any], recs: list[dict[str, float]]) -> None:
    name = f"{meta['qdisc']}-load{round(meta['load'] * 100)}-ecn{int(meta['ecn'])}"
    d = out / f"{name}-s{meta['seed']}"
    d.mkdir(parents=True)
    base = {
        "experiment": exp_name,
        "seed_set": "reporting",
        "workload": "long",
        "cc": "reno",
        "users": 0,
        "rate_bps": RATE,
        "experiment_rate_bps": RATE,
        "start_wall": START,
        "client_rtts_ms": [80.0] * 8,
        "netem_drops": 0,
        "valid": True,
    }
    (d / "run.json").write_text(json.dumps(base | meta))
    for name in ("tc-before.json", "tc-after.json"):
        (d / name).write_text(json.dumps({"down": tc_dump(0, 0, 0)}))
    (d / "aqmstat-down.jsonl").write_text("".join(json.dumps(r) + "\n" for r in recs))


def _new_folder(root: Path, name: str) -> tuple[Path, Experiment, list[str]]:
    """The results folder of experiment NAME under ROOT, with its file;
    the experiment and its configurations."""
    out = root / name
    out.mkdir(parents=True)
    shutil.copy(plan.EXPERIMENTS / f"{name}.toml", out / "experiment.toml")
    exp = load((plan.EXPERIMENTS / f"{name}.toml").read_text())
    return out, exp, [x.name for x in exp.qdiscs]


Fixed = Callable[[str, int, int], float]


def _fixed_folder(root: Path, part: str, hosts: str, q: Fixed) -> Path:
    """The runs of PART's file on SEEDS: the queue Q(config, flows, seed)
    over the measured window (the warm-up at twice it)."""
    name = f"repro-{part}-{hosts}"
    out, exp, names = _new_folder(root, name)
    for c, ld, e, s in exp.runs(list(SEEDS)):
        n = exp.long_flows_at(ld)
        value = q(c.name, n, s)
        p = qp.prob_of(c.name)
        windows = [(0, 60, Step(2 * value)), (60, 121, Step(value, loss=100 * p))]
        recs = _records(windows, 120, marks=e)
        meta = {"qdisc": c.name, "order": names.index(c.name), "load": ld, "ecn": e}
        meta |= {"seed": s, "hosts": hosts, "duration_s": 120.0, "warmup_s": 60.0}
        _run(out, name, meta | {"long_flows": n}, recs)
    return out


StepOf = Callable[[str, int, int], Step]


def _steps_folder(root: Path, hosts: str, step: StepOf) -> Path:
    """The step runs on SEEDS: STEP(config, step, seed) over each step."""
    name = f"repro-{ql.STEPS}-{hosts}"
    out, exp, names = _new_folder(root, name)
    for c, ld, e, s in exp.runs(list(SEEDS)):
        # each step's first seconds are far off: the page leaves them out
        windows = []
        for k, (t, _) in enumerate(exp.long_steps):
            windows.append((t, t + qp.SETTLE_S, Step(1000.0, avg=1000.0)))
            windows.append((t + qp.SETTLE_S, t + 50, step(c.name, k, s)))
        meta = {"qdisc": c.name, "order": names.index(c.name), "load": ld, "ecn": e}
        meta |= {"seed": s, "hosts": hosts, "duration_s": 300.0, "warmup_s": 10.0}
        meta |= {"long_flows": 99, "long_steps": [list(x) for x in exp.long_steps]}
        _run(out, name, meta, _records(windows, 300))
    return out


def _judge(key: str, *dirs: Path) -> page.Judgement[str]:
    folders = [page.read_folder(d, qp.summarize) for d in dirs]
    profs, _ = qp.profiles(folders)
    claim = next(c for c in qp.CLAIMS if c.key == key)
    (j,) = qp.judge(claim, next(p for p in profs if p.has_runs))
    return j


def _law(factor: Callable[[str, float], float]) -> Callable[[str], Fixed]:
    """Queues at FACTOR(part, p) times equation (2)'s at ours, a percent
    apart by seed."""

    def of(part: str) -> Fixed:
        def q(c: str, n: int, s: int) -> float:
            p = qp.prob_of(c)
            eq = ql.queue(n, *ql.notified(p, part == ql.MARK), ql.OURS)
            return factor(part, p) * eq * (1 + 0.01 * (s - 102))

        return q

    return of


ON_THE_LAW = _law(lambda part, p: 1.0)


# --- what a run measures ----------------------------------------------------------------


def test_summarize_measures_each_window(tmp_path: Path) -> None:
    out = _fixed_folder(tmp_path, ql.MARK, "paper", lambda c, n, s: 100.0 * n)
    f = page.read_folder(out, qp.summarize)
    assert len(f.runs) == 3 * 6 * 3
    r = page.cell(f.results, "p0.1", 0.6667, True)[0]
    # the warm-up's queue (twice it) is left out
    assert r.meta[page.SUMMARY]["q@0"] == pytest.approx(6600.0)
    assert qp.FIGS["average queue"].of(r) == pytest.approx(6600.0)
    # netem's marks over what it sent: 10%, not 10 / 110
    assert qp.FIGS["notification %"].of(r) == pytest.approx(10.0, rel=0.02)
    eq = ql.queue(66, 0.0, 0.1, ql.OURS)
    assert qp.equation_of(r) == pytest.approx(eq)
    assert qp.error_pct(r) == pytest.approx(100 * abs(6600 - eq) / eq)
    drop = page.read_folder(
        _fixed_folder(tmp_path, ql.DROP, "paper", lambda c, n, s: 50.0), qp.summarize
    )
    rd = page.cell(drop.results, "p0.1", 0.6667, False)[0]
    assert qp.FIGS["notification %"].of(rd) == pytest.approx(10.0, rel=0.02)
    steps = _steps_folder(tmp_path, "paper", lambda c, k, s: Step(10.0 * k, 3.0, 40.0, 2.0, 1.5))
    r = page.cell(page.read_folder(steps, qp.summarize).results, "red", 1.0, False)[0]
    summary = r.meta[page.SUMMARY]
    for k in range(6):
        assert summary[f"q@{k}"] == pytest.approx(10.0 * k, abs=0.2)
        assert summary[f"q_sd@{k}"] == pytest.approx(3.0, abs=0.1)
        assert summary[f"avg@{k}"] == pytest.approx(40.0, abs=0.1)
        assert summary[f"avg_peak@{k}"] == pytest.approx(42 / 99)
        assert summary[f"above@{k}"] == 0.0
        assert summary[f"loss@{k}"] == pytest.approx(1.5, rel=0.05)
        assert f"max_p@{k}" not in summary


# --- the fixed probabilities ---------------------------------------------------------------


def test_a_mark_queue_a_tenth_above_the_equation_reproduces_a_d_not_b(tmp_path: Path) -> None:
    law = _law(lambda part, p: 1.1 if part == ql.MARK else 1.0)
    dirs = [_fixed_folder(tmp_path, part, "paper", law(part)) for part in (ql.DROP, ql.MARK)]
    j = _judge("a", *dirs)
    assert j.verdict == page.REPRODUCED, j.why
    assert len(j.outcomes) == 3 * 4 * 2
    line = j.outcomes[0].line()
    assert line.startswith(
        "mark 0.01, 33 flows: the average queue, minus 0.75 x equation (2)'s 332.0: +116.2 ± "
    )
    assert "claimed above 249" in line
    assert _judge("d", *dirs).verdict == page.REPRODUCED
    assert _judge("c", *dirs).verdict == page.REPRODUCED
    # the mark queue errs by a tenth, the drop queue by a percent at most:
    # dropping is not the worse
    b = _judge("b", *dirs)
    assert b.verdict == page.NOT_REPRODUCED
    assert b.why.startswith(
        "significant against the claim: error %, 0.05, 33 flows: drop minus mark"
    )


def test_a_drop_queue_at_half_the_equation_gives_b_and_fails_d_and_e(tmp_path: Path) -> None:
    law = _law(lambda part, p: 1.0 if part == ql.MARK else 0.5 - p)
    dirs = [_fixed_folder(tmp_path, part, "linux", law(part)) for part in (ql.DROP, ql.MARK)]
    j = _judge("d", *dirs)
    assert j.verdict == page.NOT_REPRODUCED
    assert "0.01, 33 flows: the mark queue minus the drop queue, minus +82.0" in j.why
    # the drop error grows from 51% at 0.01 to 60% at 0.1; the mark's is 1%
    b = _judge("b", *dirs)
    assert b.verdict == page.REPRODUCED, b.why
    assert b.outcomes[0].line().startswith("error %, drop, 33 flows: at 0.1 minus at 0.01: +9.0 ± ")
    e = _judge("e", *dirs)
    assert e.verdict == page.NOT_REPRODUCED
    assert (
        e.outcomes[0]
        .line()
        .startswith("33 flows: the mark queue minus the drop queue at 0.05, minus at 0.01: -")
    )
    assert _judge("a", *dirs).verdict == page.REPRODUCED
    # a share of the equation's queue is still linear in the flows
    assert _judge("c", *dirs).verdict == page.REPRODUCED


def test_a_missing_part_is_not_attempted_and_named(tmp_path: Path) -> None:
    drop = _fixed_folder(tmp_path, ql.DROP, "paper", ON_THE_LAW(ql.DROP))
    j = _judge("d", drop)
    assert j.verdict == page.NOT_ATTEMPTED
    assert j.why == ("missing: no runs of `repro-queuelaw-mark-paper` (Fig. 4, the mark curves)")
    assert _judge("c", drop).verdict == page.REPRODUCED
    # a configuration missing at one number of flows
    for d in drop.glob("p0.1-load33-*"):
        shutil.rmtree(d)
    j = _judge("b", drop, _fixed_folder(tmp_path, ql.MARK, "paper", ON_THE_LAW(ql.MARK)))
    assert j.verdict == page.NOT_ATTEMPTED
    assert j.why == "missing: no run of p0.1 with 33 flows in `repro-queuelaw-drop-paper`"


# --- the steps ------------------------------------------------------------------------------


def _paper_like(c: str, k: int, s: int) -> Step:
    """RED: stable to 150 flows (k = 2), at max_th from 200, its
    oscillation growing; gentle RED: stable to 200, as RED from 250 on,
    with a little less loss; Adaptive RED stable throughout."""
    jitter = 0.1 * (s - 102)
    if c == "ared":
        return Step(50.0, 5.0 + jitter, 60.0, 2.0, 1.0 + 0.1 * k, max_p=0.1 + 0.05 * k)
    if c == "gentle-red" and k <= 3:
        return Step(60.0, 6.0 + jitter, 70.0, 3.0, 1.0)
    if k <= 2:
        return Step(60.0, 6.0 + jitter, 70.0, 3.0, 1.0)
    loss = 5.0 * k - (0.5 if c == "gentle-red" else 0.0) + jitter
    return Step(120.0, 10.0 * k + jitter, 100.0, 10.0 * k, loss)


def test_the_papers_section_v_is_reproduced(tmp_path: Path) -> None:
    steps = _steps_folder(tmp_path, "paper", _paper_like)
    for key in ("f", "g", "i", "j"):
        j = _judge(key, steps)
        assert j.verdict == page.REPRODUCED, (key, j.why)
    f = _judge("f", steps)
    assert (
        f.outcomes[0]
        .line()
        .startswith("RED at 50 flows (17): time average >= max_th %, minus 1: -1.0 ± 0.0 points")
    )
    assert "RED at 200 flows (66): peak average / max_th, minus 1: " in f.outcomes[3].line()
    # gentle RED as RED at 250 and 300: no clear benefit, equal within noise
    h = _judge("h", steps)
    assert h.verdict == page.IN_DIRECTION, h.why
    assert "equal within noise" in h.why
    assert (
        h.outcomes[0]
        .line()
        .startswith("queue s.d. at 250 flows (83): gentle RED minus RED: +0.0 ± 0.0 packets")
    )


def test_a_red_that_never_settles_is_not_reproduced(tmp_path: Path) -> None:
    def wild(c: str, k: int, s: int) -> Step:
        return Step(120.0, 30.0 + s - 102, 100.0, 20.0, 3.0)

    steps = _steps_folder(tmp_path, "linux", wild)
    f = _judge("f", steps)
    assert f.verdict == page.NOT_REPRODUCED
    assert f.why.startswith(
        "significant against the claim: RED at 50 flows (17): time average >= max_th %"
    )
    j = _judge("j", steps)
    assert j.verdict == page.NOT_REPRODUCED
    # no oscillation of gentle RED's below RED's: as the same within noise
    assert _judge("g", steps).verdict == page.INCONCLUSIVE


# --- the page -------------------------------------------------------------------------------


def test_the_page_on_no_folder_computes_equation_2_and_attempts_nothing(tmp_path: Path) -> None:
    text = page_text(tmp_path / "queuelaw.md", "queuelaw")
    assert text.startswith(f"# Reproduction: {ql.SHORT_TITLE}\n")
    assert "Nothing was run yet: no results folder was given." in text
    for c in ql.CLAIMS:
        assert f"| ({c.key}) {c.statement} | {c.where} | - | not attempted (no runs) |" in text
    claims = text[text.index("## Claims") :]
    assert claims.count("**not attempted**: no runs (of ") == len(ql.CLAIMS)
    for word in (page.REPRODUCED, page.IN_DIRECTION, page.NOT_REPRODUCED, page.INCONCLUSIVE):
        assert f"**{word}**:" not in claims
    # equation (2) at the paper's network and at ours, and its claims
    assert "| drop | 100 | 994.3 | 632.8 | 308.3 | 140.9 | 18.6 | 0.0 |" in text
    assert "| mark | 99 (300) | 1128.2 | 774.9 | 462.3 | 305.2 | 193.7 | 91.7 |" in text
    assert "| 146.7 flows | **not reproduced**: 147 flows, outside 150-250" in text
    assert "| 133.3 flows | **reproduced**: unstable above 133 flows" in text
    assert "216.5 flows (reproduced) |" in text and "196.8 flows (not reproduced) |" in text
    for s in ql.SETTINGS:
        assert f'"{s.quote}"' in text
    assert "> The fixed-probability router. Linux's netem" in text
    assert "| Fig. 4, the drop curves | `p0.01` | `netem limit 100000 loss random 1%` / " in text
    assert "make reproduce PAPER=queuelaw" in text and "about 15 h 12 min" in text
    assert "nan" not in text


def test_the_page_with_runs_prints_ours_and_the_verdicts(tmp_path: Path) -> None:
    dirs = [
        _fixed_folder(tmp_path, ql.DROP, "paper", ON_THE_LAW(ql.DROP)),
        _fixed_folder(tmp_path, ql.MARK, "paper", ON_THE_LAW(ql.MARK)),
        _steps_folder(tmp_path, "paper", _paper_like),
        tmp_path / "repro-queuelaw-drop-linux",
    ]
    text = page_text(tmp_path / "queuelaw.md", "queuelaw", *dirs)
    assert "nan" not in text
    assert f"- `{dirs[3]}`: no such folder (not run yet)." in text
    assert "reporting seeds run: 101, 102, 103 of 101, 102, 103, 104, 105; 45 of 75 runs" in text
    # the drop queue beside equation (2), 33 flows at 0.01: 328.1, a percent
    # apart by seed (± 4.303 x 3.281 / sqrt 3)
    assert "| 33 | 328.1 ± 8.2 (328.1) | 208.8 ± 5.2 (208.8) |" in text
    assert "| RED | 6.0 ± 0.2 | 6.0 ± 0.2 | 6.0 ± 0.2 | 30.0 ± 0.2 |" in text
    assert "| (a) Equation (2) predicts the average queue very well for marking | " in text
    assert "| `paper` | reproduced |" in text
    assert "Ours, end hosts `paper` (`repro-queuelaw-steps-paper`):" in text
    # no verdict of the linux hosts, which ran nothing
    assert "| `linux` |" not in text


def test_every_marker_quotes_a_header() -> None:
    assert unquoted_markers("queuelaw", qp.MARKERS) == []


def test_the_checks_name_configurations_the_files_run() -> None:
    assert [c.key for c in qp.CLAIMS] == [c.key for c in ql.CLAIMS]
    exps = {qp.part_of(f.stem): load(f.read_text()) for f in plan.paper_files("queuelaw")}
    assert qp.FLOWS == (33, 66, 99)
    assert ql.our_steps() == qp.STEPS
    for claim, spec in zip(qp.CLAIMS, ql.CLAIMS, strict=True):
        checks = claim.checks("")
        assert checks and all(isinstance(c, qp.Combo) for c in checks)
        for c in checks:
            assert isinstance(c, qp.Combo)
            for t in c.terms:
                assert t.part in spec.parts and t.figure in qp.FIGS, (claim.key, t)
                exp = exps[t.part]
                assert t.config in {q.name for q in exp.qdiscs}, (claim.key, t)
                assert t.load in exp.loads and t.ecn == exp.ecn[0]
    # the probabilities and the flows the page names are the files'
    for part, probs in qp.PROBS.items():
        exp = exps[part]
        assert [q.name for q in exp.qdiscs] == [qp.config(p) for p in probs]
        assert {exp.long_flows_at(ld): ld for ld in exp.loads} == qp.LOAD_OF


def test_module_entry_writes_the_page_and_the_plan_prints(tmp_path: Path) -> None:
    dry = page_and_plan("queuelaw", tmp_path)
    assert dry.startswith("reproduce queuelaw: 6 experiment files, about 15 h 12 min")
    assert "loads 100% (long flows in steps: 17 at 0 s, 33 at 50 s" in dry
    assert "repro-queuelaw-steps-linux.toml --keep --seed 105 (about 16 min)" in dry
