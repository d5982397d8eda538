"""The RED-family paper's reproduction page (issue 33, item 5): equation
(2), the queue law, computed beside our runs at fixed drop and mark
probabilities, RED, gentle RED and Adaptive RED as the flows step up, and
the paper's claims with verdicts, from the results folders that `make
reproduce PAPER=queuelaw` fills (scripts/reproduce.sh calls
aqmtools.repro.page, whose PAGES holds this page; the generic parts are
page.py's: read_folder, Check, Outcome, verdict, Claim, judge_by and the
sections' common pieces, and parts.py's, those of every paper of parts).

The paper's settings, claims and equation are aqmtools.repro.queuelaw's;
the experiment files' headers say how each setting is scaled. The six
files are three parts (PARTS: the drop curves, the mark curves, the
steps) times two end-host profiles (`paper`, `linux`); each claim is
judged once for each profile with runs.

How a verdict is decided (printed on the page too: rules_section):
  A comparison is a sum of figures of one or more cells (configuration,
  number of flows, part), each with a coefficient, paired by seed ("the
  mark queue minus the drop queue at 0.1, minus the same at 0.01"),
  against a bound (0, or a level such as three quarters of equation
  (2)'s queue): the mean over the common reporting seeds and its 95%
  interval (Student t), claimed below or above the bound. It holds when
  the interval lies on the claimed side, fails when it lies on the other,
  and is within noise otherwise (or with one seed). Verdicts over a
  claim's comparisons are page.verdict's.
  Equation (2)'s claims need no run: they are computed (queuelaw.calculate)
  with the window model's b = 1, and b = 2 printed beside.

Usage: python3 -m aqmtools.repro.page queuelaw OUT.md DIR...
"""

from __future__ import annotations

import math
import statistics
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from functools import partial
from pathlib import Path
from typing import Any

from aqmtools.bench.experiment import PKT_BYTES
from aqmtools.bench.intervals import mean_ci, paired
from aqmtools.bench.report import seed_of
from aqmtools.bench.stats import Run
from aqmtools.repro import page, parts, plan
from aqmtools.repro import queuelaw as ql
from aqmtools.repro.page import Check, Figure, Folder, Judgement, Outcome
from aqmtools.repro.paper import Calculation

PAPER = "queuelaw"
HOSTS = ("paper", "linux")
PARTS = ql.PARTS
PART_NAMES = {
    ql.DROP: "Fig. 4, the drop curves",
    ql.MARK: "Fig. 4, the mark curves",
    ql.STEPS: "Figures 11-13, the steps",
}
MARKERS = (
    "What the paper ran (",
    "The fixed-probability router.",
    "The rate.",
    "How the paper's settings scale.",
    'End hosts: hosts = "paper"',
    "What differs",
    "The question here",
)

# the fixed probabilities of each part, and our flows with the load that
# starts them (long_flows_by_load: the share of 99)
PROBS = {ql.DROP: (0.01, 0.02, 0.05, 0.1, 0.2), ql.MARK: (0.01, 0.02, 0.05, 0.1, 0.2, 0.5)}
FLOWS = tuple(ql.our_flows(n) for n in ql.FIG4_FLOWS)
LOAD_OF = dict(zip(FLOWS, (0.3333, 0.6667, 1.0), strict=True))
PAPER_FLOWS = dict(zip(FLOWS, ql.FIG4_FLOWS, strict=True))
FLOWS_AT = {ld: n for n, ld in LOAD_OF.items()}
# the probabilities up to which claim (a) judges the mark curve, and the
# low and the higher ones of claims (b), (d) and (e)
UP_TO = 0.1
LOW = 0.01
HIGHER = (0.05, 0.1)
# the steps: the paper's flows, ours, and each step's first seconds left
# out of its window
STEPS = ql.our_steps()
SETTLE_S = 10.0
STEP_CONFIGS = ("red", "gentle-red", "ared")
CONFIG_NAMES = {"red": "RED", "gentle-red": "gentle RED", "ared": "Adaptive RED"}
# "stable": the average at or above max_th less than this share (%) of a step
STABLE_PCT = 1.0
# "within a quarter" of equation (2)
MARGIN = 0.25


def config(p: float) -> str:
    """The configuration of a fixed probability P ("p0.01")."""
    return f"p{p:g}"


def prob_of(name: str) -> float:
    """The fixed probability of a configuration ("p0.01": 0.01), nan for
    another name."""
    try:
        return float(name[1:]) if name.startswith("p") else math.nan
    except ValueError:
        return math.nan


