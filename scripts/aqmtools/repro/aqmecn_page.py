"""The AQM/ECN paper's reproduction page (issue 33, item 2): its numbers
and the designs it names beside ours, and its claims with verdicts, from
the results folders that `make reproduce PAPER=aqmecn` fills
(scripts/reproduce.sh calls aqmtools.repro.page, whose PAGES holds this
page; the generic parts are page.py's: Folder, Profile, Check, Outcome,
evaluate, verdict, Claim, judge_by and the sections' common pieces).

The paper's own numbers, settings, figures, tables and claims are
aqmtools.repro.aqmecn's; the experiment files' headers say how each
setting is scaled. The four files are two end-host profiles (`paper`,
`linux`) times two RTT sets (uniform 10-150 ms, sections IV-V; wide fixed
classes standing in for section VI's measured distribution). Each claim is
judged once for each host profile with runs, and for each of the two sizes
at which the paper's targets stand here (VARIANTS: `-2.9ms`, `-29ms`).

How a verdict is decided (printed on the page too: rules_section):
  A comparison is B minus A of one figure of two cells (configuration,
  load, ECN) of one results folder, paired by seed: the mean difference
  over the common reporting seeds and its 95% interval (Student t). It
  claims the difference lies in a range (Comparison.rel):
    below / above   below 0 / above 0 (strict: one design better)
    equal           within +-EQUAL (10%) of A's mean
    not below       not below -EQUAL of A's mean ("no better"); for the
                    utilization, -SLIGHT (2%): "a very slight decrease"
    not above       not above +EQUAL of A's mean ("no worse")
  It holds ("for") when the whole interval lies inside the range, fails
  ("against") when the whole interval lies outside it, and is within noise
  otherwise (it crosses the range's edge, or one seed gives no interval).
  For below / above that is page.Check's rule: significant as claimed,
  significant against, within noise. Claim (p) compares two folders (the
  wide RTT classes' effect of AQM minus the uniform RTTs'): unpaired, with
  Welch's interval, claimed below 0.
  Verdicts over a claim's counted comparisons (page.verdict): reproduced,
  every one holds; in direction only, none fails, some within noise, every
  mean inside its range; inconclusive, none fails, some mean outside its
  range; not reproduced, some fails; not attempted, a folder,
  configuration, load or common seed missing (named). Comparisons printed
  as context ("reported, not counted": PI in packet mode where the text
  does not say the paper's PI's mode, 80% where the claim is about 90% and
  98%) do not count.

Usage: python3 -m aqmtools.repro.page aqmecn OUT.md DIR...
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass, replace
from functools import partial
from pathlib import Path

from aqmtools.bench.experiment import Experiment
from aqmtools.bench.intervals import Interval, Paired, mean_ci, paired, t_ppf
from aqmtools.bench.report import Results, rt_quantile, seed_of
from aqmtools.bench.stats import Run
from aqmtools.repro import aqmecn, page, plan
from aqmtools.repro.page import Check, Figure, Folder, Judgement, Key, Outcome, Slot

PAPER = "aqmecn"
# the RTT sets: the uniform RTTs of sections IV-V, and the wide classes that
# stand in for section VI's measured distribution
UNIFORM = aqmecn.UNIFORM
WIDE = aqmecn.MEASURED
RTT_NAMES = {UNIFORM: "uniform RTTs", WIDE: "wide RTT classes"}
HOSTS = ("paper", "linux")

# the parts of the experiment files' headers quoted on the page (page.quotes)
MARKERS = (
    "What the paper ran (",
    "The rate.",
    "How the paper's settings scale.",
    'End hosts: hosts = "paper", FreeBSD',
    "What differs",
    "The question here",
    "The RTTs:",
    "The configurations:",
)


def rtts_of(e: Experiment) -> str:
    """The RTT set of an experiment: fixed classes are the wide ones."""
    return WIDE if e.rtt_classes_ms else UNIFORM


# --- the folders, by end-host profile and RTT set (page.Slot, page.Profile) --


def slots() -> list[Slot]:
    """The paper's experiment files, in plan order, their part the RTT set."""
    out = []
    for p, e in page._expected(PAPER):
        if e is not None:
            out.append(Slot(e.hosts, rtts_of(e), e.name, p, e))
        else:
            hosts = "linux" if p.stem.endswith("-linux") else "paper"
            out.append(Slot(hosts, WIDE if "widertt" in p.stem else UNIFORM, p.stem, p, None))
    return out


def _folder_rtts(f: Folder, known: list[Slot]) -> str:
    if f.exp is not None:
        return rtts_of(f.exp)
    for s in known:
        if s.name == f.name:
            return s.part
    return WIDE if "widertt" in f.name else UNIFORM


class Profile(page.Profile):
    """The runs of one end-host profile, by RTT set."""

    def what(self, rtts: str) -> str:
        return RTT_NAMES[rtts]

    def unnamed(self, rtts: str) -> str:
        return f"({RTT_NAMES[rtts]}, end hosts {self.hosts})"

    def missing(self, rtts: str) -> str:
        return f"no runs of `{self.name(rtts)}` ({RTT_NAMES[rtts]}, end hosts `{self.hosts}`)"


def profiles(folders: list[Folder]) -> tuple[list[Profile], list[str]]:
    """The host profiles, the paper's first, each with its folders that
    hold runs; and the folders left out (a second folder of a profile and
    RTT set already filled, said so on the page)."""
    known = slots()
    return page.profiles(Profile, HOSTS, known, folders, lambda f: _folder_rtts(f, known))


# --- the figures ----------------------------------------------------------------


def _rt(q: float) -> Figure:
    """The response-time Q-quantile (ms), exchanges cut off counted at
    their elapsed time (a lower bound when one lies at or below it)."""
    return Figure(lambda r: rt_quantile(r.web, q)[0], ".0f", "ms", q)


COMPLETED = "completed, % of uncongested"
FIGS: dict[str, Figure] = {
    "RT p25": _rt(0.25),
    "RT p50": page.FIGURES["RT p50"],
    "RT p75": _rt(0.75),
    "RT p85": _rt(0.85),
    "RT p90": page.FIGURES["RT p90"],
    "RT p99": _rt(0.99),
    "loss %": page.FIGURES["loss %"],
    "utilization %": Figure(page.utilization, ".1f", "points"),
}
RT = ("RT p50", "RT p90")
TABLE_FIGS = ("loss %", "utilization %", COMPLETED)


