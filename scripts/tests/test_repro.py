"""Reproductions of the papers: the DCN paper's Table 1 as transcribed,
the plan of make reproduce, and scripts/reproduce.sh --dry-run."""

from __future__ import annotations

import dataclasses
import os
import shutil
import subprocess
import tarfile
from pathlib import Path

import pytest

from aqmtools.bench.experiment import load
from aqmtools.bench.run import run_name
from aqmtools.repro import dcn, plan

TOP = Path(__file__).resolve().parents[2]

# --- the DCN paper's Table 1 ----------------------------------------------


def test_table1_has_each_scheme_at_each_load_once() -> None:
    keys = [(r.scheme, r.ecn, r.load) for r in dcn.TABLE1]
    assert len(keys) == len(set(keys))
    without = {s for s, e, _ in keys if not e}
    with_ecn = {s for s, e, _ in keys if e}
    assert without == set(dcn.OURS)
    # the paper ran ECN with PI, AFD and RIO-PS only (Table 1)
    assert with_ecn == {dcn.PI, dcn.AFD, dcn.RIOPS}
    for scheme in without:
        assert [r.load for r in dcn.TABLE1 if r.scheme == scheme and not r.ecn] == [
            0.9,
            0.98,
            1.05,
        ]


def test_table1_values_as_printed() -> None:
    # spot checks against the paper's text, one per row label
    def get(scheme: str, load: float, ecn: bool) -> dcn.Row:
        r = dcn.row(scheme, load, ecn)
        assert r is not None
        return r

    assert get(dcn.UNCONGESTED, 1.05, False).throughput_mbps == 105.9
    assert get(dcn.DROPTAIL, 0.98, False).loss_pct == 6.0
    assert get(dcn.DCN, 0.9, False).loss_pct == 0.95
    assert get(dcn.PI, 1.05, False).loss_pct == 6.5
    assert get(dcn.AFD, 1.05, True).loss_pct == 9.2
    assert get(dcn.RIOPS, 0.98, True).completed_millions == 15.2
    assert dcn.row(dcn.DCN, 0.9, True) is None
    assert get(dcn.DROPTAIL, 0.9, False).utilization == pytest.approx(0.899)


def test_table1_marks_what_the_extraction_leaves_in_doubt() -> None:
    fields = {f.name for f in dataclasses.fields(dcn.Row)}
    for r in dcn.TABLE1:
        assert set(r.uncertain) <= fields
        assert bool(r.uncertain) == bool(r.why_uncertain)
    doubtful = {(r.scheme, r.ecn) for r in dcn.TABLE1 if r.uncertain}
    assert doubtful == {(dcn.PI, False), (dcn.PI, True), (dcn.DCN, False)}
    # the losses printed beside their labels are not in doubt
    assert all("loss_pct" not in r.uncertain for r in dcn.TABLE1 if not r.ecn)


def test_our_configurations_stand_for_the_tables_rows() -> None:
    for name in plan.PAPERS["dcn"]:
        exp = load((plan.EXPERIMENTS / name).read_text())
        ours = {q.name for q in exp.qdiscs}
        assert ours == {n for names in dcn.OURS.values() for n in names}
        assert all(dcn.scheme_of(n) is not None for n in ours)
    assert dcn.scheme_of("pie") is None


# --- the plan -------------------------------------------------------------


def _paper_file() -> Path:
    return plan.paper_files("dcn")[0]


def _hold(out: Path, file: Path, seed: int, runs: int | None = None) -> None:
    """OUT as bench.sh leaves it with RUNS of SEED's runs (default all)."""
    exp = load(file.read_text())
    out.mkdir(parents=True, exist_ok=True)
    (out / "experiment.toml").write_bytes(file.read_bytes())
    names = [run_name(*r) for r in exp.runs([seed])]
    for name in names[: len(names) if runs is None else runs]:
        (out / name).mkdir()
        (out / name / "run.json").write_text("{}\n")