# the folders, by end-host profile and part (parts.PartProfile)
part_of = parts.part_of
Profile = parts.PartProfile
profiles = partial(parts.part_profiles, PAPER, HOSTS, PART_NAMES)


# --- what a run measures ----------------------------------------------------------


def _windows(meta: dict[str, Any]) -> list[tuple[float, float]]:
    """The wall-clock windows [from, to) a run is measured over: the
    measured window (after the warm-up), or with long_steps each step's,
    from SETTLE_S after it starts to the next step (the run's end)."""
    t0 = float(meta.get("start_wall", 0.0))
    end = t0 + float(meta["duration_s"])
    steps = meta.get("long_steps")
    if not steps:
        return [(t0 + float(meta["warmup_s"]), end)]
    starts = [t0 + float(s) for s, _ in steps]
    return [(s + SETTLE_S, e) for s, e in zip(starts, [*starts[1:], end], strict=True)]


def _stats(recs: list[dict[str, Any]], rate_bps: float) -> dict[str, float]:
    """The figures of one window's aqmstat records (none without two), on
    a bottleneck of RATE_BPS."""
    if len(recs) < 2:
        return {}
    q = [float(x.get("qlen", 0)) for x in recs]
    out = {"q": statistics.fmean(q), "q_sd": statistics.pstdev(q)}
    first, last = recs[0], recs[-1]

    def grew(key: str) -> float:
        return float(last.get(key, 0)) - float(first.get(key, 0))

    drops, sent = grew("drops"), grew("packets")
    if sent + drops > 0:
        out["loss"] = 100 * drops / (sent + drops)
    if grew("wall") > 0:
        out["util"] = 100 * 8 * grew("bytes") / (rate_bps * grew("wall"))
    avg = [float(x["qavg"]) for x in recs if "qavg" in x]
    if len(avg) == len(recs):
        out |= {"avg": statistics.fmean(avg), "avg_sd": statistics.pstdev(avg)}
        max_th = float(recs[0].get("max_th", 0))
        if max_th > 0:
            out["avg_peak"] = max(avg) / max_th
            out["above"] = 100 * sum(a >= max_th for a in avg) / len(avg)
    p = [float(x["max_p"]) for x in recs if "max_p" in x]
    if p:
        out["max_p"] = statistics.fmean(p)
    return out


def summarize(r: Run) -> dict[str, float]:
    """What the page keeps of a run's aqmstat records of the downstream
    bottleneck (page.read_folder's SUMMARY): _stats of each window, keyed
    "NAME@K" for the K-th (0 for the measured window of a run without
    steps)."""
    out: dict[str, float] = {}
    for k, (lo, hi) in enumerate(_windows(r.meta)):
        recs = [x for x in r.samples if lo <= float(x.get("wall", -1.0)) < hi]
        stats = _stats(recs, float(r.meta["rate_bps"]))
        out |= {f"{name}@{k}": v for name, v in stats.items()}
    return out


def network_of(r: Run) -> ql.Network:
    """Our network in a run, for equation (2): SR in full-sized frames a
    second of its bottleneck's rate, RTLD its clients' mean RTT."""
    rtts = r.meta.get("client_rtts_ms") or [1000 * ql.PAPER_RTLD_S]
    return ql.Network(
        "ours", float(r.meta["rate_bps"]) / 8 / PKT_BYTES, statistics.fmean(rtts) / 1000
    )


def equation_of(r: Run) -> float:
    """Equation (2)'s average queue at a fixed-probability run's own flows,
    probability, ECN and network (nan for another run)."""
    p = prob_of(str(r.meta["qdisc"]))
    if math.isnan(p):
        return math.nan
    n = float(r.meta.get("long_flows", 0))
    return ql.queue(n, *ql.notified(p, bool(r.meta["ecn"])), network_of(r))


def error_pct(r: Run) -> float:
    """Our average queue's distance from equation (2)'s, a percent of it
    (nan where the equation gives no queue)."""
    eq = equation_of(r)
    return 100 * abs(page.summary_of(r, "q@0") - eq) / eq if eq > 0 else math.nan


def notification_pct(r: Run) -> float:
    """The share of packets netem notified, %: of a drop run, its drops over
    its arrivals (sent + dropped). netem counts a mark as a drop and sends
    the marked packet, so in a mark run (ECN) its drops over its arrivals
    read p / (1 + p) (16.7% at 0.2); there it is its drops (marks, and the
    few packets that are not ECN-capable, dropped) over the packets it sent,
    high by at most those few."""
    link = r.link
    if not r.meta.get("ecn"):
        return page.FIGURES["loss %"].of(r)
    return 100 * link.drops / link.sent_packets if link.sent_packets else math.nan