def within(r: Run, seconds: float) -> tuple[float, bool]:
    """Percent of R's exchanges (completed and cut off) that completed
    within SECONDS, and whether that is a lower bound (an exchange cut off
    before SECONDS might have made it); nan without exchanges."""
    n = len(r.web.done) + len(r.web.cut)
    if not n:
        return math.nan, False
    done = sum(e.seconds <= seconds for e in r.web.done)
    return 100 * done / n, any(e.seconds < seconds for e in r.web.cut)


def cell_text(runs: list[Run], fig: Figure) -> str:
    """Mean ± 95% interval of FIG over RUNS, ">=" before a quantile that a
    cut-off exchange makes a lower bound in some run ("-" for none)."""
    text = mean_ci([fig.of(r) for r in runs]).fmt(fig.spec)
    q = fig.quantile
    if q is not None and text != "-" and any(rt_quantile(r.web, q)[1] for r in runs):
        text = ">= " + text
    return text


def completed_text(res: Results, runs: list[Run], ld: float) -> str:
    """Exchanges completed as a percent of the uncongested link's mean at
    the same load (as the DCN page's Table 1)."""
    unc = mean_ci([float(len(r.web.done)) for r in page.cell(res, UNCONGESTED, ld, False)])
    if not unc.n or unc.mean <= 0:
        return "- (no uncongested run)"
    return mean_ci([100 * len(r.web.done) / unc.mean for r in runs]).fmt(".1f")


# --- comparisons ------------------------------------------------------------------

# the ranges a comparison can claim for B minus A
LESS = "below"
MORE = "above"
SAME = "equal"
NOT_LESS = "not below"
NOT_MORE = "not above"
# the margins of "equal", "not below" and "not above", as fractions of A's
# mean: response times within 10% are alike; a utilization within 2% is "a
# very slight decrease" (section IV-D)
EQUAL = 0.10
SLIGHT = 0.02


def _level(x: Interval | None, f: Figure) -> str:
    if x is None or not x.n:
        return "-"
    return format(x.mean, f.spec) + ("%" if f.unit == "points" else f" {f.unit}")


@dataclass(frozen=True)
class Comparison(Check):
    """A comparison of the AQM/ECN page: B minus A of FIGURE in the folder
    of RTTS, claimed to lie in the range REL (with MARGIN, a fraction of
    A's mean over the common seeds, for equal / not below / not above).
    It holds when its whole 95% interval lies inside the range, fails when
    the whole interval lies outside it, and is within noise otherwise; for
    below / above 0 that is the DCN page's rule (page.Check)."""

    rel: str = LESS
    margin: float = 0.0
    rtts: str = UNIFORM

    holds = "hold (each interval inside its claimed range)"
    direction = "in its claimed range"
    fails = "failing (the interval wholly outside the claimed range)"

    def text(self) -> str:
        return ("" if self.counted else "(reported, not counted) ") + super().text()

    def fig(self) -> Figure:
        return FIGS[self.figure]

    def bound(self, o: Outcome) -> float:
        """The margin in the figure's unit (0 without A's mean)."""
        if o.ref is None or not o.ref.n or math.isnan(o.ref.mean):
            return 0.0
        return self.margin * abs(o.ref.mean)

    def band(self, o: Outcome) -> tuple[float, float]:
        """The open range the claim gives the difference."""
        m = self.bound(o)
        return {
            LESS: (-math.inf, 0.0),
            MORE: (0.0, math.inf),
            SAME: (-m, m),
            NOT_LESS: (-m, math.inf),
            NOT_MORE: (-math.inf, m),
        }[self.rel]

    def state(self, o: Outcome) -> str:
        assert o.pair is not None
        d = o.pair.diff
        if d.n < 2 or math.isnan(d.half):
            return "noise"
        lo, hi = self.band(o)
        if lo < d.lo and d.hi < hi:
            return "for"
        if d.hi < lo or d.lo > hi:
            return "against"
        return "noise"

    def in_direction(self, o: Outcome) -> bool:
        assert o.pair is not None
        lo, hi = self.band(o)
        return lo < o.pair.diff.mean < hi

    def claimed(self, o: Outcome) -> str:
        if self.rel in (LESS, MORE):
            return f"claimed {self.rel} 0"
        f = self.fig()
        m = format(self.bound(o), f.spec)
        bound = {SAME: f"within ±{m}", NOT_LESS: f"not below -{m}", NOT_MORE: f"not above +{m}"}
        a = f"{self.a[0]} ({page._ecn(self.a[2])})"
        return f"claimed {bound[self.rel]} {f.unit} ({self.margin:.0%} of {a}'s {_level(o.ref, f)})"

    def how(self, o: Outcome) -> str:
        if self.rel in (LESS, MORE):
            return super().how(o)
        assert o.pair is not None
        state = self.state(o)
        if state == "for":
            return "the whole interval inside that range, as claimed"
        if state == "against":
            return "the whole interval outside that range, AGAINST the claim"
        where = "one seed, no interval" if o.pair.diff.n < 2 else "the interval crosses its edge"
        return f"{where}, mean {'inside' if self.in_direction(o) else 'outside'} it"

    def paper_note(self) -> str:
        return ""


@dataclass(frozen=True)
class Across(Comparison):
    """Claim (p)'s comparison of two folders of one host profile: the
    effect of AQM with ECN at load A[1], A[0]'s FIGURE (drop-tail, no ECN)
    minus that of the best of CANDIDATES with ECN (the lowest mean in the
    folder), per seed; B minus A is the wide RTT classes' effect minus the
    uniform RTTs', unpaired (two testbeds), with Welch's interval."""

    candidates: tuple[str, ...] = ()

    def text(self) -> str:
        return (
            f"{self.figure} at {self.a[1]:.0%}: ({self.a[0]} minus the best AQM with ECN), "
            f"{RTT_NAMES[WIDE]} minus {RTT_NAMES[UNIFORM]}"
        )

    def seeds_text(self, o: Outcome) -> str:
        return "(unpaired, Welch's interval)"


def welch(a: list[float], b: list[float], level: float = 0.95) -> Interval:
    """mean(B) - mean(A) of two independent samples, with Welch's
    interval (half width nan with fewer than two values in either); N is
    the smaller sample's size."""
    na, nb = len(a), len(b)
    if not na or not nb:
        return Interval(math.nan, math.nan, 0)
    ma, mb = sum(a) / na, sum(b) / nb
    n = min(na, nb)
    if na < 2 or nb < 2:
        return Interval(mb - ma, math.nan, n)
    va = sum((x - ma) ** 2 for x in a) / (na - 1) / na
    vb = sum((x - mb) ** 2 for x in b) / (nb - 1) / nb
    se2 = va + vb
    if se2 == 0:
        return Interval(mb - ma, 0.0, n)
    df = se2**2 / (va**2 / (na - 1) + vb**2 / (nb - 1))
    return Interval(mb - ma, t_ppf(0.5 + level / 2.0, df) * math.sqrt(se2), n)


