"""The reproduction page of a paper (issue 33): the paper's own figures
beside ours, and its claims with verdicts, from the results folders that
`make reproduce PAPER=...` fills (scripts/reproduce.sh).

Only the runs of reporting seeds count; a cell (configuration, load, ECN)
is the mean over its seeds with a 95% interval, and every claim rests on
differences paired by seed (aqmtools.bench.intervals). A folder, a
configuration, a load or a seed that is not there is said to be missing:
the page is made from whatever there is, an empty list of folders
included, and prints no figure that a run did not give.

A claim is a function of a variant (which of our configurations stands for
a paper's row that we run twice) that lists the comparisons it rests on.
Its docstring says where the paper makes it, and is printed on the page.
Verdicts, over a claim's comparisons:
  reproduced         every one significant in the claimed direction
  in direction only  every mean difference in the claimed direction, some
                     within noise ("equal or superior": none significantly
                     worse, some within noise)
  inconclusive       none significant against the claim, but some mean
                     difference not in the claimed direction (within noise)
  not reproduced     some significant against the claim (named)
  not attempted      a configuration, load or common seed missing (named),
                     or one common seed only (no interval)
A comparison printed as context (Check.counted false) counts in none.

Usage: python3 -m aqmtools.repro.page PAPER OUT.md DIR...
       python3 -m aqmtools.repro.page --published PAPER [OUT.md]
  PAPER: dcn (this module's page), aqmecn (aqmtools.repro.aqmecn_page,
  which reuses this module's folders, checks, verdicts and header),
  blue (aqmtools.repro.blue_page, likewise) or queuelaw
  (aqmtools.repro.queuelaw_page, likewise).
  DIR: results folders, such as build/bench/repro-dcn-paper and
  build/bench/repro-dcn-linux (none or missing ones: the page says so).
  --published: the page from the repository's published results alone
  (docs/results/NAME/raw.tar.xz of each folder plan.page_folders names,
  unpacked where the first form names them), no run of one's own;
  OUT.md defaults to docs/reproduction/PAPER.md under the top.
"""

from __future__ import annotations

import csv
import inspect
import math
import os
import re
import sys
import tempfile
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import Any, Generic, TypeVar

from aqmtools.bench import archive
from aqmtools.bench.experiment import Experiment, load
from aqmtools.bench.intervals import Interval, Paired, mean_ci, paired
from aqmtools.bench.report import (
    METRICS,
    Results,
    class_log,
    experiment_rate,
    rt_quantile,
    seed_of,
)
from aqmtools.bench.stats import Run, WebLog, connect_words, read_run, run_times
from aqmtools.repro import dcn, plan
from aqmtools.repro.paper import Setting

# --- the results folders --------------------------------------------------

# run.json keys the page reads beyond those read_run needs
_KEYS = ("qdisc", "load", "ecn", "seed")


@dataclass
class Folder:
    """One results folder given on the command line: its experiment file
    (when it holds one that reads) and its runs of reporting seeds."""

    path: Path
    exists: bool
    exp: Experiment | None
    # the experiment file's text ("" without one)
    toml: str
    runs: list[Run]
    # runs of tuning seeds, left out of every figure
    tuning: int
    # run folders that could not be read, and why
    unreadable: list[str]

    @property
    def name(self) -> str:
        """The experiment's name: its file's, else its runs', else the folder's."""
        if self.exp is not None:
            return self.exp.name
        if self.runs:
            return str(self.runs[0].meta.get("experiment", self.path.name))
        return self.path.name

    @property
    def hosts(self) -> str:
        """The end hosts' profile (aqmtools.bench.testbed.HOST_PROFILES)."""
        if self.runs:
            return str(self.runs[0].meta.get("hosts", "linux"))
        return self.exp.hosts if self.exp is not None else "?"

    @property
    def results(self) -> Results:
        return Results(self.runs)

    @property
    def wanted(self) -> list[int]:
        """The reporting seeds its experiment file names (none without one)."""
        return self.exp.reporting_seeds if self.exp is not None else []


# what a page keeps of a run's aqmstat records before they are dropped:
# figures computed from them, in run.meta[SUMMARY]
Summary = Callable[[Run], dict[str, float]]
SUMMARY = "summary"


def window_records(r: Run) -> list[dict[str, Any]]:
    """R's aqmstat records of the downstream bottleneck inside its measured
    window (after the warm-up, to the run's end), for a SUMMARY."""
    t0 = float(r.meta.get("start_wall", 0.0))
    lo, hi = t0 + float(r.meta["warmup_s"]), t0 + float(r.meta["duration_s"])
    return [x for x in r.samples if lo <= float(x.get("wall", -1.0)) <= hi]


def spec_values(spec: str, key: str) -> list[str]:
    """The words after each KEY in a qdisc's SPEC ("limit 200 floor 0":
    KEY floor gives ["0"])."""
    words = spec.split()
    return [words[k + 1] for k, w in enumerate(words[:-1]) if w == key]


def summary_of(r: Run, key: str) -> float:
    """The figure KEY a SUMMARY kept of R (nan where it kept none)."""
    return float(r.meta.get(SUMMARY, {}).get(key, math.nan))


def read_folder(path: Path, summary: Summary | None = None) -> Folder:
    """The runs of PATH and its experiment file; what cannot be read is
    listed, never fatal. SUMMARY, when given, computes what the page needs
    of a run's aqmstat records (kept in its meta under SUMMARY) before the
    records are dropped."""
    if not path.is_dir():
        return Folder(path, False, None, "", [], 0, [])
    toml = ""
    exp = None
    kept = path / "experiment.toml"
    if kept.is_file():
        try:
            toml = kept.read_text(encoding="utf-8", errors="replace")
            exp = load(toml)
        except (OSError, ValueError, KeyError, TypeError):
            exp = None
    runs: list[Run] = []
    tuning = 0
    unreadable: list[str] = []
    for meta in sorted(path.glob("*/run.json")):
        try:
            # the aqmstat records are read for the link's figures only (and
            # SUMMARY's): dropped, as a full reproduction's runs would not
            # fit in memory
            full = read_run(meta.parent)
            if summary is not None:
                full.meta[SUMMARY] = summary(full)
            run = replace(full, samples=[], by_host={})
            absent = [k for k in _KEYS if k not in run.meta]
            if absent:
                raise KeyError(", ".join(absent))
        except (OSError, ValueError, KeyError, TypeError, csv.Error) as e:
            unreadable.append(f"{meta.parent.name} ({type(e).__name__}: {e})")
            continue
        if run.meta.get("seed_set") == "reporting":
            runs.append(run)
        else:
            tuning += 1
    runs.sort(key=lambda r: (r.meta.get("order", 0), seed_of(r)))
    return Folder(path, True, exp, toml, runs, tuning, unreadable)


Key = tuple[str, float, bool]
# a paper's variant: which of our configurations stand for its rows
V = TypeVar("V")


def cell(res: Results, config: str, load_: float, ecn: bool) -> list[Run]:
    """The runs of CONFIG at LOAD (matched to the percent) with or without ECN."""
    for (name, ld, e), runs in res.cells.items():
        if name == config and e == ecn and round(ld * 100) == round(load_ * 100):
            return runs
    return []


# --- the folders of a paper of several files, by end-host profile ------------
# (the AQM/ECN and the BLUE pages: each part of the paper, such as a figure
# or an RTT set, runs in one file for each end-host profile)


@dataclass(frozen=True)
class Slot:
    """One of the paper's experiment files: its end hosts, the PART of the
    paper it runs, its name (EXP: None when the file does not read)."""

    hosts: str
    part: str
    name: str
    path: Path
    exp: Experiment | None


