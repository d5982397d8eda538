"""Claim (b) with pktcount counting forwarded packets (aqmtools.repro.
dcn_pktcount): the experiment file against the reproduction's, and the
hypotheses' verdicts on synthetic results folders (test_repro_page.py's
runs, renamed to the experiment's configurations)."""

from __future__ import annotations

import json
import shutil
from collections.abc import Callable
from pathlib import Path

from test_repro_page import _run

from aqmtools.bench.experiment import Experiment
from aqmtools.repro import dcn_pktcount as pk
from aqmtools.repro import page, plan

SEEDS = (101, 102, 103, 104, 105)
Loss = Callable[[str, float, int], float]


def _exp(name: str) -> Experiment:
    return plan.read(plan.EXPERIMENTS / f"{name}.toml")


def test_the_file_is_the_reproductions_but_for_the_floor() -> None:
    test, repro = _exp(pk.NAME), _exp("repro-dcn-paper")
    specs = {q.name: q.spec for q in test.qdiscs}
    assert sorted(specs) == sorted(pk.configs())
    ours = {q.name: q.spec for q in repro.qdiscs}
    for name, spec in specs.items():
        if name.endswith("-forwarded"):
            base = ours[name.removesuffix("-forwarded")]
            assert "floor 0" in base and spec == base.replace("floor 0", "floor 1")
        else:
            assert spec == ours[name]
    # the same end hosts, link, users and seeds; claim (b)'s loads, no ECN
    same: tuple[str, ...] = ("rate_bps", "duration_s", "warmup_s", "drain_s", "clients")
    same += (
        "servers",
        "rtt_ms",
        "cc",
        "hosts",
        "paper_window",
        "workload",
        "calibrate_users",
        "reporting_seeds",
    )
    same += ("reference", "seed")
    for key in same:
        assert getattr(test, key) == getattr(repro, key), key
    assert tuple(test.loads) == pk.LOADS == page.HIGH
    assert list(test.ecn) == [False] and not test.tuning_seeds
    # the page reads it as an extra, which make reproduce runs only when asked
    assert plan.page_folders("dcn")[-1] == pk.NAME
    assert all(pk.NAME not in str(f) for f in plan.paper_files("dcn"))
    assert plan.paper_files("dcn", extras=True)[-1].name == f"{pk.NAME}.toml"


def _folder(out: Path, loss: Loss, seeds: tuple[int, ...] = SEEDS) -> Path:
    """Every run of the experiment on SEEDS with LOSS(config, load, seed):
    test_repro_page's runs under the experiment's names and specs."""
    out.mkdir(parents=True)
    shutil.copy(plan.EXPERIMENTS / f"{pk.NAME}.toml", out / "experiment.toml")
    specs = {q.name: q.spec for q in _exp(pk.NAME).qdiscs}
    for seed in seeds:
        for ld in pk.LOADS:
            for order, q in enumerate(pk.configs()):
                like = q.removesuffix("-forwarded")
                stage = out.parent / "stage"
                _run(stage, like, ld, False, seed, loss(q, ld, seed))
                d = stage / f"{like}-load{round(ld * 100)}-ecn0-s{seed}"
                meta = json.loads((d / "run.json").read_text())
                meta |= {"experiment": pk.NAME, "qdisc": q, "spec": specs[q], "order": order}
                (d / "run.json").write_text(json.dumps(meta))
                d.rename(out / f"{q}-load{round(ld * 100)}-ecn0-s{seed}")
    return out


def _loss(pi: float, arrivals: float, forwarded: float) -> Loss:
    """PI, dcn counting arrivals and dcn counting forwarded packets lose
    these points above drop-tail's 5%, and each seed moves them all."""

    def loss(q: str, ld: float, seed: int) -> float:
        base = 5 + 0.5 * (seed - 101) + (ld - 0.98) * 10
        noise = 0.1 * ((seed * 7) % 3 - 1)
        if q.endswith("-forwarded"):
            return base + forwarded + noise
        if q.startswith("dcn"):
            return base + arrivals - noise
        return base + pi if q.startswith("pi") else base

    return loss


