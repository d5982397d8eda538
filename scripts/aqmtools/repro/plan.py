"""The plan of a paper's reproduction (scripts/reproduce.sh): its
experiment files, and for each the reporting seeds still to run.

A seed is one part (scripts/bench.sh FILE --keep --seed N). It is done
when every run of it has its run.json in the experiment's results folder;
a seed with some runs missing (a part that was interrupted) runs again
whole, so that the runs compared on a seed run close together in time.
A results folder that holds another version of the experiment file is
refused: bench.sh --keep would refuse it too, and its runs are not this
experiment's.

Usage: python3 -m aqmtools.repro.plan papers
           -> the papers with a reproduction
       python3 -m aqmtools.repro.plan files PAPER [--extras]
           -> one line per experiment file: PATH NAME (with --extras,
              then those of the page's extras, PAGE_EXTRAS)
       python3 -m aqmtools.repro.plan todo FILE OUT [--seed N]...
           -> the seeds of FILE to run into OUT, in order
       python3 -m aqmtools.repro.plan missing FILE OUT
           -> the reporting seeds of FILE that OUT does not hold whole
       python3 -m aqmtools.repro.plan describe PAPER BENCH_DIR [--seed N]... [--extras]
                                                     [--only NAME]...
           -> the plan, for people: files, seeds, runs, time
       python3 -m aqmtools.repro.plan folders PAPER
           -> the results folders PAPER's page reads, one a line: the
              files' and then its extras' (PAGE_EXTRAS)
"""

from __future__ import annotations

import argparse
import sys
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path

from aqmtools.bench.experiment import Experiment, load
from aqmtools.bench.run import run_name

TOP = Path(__file__).resolve().parents[3]
EXPERIMENTS = TOP / "scripts" / "bench" / "experiments"
# paper -> its experiment files, in the order they run: the paper's end
# hosts first, so that its own page is there first
PAPERS: dict[str, tuple[str, ...]] = {
    "dcn": ("repro-dcn-paper.toml", "repro-dcn-linux.toml"),
    # the AQM/ECN paper: its uniform RTTs (sections IV-V), then the wide RTT
    # classes that stand in for its measured distribution (section VI)
    "aqmecn": (
        "repro-aqmecn-paper.toml",
        "repro-aqmecn-widertt-paper.toml",
        "repro-aqmecn-linux.toml",
        "repro-aqmecn-widertt-linux.toml",
    ),
    # the BLUE paper (issue 33, items 3 and 4): BLUE against RED (figures 5
    # and 13), then SFB (Table III, figures 18-19); the paper's hosts first
    "blue": (
        "repro-blue-fig5-1000-paper.toml",
        "repro-blue-fig5-4000-paper.toml",
        "repro-blue-fig13-paper.toml",
        "repro-sfb-table3-4pct-paper.toml",
        "repro-sfb-table3-100pct-paper.toml",
        "repro-sfb-fig19-paper.toml",
        "repro-blue-fig5-1000-linux.toml",
        "repro-blue-fig5-4000-linux.toml",
        "repro-blue-fig13-linux.toml",
        "repro-sfb-table3-4pct-linux.toml",
        "repro-sfb-table3-100pct-linux.toml",
        "repro-sfb-fig19-linux.toml",
    ),
    # the RED-family paper (issue 33, item 5): the queue law against fixed
    # drop and mark probabilities (Figure 4), then RED, gentle RED and
    # Adaptive RED as the flows step up (Figures 11-13); the paper's hosts
    # first
    "queuelaw": (
        "repro-queuelaw-drop-paper.toml",
        "repro-queuelaw-mark-paper.toml",
        "repro-queuelaw-steps-paper.toml",
        "repro-queuelaw-drop-linux.toml",
        "repro-queuelaw-mark-linux.toml",
        "repro-queuelaw-steps-linux.toml",
    ),
}
# paper -> experiments its page reads besides its files: tests of why ours
# differs from the paper, each scripts/bench/experiments/NAME.toml, which
# the reproduction runs only when asked (reproduce.sh --extras, after the
# paper's files)
PAGE_EXTRAS: dict[str, tuple[str, ...]] = {
    # Table III's cause: sfb's limit and bins (aqmtools/repro/blue_page.py)
    "blue": ("sfb-table3-limit-linux", "sfb-fig19-increment-paper"),
    # claim (b) with pktcount counting forwarded packets (aqmtools/repro/dcn_pktcount.py)
    "dcn": ("dcn-pktcount-paper",),
}
# seconds a run of 60 s takes on the development machine, setup and the
# VM's boot spread over a part included (docs/timings.md: a part of 14 runs
# of 60 s with a 10-s drain took 1,068 s); a longer run takes its extra
# seconds more (run_s); a new results folder of web traffic also runs the
# calibration, about one run more
RUN_S = 77