@dataclass(frozen=True)
class Effect:
    """Drop-tail's figure minus the best AQM's, per seed, in one folder."""

    best: str
    values: list[float]
    diff: Interval


def effect(f: Folder, c: Across) -> Effect | str:
    """C's effect in the runs of F, or why it cannot be had."""
    res, ld, fig = f.results, c.a[1], c.fig()
    ref = page.cell(res, c.a[0], ld, False)
    if not ref:
        return f"no run of {c.a[0]} (no ECN) at {ld:.0%} in `{f.name}`"
    means = {}
    for q in c.candidates:
        m = mean_ci([fig.of(r) for r in page.cell(res, q, ld, True)])
        if m.n:
            means[q] = m.mean
    if not means:
        return f"no run of {' or '.join(c.candidates)} (ECN) at {ld:.0%} in `{f.name}`"
    best = min(means, key=lambda q: means[q])
    # B minus A: drop-tail's figure minus the best's, per seed
    a = {seed_of(r): fig.of(r) for r in page.cell(res, best, ld, True)}
    b = {seed_of(r): fig.of(r) for r in ref}
    p = paired(a, b)
    if not p.diff.n:
        return f"no seed with a {c.figure} of both {c.a[0]} and {best} at {ld:.0%} in `{f.name}`"
    return Effect(best, [b[s] - a[s] for s in p.seeds], p.diff)


def across(prof: Profile, c: Across) -> Outcome:
    """Claim (p)'s comparison on a host profile's two folders."""
    effects: dict[str, Effect] = {}
    missing = []
    for rtts in (UNIFORM, WIDE):
        f = prof.folder(rtts)
        e = effect(f, c) if f is not None else prof.missing(rtts)
        if isinstance(e, str):
            missing.append(e)
        else:
            effects[rtts] = e
    if missing:
        return Outcome(c, None, tuple(missing), ())
    u, w = effects[UNIFORM], effects[WIDE]
    spec = c.fig().spec
    notes = tuple(
        f"{RTT_NAMES[k]}: {c.a[0]} minus {e.best} (ECN), the best, "
        f"{e.diff.fmt('+' + spec)} {c.fig().unit} ({e.diff.n} seeds)"
        for k, e in ((UNIFORM, u), (WIDE, w))
    )
    return Outcome(c, Paired(welch(u.values, w.values), []), (), notes)


def evaluate(prof: Profile, c: Check) -> Outcome:
    """C on a host profile's runs: in its folder of C's RTT set, missing
    when there is none."""
    rtts = c.rtts if isinstance(c, Comparison) else UNIFORM
    if isinstance(c, Across):
        return across(prof, c)
    f = prof.folder(rtts)
    if f is None:
        return Outcome(c, None, (prof.missing(rtts),), ())
    o = page.evaluate(f.results, c)
    if o.missing:
        return replace(o, missing=tuple(f"{m} in `{f.name}`" for m in o.missing))
    return o


# --- the claims -----------------------------------------------------------------

# a variant: the suffix of our configurations at one of the two sizes at
# which the paper's targets stand here (aqmecn.STANDS)
VARIANTS = ("2.9ms", "29ms")
DROPTAIL = aqmecn.configs_of(aqmecn.DROPTAIL, 240)[0]
UNCONGESTED = "uncongested"
LOADS = aqmecn.LOADS


def _c(
    a: Key,
    b: Key,
    figure: str,
    rel: str,
    margin: float = 0.0,
    rtts: str = UNIFORM,
    counted: bool = True,
) -> Comparison:
    sign = {LESS: -1, MORE: +1}.get(rel, 0)
    return Comparison(a, b, figure, sign, False, counted, rel, margin, rtts)


def claim_a(t: str) -> list[Check]:
    """At 90% and 98% without ECN, ARED byte-mode minus drop-tail 240,
    response-time median and 90th percentile: below 0."""
    return [
        _c((DROPTAIL, ld, False), (f"ared-bytes-{t}", ld, False), fig, LESS)
        for ld in LOADS
        for fig in RT
    ]


def claim_b(t: str) -> list[Check]:
    """At 90% and 98% without ECN, ARED byte-mode minus PI in packet mode,
    PI in byte mode and REM, at the same target, response-time median and
    90th percentile: below 0."""
    return [
        _c((f"{q}-{t}", ld, False), (f"ared-bytes-{t}", ld, False), fig, LESS)
        for ld in LOADS
        for q in ("pi", "pi-bytes", "rem-bytes")
        for fig in RT
    ]


def claim_c(t: str) -> list[Check]:
    """At 90% and 98%, ARED packet-mode without ECN and with ECN (the
    guidelines' forwarding) minus drop-tail 240 (which runs without),
    response-time median and 90th percentile: above 0."""
    return [
        _c((DROPTAIL, ld, False), (f"ared-{t}", ld, e), fig, MORE)
        for ld in LOADS
        for e in (False, True)
        for fig in RT
    ]


def claim_d(t: str) -> list[Check]:
    """At 90% and 98%, without and with ECN, ARED byte-mode minus ARED
    packet-mode at the same target and ECN, response-time median and 90th
    percentile: below 0."""
    return [
        _c((f"ared-{t}", ld, e), (f"ared-bytes-{t}", ld, e), fig, LESS)
        for ld in LOADS
        for e in (False, True)
        for fig in RT
    ]


def claim_e(t: str) -> list[Check]:
    """At 90% and 98%, PI in packet mode, PI in byte mode and REM: with
    ECN minus without, response-time 90th percentile: below 0."""
    return [
        _c((f"{q}-{t}", ld, False), (f"{q}-{t}", ld, True), "RT p90", LESS)
        for ld in LOADS
        for q in ("pi", "pi-bytes", "rem-bytes")
    ]


def claim_f(t: str) -> list[Check]:
    """At 98%, PI (byte mode) and REM with ECN minus ARED byte-mode
    without ECN and with ECN, at the same target, response-time 90th
    percentile: below 0. PI in packet mode reported."""
    return [
        _c((f"ared-bytes-{t}", 0.98, e), (f"{q}-{t}", 0.98, True), "RT p90", LESS, counted=n)
        for q, n in (("pi-bytes", True), ("rem-bytes", True), ("pi", False))
        for e in (False, True)
    ]