@dataclass
class Profile:
    """The runs of one end-host profile: its folder (with runs) of each
    part, and the experiment files expected for them. A page's subclass
    says what a part is (what), and what stands for a part with neither a
    folder nor a file (unnamed) or no runs (missing)."""

    hosts: str
    slots: dict[str, Slot] = field(default_factory=dict)
    folders: dict[str, Folder] = field(default_factory=dict)

    def what(self, part: str) -> str:
        """PART as the page names it."""
        return part

    def unnamed(self, part: str) -> str:
        """What names PART with neither a folder nor an experiment file."""
        return part

    def missing(self, part: str) -> str:
        """Why nothing of PART can be had."""
        return f"no runs of `{self.name(part)}` ({self.what(part)})"

    def folder(self, part: str) -> Folder | None:
        return self.folders.get(part)

    def name(self, part: str) -> str:
        f = self.folders.get(part)
        if f is not None:
            return f.name
        s = self.slots.get(part)
        return s.name if s is not None else self.unnamed(part)

    @property
    def has_runs(self) -> bool:
        return bool(self.folders)


P = TypeVar("P", bound=Profile)


def profiles(
    make: Callable[[str], P],
    hosts: Sequence[str],
    slots: list[Slot],
    folders: list[Folder],
    part_of: Callable[[Folder], str],
) -> tuple[list[P], list[str]]:
    """The profiles MAKE makes of the end hosts HOSTS (the paper's first)
    and any others of SLOTS or FOLDERS, each with its experiment files and
    its folders that hold runs (of the part PART_OF says); and the folders
    left out (a second folder of a profile and part already filled, said
    so on the page)."""
    by_hosts: dict[str, P] = {h: make(h) for h in hosts}
    for s in slots:
        by_hosts.setdefault(s.hosts, make(s.hosts)).slots[s.part] = s
    ignored = []
    for f in folders:
        if not f.runs:
            continue
        prof = by_hosts.setdefault(f.hosts, make(f.hosts))
        part = part_of(f)
        if part in prof.folders:
            ignored.append(
                f"`{_shown(f.path)}`: a second folder of {prof.what(part)} with end hosts "
                f"`{f.hosts}`, left out (`{_shown(prof.folders[part].path)}` is used)"
            )
            continue
        prof.folders[part] = f
    return list(by_hosts.values()), ignored


# --- the figures ------------------------------------------------------------

# the DCN paper's figures 10/12/14: the curve of DCN lies above the others
# "for response sizes greater than approximately 50,000 bytes"
SMALL_BYTES = 50_000


def small_share(r: Run) -> float:
    """Percent of all response bytes (exchanges completed and cut off, as
    report.plot_group pools them) that are in responses of at most
    SMALL_BYTES (nan without response bytes)."""
    ex = r.web.done + r.web.cut
    total = sum(e.resp_bytes for e in ex)
    if not total:
        return math.nan
    return 100 * sum(e.resp_bytes for e in ex if e.size <= SMALL_BYTES) / total


# Figures 15-18's line between "small" and "large" responses (section 5.1:
# "objects smaller than 100,000 bytes")
LARGE_BYTES = 100_000


def small_log(r: Run) -> WebLog:
    """The exchanges of responses smaller than LARGE_BYTES."""
    return class_log(r.web, 0, LARGE_BYTES - 1)


def large_log(r: Run) -> WebLog:
    """The exchanges of responses larger than LARGE_BYTES."""
    return class_log(r.web, LARGE_BYTES, None)


def class_rt(log: Callable[[Run], WebLog], q: float) -> Callable[[Run], float]:
    """The response-time quantile Q (ms) of LOG's exchanges (small_log,
    large_log), cut-off exchanges censored."""
    return lambda r: rt_quantile(log(r), q)[0]


def utilization(r: Run) -> float:
    """Throughput as a percent of the experiment's rate, the congested
    link's: the uncongested runs too, on a link ten times faster, as the
    paper's Table 1 gives 105.9 Mbit/s of its 100 Mbit/s link."""
    return 100 * r.link.mbps * 1e6 / experiment_rate(r.meta)


@dataclass(frozen=True)
class Figure:
    """A figure of one run, how it is printed, its unit as a difference."""

    of: Callable[[Run], float]
    spec: str
    unit: str
    # the response-time quantile it is (a cut-off exchange can make it a
    # lower bound), and of which exchanges (None: all)
    quantile: float | None = None
    log: Callable[[Run], WebLog] | None = None


FIGURES: dict[str, Figure] = {
    "loss %": Figure(METRICS["loss %"], ".2f", "points"),
    "RT p50": Figure(METRICS["RT p50 ms"], ".0f", "ms", 0.5),
    "RT p90": Figure(METRICS["RT p90 ms"], ".0f", "ms", 0.9),
    "bytes in responses <= 50 KB %": Figure(small_share, ".1f", "points"),
    "RT p50 < 100 KB": Figure(class_rt(small_log, 0.5), ".0f", "ms", 0.5, small_log),
    "RT p90 < 100 KB": Figure(class_rt(small_log, 0.9), ".0f", "ms", 0.9, small_log),
    "RT p25 > 100 KB": Figure(class_rt(large_log, 0.25), ".0f", "ms", 0.25, large_log),
    "RT p50 > 100 KB": Figure(class_rt(large_log, 0.5), ".0f", "ms", 0.5, large_log),
}


# --- comparisons and verdicts -----------------------------------------------

REPRODUCED = "reproduced"
IN_DIRECTION = "in direction only"
INCONCLUSIVE = "inconclusive"
NOT_REPRODUCED = "not reproduced"
NOT_ATTEMPTED = "not attempted"


def _ecn(ecn: bool) -> str:
    return "ECN" if ecn else "no ECN"


def _cell_name(k: Key) -> str:
    return f"{k[0]} ({_ecn(k[2])}) at {k[1]:.0%}"