# the step figures: (summary key, format, unit as a difference)
STEP_METRICS: dict[str, tuple[str, str, str]] = {
    "queue s.d.": ("q_sd", ".1f", "packets"),
    "queue mean": ("q", ".1f", "packets"),
    "average queue mean": ("avg", ".1f", "packets"),
    "average queue s.d.": ("avg_sd", ".1f", "packets"),
    "peak average / max_th": ("avg_peak", ".2f", ""),
    "time average >= max_th %": ("above", ".1f", "points"),
    "loss %": ("loss", ".2f", "points"),
    "utilization %": ("util", ".1f", "points"),
    "max_p": ("max_p", ".3f", ""),
}


def step_figure(metric: str, k: int) -> str:
    """The name of METRIC over the K-th step."""
    return f"{metric}@{k}"


FIGS: dict[str, Figure] = {
    "average queue": Figure(lambda r: page.summary_of(r, "q@0"), ".1f", "packets"),
    "error %": Figure(error_pct, ".1f", "points"),
    "notification %": Figure(notification_pct, ".2f", "points"),
    "utilization %": Figure(page.utilization, ".1f", "points"),
}
FIGS |= {
    step_figure(m, k): Figure(partial(page.summary_of, key=f"{s}@{k}"), f, u)
    for m, (s, f, u) in STEP_METRICS.items()
    for k in range(len(STEPS))
}


def cell_text(runs: list[Run], figure: str) -> str:
    return mean_ci([FIGS[figure].of(r) for r in runs]).fmt(FIGS[figure].spec) if runs else "-"


# --- comparisons --------------------------------------------------------------------


@dataclass(frozen=True)
class Term:
    """COEF times FIGURE of the runs of CONFIG at LOAD in PART (with ECN in
    the mark part)."""

    part: str
    config: str
    load: float
    figure: str
    coef: float = 1.0

    @property
    def ecn(self) -> bool:
        return self.part == ql.MARK


@dataclass(frozen=True)
class Combo(Check):
    """A comparison of this page: the sum of TERMS, paired by seed, claimed
    below (SIGN -1) or above (+1) BOUND; WHAT names it on the page.
    page.Check's keys (A and B) hold its first term's cell."""

    terms: tuple[Term, ...] = ()
    bound: float = 0.0
    what: str = ""

    def text(self) -> str:
        return self.what

    def fig(self) -> Figure:
        return FIGS[self.figure]

    def claimed(self, o: Outcome) -> str:
        side = "below" if self.sign < 0 else "above"
        return f"claimed {side} {self.bound:g}{' or equal' if self.tolerant else ''}"

    def paper_note(self) -> str:
        return ""


def combo(
    what: str,
    terms: Sequence[Term],
    sign: int,
    bound: float = 0.0,
    tolerant: bool = False,
) -> Combo:
    key = (terms[0].config, terms[0].load, terms[0].ecn)
    return Combo(key, key, terms[0].figure, sign, tolerant, True, tuple(terms), bound, what)


def fixed(part: str, p: float, n: int, figure: str = "average queue", coef: float = 1.0) -> Term:
    """A term of the fixed-probability PART: P with N flows."""
    return Term(part, config(p), LOAD_OF[n], figure, coef)


def stepped(q: str, k: int, metric: str, coef: float = 1.0) -> Term:
    """A term of the steps: CONFIG Q's METRIC over the K-th step."""
    return Term(ql.STEPS, q, 1.0, step_figure(metric, k), coef)


def _missing(prof: Profile, t: Term) -> str:
    f = prof.folders.get(t.part)
    if f is None:
        return prof.missing(t.part)
    where = "" if t.part == ql.STEPS else f" with {FLOWS_AT[t.load]} flows"
    return f"no run of {t.config}{where} in `{f.name}`"