def test_unknown_papers_are_refused_naming_the_known_ones() -> None:
    with pytest.raises(plan.PlanError, match="are aqmecn, blue, dcn"):
        plan.paper_files("red")
    assert [f.name for f in plan.paper_files("dcn")] == [
        "repro-dcn-paper.toml",
        "repro-dcn-linux.toml",
    ]


def test_seeds_whose_runs_are_all_present_are_skipped(tmp_path: Path) -> None:
    file, out = _paper_file(), tmp_path / "repro-dcn-paper"
    assert plan.todo(file, out, []) == [101, 102, 103, 104, 105]
    _hold(out, file, 101)
    # an interrupted part: 102 runs again whole
    _hold(out, file, 102, runs=5)
    assert plan.todo(file, out, []) == [102, 103, 104, 105]
    assert plan.todo(file, out, [101, 103]) == [103]
    assert plan.missing(file, out) == [102, 103, 104, 105]
    with pytest.raises(plan.PlanError, match="not its reporting seeds"):
        plan.todo(file, out, [1])


def test_a_folder_of_another_version_is_refused(tmp_path: Path) -> None:
    file, out = _paper_file(), tmp_path / "repro-dcn-paper"
    _hold(out, file, 101)
    (out / "experiment.toml").write_text("# another version\n")
    with pytest.raises(plan.PlanError, match="another version"):
        plan.todo(file, out, [])
    assert plan.missing(file, out) == [101, 102, 103, 104, 105]
    lines, seconds = plan.describe_file(file, out, [])
    assert "REFUSED" in lines[-1] and seconds == 0.0


def test_describe_gives_seeds_runs_and_time(tmp_path: Path) -> None:
    file = _paper_file()
    out = tmp_path / "repro-dcn-paper"
    _hold(out, file, 101)
    (out / "calibration").mkdir()
    (out / "calibration" / "calibration.json").write_text("{}\n")
    text = plan.describe("dcn", tmp_path, [101, 102])
    assert "seed 101: all 36 runs present, skipped" in text
    assert "--keep --seed 102 (about 46 min)" in text
    # the other file has no calibration yet: its first part runs it
    assert "--keep --seed 101 (about 47 min, with the calibration)" in text
    # seeds left out this time: published as a part
    assert "publish.sh --part " in text and "seeds 103, 104, 105 still to run" in text
    # 36 runs of 77 s on the first file, 72 + 1 on the second
    assert text.startswith(f"reproduce dcn: 2 experiment files, about {plan.duration(109 * 77)}")
    assert plan.duration(2772) == "46 min" and plan.duration(27_800) == "7 h 43 min"


# --- scripts/reproduce.sh -------------------------------------------------


def _reproduce(tmp_path: Path, *args: str) -> subprocess.CompletedProcess[str]:
    env = dict(os.environ, AQM_BENCH_DIR=str(tmp_path))
    return subprocess.run(
        ["bash", str(TOP / "scripts" / "reproduce.sh"), *args],
        capture_output=True,
        text=True,
        env=env,
        check=False,
        timeout=120,
    )


def test_reproduce_dry_run_prints_the_plan_and_runs_nothing(tmp_path: Path) -> None:
    _hold(tmp_path / "repro-dcn-paper", _paper_file(), 101)
    p = _reproduce(tmp_path, "--dry-run", "dcn")
    assert p.returncode == 0, p.stderr
    assert "seed 101: all 36 runs present, skipped" in p.stdout
    assert "scripts/bench.sh scripts/bench/experiments/repro-dcn-linux.toml --keep --seed 105" in (
        p.stdout
    )
    assert p.stdout.count("scripts/bench/publish.sh ") == 2
    # nothing was written beside what the test put there
    assert sorted(x.name for x in tmp_path.iterdir()) == ["repro-dcn-paper"]


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (
            ["--dry-run", "red"],
            "unknown paper 'red': the papers with a reproduction are aqmecn, blue, dcn",
        ),
        (["--dry-run"], "which paper?"),
        (["--dry-run", "--seed", "x", "dcn"], "--seed needs a seed number"),
        (["--dry-run", "--seed", "7", "dcn"], "not its reporting seeds"),
    ],
)
def test_reproduce_refuses_what_it_cannot_run(
    tmp_path: Path, args: list[str], message: str
) -> None:
    p = _reproduce(tmp_path, *args)
    assert p.returncode != 0
    assert message in p.stderr