@dataclass(frozen=True)
class Check:
    """One comparison a claim rests on: B minus A of FIGURE, paired by
    seed; SIGN is the sign the claim gives the difference (-1: B below A).
    TOLERANT: the claim is "equal or superior", so a difference within
    noise does not go against it. COUNTED: false for a comparison printed
    beside a claim's as context, which its verdict does not rest on.

    The methods below are how a comparison is computed, judged and
    printed; a paper whose claims need another kind of comparison (a
    range, an equality, another folder) overrides them in a subclass
    (aqmtools.repro.aqmecn_page). These are the DCN page's."""

    a: Key
    b: Key
    figure: str
    sign: int
    tolerant: bool = False
    counted: bool = True

    def text(self) -> str:
        a, b = self.a, self.b
        if (a[0], a[2]) == (b[0], b[2]):
            return f"{b[0]} ({_ecn(b[2])}), {self.figure} at {b[1]:.0%} minus at {a[1]:.0%}"
        if a[1] == b[1]:
            return f"{self.figure} at {a[1]:.0%}: {b[0]} ({_ecn(b[2])}) minus {a[0]} ({_ecn(a[2])})"
        return f"{self.figure}: {_cell_name(b)} minus {_cell_name(a)}"

    def fig(self) -> Figure:
        """The figure compared: how a run's is computed and printed."""
        return FIGURES[self.figure]

    # how the verdict's reason words the comparisons that hold, the mean
    # differences that are as claimed, and those that fail
    holds = "significant in the claimed direction"
    direction = "in the claimed direction"
    fails = "significant against the claim"

    def state(self, o: Outcome) -> str:
        """for (significant as claimed), against (significant against the
        claim) or noise (not significant: within noise, or one seed), of
        an outcome that has its difference."""
        assert o.pair is not None
        if not o.pair.significant:
            return "noise"
        return "for" if o.pair.diff.mean * self.sign > 0 else "against"

    def in_direction(self, o: Outcome) -> bool:
        """The mean difference has the claimed sign (for a tolerant check,
        or is not significantly against it)."""
        assert o.pair is not None
        if self.tolerant:
            return self.state(o) != "against"
        return o.pair.diff.mean * self.sign > 0

    def seeds_text(self, o: Outcome) -> str:
        """The seeds the difference is over, as the page prints them."""
        assert o.pair is not None
        n = o.pair.diff.n
        return f"({n} seed{'s' if n != 1 else ''}: {', '.join(map(str, o.pair.seeds))})"

    def claimed(self, o: Outcome) -> str:
        """What the claim says of the difference."""
        claimed = "below" if self.sign < 0 else "above"
        return f"claimed {claimed} 0{' or equal' if self.tolerant else ''}"

    def how(self, o: Outcome) -> str:
        """How the difference stands against the claim."""
        assert o.pair is not None
        d = o.pair.diff
        state = self.state(o)
        if state == "for":
            return "significant, as claimed"
        if state == "against":
            return "significant, AGAINST the claim"
        where = "one seed, no interval" if d.n < 2 else "within noise"
        side = "as claimed" if d.mean * self.sign > 0 else "against the claim"
        if d.mean == 0:
            side = "zero"
        return f"{where}, mean {side}"

    def paper_note(self) -> str:
        """The paper's own values of the two cells, where it gives them."""
        pa, pb = _paper_value(self.a, self.figure), _paper_value(self.b, self.figure)
        if pa is not None and pb is not None:
            return f"; Table 1: {pb} minus {pa}"
        return ""


def _paper_value(k: Key, figure: str) -> str | None:
    """Table 1's value of a cell's figure, where it gives one (loss only)."""
    scheme = dcn.scheme_of(k[0])
    r = dcn.row(scheme, k[1], k[2]) if scheme is not None else None
    if r is None or figure != "loss %":
        return None
    return f"{r.loss_pct}" + (" (place uncertain)" if "loss_pct" in r.uncertain else "")


@dataclass(frozen=True)
class Outcome:
    """A check on one folder's runs: the paired difference, or what is
    missing for it; REF is A's figure over the seeds of the difference."""

    check: Check
    pair: Paired | None
    missing: tuple[str, ...]
    notes: tuple[str, ...]
    ref: Interval | None = None

    @property
    def state(self) -> str:
        """missing, else the check's judgement of the difference: for,
        against or noise (Check.state)."""
        if self.pair is None or self.pair.diff.n == 0:
            return "missing"
        return self.check.state(self)

    @property
    def in_direction(self) -> bool:
        """The mean difference is as claimed (Check.in_direction)."""
        if self.pair is None or self.pair.diff.n == 0:
            return False
        return self.check.in_direction(self)

    def line(self) -> str:
        """The comparison and the figures it rests on, for the page."""
        c = self.check
        if self.state == "missing":
            return f"{c.text()}: not attempted ({'; '.join(self.missing)})"
        assert self.pair is not None
        f = c.fig()
        diff = self.pair.diff.fmt("+" + f.spec)
        text = f"{c.text()}: {diff} {f.unit} {c.seeds_text(self)}; {c.claimed(self)}: {c.how(self)}"
        text += c.paper_note()
        return text + "".join(f"; {n}" for n in self.notes)


def evaluate(res: Results, check: Check) -> Outcome:
    """CHECK on the runs of RES."""
    runs = {k: cell(res, *k) for k in (check.a, check.b)}
    missing = tuple(f"no run of {_cell_name(k)}" for k, rs in runs.items() if not rs)
    if missing:
        return Outcome(check, None, missing, ())
    f = check.fig()
    ra, rb = runs[check.a], runs[check.b]
    p = paired({seed_of(r): f.of(r) for r in ra}, {seed_of(r): f.of(r) for r in rb})
    if p.diff.n == 0:
        why = (
            f"no seed with a {check.figure} of both {_cell_name(check.a)} and {_cell_name(check.b)}"
        )
        return Outcome(check, p, (why,), ())
    notes = []
    both = [r for r in ra + rb if seed_of(r) in p.seeds]
    q, log = f.quantile, f.log or (lambda r: r.web)
    if q is not None and any(rt_quantile(log(r), q)[1] for r in both):
        notes.append("a quantile is a lower bound in some run (exchanges cut off)")
    bad = sorted({x for r in both for x in r.problems})
    if bad:
        notes.append(f"includes runs marked invalid ({', '.join(bad)})")
    ref = mean_ci([f.of(r) for r in ra if seed_of(r) in p.seeds])
    return Outcome(check, p, (), tuple(notes), ref)


def verdict(outcomes: list[Outcome]) -> tuple[str, str]:
    """The verdict over a claim's comparisons, and why (those printed as
    context, not counted, left out)."""
    outcomes = [o for o in outcomes if o.check.counted]
    n = len(outcomes)
    if not n:
        return NOT_ATTEMPTED, "no comparison"
    missing = [m for o in outcomes for m in o.missing]
    if missing:
        return NOT_ATTEMPTED, "missing: " + "; ".join(dict.fromkeys(missing))
    # a difference of one seed has no interval: no verdict on it
    if all(o.pair is not None and o.pair.diff.n < 2 for o in outcomes):
        return NOT_ATTEMPTED, (
            "one common reporting seed so far: no interval, so no verdict "
            "(the differences are printed below)"
        )
    c = outcomes[0].check
    against = [o.check.text() for o in outcomes if o.state == "against"]
    if against:
        return NOT_REPRODUCED, f"{c.fails}: " + "; ".join(against)
    # some of one seed: what they will say is not known yet (counted as
    # within noise, they made a claim "in direction only" on one seed)
    thin = sum(o.pair is not None and o.pair.diff.n < 2 for o in outcomes)
    if thin:
        return NOT_ATTEMPTED, (
            f"{thin} of {n} comparisons have one common reporting seed so far: "
            "no interval, so no verdict yet (the differences are printed below)"
        )
    noise = sum(o.state == "noise" for o in outcomes)
    if not noise:
        return REPRODUCED, (
            f"all {n} comparisons {c.holds}" if n > 1 else f"its one comparison {c.holds}"
        )
    if all(o.in_direction for o in outcomes):
        return IN_DIRECTION, (
            f"every mean difference {c.direction}, {noise} of {n} within noise"
            if not any(o.check.tolerant for o in outcomes)
            else f"none significantly worse, {noise} of {n} within noise (equal within noise)"
        )
    wrong = [o.check.text() for o in outcomes if not o.in_direction]
    return INCONCLUSIVE, (
        f"none {c.fails}, but the mean difference is not {c.direction} (within noise) for: "
        + "; ".join(wrong)
    )


# --- hypotheses stated before a page extra's runs ---------------------------

# how a hypothesis' verdict reads: the page's verdicts are of a paper's
# claim, these of a hypothesis an experiment file states before any run
HYPOTHESIS_WORDS = {
    REPRODUCED: "holds",
    IN_DIRECTION: "in direction only",
    INCONCLUSIVE: "inconclusive",
    NOT_REPRODUCED: "fails",
    NOT_ATTEMPTED: "no verdict",
}