def claim_g(t: str) -> list[Check]:
    """At 90% and 98% without ECN, REM minus drop-tail 240, response-time
    median and 90th percentile: above 0. At 80% reported."""
    return [
        _c((DROPTAIL, ld, False), (f"rem-bytes-{t}", ld, False), fig, MORE, counted=ld != 0.8)
        for ld in (*LOADS, 0.8)
        for fig in RT
    ]


def claim_h(t: str) -> list[Check]:
    """At 90% and 98%: REM with ECN minus drop-tail 240, response-time
    90th percentile, below 0; REM with ECN minus PI (byte mode) with ECN,
    median and 90th percentile, equal (within 10% of PI's). PI in packet
    mode reported."""
    rem = f"rem-bytes-{t}"
    out: list[Check] = [_c((DROPTAIL, ld, False), (rem, ld, True), "RT p90", LESS) for ld in LOADS]
    return out + [
        _c((f"{q}-{t}", ld, True), (rem, ld, True), fig, SAME, EQUAL, counted=n)
        for q, n in (("pi-bytes", True), ("pi", False))
        for ld in LOADS
        for fig in RT
    ]


def claim_i(t: str) -> list[Check]:
    """At 90% and 98%, ARED packet-mode and byte-mode with ECN (the
    guidelines' forwarding) minus the same without, response-time median
    and 90th percentile: not below -10% of the one without ECN (no
    improvement beyond 10%)."""
    return [
        _c((f"{q}-{t}", ld, False), (f"{q}-{t}", ld, True), fig, NOT_LESS, EQUAL)
        for q in ("ared", "ared-bytes")
        for ld in LOADS
        for fig in RT
    ]


def claim_j(t: str) -> list[Check]:
    """At 90% and 98%, response-time 90th percentile of ARED packet-mode
    with ECN and the new gentle forwarding: minus ARED packet-mode with ECN
    and the guidelines' forwarding, below 0; minus ARED byte-mode without
    ECN, above 0."""
    new = f"ared-newgentle-{t}"
    return [
        c
        for ld in LOADS
        for c in (
            _c((f"ared-{t}", ld, True), (new, ld, True), "RT p90", LESS),
            _c((f"ared-bytes-{t}", ld, False), (new, ld, True), "RT p90", MORE),
        )
    ]


def claim_k(t: str) -> list[Check]:
    """At 90%, PI (byte mode) and REM with ECN minus the uncongested link,
    response-time median and 90th percentile: not above +10% of the
    uncongested link's. PI in packet mode, and drop-tail 240 beside them,
    reported."""
    return [
        _c((UNCONGESTED, 0.9, False), (q, 0.9, e), fig, NOT_MORE, EQUAL, counted=n)
        for q, e, n in (
            (f"pi-bytes-{t}", True, True),
            (f"rem-bytes-{t}", True, True),
            (f"pi-{t}", True, False),
            (DROPTAIL, False, False),
        )
        for fig in RT
    ]


# the quantiles of claim (l): "the shortest 85%" of the exchanges
SHORTEST_85 = ("RT p25", "RT p50", "RT p75", "RT p85")


def claim_l(t: str) -> list[Check]:
    """At 90%, ARED byte-mode without ECN minus PI (byte mode) and minus
    REM with ECN, the response-time 25th, 50th, 75th and 85th percentiles:
    equal (within 10% of PI's or REM's). PI in packet mode reported."""
    return [
        _c((f"{q}-{t}", 0.9, True), (f"ared-bytes-{t}", 0.9, False), fig, SAME, EQUAL, counted=n)
        for q, n in (("pi-bytes", True), ("rem-bytes", True), ("pi", False))
        for fig in SHORTEST_85
    ]


def claim_m(t: str) -> list[Check]:
    """At 80%, every AQM configuration at the target (PI in both modes,
    REM, ARED in both modes, without and with ECN, and ARED with the new
    gentle forwarding with ECN: its runs without repeat ARED's) minus
    drop-tail 240, response-time median and 90th percentile: not below
    -10% of drop-tail's. Drop-tail 240 minus the uncongested link reported
    (not above +10% of the uncongested link's)."""
    aqms = [
        (f"{q}-{t}", e)
        for q in ("pi", "pi-bytes", "rem-bytes", "ared", "ared-bytes")
        for e in (False, True)
    ]
    aqms += [(f"{q}-{t}", True) for q in ("ared-newgentle", "ared-bytes-newgentle")]
    out: list[Check] = [
        _c((DROPTAIL, 0.8, False), (q, 0.8, e), fig, NOT_LESS, EQUAL) for q, e in aqms for fig in RT
    ]
    return out + [
        _c((UNCONGESTED, 0.8, False), (DROPTAIL, 0.8, False), fig, NOT_MORE, EQUAL, counted=False)
        for fig in RT
    ]


def claim_n(t: str) -> list[Check]:
    """At 90% and 98% without ECN, PI (byte mode) and ARED byte-mode minus
    drop-tail 240: utilization not below -2% of drop-tail's, and loss below
    0. PI in packet mode reported."""
    return [
        c
        for q, n in (("pi-bytes", True), ("ared-bytes", True), ("pi", False))
        for ld in LOADS
        for c in (
            _c(
                (DROPTAIL, ld, False),
                (f"{q}-{t}", ld, False),
                "utilization %",
                NOT_LESS,
                SLIGHT,
                counted=n,
            ),
            _c((DROPTAIL, ld, False), (f"{q}-{t}", ld, False), "loss %", LESS, counted=n),
        )
    ]


def claim_o(t: str) -> list[Check]:
    """With the wide RTT classes: at 90% and 98% without ECN, every AQM
    (PI in both modes, REM, ARED in both modes: the runs without ECN of
    ared-*newgentle-*) minus drop-tail 240, response-time 90th percentile:
    not below -10% of drop-tail's. With ECN, PI (byte mode) and REM minus
    drop-tail 240: at 98% below 0, at 90% not below -10% of drop-tail's.
    PI in packet mode with ECN reported."""
    aqms = ("pi", "pi-bytes", "rem-bytes", "ared-newgentle", "ared-bytes-newgentle")
    out: list[Check] = [
        _c((DROPTAIL, ld, False), (f"{q}-{t}", ld, False), "RT p90", NOT_LESS, EQUAL, WIDE)
        for ld in LOADS
        for q in aqms
    ]
    for q, n in (("pi-bytes", True), ("rem-bytes", True), ("pi", False)):
        out += [
            _c((DROPTAIL, 0.98, False), (f"{q}-{t}", 0.98, True), "RT p90", LESS, 0, WIDE, n),
            _c((DROPTAIL, 0.9, False), (f"{q}-{t}", 0.9, True), "RT p90", NOT_LESS, EQUAL, WIDE, n),
        ]
    return out