def evaluate(prof: Profile, c: Check) -> Outcome:
    """C on a host profile's runs: each term in its folder of its part."""
    assert isinstance(c, Combo)
    values: list[dict[int, float]] = []
    missing: list[str] = []
    runs: list[Run] = []
    for t in c.terms:
        f = prof.folders.get(t.part)
        cell = page.cell(f.results, t.config, t.load, t.ecn) if f is not None else []
        if not cell:
            missing.append(_missing(prof, t))
            continue
        runs += cell
        values.append({seed_of(r): t.coef * FIGS[t.figure].of(r) for r in cell})
    if missing:
        return Outcome(c, None, tuple(dict.fromkeys(missing)), ())
    seeds = set.intersection(*(set(v) for v in values))
    total = {s: sum(v[s] for v in values) for s in seeds}
    p = paired(dict.fromkeys(total, c.bound), total)
    if not p.diff.n:
        return Outcome(c, p, (f"no seed with a {c.figure} of every term",), ())
    bad = sorted({x for r in runs if seed_of(r) in p.seeds for x in r.problems})
    notes = (f"includes runs marked invalid ({', '.join(bad)})",) if bad else ()
    return Outcome(c, p, (), notes, mean_ci([c.bound] * p.diff.n))


# --- the claims ------------------------------------------------------------------------

OURS = ql.OURS
VARIANTS = ("",)


def _eq(part: str, p: float, n: int) -> float:
    return ql.queue(n, *ql.notified(p, part == ql.MARK), OURS)


def _mode(part: str) -> str:
    return "mark" if part == ql.MARK else "drop"


def _near(part: str, p: float, n: int, eq: float, what: str, value: Sequence[Term]) -> list[Check]:
    """VALUE (a difference of queues, packets) within MARGIN of EQ, two
    checks: above -MARGIN EQ and below +MARGIN EQ."""
    return [
        combo(f"{what}, minus {sign * MARGIN * eq:+.1f}", value, -sign, sign * MARGIN * eq)
        for sign in (-1, +1)
    ]


def claim_a(v: str) -> list[Check]:
    out: list[Check] = []
    for n in FLOWS:
        for p in (x for x in PROBS[ql.MARK] if x <= UP_TO):
            eq = _eq(ql.MARK, p, n)
            for share, sign in ((1 - MARGIN, +1), (1 + MARGIN, -1)):
                what = (
                    f"mark {p:g}, {n} flows: the average queue, minus {share:g} x equation "
                    f"(2)'s {eq:.1f}"
                )
                out.append(combo(what, [fixed(ql.MARK, p, n)], sign, round(share * eq, 1)))
    return out


def claim_b(v: str) -> list[Check]:
    out: list[Check] = []
    for n in FLOWS:
        terms = [fixed(ql.DROP, 0.1, n, "error %"), fixed(ql.DROP, LOW, n, "error %", -1)]
        out.append(combo(f"error %, drop, {n} flows: at 0.1 minus at {LOW:g}", terms, +1))
        for p in HIGHER:
            terms = [fixed(ql.DROP, p, n, "error %"), fixed(ql.MARK, p, n, "error %", -1)]
            out.append(combo(f"error %, {p:g}, {n} flows: drop minus mark", terms, +1))
    return out


def claim_c(v: str) -> list[Check]:
    out: list[Check] = []
    a, b, c = FLOWS
    for p in (0.01, 0.02, 0.05):
        for lo, hi in ((a, b), (b, c)):
            terms = [fixed(ql.DROP, p, hi), fixed(ql.DROP, p, lo, coef=-1)]
            out.append(combo(f"drop {p:g}: the average queue at {hi} minus {lo} flows", terms, +1))
        step = _eq(ql.DROP, p, b) - _eq(ql.DROP, p, a)
        bend = [fixed(ql.DROP, p, c), fixed(ql.DROP, p, b, coef=-2), fixed(ql.DROP, p, a)]
        what = f"drop {p:g}: the rise from {b} to {c} flows minus from {a} to {b}"
        out += _near(ql.DROP, p, b, step, what, bend)
    return out


def claim_d(v: str) -> list[Check]:
    out: list[Check] = []
    for n in FLOWS:
        terms = [fixed(ql.MARK, LOW, n), fixed(ql.DROP, LOW, n, coef=-1)]
        what = f"{LOW:g}, {n} flows: the mark queue minus the drop queue"
        out += _near(ql.DROP, LOW, n, _eq(ql.DROP, LOW, n), what, terms)
    return out


def claim_e(v: str) -> list[Check]:
    out: list[Check] = []
    for n in FLOWS:
        for p in HIGHER:
            terms = [fixed(ql.MARK, p, n), fixed(ql.DROP, p, n, coef=-1)]
            terms += [fixed(ql.MARK, LOW, n, coef=-1), fixed(ql.DROP, LOW, n)]
            what = f"{n} flows: the mark queue minus the drop queue at {p:g}, minus at {LOW:g}"
            out.append(combo(what, terms, +1))
    return out


def _at(k: int) -> str:
    """The K-th step as the page names it: the paper's flows and ours."""
    return f"{ql.STEP_FLOWS[k]} flows ({STEPS[k][1]})"