def run_s(exp: Experiment) -> float:
    """Seconds a run of EXP takes: RUN_S for a run of 60 s, and the
    difference for a longer or shorter one."""
    return RUN_S + exp.duration_s - 60


class PlanError(Exception):
    """Why the plan cannot be made (shown to the user as it is)."""


@dataclass(frozen=True)
class SeedState:
    """The runs of one seed of an experiment, and how many OUT holds."""

    seed: int
    runs: tuple[str, ...]
    present: int

    @property
    def done(self) -> bool:
        return self.present == len(self.runs)


def paper_files(paper: str, extras: bool = False) -> list[Path]:
    """The experiment files of PAPER (with EXTRAS, then its page's
    extras', PAGE_EXTRAS)."""
    if paper not in PAPERS:
        known = ", ".join(sorted(PAPERS))
        raise PlanError(f"unknown paper {paper!r}: the papers with a reproduction are {known}")
    more = [f"{name}.toml" for name in PAGE_EXTRAS.get(paper, ())] if extras else []
    return [EXPERIMENTS / f for f in (*PAPERS[paper], *more)]


def read(file: Path) -> Experiment:
    return load(file.read_text(encoding="utf-8"))


def page_folders(paper: str) -> list[str]:
    """The names of the results folders PAPER's page reads, in the order
    its command gives them: its files' (as the experiments name them; a
    file that does not read, by its stem) and then PAGE_EXTRAS'."""
    names = []
    for f in paper_files(paper):
        try:
            names.append(read(f).name)
        except (OSError, ValueError):
            names.append(f.stem)
    return names + list(PAGE_EXTRAS.get(paper, ()))


def stale(file: Path, out: Path) -> bool:
    """Whether OUT holds the runs of another version of FILE."""
    kept = out / "experiment.toml"
    return kept.exists() and kept.read_bytes() != file.read_bytes()


def seed_states(exp: Experiment, out: Path, seeds: list[int]) -> list[SeedState]:
    """How much of each of SEEDS OUT holds."""
    states = []
    for seed in seeds:
        runs = tuple(run_name(*r) for r in exp.runs([seed]))
        present = sum((out / r / "run.json").exists() for r in runs)
        states.append(SeedState(seed, runs, present))
    return states


def chosen_seeds(exp: Experiment, only: list[int]) -> list[int]:
    """The reporting seeds, narrowed to ONLY (which must be among them:
    publish.sh publishes reporting seeds only)."""
    unknown = sorted(set(only) - set(exp.reporting_seeds))
    if unknown:
        raise PlanError(
            f"{exp.name}: seeds {unknown} are not its reporting seeds {exp.reporting_seeds}"
        )
    return [s for s in exp.reporting_seeds if not only or s in only]


def todo(file: Path, out: Path, only: list[int]) -> list[int]:
    """The seeds of FILE to run into OUT: those chosen that are not done."""
    exp = read(file)
    if stale(file, out):
        raise PlanError(
            f"{out} holds the runs of another version of {file.name}: move it away "
            "(or restore the file) before reproducing"
        )
    return [s.seed for s in seed_states(exp, out, chosen_seeds(exp, only)) if not s.done]


def missing(file: Path, out: Path) -> list[int]:
    """The reporting seeds of FILE that OUT does not hold whole."""
    exp = read(file)
    if stale(file, out):
        return list(exp.reporting_seeds)
    return [s.seed for s in seed_states(exp, out, exp.reporting_seeds) if not s.done]


def duration(seconds: float) -> str:
    """SECONDS as hours and minutes ("3 h 51 min", "46 min")."""
    minutes = round(seconds / 60)
    h, m = divmod(minutes, 60)
    return f"{h} h {m} min" if h else f"{m} min"


def _shown(path: Path) -> str:
    """PATH relative to the repository when inside it."""
    return str(path.relative_to(TOP)) if path.is_relative_to(TOP) else str(path)


def _configs(exp: Experiment) -> str:
    """The configurations of a load: without ECN, then with (an
    experiment that runs only one of them names only that one)."""
    off = [q.name for q in exp.qdiscs] if False in exp.ecn else []
    on = [q.name for q in exp.qdiscs if q.ecn_runs] if any(exp.ecn) else []
    parts = [f"without ECN {', '.join(off)}"] if off else []
    return "; ".join(parts + ([f"with ECN {', '.join(on)}"] if on else []))