@dataclass(frozen=True)
class Stated(Check):
    """A Check a hypothesis rests on: worded as stated before the runs,
    where a paper's comparison is claimed. A subclass of Check's has it
    first among its bases (blue_page.StatedCmp)."""

    holds = "significant in the stated direction"
    direction = "in the stated direction"
    fails = "significant against the hypothesis"

    def claimed(self, o: Outcome) -> str:
        return super().claimed(o).replace("claimed", "stated", 1)

    def how(self, o: Outcome) -> str:
        how = super().how(o).replace("the claim", "the hypothesis")
        return how.replace("as claimed", "as stated")


def hypothesis_block(key: str, title: str, outcomes: list[Outcome]) -> list[str]:
    """A hypothesis judged as the page judges a claim (verdict): its word
    (HYPOTHESIS_WORDS), why, and each comparison it rests on."""
    v, why = verdict(outcomes)
    return [
        f"{key}, {title}: **{HYPOTHESIS_WORDS[v]}**: {why}.",
        "",
        *(f"- {o.line()}" for o in outcomes),
        "",
    ]


# --- the DCN paper's claims -------------------------------------------------


@dataclass(frozen=True)
class Variant:
    """Which of our configurations stand for the paper's PI and DCN rows
    (each runs twice: dcn.OURS)."""

    pi: str
    dcn: str


VARIANTS = tuple(Variant(p, d) for p, d in zip(dcn.OURS[dcn.PI], dcn.OURS[dcn.DCN], strict=True))
UNCONGESTED = dcn.OURS[dcn.UNCONGESTED][0]
DROPTAIL = dcn.OURS[dcn.DROPTAIL][0]
AFD = dcn.OURS[dcn.AFD][0]
RIOPS = dcn.OURS[dcn.RIOPS][0]
HIGH = (0.98, 1.05)


def loss_grows_with_load(v: Variant) -> list[Check]:
    """Section 5.1, the discussion of Table 1: "We also see in Table 1
    that as the load increases, the loss rate increases significantly for
    AFD and RIO-PS, even with the use of ECN." Tested: the loss at 105%
    minus the loss at 90% of AFD and of RIO-PS, without and with ECN, is
    above zero."""
    return [
        Check((q, 0.9, e), (q, 1.05, e), "loss %", +1) for q in (AFD, RIOPS) for e in (False, True)
    ]


def dcn_loss_stays_low(v: Variant) -> list[Check]:
    """Section 5.1, the discussion of Table 1: "With DCN's scheme for
    detecting and controlling high-bandwidth flows, a fairly low loss rate
    is maintained even at very high loads." Tested: at 98% and 105% load,
    DCN's loss (no ECN, as the paper ran it) is below drop-tail's, PI's
    without ECN, and AFD's and RIO-PS's without and with ECN."""
    others = [(DROPTAIL, False), (v.pi, False), (AFD, False), (AFD, True)]
    others += [(RIOPS, False), (RIOPS, True)]
    return [Check((q, ld, e), (v.dcn, ld, False), "loss %", -1) for ld in HIGH for q, e in others]


def dcn_matches_pi_ecn(v: Variant) -> list[Check]:
    """Section 5.1, the comparison of Figures 9, 11 and 13: "At loads of
    98% and 105% there is clear performance superiority for DCN and PI
    with ECN over the other AQMs. However, in both cases, DCN, even
    without ECN, provides performance that is equal or superior to PI
    with ECN." Tested: at 98% and 105% load, DCN's (no ECN) response-time
    median and 90th percentile minus PI with ECN's are not above zero
    (equal within noise, or significantly below)."""
    return [
        Check((v.pi, ld, True), (v.dcn, ld, False), fig, -1, tolerant=True)
        for ld in HIGH
        for fig in ("RT p50", "RT p90")
    ]


def dcn_riops_afd_order(v: Variant) -> list[Check]:
    """Section 5.1, after Figures 9, 11 and 13: "Comparing just the
    differential AQM designs, DCN obtains better performance than RIO-PS
    which in turn provides better performance than AFD." Tested: at 98%
    and 105% load, the response-time 90th percentile of DCN (no ECN) is
    below RIO-PS's, without and with ECN, and RIO-PS's is below AFD's at
    the same ECN setting."""
    checks = [
        Check((RIOPS, ld, e), (v.dcn, ld, False), "RT p90", -1)
        for ld in HIGH
        for e in (False, True)
    ]
    return checks + [
        Check((AFD, ld, e), (RIOPS, ld, e), "RT p90", -1) for ld in HIGH for e in (False, True)
    ]


def best_beat_droptail(v: Variant) -> list[Check]:
    """Section 5.1, after Figures 9, 11 and 13: "For the vast majority of
    flows, the best AQM designs provide performance superior to drop-tail
    at all loads." The best designs are DCN and PI with ECN (the same
    paragraphs: "clear performance superiority for DCN and PI with ECN").
    Tested: at 90%, 98% and 105% load, the response-time 90th percentile
    of DCN (no ECN) and of PI with ECN is below drop-tail's."""
    return [
        Check((DROPTAIL, ld, False), (q, ld, e), "RT p90", -1)
        for ld in dcn.LOADS
        for q, e in ((v.dcn, False), (v.pi, True))
    ]


def dcn_shifts_bytes_to_short(v: Variant) -> list[Check]:
    """Section 5.1, Figures 10, 12 and 14: "we would expect that DCN would
    cause a greater fraction of the total bytes in all responses to come
    from the shorter responses that DCN favors [...]. This effect is seen
    in Figures 10, 12, and 14 where the curve for DCN is always above the
    others for response sizes greater than approximately 50,000 bytes."
    Tested: at 90%, 98% and 105% load, the percent of all response bytes
    in responses of at most 50 KB is higher under DCN (no ECN) than under
    drop-tail, and under PI, AFD and RIO-PS without and with ECN."""
    others = [(DROPTAIL, False), (v.pi, False), (v.pi, True), (AFD, False), (AFD, True)]
    others += [(RIOPS, False), (RIOPS, True)]
    return [
        Check((q, ld, e), (v.dcn, ld, False), "bytes in responses <= 50 KB %", +1)
        for ld in dcn.LOADS
        for q, e in others
    ]


def dcn_favors_small_responses(v: Variant) -> list[Check]:
    """Section 5.1, Figures 15 and 17: "In Figures 15 and 17, we see that
    DCN clearly favors "small" flows as expected and outperforms the other
    AQM schemes at 90% and 98% load" (the CDFs of the response times of
    the responses smaller than 100,000 bytes). Tested: at 90% and 98% load,
    the median and the 90th percentile of the response times of the
    responses smaller than 100,000 bytes under DCN (no ECN) are below
    those under PI, AFD and RIO-PS, each without and with ECN."""
    others = [(q, e) for q in (v.pi, AFD, RIOPS) for e in (False, True)]
    return [
        Check((q, ld, e), (v.dcn, ld, False), fig, -1)
        for ld in (0.9, 0.98)
        for fig in ("RT p50 < 100 KB", "RT p90 < 100 KB")
        for q, e in others
    ]


def dcn_favors_most_large_responses(v: Variant) -> list[Check]:
    """Section 5.1, Figures 16 and 18: "In Figure 16, we see that DCN
    outperforms other AQM schemes for approximately 75% of flows that are
    larger than 100,000 bytes at 90% load. Similarly, we observe in Figure
    18 that about 40% of flows larger than 100,000 bytes experience better
    performance under DCN than under other AQM schemes." Tested, at a
    quantile inside each share: the median of the response times of the
    responses larger than 100,000 bytes at 90% load, and their 25th
    percentile at 98%, under DCN (no ECN) are below those under PI, AFD
    and RIO-PS, each without and with ECN."""
    others = [(q, e) for q in (v.pi, AFD, RIOPS) for e in (False, True)]
    return [
        Check((q, ld, e), (v.dcn, ld, False), fig, -1)
        for ld, fig in ((0.9, "RT p50 > 100 KB"), (0.98, "RT p25 > 100 KB"))
        for q, e in others
    ]