def _stable(q: str, k: int) -> Check:
    what = f"{CONFIG_NAMES[q]} at {_at(k)}: time average >= max_th %, minus {STABLE_PCT:g}"
    return combo(what, [stepped(q, k, "time average >= max_th %")], -1, STABLE_PCT)


def _sd_rise(q: str, k: int, base: int) -> Check:
    terms = [stepped(q, k, "queue s.d."), stepped(q, base, "queue s.d.", -1)]
    what = f"{CONFIG_NAMES[q]}: queue s.d. at {_at(k)} minus at {_at(base)}"
    return combo(what, terms, +1)


def _versus(q: str, k: int, metric: str, sign: int, tolerant: bool = False) -> Check:
    terms = [stepped(q, k, metric), stepped("red", k, metric, -1)]
    what = f"{metric} at {_at(k)}: {CONFIG_NAMES[q]} minus RED"
    return combo(what, terms, sign, tolerant=tolerant)


def claim_f(v: str) -> list[Check]:
    out = [_stable("red", k) for k in range(3)]
    what = f"RED at {_at(3)}: peak average / max_th, minus 1"
    out.append(combo(what, [stepped("red", 3, "peak average / max_th")], +1, 1.0))
    out += [_sd_rise("red", k, 2) for k in (3, 4, 5)]
    return [*out, _sd_rise("red", 5, 3)]


def claim_g(v: str) -> list[Check]:
    return [_versus("gentle-red", 3, m, -1) for m in ("queue s.d.", "average queue s.d.")]


def claim_h(v: str) -> list[Check]:
    return [_versus("gentle-red", k, "queue s.d.", +1, tolerant=True) for k in (4, 5)]


def claim_i(v: str) -> list[Check]:
    return [_versus("gentle-red", k, "loss %", -1) for k in (4, 5)]


def claim_j(v: str) -> list[Check]:
    out = [_stable("ared", k) for k in range(len(STEPS))]
    return out + [_versus("ared", k, "queue s.d.", -1) for k in (3, 4, 5)]


_FUNCS = (claim_a, claim_b, claim_c, claim_d, claim_e, claim_f, claim_g, claim_h, claim_i, claim_j)
# claim_X tests the claim lettered X
CHECKS: dict[str, Callable[[str], list[Check]]] = {f.__name__[-1]: f for f in _FUNCS}
CLAIMS: tuple[page.Claim[str], ...] = tuple(
    page.Claim(c.key, c.statement, CHECKS[c.key]) for c in ql.CLAIMS
)


def judge(claim: page.Claim[str], prof: Profile) -> list[Judgement[str]]:
    """CLAIM on a host profile's runs."""
    return page.judge_by(claim, VARIANTS, lambda c: evaluate(prof, c))


# --- equation (2), computed --------------------------------------------------------------


@dataclass(frozen=True)
class Computed:
    """A calculation's result with the window model's b = 1 (OURS, its
    VERDICT and WHY) and with b = 2 beside it (OTHER)."""

    calc: Calculation
    ours: str
    verdict: str
    why: str
    other: str


WORDS = {True: page.REPRODUCED, None: page.IN_DIRECTION, False: page.NOT_REPRODUCED}


def computed() -> list[Computed]:
    """Every calculation of queuelaw.CALCULATIONS, computed and judged with
    b = 1; b = 2's result and verdict printed beside."""
    out = []
    for c in ql.CALCULATIONS:
        r, o = ql.calculate(c, ql.B), ql.calculate(c, ql.OTHER_B)
        other = f"{o.ours} ({WORDS[o.holds]})"
        out.append(Computed(c, r.ours, WORDS[r.holds], r.why, other))
    return out


def curve_table(net: ql.Network, flows: Sequence[int], label: Callable[[int], str]) -> list[str]:
    """Equation (2)'s average queue (packets) on NET at every probability
    of the runs, dropping and marking, for FLOWS (b = 1)."""
    probs = PROBS[ql.MARK]
    lines = [
        "| notification | flows | " + " | ".join(f"{p:g}" for p in probs) + " |",
        "|---|---|" + "---:|" * len(probs),
    ]
    for part in (ql.DROP, ql.MARK):
        for n in flows:
            cells = [f"{ql.queue(n, *ql.notified(p, part == ql.MARK), net):.1f}" for p in probs]
            lines.append(f"| {_mode(part)} | {label(n)} | " + " | ".join(cells) + " |")
    return [*lines, ""]