# bench.sh in a copy of the tree: it logs its call and leaves the seed's
# runs as a finished part does (their run.json, the experiment, a summary)
STUB_BENCH = """#!/usr/bin/env bash
set -euo pipefail
echo "bench $1 $2 $3 $4" >>"$STUB_LOG"
mkdir -p "$BENCH_OUT"
cp "$1" "$BENCH_OUT/experiment.toml"
PYTHONPATH="$(dirname "$0")" python3 - "$1" "$BENCH_OUT" "$4" <<'PY'
import sys
from pathlib import Path
from aqmtools.bench.experiment import load
from aqmtools.bench.run import run_name
exp = load(Path(sys.argv[1]).read_text())
for r in exp.runs([int(sys.argv[3])]):
    d = Path(sys.argv[2]) / run_name(*r)
    d.mkdir(parents=True, exist_ok=True)
    (d / "run.json").write_text("{}\\n")
PY
touch "$BENCH_OUT/summary.md"
"""
STUB_PUBLISH = """#!/usr/bin/env bash
echo "publish $*" >>"$STUB_LOG"
"""


def _stub_tree(tmp_path: Path) -> Path:
    """A copy of what reproduce.sh uses, bench.sh and publish.sh stubbed."""
    tree = tmp_path / "tree"
    for part in (
        "scripts/reproduce.sh",
        "scripts/lib",
        "scripts/aqmtools",
        "scripts/bench/experiments",
    ):
        src, dst = TOP / part, tree / part
        dst.parent.mkdir(parents=True, exist_ok=True)
        if src.is_dir():
            shutil.copytree(src, dst, ignore=shutil.ignore_patterns("__pycache__"))
        else:
            shutil.copy2(src, dst)
    for path, text in (
        ("scripts/bench.sh", STUB_BENCH),
        ("scripts/bench/publish.sh", STUB_PUBLISH),
    ):
        (tree / path).write_text(text)
        (tree / path).chmod(0o755)
    return tree


def _run_stub(tree: Path, env: dict[str, str], cwd: Path, *args: str) -> None:
    """TREE's reproduce.sh ARGS, which must succeed. Run from outside any
    tree: python3 -m puts the working directory first on sys.path, and
    pytest's (scripts/) holds the real aqmtools."""
    p = subprocess.run(
        ["bash", str(tree / "scripts/reproduce.sh"), *args],
        capture_output=True,
        text=True,
        env=env,
        check=False,
        timeout=300,
        cwd=cwd,
    )
    assert p.returncode == 0, p.stderr


def test_reproduce_runs_what_is_missing_and_publishes(tmp_path: Path) -> None:
    tree = _stub_tree(tmp_path)
    bench, log = tmp_path / "bench", tmp_path / "log"
    env = dict(os.environ, AQM_BENCH_DIR=str(bench), STUB_LOG=str(log))

    def reproduce(*args: str) -> list[str]:
        log.write_text("")
        _run_stub(tree, env, tmp_path, *args)
        return log.read_text().splitlines()

    exps = tree / "scripts/bench/experiments"
    paper, linux = exps / "repro-dcn-paper.toml", exps / "repro-dcn-linux.toml"
    calls = reproduce("--seed", "101", "dcn")
    assert [c.split(" /")[0] for c in calls] == [
        "bench",
        "publish --part",
        "bench",
        "publish --part",
    ]
    assert calls[0] == f"bench {paper} --keep --seed 101"
    assert calls[1].startswith(f"publish --part {bench / 'repro-dcn-paper'} repro-dcn-paper ")
    assert calls[1].endswith("Seeds still to run: 102 103 104 105.")
    # the rest, each seed published once done: a part until the last
    calls = reproduce("dcn")
    assert [c for c in calls if c.startswith("bench")] == [
        f"bench {f} --keep --seed {s}" for f in (paper, linux) for s in (102, 103, 104, 105)
    ]
    assert [c.split(" /")[0] for c in calls] == 2 * (
        3 * ["bench", "publish --part"] + ["bench", "publish"]
    )
    publish = [c for c in calls if c.startswith("publish")]
    assert publish[2].endswith("Seeds still to run: 105.")
    assert publish[7].startswith(f"publish {bench / 'repro-dcn-linux'} repro-dcn-linux ")
    # all present: nothing runs again, the pages are published again
    assert [c.split(" ")[0] for c in reproduce("dcn")] == ["publish", "publish"]