def _verdicts(text: str) -> dict[tuple[str, str], str]:
    """(target, hypothesis) -> the verdict the section prints."""
    out, target = {}, ""
    for line in text.splitlines():
        if line.startswith("#### Target "):
            target = line.removeprefix("#### Target ")
        elif line.startswith(("H1, ", "H2, ", "control, ")):
            out[(target, line.split(",")[0])] = line.split("**")[1]
    return out


def test_the_hypotheses_hold_when_forwarded_loses_least(tmp_path: Path) -> None:
    f = page.read_folder(_folder(tmp_path / pk.NAME, _loss(1.0, 3.0, -1.0)))
    text = "\n".join(pk.section(f))
    v = _verdicts(text)
    assert v == {(t, h): "holds" for t in pk.TARGETS for h in ("H1", "H2", "control")}
    # the loss table: every configuration, both loads, five seeds
    rows = [x for x in text.splitlines() if x.startswith("| dcn-24pkt-forwarded |")]
    assert len(rows) == 1 and rows[0].endswith("| 5 |")
    # H1 at 98%: -2.00 points over the five seeds, paired
    assert "dcn-2.9ms-forwarded (no ECN) minus pi-2.9ms (no ECN): -2.00 ± " in text
    # response times are printed beside, not judged
    rt = [x for x in text.splitlines() if x.startswith("| dcn-24pkt-forwarded minus pi-24pkt |")]
    assert len(rt) == 1 and rt[0].count("within noise") == 4, rt
    assert "Not run yet" not in text


def test_a_reading_that_changes_nothing_fails_h1_and_not_h2(tmp_path: Path) -> None:
    # forwarded as arrivals, both above PI: H1 fails, H2 within noise
    f = page.read_folder(_folder(tmp_path / pk.NAME, _loss(1.0, 3.0, 3.0)))
    text = "\n".join(pk.section(f))
    v = _verdicts(text)
    # worded as a hypothesis stated before the runs, not a paper's claim
    assert (
        "H1, the reading decides (b): dcn counting forwarded packets loses less than PI: "
        "**fails**: significant against the hypothesis: " in text
    )
    assert "stated below 0: significant, AGAINST the hypothesis" in text
    assert "claim" not in text[text.index("### The hypotheses") :]
    assert v[("2.9ms", "H1")] == "fails" and v[("24pkt", "H1")] == "fails"
    assert v[("2.9ms", "H2")] not in ("holds", "fails")
    assert v[("2.9ms", "control")] == "holds"


def test_one_seed_gives_no_verdict(tmp_path: Path) -> None:
    f = page.read_folder(_folder(tmp_path / pk.NAME, _loss(1.0, 3.0, -1.0), seeds=(101,)))
    v = _verdicts("\n".join(pk.section(f)))
    assert set(v.values()) == {"no verdict"}


def test_without_runs_the_section_says_not_run_yet(tmp_path: Path) -> None:
    assert "Not run yet." in "\n".join(pk.section(None))
    absent = page.read_folder(tmp_path / pk.NAME)
    assert "Not run yet." in "\n".join(pk.section(absent))


def test_the_dcn_page_keeps_the_test_out_of_table_1_and_the_claims(tmp_path: Path) -> None:
    test = _folder(tmp_path / "bench" / pk.NAME, _loss(1.0, 3.0, -1.0))
    text = page.dcn_page([tmp_path / "bench" / "repro-dcn-paper", test])
    start = text.index("## Claim (b) with pktcount counting forwarded packets, tested")
    assert f"(`{pk.NAME}`)" not in text[text.index("## Table 1") : start]
    assert "**holds**" in text[start:]
    # the folder is listed among what was run
    assert f"`{pk.NAME}`): " in text[: text.index("## Table 1")]


def test_the_loss_table_flags_runs_marked_invalid(tmp_path: Path) -> None:
    out = _folder(tmp_path / pk.NAME, _loss(1.0, 3.0, -1.0))
    d = out / "pi-24pkt-load105-ecn0-s103"
    meta = json.loads((d / "run.json").read_text())
    (d / "run.json").write_text(json.dumps(meta | {"valid": False}))
    text = "\n".join(pk.section(page.read_folder(out)))
    row = next(x for x in text.splitlines() if x.startswith("| pi-24pkt |"))
    assert row.endswith("| 5, 1 run marked invalid |")
    # and the comparisons that rest on it say so
    assert "includes runs marked invalid (netem dropped)" in text