def claim_p(t: str) -> list[Check]:
    """At 90% and 98%: drop-tail 240's response-time 90th percentile minus
    the best AQM's with ECN at the target (the lowest mean of PI in both
    modes, REM and ARED in both modes with the new gentle forwarding, the
    AQMs of both RTT sets), with the wide RTT classes minus with the
    uniform RTTs: below 0 (unpaired)."""
    cands = tuple(
        f"{q}-{t}"
        for q in ("pi", "pi-bytes", "rem-bytes", "ared-newgentle", "ared-bytes-newgentle")
    )
    return [
        Across(
            (DROPTAIL, ld, False),
            ("the best AQM", ld, True),
            "RT p90",
            -1,
            rel=LESS,
            rtts=WIDE,
            candidates=cands,
        )
        for ld in LOADS
    ]


CHECKS = {
    "a": claim_a,
    "b": claim_b,
    "c": claim_c,
    "d": claim_d,
    "e": claim_e,
    "f": claim_f,
    "g": claim_g,
    "h": claim_h,
    "i": claim_i,
    "j": claim_j,
    "k": claim_k,
    "l": claim_l,
    "m": claim_m,
    "n": claim_n,
    "o": claim_o,
    "p": claim_p,
}
CLAIMS: tuple[page.Claim[str], ...] = tuple(
    page.Claim(c.key, c.statement, CHECKS[c.key]) for c in aqmecn.CLAIMS
)


def rtts_used(checks: Sequence[Check]) -> list[str]:
    """The RTT sets a claim's counted checks read, in order."""
    out: list[str] = []
    for c in checks:
        if not c.counted:
            continue
        sets = (UNIFORM, WIDE) if isinstance(c, Across) else (getattr(c, "rtts", UNIFORM),)
        out += [s for s in sets if s not in out]
    return out


def judge(claim: page.Claim[str], prof: Profile) -> list[Judgement[str]]:
    """CLAIM on a host profile's runs, for each variant."""
    return page.judge_by(claim, VARIANTS, lambda c: evaluate(prof, c))


# --- the page: header, the text, the set-up ---------------------------------------


def header(folders: list[Folder]) -> list[str]:
    return [
        f"# Reproduction: {aqmecn.SHORT_TITLE}",
        "",
        f"{aqmecn.CITATION} (the text in the project's paper store: `{aqmecn.STORE_TEXT}`): "
        f'{aqmecn.SCOPE}. Issue 33, "Reproduce the papers", item 2.',
        "",
        *page.generated("aqmecn_page.py", folders),
        *page.what_was_run(PAPER, folders, lambda e: RTT_NAMES[rtts_of(e)]),
        "",
    ]


def _names(xs: Sequence[str]) -> str:
    xs = list(xs)
    return xs[0] if len(xs) == 1 else ", ".join(xs[:-1]) + " and " + xs[-1]


def text_section() -> list[str]:
    """What the store's text holds of the paper's results, and what not."""
    lost = [e.name for e in aqmecn.EXHIBITS if e.values_lost]
    captions = [e.name for e in aqmecn.EXHIBITS if not e.caption]
    return page.lost_section(
        f"The store's text has no curve and no value of {_names(lost)}: only what the paper "
        f"says of them (`aqmecn.EXHIBITS`), and {len(aqmecn.POINTS)} sentences that give "
        "numbers of its response-time distributions (`aqmecn.POINTS`). The captions of "
        f"{_names(captions)} are lost too. Named or implied by the text, and not in it "
        "(`aqmecn.LOST`):",
        aqmecn.LOST,
    )


SCALED = {aqmecn.IN_TIME: "in time", aqmecn.IN_PACKETS: "as packets"}


# without ECN, ARED with the new gentle forwarding is ARED
PLAIN = {
    aqmecn.ARED_PACKET_NEW_GENTLE: aqmecn.ARED_PACKET,
    aqmecn.ARED_BYTE_NEW_GENTLE: aqmecn.ARED_BYTE,
}


def stands_text(config: str, ecn: bool = True) -> str:
    """What one of our configurations stands for, shortly (in its runs
    without ECN when not ECN)."""
    stands = aqmecn.stands_for(config)
    if not stands:
        return "-"
    schemes = list(
        dict.fromkeys(s.scheme if ecn else PLAIN.get(s.scheme, s.scheme) for s in stands)
    )
    targets = [f"{s.target_pkts} {SCALED[s.scaled]}" for s in stands if s.target_pkts]
    return "; ".join(schemes) + (f" ({'; '.join(targets)})" if targets else "")


def _variant(t: str) -> str:
    """A variant, and which of the paper's targets it stands for."""
    stands = dict.fromkeys(
        (s.target_pkts, SCALED[s.scaled])
        for s in aqmecn.STANDS
        if s.config.endswith(f"-{t}") and s.target_pkts
    )
    parts = [f"{n} packets {how}" if not i else f"{n} {how}" for i, (n, how) in enumerate(stands)]
    return f"`-{t}` (the paper's {parts[0]}{''.join(f', and its {x}' for x in parts[1:])})"


def setup_section(folders: list[Folder]) -> list[str]:
    intro = (
        f"The paper's settings as its text gives them (`aqmecn.SETTINGS`): its congested "
        f"links are {aqmecn.PAPER_RATE_MBPS} Mbit/s, its uncongested one "
        f"{aqmecn.UNCONGESTED_RATE_MBPS} Mbit/s; ours 10 and 100 Mbit/s."
    )
    lines = [
        *page.setup_opening(PAPER, intro, aqmecn.SETTINGS, folders, MARKERS),
        "Our configurations and what each stands for (`aqmecn.STANDS`):",
        "",
        "| configuration | stands for (the paper's target or buffer, packets at 100 Mbit/s) | in |",
        "|---|---|---|",
    ]
    known = [s for s in slots() if s.exp is not None]
    for config in dict.fromkeys(s.config for s in aqmecn.STANDS):
        files = [s.name for s in known if s.exp and config in {q.name for q in s.exp.qdiscs}]
        lines.append(f"| `{config}` | {stands_text(config)} | {', '.join(files) or '-'} |")
    return [*lines, ""]


