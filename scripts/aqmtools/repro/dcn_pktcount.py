"""Claim (b) of the DCN paper's reproduction with pktcount counting
forwarded packets: the section of docs/reproduction/dcn.md that reads
scripts/bench/experiments/dcn-pktcount-paper.toml's runs (a page extra,
plan.PAGE_EXTRAS: `make reproduce PAPER=dcn EXTRAS=1` runs it).

The paper defines pktcount twice: section 3.2 counts a flow's packets
"that have arrived at the router" in a period of Tdec, and writes DCN's
drop probability 1 - pref/pktcount with that count; section 3.1 says HB
keeps "the count of the number of forwarded packets". The reproduction
ran the first (dcn's floor 0) and claim (b), DCN's loss below PI's, failed.
The experiment runs dcn with either reading beside PI and drop-tail on the
same seeds, and its header states the hypotheses before any run; this
module judges them as the page judges the paper's claims (page.Check,
page.evaluate, page.verdict: paired 95% intervals over the seeds).
"""

from __future__ import annotations

import math
from dataclasses import dataclass

from aqmtools.bench.intervals import mean_ci
from aqmtools.bench.report import seed_of
from aqmtools.repro import dcn_drops, page
from aqmtools.repro.page import Check, Folder

NAME = "dcn-pktcount-paper"
LOADS = (0.98, 1.05)
TARGETS = ("2.9ms", "24pkt")
DROPTAIL = "droptail"


def pi(t: str) -> str:
    return f"pi-{t}"


def arrivals(t: str) -> str:
    """dcn counting every arrival (floor 0), the reproduction's."""
    return f"dcn-{t}"


def forwarded(t: str) -> str:
    """dcn counting forwarded packets (floor 1)."""
    return f"dcn-{t}-forwarded"


def configs() -> tuple[str, ...]:
    """The experiment's configurations in the order the page prints them."""
    return (DROPTAIL, *(q for t in TARGETS for q in (pi(t), arrivals(t), forwarded(t))))


@dataclass(frozen=True)
class Hypothesis:
    """One of the experiment file's hypotheses for a target: B minus A of
    the loss, with the sign it states."""

    key: str
    title: str
    a: str
    b: str
    sign: int

    def checks(self, figure: str = "loss %") -> list[Check]:
        return [
            page.Stated((self.a, ld, False), (self.b, ld, False), figure, self.sign) for ld in LOADS
        ]


def hypotheses(t: str) -> list[Hypothesis]:
    """H1, H2 and the control of the experiment file's header, for T."""
    return [
        Hypothesis(
            "H1",
            "the reading decides (b): dcn counting forwarded packets loses less than PI",
            pi(t),
            forwarded(t),
            -1,
        ),
        Hypothesis(
            "H2",
            "the reading matters: dcn counting forwarded packets loses less than dcn "
            "counting arrivals",
            arrivals(t),
            forwarded(t),
            -1,
        ),
        Hypothesis(
            "control",
            "dcn counting arrivals loses more than PI, as in the reproduction",
            pi(t),
            arrivals(t),
            +1,
        ),
    ]


def loss_table(f: Folder) -> list[str]:
    """The loss of each configuration at each load: mean ± 95% interval."""
    fig = page.FIGURES["loss %"]
    heads = " | ".join(f"{ld:.0%}" for ld in LOADS)
    lines = [
        f"| configuration | loss % at {heads} | seeds |",
        "|---|" + "---:|" * len(LOADS) + "---|",
    ]
    for q in configs():
        cells, seeds, bad = [], set(), 0
        for ld in LOADS:
            runs = page.cell(f.results, q, ld, False)
            seeds |= {seed_of(r) for r in runs}
            bad += sum(bool(r.problems) for r in runs)
            xs = [x for x in (fig.of(r) for r in runs) if not math.isnan(x)]
            cells.append(mean_ci(xs).fmt(fig.spec) if xs else "-")
        flagged = f", {bad} run{'s' if bad != 1 else ''} marked invalid" if bad else ""
        lines.append(f"| {q} | {' | '.join(cells)} | {len(seeds)}{flagged} |")
    return [*lines, ""]