def computed_section() -> list[str]:
    p = ql.PAPER
    lines = [
        "## Equation (2), computed",
        "",
        "Equation (2) (section II), the general queue law: q = N x avg_tcp_wind(p_d + p_m) / "
        "(p_d + 1) - RTLD x SR, the average queue q in packets of N long-lived flows when the "
        "router drops with probability p_d and marks with p_m, on a link of SR packets a "
        "second with a round-trip link delay RTLD (`queuelaw.queue_law`). The text takes "
        "avg_tcp_wind from its reference [10] without giving the formula; ours is [10]'s "
        "model without timeouts, ((1 - p) / p + E[W]) / (b E[W] / 2 + 1) with E[W] = (2 + b) / "
        "(3b) + sqrt(8 (1 - p) / (3 b p) + ((2 + b) / (3b))^2) (`queuelaw.window`), with b = "
        f"{ql.B} (one ACK a packet: ns's default sink; Linux's Reno grows a segment a round "
        f"trip whatever its delayed ACKs), and b = {ql.OTHER_B} as the other reading. Where "
        "the formula is below 0 the flows cannot fill the link and no queue forms: 0 is "
        "printed.",
        "",
        f"The curve at the paper's network ({ql.PAPER_RATE_MBPS} Mb/s of {ql.PAPER_PKT_BYTES}-"
        f"byte packets, SR = {p.sr_pps:g} packets/s, RTLD = {1000 * p.rtld_s:g} ms, RTLD x SR "
        f"= {p.pipe:g} packets), Figure 4's flows, b = {ql.B}:",
        "",
        *curve_table(p, ql.FIG4_FLOWS, str),
        f"At ours ({ql.OUR_RATE_MBPS} Mbit/s of {PKT_BYTES}-byte frames, SR = "
        f"{OURS.sr_pps:.1f} packets/s, RTLD x SR = {OURS.pipe:.1f} packets), our flows (the "
        "paper's in brackets); the runs are judged against these:",
        "",
        *curve_table(OURS, FLOWS, lambda n: f"{n} ({PAPER_FLOWS[n]})"),
        "The claims of the text that rest on the equation alone (`queuelaw.CALCULATIONS`), "
        f"judged with b = {ql.B}; b = {ql.OTHER_B}'s result and verdict beside:",
        "",
        f"| claim | section | the paper's words | printed | b = {ql.B} | verdict | "
        f"b = {ql.OTHER_B} |",
        "|---|---|---|---|---|---|---|",
    ]
    for r in computed():
        c = r.calc
        lines.append(
            f'| ({c.key}) {c.statement} | {c.section} | "{c.quote}" | {c.value} | {r.ours} '
            f"| **{r.verdict}**: {r.why} | {r.other} |"
        )
    drop, mark = (ql.red_stable_flows(ql.MAX_P, ql.MAX_TH, m, ql.PAPER) for m in (False, True))
    lines += [
        "",
        f"E2 and E3 cannot both hold by equation (2) with any window model of p alone: RED's "
        f"limit is p_d + 1 = {1 + ql.MAX_P:g} times RED-ECN's ({drop:.0f} and {mark:.0f} "
        f"flows with b = {ql.B}). The paper's Figure 10 (lost) may have drawn its simulated "
        "curves, which for dropping lie below the equation's (section II). Section III says "
        "the simulated queue rises with the RTLD (Figure 5, middle, not run here); equation "
        "(2)'s falls with it (E1).",
        "",
    ]
    return lines


# --- the page: header, the text, the set-up ----------------------------------------


def header(folders: list[Folder]) -> list[str]:
    return parts.parts_header(PAPER, "queuelaw_page.py", ql, "item 5", folders, PART_NAMES)


def text_section() -> list[str]:
    return page.lost_section(
        "The store's text keeps equation (2) and every caption, but no point of any curve: "
        "of Figures 4-18 only what the text says of them survives. Named or implied by the "
        "text, and not in it (`queuelaw.LOST`):",
        ql.LOST,
    )


def setup_section(folders: list[Folder]) -> list[str]:
    intro = (
        f"The paper's settings as its text gives them (`queuelaw.SETTINGS`): its link is "
        f"{ql.PAPER_RATE_MBPS} Mb/s, ours {ql.OUR_RATE_MBPS} Mbit/s, with the flows scaled so "
        f"that each keeps the paper's packets a second ({ql.FLOW_SCALE:.3f} of them: "
        f"{', '.join(map(str, FLOWS))} for {', '.join(map(str, ql.FIG4_FLOWS))}; the steps "
        f"{', '.join(str(n) for _, n in STEPS)} for {', '.join(map(str, ql.STEP_FLOWS))})."
    )
    lines = [
        *page.setup_opening(PAPER, intro, ql.SETTINGS, folders, MARKERS),
        "Our configurations (the words of the runs, at 10 Mbit/s; the upstream bottleneck's "
        "after the slash where it has its own):",
        "",
        "| part | configuration | tc's words |",
        "|---|---|---|",
    ]
    return [*lines, *parts.config_rows(PAPER, HOSTS[0], PART_NAMES), ""]