def regenerate_section() -> list[str]:
    known = [s for s in slots() if s.exp is not None]
    per_seed, total = page.file_runs(known, 1), page.file_runs(known)
    # and a calibration run in each file's new folder (plan.describe_file)
    note = (
        f": {len(known)} files, {per_seed} runs a reporting seed in all, {total} runs and "
        f"{len(known)} calibrations, about {plan.duration((total + len(known)) * plan.RUN_S)} "
        f"at {plan.RUN_S} s a run"
    )
    return page.regenerate(PAPER, note) + page.by_hand(known)


def rules_section() -> list[str]:
    """How verdicts are decided (the module's docstring says it too)."""
    return [
        "## How verdicts are decided",
        "",
        "Each claim is judged on the runs of the reporting seeds, once for each host profile "
        "with runs (`paper`, then `linux`) and for each of the two sizes at which the paper's "
        f"targets stand here: {' and '.join(_variant(t) for t in VARIANTS)}. Drop-tail 240, "
        f"the paper's baseline, is `{DROPTAIL}` throughout.",
        "",
        "A claim rests on comparisons. A comparison is B minus A of one figure (a "
        "response-time quantile, the loss or the utilization) of two cells (configuration, "
        "load, ECN) of one results folder, paired by seed (the same seed offers the same "
        "workload to every configuration of a file): the mean difference over the common "
        "seeds ± the half width of its 95% interval (Student t). It claims the difference "
        "lies in a range:",
        "",
        "- below 0, or above 0: one design better than another;",
        f"- equal: within ±{EQUAL:.0%} of A's mean (two designs alike);",
        f'- not below -{EQUAL:.0%} of A\'s mean ("no better": ECN does not improve ARED, no '
        f'AQM improves on drop-tail), or not above +{EQUAL:.0%} ("no worse": competitive with '
        "the uncongested link);",
        f"- for the utilization, not below -{SLIGHT:.0%} of drop-tail's (\"a very slight "
        'decrease").',
        "",
        "A comparison holds when its whole interval lies inside the range (for below or "
        "above 0: significant as claimed), fails when its whole interval lies outside it "
        "(significant against the claim), and is within noise otherwise: its interval "
        "crosses the range's edge, or one seed gives no interval. Each is tested alone, with "
        "no correction for the number of comparisons. Claim (p) compares two folders of a "
        "host profile (the effect of AQM with the wide RTT classes minus that with the "
        "uniform RTTs): unpaired, since the two are different testbeds, with Welch's "
        "interval.",
        "",
        "Verdicts, over a claim's counted comparisons:",
        "",
        f"- **{page.REPRODUCED}**: every one holds;",
        f"- **{page.IN_DIRECTION}**: none fails, some are within noise, and every mean "
        "difference lies in its claimed range;",
        f"- **{page.INCONCLUSIVE}**: none fails, but some mean difference lies outside its "
        "range (within noise);",
        f"- **{page.NOT_REPRODUCED}**: some comparison fails (named);",
        f"- **{page.NOT_ATTEMPTED}**: a folder, configuration, load or common seed is "
        "missing (named).",
        "",
        "Where the text does not say in which mode the paper's PI ran, PI is our byte mode "
        "(`pi-bytes-*`, the mode section II recommends), and packet mode (`pi-*`) is printed "
        'beside it, "reported, not counted"; so are other comparisons printed as context '
        "(80% where a claim is about 90% and 98%, drop-tail beside the uncongested link). "
        "The paper's own numbers are not judged against ours: its testbed, end hosts and "
        "workload generator are not ours, and its link ten times faster. They are printed "
        "beside ours; the verdicts rest on our runs' comparisons.",
        "",
    ]


# --- the page: the points, the figures and tables ---------------------------------


def _point_configs(p: aqmecn.Point) -> list[tuple[str, bool, bool]]:
    """Our configurations beside a point (the AQMs at the paper's target
    of 24, its best; drop-tail 240), with ECN or not, and whether it is
    printed beside the design the paper named (PI in packet mode)."""
    out: list[tuple[str, bool, bool]] = []
    schemes = list(p.schemes)
    if aqmecn.PI_BYTE in schemes:
        schemes.insert(schemes.index(aqmecn.PI_BYTE) + 1, aqmecn.PI_PACKET)
    for s in schemes:
        target = 240 if s == aqmecn.DROPTAIL else 24
        ecn = p.ecn and s not in p.no_ecn and s not in (aqmecn.DROPTAIL, aqmecn.UNCONGESTED)
        for q in aqmecn.configs_of(s, target):
            out.append((q, ecn, s not in p.schemes))
    return out


def points_section(profs: list[Profile]) -> list[str]:
    notes = {
        why: f"p{i}"
        for i, why in enumerate(dict.fromkeys(p.uncertain for p in aqmecn.POINTS if p.uncertain), 1)
    }
    lines = [
        "## The points the text gives in numbers",
        "",
        "Each is a point of a response-time distribution: a percent of the request/response "
        "exchanges complete within a time, where the paper says how the designs compare "
        "(`aqmecn.POINTS`). Ours, for each of our configurations that stands for a design "
        "named (the AQMs at the paper's target of 24 packets, its best, so at both sizes; "
        "drop-tail 240; PI in packet mode beside PI in byte mode), are the percent of "
        "exchanges complete within the same time and the time within which the same percent "
        "completed, means ± 95% intervals over the seeds. Exchanges cut off by the end of a "
        'run count as not complete (">=": a lower bound).',
        "",
        "| point | section, figure | load | ECN | RTTs | the paper's words | how the designs "
        "compare, as the paper says |",
        "|---|---|---:|---|---|---|---|",
    ]
    for p in aqmecn.POINTS:
        mark = f"[^{notes[p.uncertain]}]" if p.uncertain else ""
        ecns = page._ecn(p.ecn) + (
            f" ({', '.join(p.no_ecn)} without)" if p.ecn and p.no_ecn else ""
        )
        fig = f", {p.figure}" if p.figure else ""
        lines.append(
            f'| {p.key}{mark} | {p.section}{fig} | {p.load:.0%} | {ecns} | {p.rtts} | "{p.quote}" '
            f"| {p.says} |"
        )
    lines.append("")
    with_runs = [x for x in profs if x.has_runs]
    if not with_runs:
        lines += ["Ours: not attempted (no runs); the paper's numbers are printed alone.", ""]
    for prof in with_runs:
        lines += [f"Ours, end hosts `{prof.hosts}`:", ""]
        lines += [
            "| point | configuration | stands for | ECN | % complete within the time "
            "| the time of the percent, ms | seeds |",
            "|---|---|---|---|---:|---:|---|",
        ]
        for p in aqmecn.POINTS:
            rtts = WIDE if p.rtts == aqmecn.MEASURED else UNIFORM
            f = prof.folder(rtts)
            for q, ecn, beside in _point_configs(p):
                what = stands_text(q, ecn) + (" (beside)" if beside else "")
                if f is None:
                    lines.append(
                        f"| {p.key} | `{q}` | {what} | {page._ecn(ecn)} | - | - "
                        f"| not attempted ({prof.missing(rtts)}) |"
                    )
                    continue
                runs = page.cell(f.results, q, p.load, ecn)
                pct = "-"
                if p.seconds is not None and runs:
                    vals = [within(r, p.seconds) for r in runs]
                    pct = mean_ci([v for v, _ in vals]).fmt(".1f")
                    pct = f"{'>= ' if any(lb for _, lb in vals) else ''}{pct} (of {p.seconds:g} s)"
                time = "-"
                if p.percent is not None and runs:
                    time = cell_text(runs, _rt(p.percent / 100)) + f" (of {p.percent:g}%)"
                seeds = page.seeds_cell(runs, f.wanted, f"not attempted (no run in `{f.name}`)")
                lines.append(
                    f"| {p.key} | `{q}` | {what} | {page._ecn(ecn)} | {pct} | {time} | {seeds} |"
                )
        lines.append("")
    lines += [f"[^{label}]: {why}." for why, label in notes.items()]
    return [*lines, ""]