def pi_degrades_without_ecn(v: Variant) -> list[Check]:
    """Section 5.1, Figure 6: "Without ECN, the response-time performance
    obtained with PI degrades rapidly with loads above 90%." Tested: PI's
    (no ECN) response-time median and 90th percentile at 98% and at 105%
    minus at 90% are above zero. (The same paragraph's "with ECN [...]
    only modestly worse" is not tested: "modestly" sets no bound.)"""
    return [
        Check((v.pi, 0.9, False), (v.pi, ld, False), fig, +1)
        for ld in HIGH
        for fig in ("RT p50", "RT p90")
    ]


def afd_gains_from_ecn(v: Variant) -> list[Check]:
    """Section 5.1, Figure 7: "There is significant degradation in
    response-time performance as load is increased to 98% and 105%. AFD
    does show a small yet noticeable improvement with addition of ECN at
    these loads." Tested: at 98% and 105% load, AFD's response-time
    median and 90th percentile with ECN minus without are below zero."""
    return [
        Check((AFD, ld, False), (AFD, ld, True), fig, -1)
        for ld in HIGH
        for fig in ("RT p50", "RT p90")
    ]


def pi_ecn_matches_differential(v: Variant) -> list[Check]:
    """Section 5.1, after Figures 9, 11 and 13: "PI with ECN's uniform
    treatment of flows provides comparable or better performance for
    flows than AFD's and RIO-PS's differential treatment." Tested: at
    90%, 98% and 105% load, PI with ECN's response-time 90th percentile
    minus AFD's and RIO-PS's, each without and with ECN, is not above
    zero (equal within noise, or significantly below)."""
    return [
        Check((q, ld, e), (v.pi, ld, True), "RT p90", -1, tolerant=True)
        for ld in dcn.LOADS
        for q in (AFD, RIOPS)
        for e in (False, True)
    ]


@dataclass(frozen=True)
class Claim(Generic[V]):
    """A claim of the paper: a letter, a short statement, its checks for
    a variant V (which of our configurations stand for the paper's)."""

    key: str
    title: str
    checks: Callable[[V], list[Check]]

    @property
    def source(self) -> str:
        """Where the paper makes it, and how it is tested (the docstring)."""
        return " ".join(inspect.cleandoc(self.checks.__doc__ or "").split())


CLAIMS = (
    Claim(
        "a",
        "Loss increases significantly with load for AFD and RIO-PS, even with ECN",
        loss_grows_with_load,
    ),
    Claim("b", "DCN maintains a fairly low loss rate at very high loads", dcn_loss_stays_low),
    Claim(
        "c",
        "At 98% and 105%, DCN without ECN is equal or superior to PI with ECN",
        dcn_matches_pi_ecn,
    ),
    Claim("d", "DCN is better than RIO-PS, which is better than AFD", dcn_riops_afd_order),
    Claim("e", "The best AQMs are superior to drop-tail at all loads", best_beat_droptail),
    Claim(
        "f",
        "Under DCN a greater fraction of the bytes comes from the shorter responses",
        dcn_shifts_bytes_to_short,
    ),
    Claim(
        "g",
        "DCN favors the responses under 100,000 bytes, above the other AQMs at 90% and 98%",
        dcn_favors_small_responses,
    ),
    Claim(
        "h",
        "DCN favors most responses over 100,000 bytes too: 75% at 90% load, 40% at 98%",
        dcn_favors_most_large_responses,
    ),
    Claim("i", "Without ECN, PI's response times degrade above 90% load", pi_degrades_without_ecn),
    Claim("j", "At 98% and 105%, ECN improves AFD's response times a little", afd_gains_from_ecn),
    Claim(
        "k",
        "PI with ECN is comparable or better than AFD and RIO-PS",
        pi_ecn_matches_differential,
    ),
)


@dataclass(frozen=True)
class Judgement(Generic[V]):
    """A claim on one folder and one variant (None: the claim does not
    depend on the variant)."""

    variant: V | None
    outcomes: list[Outcome]
    verdict: str
    why: str


def _variant_name(v: Variant | None, checks: list[Check]) -> str:
    if v is None:
        return "-"
    used = {k[0] for c in checks for k in (c.a, c.b)}
    return ", ".join(n for n in (v.dcn, v.pi) if n in used)


def judge_by(
    claim: Claim[V], variants: Sequence[V], run: Callable[[Check], Outcome]
) -> list[Judgement[V]]:
    """CLAIM once for each of VARIANTS (once in all when its checks do
    not depend on the variant), each check evaluated by RUN."""
    lists = [claim.checks(v) for v in variants]
    chosen: list[V | None] = list(variants)
    if all(x == lists[0] for x in lists):
        lists, chosen = lists[:1], [None]
    out = []
    for v, checks in zip(chosen, lists, strict=True):
        outcomes = [run(c) for c in checks]
        word, why = verdict(outcomes)
        out.append(Judgement(v, outcomes, word, why))
    return out


def judge(claim: Claim[Variant], res: Results) -> list[Judgement[Variant]]:
    """CLAIM on the runs of RES, once for each variant (once in all when
    its checks do not depend on it)."""
    return judge_by(claim, VARIANTS, lambda c: evaluate(res, c))


# --- the page ---------------------------------------------------------------


def _shown(path: Path) -> str:
    """PATH relative to the repository when inside it."""
    p = path.resolve()
    return str(p.relative_to(plan.TOP)) if p.is_relative_to(plan.TOP) else str(path)


def _seeds(seeds: list[int]) -> str:
    return ", ".join(map(str, seeds)) or "none"


def _header_lines(toml: str) -> list[str]:
    """The comment lines that open an experiment file, without their '#'."""
    lines = []
    for line in toml.splitlines():
        if not line.startswith("#"):
            break
        lines.append(line[1:].removeprefix(" "))
    return lines


# the parts of the experiment files' headers quoted on the page: from the
# words given to the end of their paragraph (or an indented list in it),
# an aside in brackets after its sentences left out
QUOTED = (
    "The rate.",
    "How the paper's settings scale.",
    "End hosts:",
    "What differs",
    "The question here",
)


# an aside in brackets that is a sentence of its own, after a sentence
_ASIDE = re.compile(r"(?<=\.) \([A-Z][^()]*\.\)")


def _elide(text: str) -> str:
    """TEXT with its asides in brackets after a sentence shown as "[...]"
    (left out at its end)."""
    return _ASIDE.sub(" [...]", text).removesuffix(" [...]")


def quotes(toml: str, markers: Sequence[str] = QUOTED, lists: bool = False) -> list[str]:
    """The parts of an experiment file's header that begin with one of
    MARKERS, to the end of their paragraph. Without LISTS (the DCN page),
    a paragraph ends at an indented list in it, and its text at an aside in
    brackets after a sentence. With LISTS, the list is kept, its items
    markdown items on lines of their own, and asides after a sentence are
    shown as "[...]"."""
    paras: list[list[str]] = [[]]
    for line in _header_lines(toml):
        if not line.strip():
            paras.append([])
        else:
            paras[-1].append(line)
    out = []
    for para in paras:
        kept: list[str] = []
        items: list[list[str]] = []
        for line in para:
            if line.startswith("  ") and kept:
                if not lists:
                    break
                if line.startswith("   ") and items:
                    items[-1].append(line.strip())
                else:
                    items.append([line.strip()])
            elif not items:
                kept.append(line.strip())
        text = " ".join(kept)
        for marker in markers:
            if marker not in text:
                continue
            part = text[text.index(marker) :]
            if not lists:
                out.append(part.split(". (")[0].rstrip(".") + ".")
                continue
            out.append("\n".join([_elide(part), *(f"- {_elide(' '.join(i))}" for i in items)]))
    return out