def regenerate_section() -> list[str]:
    runs = (
        f"at {plan.RUN_S} s a run of 60 s and its extra seconds a longer run "
        f"({plan.RUN_S + 60} s a run of 120 s, {plan.RUN_S + 240} s a run of 300 s)"
    )
    return parts.regenerate_parts(PAPER, runs)


def rules_section() -> list[str]:
    return [
        "## How the runs are measured and verdicts decided",
        "",
        "What a run measures (aqmstat samples the downstream bottleneck's qdisc every 10 ms):",
        "",
        "- **average queue**: the mean of the instantaneous queue (packets) over the measured "
        "window, the last 60 s of 120 (the paper's q);",
        "- **equation (2) at ours**: equation (2) with b = 1 at the run's own flows, "
        f"probability and network (SR = {OURS.sr_pps:.1f} packets/s, RTLD = 80 ms); "
        "**error %**: |average queue - equation (2)| over equation (2);",
        "- **notification %**: in the drop runs, netem's drops over the packets that reached "
        "it; in the mark runs, netem's drops (it counts a mark as a drop) over the packets it "
        "sent (a marked packet is sent too), which the few packets it dropped (those not "
        "ECN-capable) make high by at most their share;",
        f"- in the step runs, each step's window runs from {SETTLE_S:g} s after it starts to "
        "the next step (the last, to the run's end): **queue s.d.**, the standard deviation "
        "of the instantaneous queue over it (the oscillation), **average queue** mean and "
        "s.d. (ared's own average), **time average >= max_th %**, the share of the samples "
        "with the average at or above ared's max_th, **peak average / max_th**, "
        "**loss %**, drops over arrivals at the qdisc, **utilization %**, of the link, and "
        "**max_p** (Adaptive RED's mean).",
        "",
        "Each claim that rests on runs is judged on the reporting seeds, once for each host "
        "profile with runs (`paper`, then `linux`). It rests on comparisons: a sum of figures "
        'of one or more cells, each with a coefficient ("the mark queue minus the drop queue '
        'at 0.1, minus the same at 0.01"), paired by seed (a seed starts the flows at the '
        "same offsets in every configuration of a part, and the parts run the same flows), "
        "against a bound (0, or a level): the mean over the common seeds ± the half width of "
        "its 95% interval (Student t), claimed below or above the bound. A comparison holds "
        "when its interval lies wholly on the claimed side, fails when it lies wholly on the "
        "other, and is within noise otherwise (or with one seed, no interval). Each is tested "
        "alone, with no correction for the number of comparisons.",
        "",
        *parts.VERDICT_RULES,
        'The levels the text gives in words are read as: "very well", "almost the same" '
        "and linear, within a quarter of equation (2)'s value (or step); a stable average "
        f"queue, at or above max_th less than {STABLE_PCT:g}% of the step; hitting the "
        'maximum threshold, a peak average at or above max_th; "not as clear", no '
        "significant benefit (gentle RED's queue s.d. not significantly below RED's). The "
        "paper's numbers are lost: none is judged against ours.",
        "",
    ]


# --- the page: the figures -----------------------------------------------------------------


def _seeds(f: Folder, runs: list[Run]) -> str:
    return page.seeds_cell(runs, f.wanted)


def _fixed_block(part: str, f: Folder) -> list[str]:
    """The fixed-probability runs of PART: the average queue beside
    equation (2) at ours, the notification rate and the utilization."""
    probs = PROBS[part]
    head = "| flows | " + " | ".join(f"{p:g}" for p in probs) + " | seeds |"
    rule = "|---|" + "---:|" * len(probs) + "---|"
    lines = [
        f"The average queue, packets ({_mode(part)}), with equation (2) at ours in brackets:",
        "",
        head,
        rule,
    ]
    for n in FLOWS:
        runs = [page.cell(f.results, config(p), LOAD_OF[n], part == ql.MARK) for p in probs]
        cells = [
            f"{cell_text(rs, 'average queue')} ({_eq(part, p, n):.1f})"
            for rs, p in zip(runs, probs, strict=True)
        ]
        lines.append(
            f"| {n} | " + " | ".join(cells) + f" | {_seeds(f, [r for rs in runs for r in rs])} |"
        )
    for figure in ("notification %", "utilization %"):
        lines += ["", f"The {figure.split()[0]}, % ({_mode(part)}):", "", head, rule]
        for n in FLOWS:
            runs = [page.cell(f.results, config(p), LOAD_OF[n], part == ql.MARK) for p in probs]
            cells = [cell_text(rs, figure) for rs in runs]
            lines.append(
                f"| {n} | "
                + " | ".join(cells)
                + f" | {_seeds(f, [r for rs in runs for r in rs])} |"
            )
    return [*lines, ""]