def _loads(exp: Experiment) -> str:
    """The loads, with the long flows each starts where the load sets them
    (or the steps in which they join)."""
    steps = ""
    if exp.long_steps:
        flows = ", ".join(f"{n} at {t:g} s" for t, n in exp.long_steps)
        steps = f" (long flows in steps: {flows})"
    loads = ", ".join(
        f"{x:.0%}" + (f" ({exp.long_flows_at(x)} long flows)" if exp.long_flows_by_load else "")
        for x in exp.loads
    )
    return loads + steps


def describe_file(file: Path, out: Path, only: list[int]) -> tuple[list[str], float]:
    """The plan of one experiment file, and its seconds still to run."""
    exp = read(file)
    per_seed = len(exp.runs([exp.reporting_seeds[0]]))
    each = run_s(exp)
    lines = [
        f"{exp.name}: {_shown(file)} -> {_shown(out)}",
        f"  hosts {exp.hosts}, {exp.rate_bps / 1e6:g} Mbit/s, loads "
        f"{_loads(exp)}; {per_seed} runs a seed "
        f"(about {duration(per_seed * each)}); a load: {_configs(exp)}",
    ]
    if stale(file, out):
        lines.append(f"  REFUSED: {_shown(out)} holds another version of the experiment")
        return lines, 0.0
    seconds = 0.0
    # only web traffic is calibrated (run.py)
    calibrated = not exp.uses_webgen or (out / "calibration" / "calibration.json").exists()
    for s in seed_states(exp, out, chosen_seeds(exp, only)):
        if s.done:
            lines.append(f"  seed {s.seed}: all {len(s.runs)} runs present, skipped")
            continue
        part = len(s.runs) * each + (0 if calibrated else each)
        note = "" if calibrated else ", with the calibration"
        calibrated = True
        seconds += part
        lines.append(
            f"  seed {s.seed}: {s.present} of {len(s.runs)} runs present; "
            f"scripts/bench.sh {_shown(file)} --keep --seed {s.seed} "
            f"(about {duration(part)}{note})"
        )
    planned = set(chosen_seeds(exp, only))
    left = [s for s in missing(file, out) if s not in planned]
    flag = "--part " if left else ""
    lines.append(
        f"  then scripts/bench/publish.sh {flag}{_shown(out)} {exp.name} -> docs/results/{exp.name}"
    )
    if left:
        lines.append(f"    (a part: seeds {', '.join(map(str, left))} still to run)")
    return lines, seconds


def describe(
    paper: str,
    bench_dir: Path,
    only: list[int],
    extras: bool = False,
    names: Sequence[str] = (),
) -> str:
    """The whole plan of PAPER's reproduction, for people (with EXTRAS,
    its page's extras too; NAMES: only those experiments)."""
    files = paper_files(paper, extras)
    if names:
        files = [f for f in files if read(f).name in names]
    lines: list[str] = []
    total = 0.0
    for file in files:
        more, seconds = describe_file(file, bench_dir / read(file).name, only)
        lines += more
        total += seconds
    head = (
        f"reproduce {paper}: {len(files)} experiment file{'s' if len(files) != 1 else ''}, "
        f"about {duration(total)} to run "
        f"({RUN_S} s a run of 60 s on the development machine)"
    )
    return "\n".join([head, *lines])


def main(argv: list[str]) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    sub = ap.add_subparsers(dest="cmd", required=True)
    sub.add_parser("papers")
    p = sub.add_parser("files")
    p.add_argument("paper")
    p.add_argument("--extras", action="store_true")
    sub.add_parser("folders").add_argument("paper")
    for name in ("todo", "missing"):
        p = sub.add_parser(name)
        p.add_argument("file", type=Path)
        p.add_argument("out", type=Path)
        if name == "todo":
            p.add_argument("--seed", type=int, action="append", default=[])
    p = sub.add_parser("describe")
    p.add_argument("paper")
    p.add_argument("bench_dir", type=Path)
    p.add_argument("--seed", type=int, action="append", default=[])
    p.add_argument("--extras", action="store_true")
    p.add_argument("--only", action="append", default=[])
    a = ap.parse_args(argv[1:])
    try:
        if a.cmd == "papers":
            print(" ".join(sorted(PAPERS)))
        elif a.cmd == "files":
            for f in paper_files(a.paper, a.extras):
                print(f, read(f).name)
        elif a.cmd == "folders":
            print("\n".join(page_folders(a.paper)))
        elif a.cmd == "todo":
            print(" ".join(map(str, todo(a.file, a.out, a.seed))))
        elif a.cmd == "missing":
            print(" ".join(map(str, missing(a.file, a.out))))
        else:
            print(describe(a.paper, a.bench_dir, a.seed, a.extras, a.only))
    except PlanError as e:
        print(f"reproduce: {e}", file=sys.stderr)
        return 2
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