def _expected(paper: str = "dcn") -> list[tuple[Path, Experiment | None]]:
    """The paper's experiment files in the repository, as they read."""
    out: list[tuple[Path, Experiment | None]] = []
    for f in plan.paper_files(paper):
        try:
            out.append((f, plan.read(f)))
        except (OSError, ValueError):
            out.append((f, None))
    return out


def _users(f: Folder) -> str:
    by_load: dict[int, set[int]] = {}
    for r in f.runs:
        # web users (runs of long flows alone have none)
        if r.meta.get("users"):
            by_load.setdefault(round(r.meta["load"] * 100), set()).add(int(r.meta["users"]))
    return ", ".join(f"{ld}%: {'/'.join(map(str, sorted(u)))}" for ld, u in sorted(by_load.items()))


def describe_folder(f: Folder) -> list[str]:
    """What a folder holds, from its experiment file and its runs' run.json."""
    shown = f"`{_shown(f.path)}`"
    if not f.exists:
        return [f"- {shown}: no such folder (not run yet)."]
    if not f.runs:
        more = f"; {f.tuning} runs of tuning seeds left out" if f.tuning else ""
        lost = f"; {len(f.unreadable)} runs unreadable" if f.unreadable else ""
        lines = [f"- {shown} (`{f.name}`): no run of a reporting seed{more}{lost}."]
        return lines + [f"  - unreadable, left out: {u}" for u in f.unreadable]
    m = f.runs[0].meta
    res = f.results
    prof = ", ".join([*m.get("host_sysctls", []), str(m.get("host_route", ""))]).strip(", ")
    rtts = sorted({x for r in f.runs for x in r.meta.get("client_rtts_ms", [])})
    duration, warmup = run_times(m)
    parts = [
        f"bottleneck {experiment_rate(m) / 1e6:g} Mbit/s",
        f"runs of {duration:g} s ({warmup:g} s warm-up, a drain of at most "
        f"{m.get('drain_s', 2):g} s)",
        f"loads {', '.join(f'{x:.0%}' for x in res.loads)}",
        f"end hosts `{f.hosts}` ({prof or 'the kernel defaults'}), {m.get('cc', 'reno')}",
    ]
    connect = connect_words([r.meta for r in f.runs])
    if connect:
        parts.append(connect)
    if rtts:
        parts.append(f"client RTTs {rtts[0]:g}-{rtts[-1]:g} ms")
    users = _users(f)
    if users:
        parts.append(f"users per load {users}")
    seeds = f"reporting seeds run: {_seeds(res.seeds)}"
    total = ""
    if f.exp is not None:
        wanted = f.exp.reporting_seeds
        seeds += f" of {_seeds(wanted)}"
        total = f" of {len(f.exp.runs(wanted))}"
    parts.append(seeds)
    parts.append(f"{len(f.runs)}{total} runs")
    if f.tuning:
        parts.append(f"{f.tuning} runs of tuning seeds left out")
    bad = [r for r in f.runs if r.problems]
    if bad:
        names = ", ".join(
            f"{r.meta['qdisc']} {r.meta['load']:.0%} {_ecn(r.meta['ecn'])} seed {seed_of(r)}"
            for r in bad
        )
        parts.append(f"runs marked invalid (kept, and flagged where they count): {names}")
    lines = [f"- {shown} (`{f.name}`): " + "; ".join(parts) + "."]
    lines += [f"  - unreadable, left out: {u}" for u in f.unreadable]
    return lines


def _command(dirs: list[str], paper: str = "dcn") -> str:
    return (
        f"PYTHONPATH=scripts python3 -m aqmtools.repro.page {paper} docs/reproduction/{paper}.md "
        + " ".join(dirs)
    )


def generated(module: str, folders: list[Folder]) -> list[str]:
    """The line that says the page is generated, and from what."""
    given = " ".join(_shown(f.path) for f in folders) or "(no folder)"
    return [
        f"This page is generated (`aqmtools/repro/{module}`), here from: {given}. "
        "Do not edit it by hand.",
        "",
    ]


def what_was_run(
    paper: str, folders: list[Folder], kind: Callable[[Experiment], str] | None = None
) -> list[str]:
    """The section on what ran: each of PAPER's experiments that has no
    runs here (KIND: what sets it apart, printed beside its end hosts),
    and each folder given."""
    lines = ["## What was run", ""]
    if not any(f.runs for f in folders):
        why = "no results folder was given" if not folders else "the folders hold no runs"
        lines += [
            f"Nothing was run yet: {why}. Every row and every claim below is not attempted; "
            "the paper's own figures are printed alone.",
            "",
        ]
    names = {f.name for f in folders if f.runs}
    for p, e in _expected(paper):
        if e is not None and e.name not in names:
            what = f", {kind(e)}" if kind is not None else ""
            lines.append(
                f"- `{e.name}` (end hosts `{e.hosts}`{what}, `{_shown(p)}`): not attempted, "
                "no runs here."
            )
    for f in folders:
        lines += describe_folder(f)
    return lines


def quoted(
    paper: str, folders: list[Folder], markers: Sequence[str] = QUOTED, lists: bool = False
) -> list[str]:
    """The quoted parts of the experiment files' headers (quotes()), each
    once: from the folders' copies, else from the repository's files."""
    lines = []
    seen: set[str] = set()
    sources = [(f"{_shown(f.path)}/experiment.toml", f.toml) for f in folders if f.toml]
    kept_names = {f.name for f in folders if f.toml}
    for p, e in _expected(paper):
        if e is None or e.name not in kept_names:
            try:
                sources.append((_shown(p), p.read_text(encoding="utf-8")))
            except OSError:
                continue
    for src, text in sources:
        for q in quotes(text, markers, lists):
            if q in seen:
                continue
            seen.add(q)
            lines += [*(f"> {x}" for x in q.split("\n")), ">", f"> (`{src}`)", ""]
    return lines


def regenerate(paper: str, plan_note: str = "") -> list[str]:
    """The section on how to regenerate the page, its data first
    (PLAN_NOTE: said of the plan, after "`DRY_RUN=1` prints the plan")."""
    canonical = [f"build/bench/{name}" for name in plan.page_folders(paper)]
    return [
        "## Regenerate",
        "",
        f"The data (resumes where it stopped; `DRY_RUN=1` prints the plan{plan_note}), then "
        "this page (with the python3 of the project's venv, `~/.cache/linux-aqm/venv`, for "
        "matplotlib):",
        "",
        "```",
        f"make reproduce PAPER={paper}",
        _command(canonical, paper),
        "```",
        "",
        "Or this page alone from the published results (each folder's "
        "`docs/results/NAME/raw.tar.xz`, no run of one's own): "
        f"`make repro-page PAPER={paper}`.",
        "",
    ]


def extra_where(paper: str, name: str) -> str:
    """Where a page extra's runs come from (plan.PAGE_EXTRAS), for its
    section: the folder the page reads and the commands that fill it."""
    return (
        f"The page reads its runs when `build/bench/{name}` is among the page command's "
        "folders (after the paper's files', above: `plan.PAGE_EXTRAS`); "
        f"`make reproduce PAPER={paper} EXTRAS=1` runs it after the paper's files and "
        f"publishes it, or a seed at a time `scripts/bench.sh scripts/bench/experiments/"
        f"{name}.toml --keep --seed N`."
    )


