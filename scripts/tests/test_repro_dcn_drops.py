"""Where DCN's and PI's early drops fell (aqmtools.repro.dcn_drops): the
figures over a run's measured window, and the DCN page's section, on
synthetic results folders (test_repro_page.py's runs with aqmstat records)."""

from __future__ import annotations

import json
import re
from pathlib import Path
from typing import Any

import pytest
from test_repro_page import _folder

from aqmtools.bench.stats import read_run
from aqmtools.repro import dcn, page
from aqmtools.repro import dcn_drops as dd

# test_repro_page's runs: 10 s, the first 1 s a warm-up, no start_wall
DURATION, WARMUP = 10, 1


def _records(d: Path, recs: list[dict[str, Any]], spec: str) -> None:
    (d / "aqmstat-down.jsonl").write_text("".join(json.dumps(r) + "\n" for r in recs))
    meta = json.loads((d / "run.json").read_text())
    (d / "run.json").write_text(json.dumps(meta | {"spec": spec}))


def _dcn_records(pref: float, scale: int = 1) -> list[dict[str, Any]]:
    """A second: 900 sent, 100 dropped early, SCALE x 60 of them at a
    probability >= 1/2; 40 flows in HB, 8 above PREF. The warm-up's
    records count a thousand times more and hold other levels, so that a
    figure that read them would be off."""
    out = []
    for t in range(DURATION + 1):
        k = t if t >= WARMUP else 1000 * t
        inside = t >= WARMUP
        r: dict[str, Any] = {"wall": float(t), "kind": "dcn", "qlen": 3 if inside else 500}
        r |= {"pref": pref if inside else 999.0, "hb_flows": 40 if inside else 1}
        r |= {"over_pref": 8 if inside else 0, "packets": 900 * k, "drops": 100 * k, "bytes": 0}
        r |= {"early_drops": 100 * k, "penalty_drops": 60 * scale * k, "forced_drops": 0}
        out.append(r)
    return out


def test_summarize_reads_dcn_over_the_window_only(tmp_path: Path) -> None:
    out = _folder(tmp_path / "f", lambda q, ld, e, s: 5.0)
    d = out / "dcn-24pkt-load105-ecn0-s101"
    _records(d, _dcn_records(12.0), "dcn limit 1000 qref 24 floor 0 holdoff 0")
    s = dd.summarize(read_run(d))
    assert s["mean queue, packets"] == pytest.approx(3.0)
    assert s["pref, packets a Tdec"] == pytest.approx(12.0)
    assert s["flows in HB"] == pytest.approx(40.0)
    assert s["flows in HB above pref"] == pytest.approx(8.0)
    assert s["early drops, % of arrivals"] == pytest.approx(10.0)
    assert s["early drops at probability >= 1/2, % of early drops"] == pytest.approx(60.0)
    # 100 early drops a second over 8 flows above pref
    assert s["early drops a second per flow above pref"] == pytest.approx(12.5)
    assert "drop probability, %" not in s


def test_summarize_reads_pis_probability_and_nothing_of_dcn(tmp_path: Path) -> None:
    out = _folder(tmp_path / "f", lambda q, ld, e, s: 5.0)
    d = out / "pi-24pkt-load105-ecn0-s101"
    recs = []
    for t in range(DURATION + 1):
        k = t if t >= WARMUP else 1000 * t
        r = {"wall": float(t), "kind": "pi", "qlen": 20, "prob": 0.03 if t >= WARMUP else 0.9}
        r |= {"packets": 970 * k, "drops": 30 * k, "early_drops": 30 * k, "bytes": 0}
        recs.append(r)
    _records(d, recs, "pi limit 1000 qref 24")
    s = dd.summarize(read_run(d))
    assert s["drop probability, %"] == pytest.approx(3.0)
    assert s["early drops, % of arrivals"] == pytest.approx(3.0)
    assert s["mean queue, packets"] == pytest.approx(20.0)
    assert not {"pref, packets a Tdec", "flows in HB above pref"} & set(s)
    assert "early drops a second per flow above pref" not in s


def test_summarize_of_a_run_without_records_is_empty(tmp_path: Path) -> None:
    out = _folder(tmp_path / "f", lambda q, ld, e, s: 5.0)
    assert dd.summarize(read_run(out / "droptail-load90-ecn0-s101")) == {}


def _cells(text: str, config: str, figure: str) -> list[str]:
    for line in text.splitlines():
        c = [x.strip() for x in line.strip("|").split("|")]
        if c[:2] == [config, figure]:
            return c[2:]
    raise AssertionError(f"no row {config} / {figure}")


def test_the_section_gives_each_figure_by_load_with_intervals(tmp_path: Path) -> None:
    out = _folder(tmp_path / "f", lambda q, ld, e, s: 5.0)
    # dcn-24pkt at 105%: penalty shares 60, 30 and 90% over the seeds
    for seed, scale in ((101, 1), (102, 0.5), (103, 1.5)):
        d = out / f"dcn-24pkt-load105-ecn0-s{seed}"
        recs = _dcn_records(10.0 + seed - 101)
        for r in recs:
            r["penalty_drops"] = round(r["early_drops"] * 0.6 * scale)
        _records(d, recs, "dcn limit 1000 qref 24 tdec 800ms floor 0 holdoff 0")
    text = "\n".join(dd.section([page.read_folder(out, dd.summarize)]))
    assert "`floor 0`" in text and "with pktcount counting forwarded packets, tested" in text
    pen = _cells(text, "dcn-24pkt", "early drops at probability >= 1/2, % of early drops")
    # the loads without records have none; 105%: mean 60, t(2) 4.303 x 30 / sqrt(3)
    assert pen[:2] == ["-", "-"]
    assert re.fullmatch(r"60 ± 75", pen[2]), pen
    assert pen[3] == "3"
    assert _cells(text, "dcn-24pkt", "pref, packets a Tdec")[2].startswith("11.0 ± ")
    # PI's rows are left out where it has no figure; the dcn rows it lacks too
    with pytest.raises(AssertionError):
        _cells(text, "pi-24pkt", "pref, packets a Tdec")
    with pytest.raises(AssertionError):
        _cells(text, "dcn-2.9ms", "mean queue, packets")


def test_another_floor_is_named_and_no_runs_say_so(tmp_path: Path) -> None:
    out = _folder(tmp_path / "f", lambda q, ld, e, s: 5.0)
    for seed in (101, 102, 103):
        d = out / f"dcn-2.9ms-load90-ecn0-s{seed}"
        _records(d, _dcn_records(20.0), "dcn limit 1000 qref 2 floor 1")
    text = "\n".join(dd.section([page.read_folder(out, dd.summarize)]))
    assert "dcn's floor 1" in text and "`floor 0`" not in text
    none = dd.section([page.read_folder(tmp_path / "absent")])
    assert "No runs." in none


def test_the_dcn_page_carries_the_section_after_the_claims(tmp_path: Path) -> None:
    out = _folder(tmp_path / "f", lambda q, ld, e, s: 5.0)
    text = page.dcn_page([out])
    assert text.index("## Claims") < text.index("## Where the early drops fell")
    assert len(dd.PAIRS) == 2 and all(p[0] in dcn.OURS[dcn.DCN] for p in dd.PAIRS)
    assert all(p[1] in dcn.OURS[dcn.PI] for p in dd.PAIRS)