def _steps_block(f: Folder) -> list[str]:
    """The step runs: each metric of each configuration at each step."""
    lines: list[str] = []
    for metric in STEP_METRICS:
        configs = ("ared",) if metric == "max_p" else STEP_CONFIGS
        lines += [
            f"| {metric} | " + " | ".join(_at(k) for k in range(len(STEPS))) + " | seeds |",
            "|---|" + "---:|" * len(STEPS) + "---|",
        ]
        for q in configs:
            runs = page.cell(f.results, q, 1.0, False)
            cells = [cell_text(runs, step_figure(metric, k)) for k in range(len(STEPS))]
            lines.append(f"| {CONFIG_NAMES[q]} | " + " | ".join(cells) + f" | {_seeds(f, runs)} |")
        lines.append("")
    return lines


# the exhibits whose tables stand under them, by part; the others refer to them
BLOCKS: dict[str, tuple[str, ...]] = {"Fig. 4": (ql.DROP, ql.MARK), "Fig. 11": (ql.STEPS,)}
SEE: dict[str, str] = {
    "Fig. 5": "Fig. 4's drop tables (the rows are the numbers of flows); claim (c)",
    "Fig. 9": "Fig. 4's tables, drop beside mark; claims (d), (e)",
    "Fig. 10": "equation (2), computed above: E2-E4",
    "Fig. 12": "Fig. 11's tables (gentle RED); claims (g), (h)",
    "Fig. 13": "Fig. 11's tables (Adaptive RED); claim (j)",
    "Fig. 18": "Fig. 11's loss table; claim (i)",
}


def _block(part: str, f: Folder) -> list[str]:
    return _steps_block(f) if part == ql.STEPS else _fixed_block(part, f)


def exhibits_section(profs: list[Profile]) -> list[str]:
    lines = [
        "## The figures side by side",
        "",
        "Each of the paper's figures (`queuelaw.EXHIBITS`) with its caption as printed, what "
        "stands beside it here, and ours: means ± the half widths of 95% intervals over the "
        "reporting seeds. The paper's numbers: none survives (the store's text has no point "
        "of any curve); what the text says of each figure is in the claims below.",
        "",
    ]
    with_runs = [x for x in profs if x.has_runs]
    for e in ql.EXHIBITS:
        lines += parts.exhibit_heading(e)
        if e.name in SEE:
            lines += [f"Ours: see {SEE[e.name]}.", ""]
        if e.name in BLOCKS:
            lines += parts.ours_blocks(with_runs, BLOCKS[e.name], _block)
    return lines


# --- the page: the claims ---------------------------------------------------------------


def claims_section(profs: list[Profile], ignored: list[str]) -> list[str]:
    intro = (
        "The claims of sections II-V that the runs test (`queuelaw.CLAIMS`), each with where "
        "the paper makes it, its words, how it is tested, the comparisons "
        "(`aqmtools/repro/queuelaw_page.py`), and a verdict for each host profile with runs "
        "(see [How the runs are measured and verdicts decided]"
        "(#how-the-runs-are-measured-and-verdicts-decided)). Equation (2)'s are above, "
        "computed."
    )
    return parts.part_claims_section(
        intro, CLAIMS, ql.CLAIMS, profs, ignored, judge, lambda p: PART_NAMES[p]
    )


def queuelaw_page(dirs: list[Path]) -> str:
    """The RED-family paper's reproduction page from the results folders
    DIRS (none, or missing ones: what they would hold is not attempted)."""
    folders = [page.read_folder(d, summarize) for d in dirs]
    profs, ignored = profiles(folders)
    lines = header(folders) + text_section() + setup_section(folders)
    lines += regenerate_section() + rules_section() + computed_section()
    lines += exhibits_section(profs) + claims_section(profs, ignored)
    return "\n".join(lines).rstrip("\n") + "\n"