def extra_head(paper: str, name: str, f: Folder | None) -> list[str]:
    """The lines after a page extra's introduction: where its runs come
    from (extra_where), said to be not run yet when F has none."""
    where = extra_where(paper, name)
    return [where if f is not None and f.runs else f"Not run yet. {where}", ""]


def setup_opening(
    paper: str,
    intro: str,
    settings: Sequence[Setting],
    folders: list[Folder],
    markers: Sequence[str],
) -> list[str]:
    """The opening of a set-up section (the AQM/ECN and the BLUE pages):
    INTRO on the rates, the paper's SETTINGS as its text gives them, and
    ours as the experiment files' headers give them (quoted() of MARKERS,
    lists kept)."""
    return [
        "## The set-up and its scaling to 10 Mbit/s",
        "",
        intro,
        "",
        "| setting | the paper | section | its words | note |",
        "|---|---|---|---|---|",
        *(
            f'| {s.what} | {s.value} | {s.section} | "{s.quote}" | {s.note or "-"} |'
            for s in settings
        ),
        "",
        "Ours, and why, as the experiment files' headers give them:",
        "",
        *quoted(paper, folders, markers, lists=True),
    ]


def lost_section(intro: str, lost: Sequence[tuple[str, str]]) -> list[str]:
    """The section on what the store's text of a paper gives and lost:
    INTRO, then each of LOST, (what, why)."""
    return [
        "## What the paper's text gives, and what it lost",
        "",
        intro,
        "",
        *(f"- {what}: {why}." for what, why in lost),
        "",
    ]


def file_runs(known: list[Slot], seeds: int | None = None) -> int:
    """The runs of KNOWN, the paper's files that read, on their reporting
    seeds (the first SEEDS of them)."""
    return sum(len(s.exp.runs(s.exp.reporting_seeds[:seeds])) for s in known if s.exp)


def by_hand(known: list[Slot]) -> list[str]:
    """How one part runs by hand: the first reporting seed of the first
    of KNOWN, the paper's files that read (nothing without one)."""
    if not known or known[0].exp is None:
        return []
    return [
        "One part (one reporting seed of one file) can also run by hand, for example:",
        "",
        "```",
        f"scripts/bench.sh {_shown(known[0].path)} --keep --seed {known[0].exp.reporting_seeds[0]}",
        "```",
        "",
    ]


def seeds_cell(runs: list[Run], wanted: list[int], none: str = "not attempted") -> str:
    """A table's cell of the seeds of RUNS: how many, which where they are
    not the WANTED ones, and how many runs are marked invalid (NONE
    without runs)."""
    have = sorted({seed_of(r) for r in runs})
    if not have:
        return none
    text = f"{len(have)}"
    if wanted and have != sorted(wanted):
        text += f" ({_seeds(have)})"
    bad = sum(bool(r.problems) for r in runs)
    return text + (f", {bad} invalid" if bad else "")


def ours_block(prof: Profile, part: str, block: Callable[[Folder], list[str]]) -> list[str]:
    """Ours beside an exhibit for one end-host profile: BLOCK of its folder
    of PART, or why it is not attempted."""
    f = prof.folder(part)
    if f is None:
        return [f"Ours, end hosts `{prof.hosts}`: not attempted ({prof.missing(part)}).", ""]
    return [f"Ours, end hosts `{prof.hosts}` (`{f.name}`):", "", *block(f)]


def judgement_lines(who: str, j: Judgement[V]) -> list[str]:
    """A judgement under its claim: WHO (the end hosts, the variant), the
    verdict and why, and each comparison."""
    return [f"{who}: **{j.verdict}**: {j.why}.", "", *[f"- {o.line()}" for o in j.outcomes], ""]


def header(folders: list[Folder]) -> list[str]:
    lines = [
        "# Reproduction: Differential congestion notification (Le et al., 2004)",
        "",
        'Le, Aikat, Jeffay and Smith, "Differential congestion notification: taming the '
        "elephants\", ICNP 2004 (the text in the project's paper store: "
        "`dcn-taming-the-elephants.txt`): the HTTP experiments of section 5.1, Table 1 and "
        "the claims made of it and of Figures 5-18. Issue 33.",
        "",
        *generated("page.py", folders),
        *what_was_run("dcn", folders),
        "",
        "## The scaling to 10 Mbit/s",
        "",
        "The paper's link is 100 Mbit/s; ours is 10 Mbit/s, with a tenth of the users, the "
        "paper's RTTs and its queue settings scaled in time. The experiment files' headers "
        "say why and how:",
        "",
    ]
    return lines + quoted("dcn", folders) + regenerate("dcn")


# Table 1's uncertain values: a footnote for each reason
_FOOTNOTES = {
    why: f"u{i}"
    for i, why in enumerate(dict.fromkeys(r.why_uncertain for r in dcn.TABLE1 if r.uncertain), 1)
}


def _paper_cell(r: dcn.Row, field: str, text: str) -> str:
    return text + (f"[^{_FOOTNOTES[r.why_uncertain]}]" if field in r.uncertain else "")


def paper_cells(r: dcn.Row) -> list[str]:
    """Loss, completed (millions, and as a percent of the uncongested
    row's at the load) and utilization as Table 1 prints them."""
    unc = dcn.row(dcn.UNCONGESTED, r.load, False)
    completed = f"{r.completed_millions}"
    if unc is not None and unc.completed_millions:
        completed += f" ({100 * r.completed_millions / unc.completed_millions:.1f}%)"
    return [
        _paper_cell(r, "loss_pct", f"{r.loss_pct}"),
        _paper_cell(r, "completed_millions", completed),
        _paper_cell(r, "throughput_mbps", f"{100 * r.utilization:.1f}"),
    ]


def _ours(runs: list[Run], of: Callable[[Run], float], spec: str) -> str:
    return mean_ci([of(r) for r in runs]).fmt(spec)


def table1_block(f: Folder | None) -> list[str]:
    """Table 1 beside ours for one folder (None: the paper's alone)."""
    res = f.results if f is not None else Results([])
    wanted = f.wanted if f is not None else []
    lines = [
        "| paper's row | load | ECN | ours | loss % paper | loss % ours "
        "| completed paper, millions (% of uncongested) | completed ours, % of uncongested "
        "| utilization % paper | utilization % ours | seeds |",
        "|---|---:|---|---|---:|---:|---:|---:|---:|---:|---|",
    ]
    for ld in dcn.LOADS:
        unc = [float(len(r.web.done)) for r in cell(res, UNCONGESTED, ld, False)]
        unc_mean: Interval = mean_ci(unc)
        for r in (x for x in dcn.TABLE1 if x.load == ld):
            for config in dcn.OURS[r.scheme]:
                runs = cell(res, config, ld, r.ecn)
                seeds = seeds_cell(runs, wanted)
                if not runs:
                    ours = ["-", "-", "-"]
                else:
                    if unc_mean.n and unc_mean.mean > 0:
                        rel = mean_ci([100 * len(x.web.done) / unc_mean.mean for x in runs]).fmt(
                            ".1f"
                        )
                    else:
                        rel = "- (no uncongested run)"
                    ours = [_ours(runs, METRICS["loss %"], ".2f"), rel]
                    ours.append(_ours(runs, utilization, ".1f"))
                p = paper_cells(r)
                lines.append(
                    f"| {r.scheme} | {ld:.0%} | {_ecn(r.ecn)} | {config} | {p[0]} | {ours[0]} "
                    f"| {p[1]} | {ours[1]} | {p[2]} | {ours[2]} | {seeds} |"
                )
    return [*lines, ""]