@dataclass(frozen=True)
class View:
    """Which of our runs stand beside one of the paper's exhibits: the
    configurations standing for SCHEMES, with the ECN settings ECNS, at
    LOADS, from the folder of RTTS, and the FIGURES shown."""

    schemes: tuple[str, ...]
    ecns: tuple[bool, ...]
    loads: tuple[float, ...]
    rtts: str
    figures: tuple[str, ...]


_ALL = (
    aqmecn.UNCONGESTED,
    aqmecn.DROPTAIL,
    aqmecn.PI_PACKET,
    aqmecn.PI_BYTE,
    aqmecn.REM_BYTE,
    aqmecn.ARED_PACKET,
    aqmecn.ARED_BYTE,
)
_ARED = (
    aqmecn.ARED_PACKET,
    aqmecn.ARED_BYTE,
    aqmecn.ARED_PACKET_NEW_GENTLE,
    aqmecn.ARED_BYTE_NEW_GENTLE,
)
_PI_REM = (aqmecn.PI_PACKET, aqmecn.PI_BYTE, aqmecn.REM_BYTE)
_LOADS3 = aqmecn.PREDECESSOR_LOADS
# what each exhibit shows (aqmecn.EXHIBITS' WHAT), in our runs
VIEWS: dict[str, View] = {
    "Fig. 4(c)": View((aqmecn.ARED_PACKET, *_PI_REM), (False,), LOADS, UNIFORM, RT),
    "Fig. 4(d)": View((aqmecn.ARED_PACKET, aqmecn.ARED_BYTE), (False,), LOADS, UNIFORM, RT),
    "Fig. 4(e), (f)": View(_ALL, (False,), LOADS, UNIFORM, RT),
    "Fig. 5": View(_ALL, (False,), (0.98,), UNIFORM, ("RT p90", "RT p99")),
    "Fig. 6(a)-(d)": View((aqmecn.DROPTAIL, *_PI_REM), (False, True), _LOADS3, UNIFORM, RT),
    "Fig. 7(a)-(d)": View((aqmecn.DROPTAIL, *_ARED), (False, True), _LOADS3, UNIFORM, RT),
    "Fig. 10(a)-(d)": View((*_ALL, *_ARED), (False, True), LOADS, WIDE, RT),
    "Table II": View((aqmecn.DROPTAIL, *_PI_REM), (False, True), _LOADS3, UNIFORM, TABLE_FIGS),
    "Table III": View((aqmecn.DROPTAIL, *_ARED), (False, True), _LOADS3, UNIFORM, TABLE_FIGS),
    "Table IV": View((*_ALL, *_ARED), (False, True), LOADS, WIDE, TABLE_FIGS),
}


def _rows(f: Folder, v: View) -> list[tuple[str, bool]]:
    """The (configuration, ECN) rows of V in F's runs: its experiment's
    order; a configuration with ECN only where it runs with ECN; the runs
    without ECN of ARED with the new gentle forwarding only where ARED
    does not run apart (they repeat its runs)."""
    if f.exp is not None:
        names = [q.name for q in f.exp.qdiscs]
        with_ecn = {q.name for q in f.exp.qdiscs if q.ecn_runs}
    else:
        names = f.results.names
        with_ecn = {r.meta["qdisc"] for r in f.runs if r.meta["ecn"]}
    shown = [q for q in names if {s.scheme for s in aqmecn.stands_for(q)} & set(v.schemes)]
    out = []
    for e in v.ecns:
        for q in shown:
            if e and q not in with_ecn:
                continue
            if not e and "-newgentle-" in q and q.replace("-newgentle", "") in names:
                continue
            out.append((q, e))
    return out


def view_block(f: Folder, v: View) -> list[str]:
    """The table of V's figures in F's runs: a row a (configuration, ECN),
    a column a (load, figure)."""
    res = f.results
    cols = [(ld, fig) for ld in v.loads for fig in v.figures]
    lines = [
        "| configuration | stands for | ECN | "
        + " | ".join(f"{ld:.0%}: {fig}" for ld, fig in cols)
        + " | seeds |",
        "|---|---|---|" + "---:|" * len(cols) + "---|",
    ]
    for q, e in _rows(f, v):
        row = []
        everything: list[Run] = []
        for ld, fig in cols:
            runs = page.cell(res, q, ld, e)
            everything += [r for r in runs if r not in everything]
            if not runs:
                row.append("-")
            elif fig == COMPLETED:
                row.append(completed_text(res, runs, ld))
            else:
                row.append(cell_text(runs, FIGS[fig]))
        seeds = page.seeds_cell(everything, f.wanted)
        lines.append(
            f"| `{q}` | {stands_text(q, e)} | {page._ecn(e)} | " + " | ".join(row) + f" | {seeds} |"
        )
    return [*lines, ""]