def test_reproduce_from_published_runs_only_the_seeds_not_published(tmp_path: Path) -> None:
    tree = _stub_tree(tmp_path)
    bench, log = tmp_path / "bench", tmp_path / "log"
    env = dict(os.environ, AQM_BENCH_DIR=str(bench), STUB_LOG=str(log))
    exps = tree / "scripts/bench/experiments"
    paper = exps / "repro-dcn-paper.toml"
    # seeds 101-103 of the first file published (as publish.sh leaves them)
    held = tmp_path / "held"
    for seed in (101, 102, 103):
        _hold(held, paper, seed)
    pub = tree / "docs/results/repro-dcn-paper"
    pub.mkdir(parents=True)
    (pub / "summary.md").write_text(
        "<!-- written by scripts/bench/publish.sh -->\n"
        "Measured 2026-11-28 on 2 cores (Intel Xeon), 23 GiB, test VM with tcg acceleration.\n"
    )
    with tarfile.open(pub / "raw.tar.xz", "w:xz") as tar:
        for f in sorted(held.rglob("*")):
            if f.is_file():
                tar.add(f, arcname=str(f.relative_to(held)))
    log.write_text("")
    _run_stub(tree, env, tmp_path, "--from-published", "--seed", "104", "dcn")
    calls = log.read_text().splitlines()
    assert calls[0] == f"bench {paper} --keep --seed 104"
    assert calls[1].endswith("Seeds still to run: 105.")
    # the page says whose runs the earlier seeds are
    assert "measured 2026-11-28 on 2 cores (Intel Xeon), 23 GiB)" in calls[1]
    out = bench / "repro-dcn-paper"
    runs = {p.parent.name for p in out.glob("*/run.json")}
    assert len(runs) == 4 * 36 and all(
        (out / r / "ARCHIVED").exists() == (not r.endswith("s104")) for r in runs
    )
    # a folder that exists is never overwritten: the linux file, unpublished,
    # ran its seed 104 from nothing; a second call changes nothing there
    (out / "marker").write_text("x")
    _run_stub(tree, env, tmp_path, "--from-published", "--dry-run", "dcn")
    assert (out / "marker").exists()


def test_reproduce_gives_the_page_its_extras_folders(tmp_path: Path) -> None:
    tree = _stub_tree(tmp_path)
    planpy = tree / "scripts/aqmtools/repro/plan.py"
    text = planpy.read_text()
    start = text.index("PAGE_EXTRAS: dict[str, tuple[str, ...]] = {")
    end = text.index("\n}\n", start) + 3
    # the dcn page's extras replaced by one of the test's
    planpy.write_text(text[:end] + 'PAGE_EXTRAS["dcn"] = ("why-extra",)\n' + text[end:])
    bench = tmp_path / "bench"
    env = dict(os.environ, AQM_BENCH_DIR=str(bench), STUB_LOG=str(tmp_path / "log"))
    _run_stub(tree, env, tmp_path, "--seed", "101", "dcn")
    page_md = (tree / "docs/reproduction/dcn.md").read_text()
    given = [ln for ln in page_md.splitlines() if ln.startswith("This page is generated")]
    assert given and given[0].endswith(
        f"{bench}/repro-dcn-linux {bench}/why-extra. Do not edit it by hand."
    )
    assert "build/bench/repro-dcn-linux build/bench/why-extra\n" in page_md