def table1_section(folders: list[Folder]) -> list[str]:
    lines = [
        "## Table 1 side by side",
        "",
        f"{dcn.CAPTION} The paper's values as printed (`aqmtools/repro/dcn.py`), ours the "
        "mean ± the half width of the 95% interval over the reporting seeds (Student t).",
        "",
        "- Loss: the downstream bottleneck's drops over its arrivals in the measured window.",
        "- Completed: the paper's counts (millions of requests in 90 minutes at 100 Mbit/s) "
        "are not comparable with ours (exchanges in 50 s at 10 Mbit/s, a tenth of the "
        "users), so ours are a percent of the uncongested configuration's mean at the same "
        "load and end hosts (its own spread is not in the interval), and the paper's are "
        "given with the same ratio to its uncongested row.",
        "- Utilization: throughput as a percent of the congested link (the paper's 100 "
        "Mbit/s, our 10 Mbit/s); the uncongested runs had a link ten times faster, so they "
        "can pass 100%.",
        "- PI and DCN stand twice: `-2.9ms` keeps the paper's 24 packets' delay (2 packets "
        "here), `-24pkt` its packets (ten times the delay).",
        "",
    ]
    blocks = [f for f in folders if f.runs]
    if not blocks:
        lines += ["### No results", "", *table1_block(None)]
    for f in blocks:
        lines += [f"### End hosts `{f.hosts}` (`{f.name}`, `{_shown(f.path)}`)", ""]
        lines += table1_block(f)
    lines += [
        f"[^{label}]: Uncertain in the paper's text: {why}." for why, label in _FOOTNOTES.items()
    ]
    return [*lines, ""]


def claims_section(folders: list[Folder]) -> list[str]:
    blocks = [f for f in folders if f.runs]
    lines = [
        "## Claims",
        "",
        "Each claim rests on differences paired by seed (the same seed offers the same "
        "workload to every configuration): the mean difference over the common reporting "
        "seeds ± the half width of its 95% interval. A difference is significant when its "
        "interval excludes zero; each is tested alone, with no correction for the number "
        "of comparisons. Verdicts: **reproduced**, every comparison significant in the "
        "claimed direction; **in direction only**, every mean difference in the claimed "
        'direction and some within noise (for "equal or superior": none significantly '
        "worse); **inconclusive**, none significant against the claim but some mean not in "
        "the claimed direction; **not reproduced**, some comparison significant against "
        "the claim; **not attempted**, a configuration, load or seed missing from the "
        "data. Where PI and DCN stand twice, the claim is judged for each pair "
        "(`-2.9ms` together, `-24pkt` together).",
        "",
    ]
    judged = {(c.key, i): judge(c, f.results) for c in CLAIMS for i, f in enumerate(blocks)}
    lines += ["| claim | end hosts | configurations | verdict |", "|---|---|---|---|"]
    for c in CLAIMS:
        if not blocks:
            lines.append(f"| ({c.key}) {c.title} | - | - | {NOT_ATTEMPTED} (no runs) |")
        for i, f in enumerate(blocks):
            for j in judged[(c.key, i)]:
                checks = [o.check for o in j.outcomes]
                lines.append(
                    f"| ({c.key}) {c.title} | `{f.hosts}` | {_variant_name(j.variant, checks)} "
                    f"| {j.verdict} |"
                )
    lines.append("")
    for c in CLAIMS:
        lines += [f"### ({c.key}) {c.title}", "", c.source, ""]
        if not blocks:
            lines += [f"**{NOT_ATTEMPTED}**: no runs.", ""]
        for i, f in enumerate(blocks):
            for j in judged[(c.key, i)]:
                checks = [o.check for o in j.outcomes]
                name = _variant_name(j.variant, checks)
                which = f", {name}" if j.variant is not None else ""
                lines += judgement_lines(f"End hosts `{f.hosts}` (`{f.name}`){which}", j)
    return lines


def dcn_page(dirs: list[Path]) -> str:
    """The DCN paper's reproduction page from the results folders DIRS."""
    # imported when called, as the other papers' pages: it imports this module
    from aqmtools.repro import dcn_drops, dcn_figures, dcn_pktcount

    every = [read_folder(d, dcn_drops.summarize) for d in dirs]
    # the test of the pktcount reading (a page extra) has a section of its
    # own; Table 1 and the claims read the reproduction's folders alone
    test = next((f for f in every if f.path.name == dcn_pktcount.NAME), None)
    folders = [f for f in every if f is not test]
    lines = header(every) + table1_section(folders) + claims_section(folders)
    lines += dcn_figures.section(folders) + dcn_drops.section(folders)
    lines += dcn_pktcount.section(test)
    return "\n".join(lines).rstrip("\n") + "\n"


def _aqmecn_page(dirs: list[Path]) -> str:
    """The AQM/ECN paper's page (aqmtools.repro.aqmecn_page, which imports
    this module's generic parts: imported when called, not at the top)."""
    from aqmtools.repro import aqmecn_page

    return aqmecn_page.aqmecn_page(dirs)


def _blue_page(dirs: list[Path]) -> str:
    """The BLUE paper's page (aqmtools.repro.blue_page, imported when
    called, as the AQM/ECN paper's)."""
    from aqmtools.repro import blue_page

    return blue_page.blue_page(dirs)


def _queuelaw_page(dirs: list[Path]) -> str:
    """The RED-family paper's page (aqmtools.repro.queuelaw_page, imported
    when called, as the AQM/ECN paper's)."""
    from aqmtools.repro import queuelaw_page

    return queuelaw_page.queuelaw_page(dirs)


PAGES: dict[str, Callable[[list[Path]], str]] = {
    "dcn": dcn_page,
    "aqmecn": _aqmecn_page,
    "blue": _blue_page,
    "queuelaw": _queuelaw_page,
}


def published_page(paper: str) -> str:
    """PAPER's page made from the published archives alone: each folder
    plan.page_folders names, unpacked from docs/results/NAME/raw.tar.xz
    (when published) to build/bench/NAME in a scratch directory, and the
    page made there, so that it names the folders as the first form of
    the command does and is the same page byte for byte."""
    top = plan.TOP
    names = plan.page_folders(paper)
    here = Path.cwd()
    with tempfile.TemporaryDirectory(prefix="repro-page.") as tmp:
        for name in names:
            raw = top / "docs" / "results" / name / "raw.tar.xz"
            if raw.is_file():
                archive.unpack(raw, Path(tmp) / "build" / "bench" / name)
        os.chdir(tmp)
        try:
            return PAGES[paper]([Path("build") / "bench" / n for n in names])
        finally:
            os.chdir(here)


def main(argv: list[str]) -> int:
    published = len(argv) >= 2 and argv[1] == "--published"
    if len(argv) < 3 or (published and len(argv) > 4):
        print(__doc__, file=sys.stderr)
        return 1
    paper = argv[2] if published else argv[1]
    if paper not in PAGES:
        print(
            f"page: no page for {paper!r}: the papers are {', '.join(sorted(PAGES))}",
            file=sys.stderr,
        )
        return 2
    if published:
        out = Path(argv[3]) if len(argv) > 3 else plan.TOP / "docs" / "reproduction" / f"{paper}.md"
        text = published_page(paper)
    else:
        out, dirs = Path(argv[2]), [Path(d) for d in argv[3:]]
        text = PAGES[paper](dirs)
    out.parent.mkdir(parents=True, exist_ok=True)
    out.write_text(text, encoding="utf-8")
    print(f"page: wrote {out}")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