def judged(f: Folder) -> list[str]:
    """Each hypothesis for each target: the verdict and its comparisons,
    then the response times of the same pairs, printed and not judged."""
    lines: list[str] = []
    for t in TARGETS:
        lines += [f"#### Target {t}", ""]
        for h in hypotheses(t):
            outcomes = [page.evaluate(f.results, c) for c in h.checks()]
            lines += page.hypothesis_block(h.key, h.title, outcomes)
        lines += rt_table(f, t)
    return lines


# the response-time figures printed beside the hypotheses
RT = ("RT p50", "RT p90")


def rt_table(f: Folder, t: str) -> list[str]:
    """The response times of the hypotheses' pairs for T, printed and not
    judged: B minus A paired by seed, ms, and whether it is significant."""
    heads = [f"{fig} at {ld:.0%}" for fig in RT for ld in LOADS]
    lines = [
        "Response times of the same pairs, ms (printed, not judged):",
        "",
        "| B minus A | " + " | ".join(heads) + " |",
        "|---|" + "---|" * len(heads),
    ]
    notes: set[str] = set()
    for h in hypotheses(t):
        cells = []
        for fig in RT:
            for c in h.checks(fig):
                o = page.evaluate(f.results, c)
                notes |= set(o.notes)
                cells.append(o.pair.verdict(c.fig().spec) if o.pair is not None else "-")
        lines.append(f"| {h.b} minus {h.a} | " + " | ".join(cells) + " |")
    lines.append("")
    return lines + [f"Note: {n}." for n in sorted(notes)] + ([""] if notes else [])


def section(f: Folder | None) -> list[str]:
    """The page's section on the experiment (F: its folder, if given)."""
    lines = [
        "## Claim (b) with pktcount counting forwarded packets, tested",
        "",
        "Not a reproduction: a test of why claim (b) failed. The paper defines pktcount "
        'twice: section 3.2 counts a flow\'s packets "that have arrived at the router" in '
        "a period of Tdec, and writes the drop probability 1 - pref/pktcount with that "
        'count; section 3.1 says HB keeps "the count of the number of forwarded packets". '
        "The runs above count arrivals (dcn's `floor 0`); under that reading a flow that "
        "loses packets keeps its count, and its probability, high. "
        f"`scripts/bench/experiments/{NAME}.toml` runs dcn with either reading "
        "(`dcn-X`: arrivals, `dcn-X-forwarded`: forwarded packets, `floor 1`) beside PI and "
        "drop-tail at 98% and 105% load without ECN, everything else as `repro-dcn-paper`, "
        "on the same reporting seeds. Its header states, before any run, three hypotheses "
        "for each target, on the loss: H1, dcn-X-forwarded minus pi-X below zero (claim "
        "(b) holds under section 3.1's reading); H2, dcn-X-forwarded minus dcn-X below zero "
        "(the reading matters); the control, dcn-X minus pi-X above zero (the "
        "reproduction's result again). Each is judged as the claims above: **holds** when "
        "every comparison is significant as stated, **in direction only**, "
        "**inconclusive** or **fails** (some comparison significant against it).",
        "",
    ]
    lines += page.extra_head("dcn", NAME, f)
    if f is None or not f.runs:
        return lines
    lines += ["The loss, % of the bottleneck's arrivals:", ""]
    lines += loss_table(f)
    lines += ["### The hypotheses", ""]
    lines += judged(f)
    lines += [
        "### Where the early drops fell, by reading",
        "",
        "The figures of the section above, for these runs:",
        "",
    ]
    dcns = tuple(q for t in TARGETS for q in (arrivals(t), forwarded(t), pi(t)))
    return lines + dcn_drops.block(f, dcns, LOADS)