def exhibits_section(profs: list[Profile]) -> list[str]:
    lines = [
        "## The figures and tables side by side",
        "",
        "Each of the paper's figures and tables with what its text says of it (short "
        "quotations, `aqmecn.EXHIBITS`), the points it gives in numbers, and ours beside it: "
        "the means ± 95% intervals over the reporting seeds of each configuration that stands "
        'for a design it shows (response-time quantiles in ms, ">=" where a run\'s exchanges '
        "cut off make one a lower bound; for the tables, the downstream bottleneck's loss and "
        "utilization over the measured window, the utilization as a percent of 10 Mbit/s, "
        "which the uncongested link, ten times faster, can pass, and the exchanges completed "
        "as a percent of the uncongested link's at the same load). No curve and no table "
        "value of the paper survives in the store's text, so no number of ours stands beside "
        "one of its own but the points'; the claims resting on an exhibit carry the verdicts.",
        "",
    ]
    with_runs = [x for x in profs if x.has_runs]
    for e in aqmecn.EXHIBITS:
        caption = f'as printed, "{e.caption}"' if e.caption else "lost in the store's text"
        lines += [
            f"### {e.name}",
            "",
            f"The caption: {caption}; section {e.section}. It shows {e.what}.",
            "",
        ]
        if e.statements:
            lines += ["What the text says of it:", ""]
            lines += [f'- "{q}" ({sec})' for sec, q in e.statements]
            lines.append("")
        points = [p.key for p in aqmecn.POINTS if _point_of(p) == e.name]
        claims = aqmecn.EXHIBIT_CLAIMS.get(e.name, ())
        more = []
        if points:
            more.append(f"The points it gives in numbers: {', '.join(points)} (above).")
        if claims:
            more.append(f"The claims resting on it: {', '.join(f'({k})' for k in claims)}.")
        if e.values_lost and e.name.startswith("Table"):
            more.append("The paper's values: lost in the store's text.")
        if more:
            lines += [" ".join(more), ""]
        v = VIEWS.get(e.name)
        if v is None:
            lines += ["Ours: none (not a result).", ""]
            continue
        if not with_runs:
            lines += [f"Ours: not attempted (no runs of {RTT_NAMES[v.rtts]}).", ""]
            continue
        for prof in with_runs:
            lines += page.ours_block(prof, v.rtts, partial(view_block, v=v))
    lines += [
        "Not in the store's text, so not attempted: "
        + "; ".join(
            f"{what} ({why})" for what, why in aqmecn.LOST if what.startswith(("Fig", "Table"))
        )
        + ".",
        "",
    ]
    return lines


def _point_of(p: aqmecn.Point) -> str | None:
    """The exhibit a point is of: its figure's name, else the exhibit of
    the same figure number ("Fig. 10(d)" is of "Fig. 10(a)-(d)")."""
    if not p.figure:
        return None
    names = [e.name for e in aqmecn.EXHIBITS]
    if p.figure in names:
        return p.figure
    number = p.figure.split("(")[0]
    same = [n for n in names if n.split("(")[0] == number]
    return same[0] if len(same) == 1 else None


# --- the page: the claims -----------------------------------------------------------


def claims_section(profs: list[Profile], ignored: list[str]) -> list[str]:
    with_runs = [x for x in profs if x.has_runs]
    lines = [
        "## Claims",
        "",
        "The abstract's bullets and the conclusions (`aqmecn.CLAIMS`), each with where the "
        "paper makes it, its words, how the reproduction tests it, the comparisons that test "
        "it (`aqmtools/repro/aqmecn_page.py`), and for each host profile with runs and each "
        "size of the targets its verdict (see [How verdicts are decided](#how-verdicts-are-"
        "decided)).",
        "",
        *(f"- {x}" for x in ignored),
        *([""] if ignored else []),
    ]
    idle = [x for x in profs if not x.has_runs]
    if with_runs and idle:
        lines += [
            "Not attempted with "
            + "; ".join(
                f"end hosts `{x.hosts}`: no runs of "
                + " or ".join(f"`{x.name(r)}`" for r in (list(x.slots) or [UNIFORM]))
                for x in idle
            )
            + ".",
            "",
        ]
    judged = {(c.key, x.hosts): judge(c, x) for c in CLAIMS for x in with_runs}
    lines += ["| claim | where | end hosts | targets | verdict |", "|---|---|---|---|---|"]
    for c, spec in zip(CLAIMS, aqmecn.CLAIMS, strict=True):
        if not with_runs:
            lines.append(
                f"| ({c.key}) {c.title} | {spec.where} | - | - | {page.NOT_ATTEMPTED} (no runs) |"
            )
        for x in with_runs:
            for j in judged[(c.key, x.hosts)]:
                lines.append(
                    f"| ({c.key}) {c.title} | {spec.where} | `{x.hosts}` | `-{j.variant}` "
                    f"| {j.verdict} |"
                )
    lines.append("")
    for c, spec in zip(CLAIMS, aqmecn.CLAIMS, strict=True):
        checks = c.checks(VARIANTS[0])
        lines += [
            f"### ({c.key}) {c.title}",
            "",
            f'Where the paper makes it: {spec.where}. Its words: "{spec.quote}".'
            + (f' {spec.note[:1].upper()}{spec.note[1:]}: "{spec.qualifier}".' if spec.note else "")
            + f" Tested: {spec.test}.",
            "",
            *(
                [
                    f"With {RTT_NAMES[WIDE]} standing in for the paper's {spec.rtts} RTT "
                    "distribution, a verdict says whether the claim holds in direction with RTTs "
                    "wider than the uniform ones, not that the paper's own runs are reproduced.",
                    "",
                ]
                if spec.rtts == aqmecn.MEASURED
                else []
            ),
            f"The comparisons: {c.source}",
            "",
        ]
        if not with_runs:
            wanted = [f"`{x.name(r)}`" for r in rtts_used(checks) for x in profs]
            lines += [f"**{page.NOT_ATTEMPTED}**: no runs (of {' or '.join(wanted)}).", ""]
        for x in with_runs:
            names = ", ".join(f"`{x.name(r)}`" for r in rtts_used(checks))
            for j in judged[(c.key, x.hosts)]:
                assert j.variant is not None
                who = f"End hosts `{x.hosts}` ({names}), {_variant(j.variant)}"
                lines += page.judgement_lines(who, j)
    return lines


def aqmecn_page(dirs: list[Path]) -> str:
    """The AQM/ECN paper's reproduction page from the results folders DIRS
    (none, or missing ones: what they would hold is not attempted)."""
    folders = [page.read_folder(d) for d in dirs]
    profs, ignored = profiles(folders)
    lines = header(folders) + text_section() + setup_section(folders)
    lines += regenerate_section() + rules_section()
    lines += points_section(profs) + exhibits_section(profs) + claims_section(profs, ignored)
    return "\n".join(lines).rstrip("\n") + "\n"
