"""scripts/bench/publish.sh refuses a results folder that holds a run newer
than its summary.md: the page is the summary the runner wrote, the
archive every run in the folder, so a seed still running beside a --part
publication (the riops-10mbit part 2 of 2026-11-28) would be archived but
not on the page."""

from __future__ import annotations

import json
import os
import subprocess
from pathlib import Path

TOP = Path(__file__).resolve().parents[2]
PUBLISH = TOP / "scripts/bench/publish.sh"


def _results(tmp_path: Path, run_age_s: float) -> Path:
    src = tmp_path / "exp"
    run = src / "pie-load90-ecn0-s103"
    run.mkdir(parents=True)
    (src / "experiment.toml").write_text('name = "exp"\n')
    (src / "summary.md").write_text("# Benchmark summary\n")
    (run / "run.json").write_text(json.dumps({"seed": 103, "seed_set": "reporting"}))
    t = (src / "summary.md").stat().st_mtime
    os.utime(run / "run.json", (t + run_age_s, t + run_age_s))
    return src


def test_a_run_newer_than_the_summary_is_refused(tmp_path: Path) -> None:
    src = _results(tmp_path, 60)
    name = "publish-test-never-written"
    p = subprocess.run(
        ["bash", str(PUBLISH), "--part", str(src), name], capture_output=True, text=True
    )
    assert p.returncode != 0
    assert "newer than its summary.md" in p.stderr
    assert "pie-load90-ecn0-s103" in p.stderr
    assert not (TOP / "docs/results" / name).exists()
