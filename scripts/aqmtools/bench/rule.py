"""A candidate default judged by the rule its experiment wrote down first.

dcn's candidate defaults are decided by a rule stated in the experiment
file before any run (the held-out check of issue 35): at every load, over
the reporting seeds, the candidate against the reference qdisc (pie):

(a) unfinished exchanges, summed over the seeds, at most the reference's
    + SLACK + PER_LARGE times the reference's completed responses over
    1 MB (rounded down), so that the allowance grows with how many large
    transfers a cell holds;
(b) mean loss at most the reference's + LOSS_POINTS percentage points;
(c) completed responses over 1 MB, summed, at least LARGE_SHARE of the
    reference's (rounded down), so that a queue which keeps the large
    transfers from starting cannot pass by leaving fewer of them
    unfinished.

Setting PER_LARGE to 0 and LARGE_SHARE to 0 gives the earlier rule of
dcn-qrefmin-4mbit-tuning.toml and dcn-4mbit.toml ((a) with SLACK 1 and
(b)). Only runs without ECN are judged, as the rule was written.

Usage: python3 -m aqmtools.bench.rule RESULTS CANDIDATE [--reference Q]
       [--slack N] [--per-large F] [--loss-points F] [--large-share F]
Exit status 0 when the candidate passes at every load, 1 when it fails,
2 on a usage error or missing runs.
"""

from __future__ import annotations

import argparse
import sys
from dataclasses import dataclass
from pathlib import Path
from statistics import mean

from aqmtools.bench.report import Results, class_log, seed_of
from aqmtools.bench.stats import Run, read_runs

LARGE = 1_000_000


@dataclass(frozen=True)
class Rule:
    slack: int = 1
    per_large: float = 0.1
    loss_points: float = 0.5
    large_share: float = 0.8


@dataclass(frozen=True)
class RunFigures:
    """What the rule looks at in one run."""

    seed: int
    unfinished: int
    loss_pct: float
    large_done: int


@dataclass(frozen=True)
class Cell:
    """Sums and means over the seeds of one qdisc at one load."""

    runs: list[RunFigures]

    @property
    def unfinished(self) -> int:
        return sum(r.unfinished for r in self.runs)

    @property
    def loss_pct(self) -> float:
        return mean(r.loss_pct for r in self.runs)

    @property
    def large_done(self) -> int:
        return sum(r.large_done for r in self.runs)


@dataclass(frozen=True)
class Judgement:
    max_unfinished: int
    max_loss_pct: float
    min_large_done: int
    unfinished_ok: bool
    loss_ok: bool
    large_ok: bool

    @property
    def passed(self) -> bool:
        return self.unfinished_ok and self.loss_ok and self.large_ok


def figures(r: Run) -> RunFigures:
    return RunFigures(
        seed=seed_of(r),
        unfinished=r.web.unfinished,
        loss_pct=r.link.loss * 100,
        large_done=len(class_log(r.web, LARGE, None).done),
    )


def judge(ref: Cell, cand: Cell, rule: Rule) -> Judgement:
    """The rule at one load; REF and CAND must hold the same seeds."""
    if sorted(r.seed for r in ref.runs) != sorted(r.seed for r in cand.runs):
        raise ValueError("the candidate and the reference ran on different seeds")
    if not ref.runs:
        raise ValueError("no runs to judge")
    max_unf = ref.unfinished + rule.slack + int(rule.per_large * ref.large_done)
    max_loss = ref.loss_pct + rule.loss_points
    min_large = int(rule.large_share * ref.large_done)
    return Judgement(
        max_unfinished=max_unf,
        max_loss_pct=max_loss,
        min_large_done=min_large,
        unfinished_ok=cand.unfinished <= max_unf,
        loss_ok=cand.loss_pct <= max_loss,
        large_ok=cand.large_done >= min_large,
    )


def _line(name: str, c: Cell) -> str:
    return (
        f"  {name}: unfinished {c.unfinished} {[r.unfinished for r in c.runs]}, "
        f"loss {c.loss_pct:.2f}% {[round(r.loss_pct, 2) for r in c.runs]}, "
        f"> 1 MB completed {c.large_done} {[r.large_done for r in c.runs]}"
    )


def _yes(ok: bool) -> str:
    return "yes" if ok else "no"


def report(res: Results, candidate: str, reference: str, rule: Rule) -> tuple[list[str], bool]:
    """The rule's lines for every load of RES, and whether it passed all."""
    lines: list[str] = []
    ok = True
    for load in res.loads:
        ref = Cell([figures(r) for r in res.cells.get((reference, load, False), [])])
        cand = Cell([figures(r) for r in res.cells.get((candidate, load, False), [])])
        for name, c in ((reference, ref), (candidate, cand)):
            if not c.runs:
                raise ValueError(f"no runs of {name} without ECN at load {load:g}")
        j = judge(ref, cand, rule)
        ok = ok and j.passed
        seeds = sorted(r.seed for r in ref.runs)
        lines += [
            f"load {load:g}, seeds {seeds}: {'pass' if j.passed else 'FAIL'}",
            _line(reference, ref),
            _line(candidate, cand),
            f"  (a) unfinished {cand.unfinished} <= {j.max_unfinished}: {_yes(j.unfinished_ok)}; "
            f"(b) loss {cand.loss_pct:.2f} <= {j.max_loss_pct:.2f}: {_yes(j.loss_ok)}; "
            f"(c) > 1 MB completed {cand.large_done} >= {j.min_large_done}: {_yes(j.large_ok)}",
        ]
    return lines, ok


def main(argv: list[str]) -> int:
    ap = argparse.ArgumentParser(prog="aqmtools.bench.rule", description=__doc__.splitlines()[0])
    ap.add_argument("results", type=Path)
    ap.add_argument("candidate")
    ap.add_argument("--reference", default="pie")
    d = Rule()
    ap.add_argument("--slack", type=int, default=d.slack)
    ap.add_argument("--per-large", type=float, default=d.per_large)
    ap.add_argument("--loss-points", type=float, default=d.loss_points)
    ap.add_argument("--large-share", type=float, default=d.large_share)
    a = ap.parse_args(argv[1:])
    runs = read_runs(a.results)
    if not runs:
        print(f"no runs in {a.results}", file=sys.stderr)
        return 2
    rule = Rule(a.slack, a.per_large, a.loss_points, a.large_share)
    try:
        lines, ok = report(Results(runs), a.candidate, a.reference, rule)
    except ValueError as e:
        print(f"{a.results}: {e}", file=sys.stderr)
        return 2
    print("\n".join(lines))
    print("PASS" if ok else "FAIL")
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main(sys.argv))