def test_reproduce_runs_the_pages_extras_only_when_asked(tmp_path: Path) -> None:
    tree = _stub_tree(tmp_path)
    bench, log = tmp_path / "bench", tmp_path / "log"
    env = dict(os.environ, AQM_BENCH_DIR=str(bench), STUB_LOG=str(log))
    exps = tree / "scripts/bench/experiments"
    extra = plan.PAGE_EXTRAS["dcn"][0]
    _run_stub(tree, env, tmp_path, "--seed", "101", "--extras", "dcn")
    calls = log.read_text().splitlines()
    # the paper's files first, then the extra, each seed published
    assert [c for c in calls if c.startswith("bench")] == [
        f"bench {exps / f} --keep --seed 101"
        for f in ("repro-dcn-paper.toml", "repro-dcn-linux.toml", f"{extra}.toml")
    ]
    assert calls[1].split(" ")[3] == "repro-dcn-paper" and "A reproduction" in calls[1]
    assert calls[-1].startswith(f"publish --part {bench / extra} {extra} A test of why ")
    assert "`make reproduce PAPER=dcn EXTRAS=1`" in calls[-1]
    assert calls[-1].endswith("Seeds still to run: 102 103 104 105.")
    # without --extras its seeds are neither run nor planned
    log.write_text("")
    _run_stub(tree, env, tmp_path, "--seed", "102", "dcn")
    assert not [c for c in log.read_text().splitlines() if extra in c.split(" ")[1]]
    dry = _reproduce(tmp_path / "dry", "--dry-run", "dcn").stdout
    assert extra not in dry and dry.startswith("reproduce dcn: 2 experiment files")
    dry = _reproduce(tmp_path / "dry", "--dry-run", "--extras", "dcn").stdout
    assert dry.startswith("reproduce dcn: 3 experiment files") and f"\n{extra}: " in dry


def test_reproduce_runs_only_the_experiments_named(tmp_path: Path) -> None:
    tree = _stub_tree(tmp_path)
    bench, log = tmp_path / "bench", tmp_path / "log"
    env = dict(os.environ, AQM_BENCH_DIR=str(bench), STUB_LOG=str(log))
    extra = plan.PAGE_EXTRAS["dcn"][0]
    _run_stub(tree, env, tmp_path, "--extras", "--only", extra, "--seed", "101", "dcn")
    calls = log.read_text().splitlines()
    assert [c.split(" ")[0] for c in calls] == ["bench", "publish"]
    assert calls[0].startswith(f"bench {tree / 'scripts/bench/experiments' / extra}.toml ")
    # the page is still written from every folder
    page_md = (tree / "docs/reproduction/dcn.md").read_text()
    assert f"build/bench/repro-dcn-paper build/bench/repro-dcn-linux build/bench/{extra}" in page_md
    dry = _reproduce(tmp_path / "dry", "--dry-run", "--extras", "--only", extra, "dcn")
    assert dry.stdout.startswith("reproduce dcn: 1 experiment file, ")
    bad = _reproduce(tmp_path / "dry", "--only", "nope", "dcn")
    assert bad.returncode != 0 and "--only nope: not among dcn's experiments" in bad.stderr


def test_make_reproduce_passes_the_paper_and_the_dry_run() -> None:
    def make_n(*args: str) -> str:
        cmd = ["make", "-s", "-n", "-C", str(TOP), "reproduce", *args]
        return subprocess.run(cmd, capture_output=True, text=True, check=True).stdout.strip()

    assert make_n("PAPER=dcn", "DRY_RUN=1").split() == ["scripts/reproduce.sh", "--dry-run", "dcn"]
    assert make_n("PAPER=dcn", "FROM_PUBLISHED=1").split() == [
        "scripts/reproduce.sh",
        "--from-published",
        "dcn",
    ]
    assert make_n("PAPER=dcn").split() == ["scripts/reproduce.sh", "dcn"]
    assert make_n("PAPER=dcn", "EXTRAS=1").split() == ["scripts/reproduce.sh", "--extras", "dcn"]
