"""Figures of a benchmark run and the report built from them."""

from __future__ import annotations

import json
import math
from pathlib import Path

import pytest
from tcdump import tc_dump

from aqmtools.bench import report
from aqmtools.bench.run import eta_s, received_bytes, split, users_for
from aqmtools.bench.stats import (
    Exchange,
    bytes_by_size,
    cdf,
    jain,
    link_figures,
    quantile,
    read_run,
    read_web,
    udp_goodputs,
    window_figures,
)

HEADER = "user,conn,server,start_us,first_byte_us,end_us,req_bytes,resp_bytes,persistent,status\n"


def _row(start: int, end: int, size: int, status: str = "ok") -> str:
    return f"0,0,10.2.1.2:8080,{start},{start},{end},300,{size},1,{status}\n"


def test_read_web_sorts_exchanges_by_status() -> None:
    log = read_web(
        [
            HEADER + _row(0, 1000, 10) + _row(5, 9, 1, "warmup"),
            HEADER + _row(10, 2_000_010, 20) + _row(1, 2, 0, "unfinished") + _row(3, 4, 0, "error"),
        ]
    )
    assert log.done == [Exchange(0, 1000, 10), Exchange(10, 2_000_010, 20)]
    assert [e.seconds for e in log.done] == [0.001, 2.0]
    assert (log.warmup, log.unfinished, log.errors) == (1, 1, 1)
    # the unfinished exchange, cut off at its logged end: censored at 1 us
    assert log.cut == [Exchange(1, 2, 0)]
    with pytest.raises(ValueError):
        read_web([HEADER + _row(0, 1, 1, "lost")])


def test_received_bytes_counts_measured_exchanges_only() -> None:
    text = HEADER + _row(0, 1, 100) + _row(0, 1, 50, "warmup") + _row(0, 1, 7)
    assert received_bytes(text) == 107
    assert received_bytes("") == 0


def test_cdf_quantile_and_bytes_by_size() -> None:
    xs, ys = cdf([3.0, 1.0, 2.0, 4.0])
    assert xs == [1.0, 2.0, 3.0, 4.0] and ys == [0.25, 0.5, 0.75, 1.0]
    vals = [float(v) for v in range(1, 101)]
    assert quantile(vals, 0.5) == 50.0
    assert quantile(vals, 0.9) == 90.0
    assert quantile(vals, 1.0) == 100.0
    assert math.isnan(quantile([], 0.5))
    sizes, frac = bytes_by_size([Exchange(0, 1, s) for s in (1000, 1, 999)])
    assert sizes == [1, 999, 1000]
    assert frac == [0.0005, 0.5, 1.0]


def test_jain() -> None:
    assert jain([5.0, 5.0, 5.0]) == 1.0
    assert jain([1.0, 0.0, 0.0, 0.0]) == 0.25
    assert math.isnan(jain([]))


def test_population_for_a_load() -> None:
    # 100 kbit/s a user: 98% of 10 Mbit/s needs 98 users
    assert users_for(0.98, 10_000_000, 100_000) == 98
    assert users_for(1.05, 10_000_000, 100_000) == 105
    assert split(10, 4) == [3, 3, 2, 2]
    assert sum(split(7, 8)) == 7


def _q(packets: int, nbytes: int, drops: int, **extra: int) -> list[dict[str, object]]:
    return tc_dump(packets, nbytes, drops, "pi", **extra)


def test_link_figures_are_differences_over_the_run() -> None:
    before = {"down": _q(100, 150_000, 10, marks=3), "up": []}
    after = {"down": _q(8100, 12_150_000, 110, marks=53), "up": []}
    lk = link_figures(before, after, 10_000_000, 10.0)
    assert (lk.sent_packets, lk.drops, lk.marks) == (8000, 100, 50)
    assert lk.loss == pytest.approx(100 / 8100)
    assert lk.utilization == pytest.approx(0.96)
    no_marks = link_figures({"down": _q(0, 0, 0)}, {"down": _q(1, 1500, 0)}, 10_000_000, 1.0)
    assert no_marks.marks is None and no_marks.loss == 0.0


def _write_run(
    d: Path, qdisc: str, load: float, rts_ms: list[int], order: int = 0, ecn: bool = False
) -> None:
    d.mkdir(parents=True)
    meta = {
        "experiment": "t",
        "order": order,
        "qdisc": qdisc,
        "spec": f"{qdisc} ecn" if ecn else qdisc,
        "load": load,
        "ecn": ecn,
        "users": 3,
        "duration_s": 10.0,
        "warmup_s": 1.0,
        "rate_bps": 10_000_000,
        "client_rtts_ms": [20.0, 80.0],
        "exit_codes": [0],
        "netem_drops": 0,
        "valid": True,
    }
    (d / "run.json").write_text(json.dumps(meta))
    rows = "".join(
        _row(1_000_000, 1_000_000 + ms * 1000, 1000 * (i + 1)) for i, ms in enumerate(rts_ms)
    )
    (d / "web-c1.csv").write_text(HEADER + rows)
    (d / "tc-before.json").write_text(json.dumps({"down": _q(0, 0, 0), "up": []}))
    (d / "tc-after.json").write_text(json.dumps({"down": _q(9900, 11_000_000, 100), "up": []}))
    recs = [
        {"t": i / 100, "wall": 1000 + i / 100, "kind": "pi", "qlen": i % 30, "prob": i / 1000}
        for i in range(50)
    ]
    (d / "aqmstat-down.jsonl").write_text("".join(json.dumps(r) + "\n" for r in recs))


def test_report_writes_plots_and_the_table(tmp_path: Path) -> None:
    _write_run(tmp_path / "pi-load98-ecn0", "pi", 0.98, [50, 60, 70, 80], order=0)
    _write_run(tmp_path / "droptail-load98-ecn0", "droptail", 0.98, [900, 1000, 1100], order=1)
    assert report.main(["report", str(tmp_path)]) == 0
    for name in ("rt-cdf", "rt-ccdf", "bytes"):
        assert (tmp_path / f"{name}-load98-ecn0.png").stat().st_size > 1000
    assert (tmp_path / "state-pi-load98-ecn0.png").exists()
    table = (tmp_path / "summary.md").read_text()
    assert "## 98% load, no ECN" in table
    # loss 100 / 10000, 4 exchanges, 11e6 bytes in 10 s = 8.80 Mbit/s
    # one seed: means without intervals; no offered load in logs without req_size
    assert "| pi | 1 | - | 1.00 | 8.80 | 88.0 | 4 | 0 | 60 | 80 | 80 | - | 1/1 |" in table
    assert (
        "| droptail | 1 | - | 1.00 | 8.80 | 88.0 | 3 | 0 | 1000 | 1100 | 1100 | - | 1/1 |" in table
    )
    # the experiment's order, not the names'
    assert table.index("| pi |") < table.index("| droptail |")
    run = read_run(tmp_path / "pi-load98-ecn0")
    assert run.link.drops == 100
    # by client RTT: host 1 (20 ms) logged every exchange, host 2 (80 ms) none
    assert [len(v.done) for v in run.by_host.values()] == [4]
    assert "| qdisc | 20 ms | 80 ms |" in table
    assert "| pi | 60 / 80 | - / - |" in table
    # every response is 1000-4000 bytes: all in the smallest class
    assert "| qdisc | <= 10 KB | 10-100 KB | 100 KB-1 MB | > 1 MB |" in table
    assert "| pi | 60 / 80 (4, 0 unfinished) | - / - (0, 0 unfinished) |" in table


def test_report_draws_each_configuration_by_load_and_the_size_classes(tmp_path: Path) -> None:
    # pi at two loads, with and without ECN; the uncongested reference on a
    # faster link without ECN; responses of 1-4 kB and one of 200 kB
    for ld in (0.9, 0.98):
        tag = f"load{round(ld * 100)}"
        _write_run(tmp_path / f"pi-{tag}-ecn0", "pi", ld, [50, 60, 70], order=0)
        _write_run(tmp_path / f"pi-{tag}-ecn1", "pi", ld, [40, 50], order=1, ecn=True)
        ref = tmp_path / f"uncongested-{tag}-ecn0"
        _write_run(ref, "uncongested", ld, [20, 30], order=2)
        meta = json.loads((ref / "run.json").read_text())
        meta |= {"rate_bps": 100_000_000, "experiment_rate_bps": 10_000_000}
        (ref / "run.json").write_text(json.dumps(meta))
    big = tmp_path / "pi-load90-ecn0" / "web-c1.csv"
    big.write_text(big.read_text() + _row(1_000_000, 3_000_000, 200_000))
    assert report.main(["report", str(tmp_path)]) == 0
    # Figures 5-8: one plot a configuration and ECN setting; none for the
    # reference itself, which is drawn dashed on each
    drawn = sorted(p.name for p in tmp_path.glob("rt-cdf-by-load-*.png"))
    assert drawn == ["rt-cdf-by-load-pi-ecn0.png", "rt-cdf-by-load-pi-ecn1.png"]
    # Figures 15-18: the responses up to 100,000 bytes in every cell, those
    # above only where there is one
    assert (tmp_path / "rt-cdf-small-load98-ecn1.png").stat().st_size > 1000
    assert (tmp_path / "rt-cdf-large-load90-ecn0.png").stat().st_size > 1000
    assert not (tmp_path / "rt-cdf-large-load98-ecn0.png").exists()
    table = (tmp_path / "summary.md").read_text()
    assert "## Each configuration's response times across the loads" in table
    assert "![rt-cdf-by-load-pi-ecn1.png](rt-cdf-by-load-pi-ecn1.png)" in table
    assert "![rt-cdf-large-load90-ecn0.png](rt-cdf-large-load90-ecn0.png)" in table


def test_report_table1_sets_ecn_beside_no_ecn(tmp_path: Path) -> None:
    _write_run(tmp_path / "pi-load90-ecn0", "pi", 0.9, [50, 60], order=0)
    _write_run(tmp_path / "droptail-load90-ecn0", "droptail", 0.9, [900], order=1)
    _write_run(tmp_path / "pi-load90-ecn1", "pi", 0.9, [40, 50, 60], order=2, ecn=True)
    assert report.main(["report", str(tmp_path)]) == 0
    table = (tmp_path / "summary.md").read_text()
    assert "(the DCN paper's table 1)" in table
    # pi with and without ECN side by side; droptail has no ECN run
    assert "| pi | 90% | 1.00 | 1.00 | 2 | 3 | 8.80 | 8.80 |" in table
    assert "| droptail | 90% | 1.00 | - | 1 | - | 8.80 | - |" in table
    assert "- pi (ECN runs): `pi ecn`" in table
    assert "## 90% load, ECN" in table and "## 90% load, no ECN" in table


def test_udp_goodput_counts_what_arrived() -> None:
    # 1000 datagrams sent, 250 lost, 10 s: 750 * 1400 * 8 / 10 bit/s
    text = json.dumps({"end": {"sum": {"packets": 1000, "lost_packets": 250, "seconds": 10.0}}})
    assert udp_goodputs([text]) == [840_000.0]
    with pytest.raises(ValueError):
        udp_goodputs([json.dumps({"error": "unable to connect"})])
    # iperf3 3.12 whose UDP handshake was lost: started, never connected
    lost = {"start": {"connected": []}, "intervals": [], "end": {}, "error": "unable to read"}
    assert udp_goodputs([json.dumps(lost), text]) == [None, 840_000.0]


def test_report_lists_long_flows(tmp_path: Path) -> None:
    d = tmp_path / "dcn-load90-ecn0"
    _write_run(d, "dcn", 0.9, [50, 60])
    tcp = {"end": {"sum_received": {"bits_per_second": 3_000_000.0}}}
    (d / "iperf-tcp0.json").write_text(json.dumps(tcp))
    udp = {"end": {"sum": {"packets": 1000, "lost_packets": 0, "seconds": 7.0}}}
    (d / "iperf-udp1.json").write_text(json.dumps(udp))
    assert report.main(["report", str(tmp_path)]) == 0
    assert "| dcn | 3.00 | 3.00 | 1.60 | 0/1 |" in (tmp_path / "summary.md").read_text()


def test_report_counts_a_udp_flow_that_never_started(tmp_path: Path) -> None:
    # the run stays in the tables; the tables say what went wrong
    d = tmp_path / "red-load90-ecn0"
    _write_run(d, "red", 0.9, [50, 60])
    lost = {"start": {"connected": []}, "intervals": [], "end": {}, "error": "unable to read"}
    (d / "iperf-udp1.json").write_text(json.dumps(lost))
    assert report.main(["report", str(tmp_path)]) == 0
    summary = (tmp_path / "summary.md").read_text()
    assert "| 0/1 (UDP flow never started) |" in summary
    assert "| red | - | - | - | 1/1 |" in summary


def test_report_without_runs_fails(tmp_path: Path) -> None:
    assert report.main(["report", str(tmp_path)]) == 1


def test_window_figures_use_the_measured_window_only() -> None:
    recs = [
        {"t": t / 10, "packets": 100 * t, "bytes": 150_000 * t, "drops": 2 * t, "marks": t}
        for t in range(0, 121)
    ]
    # warm-up 2 s, run 10 s: records 2.0 .. 10.0, 80 intervals of 0.1 s
    lk = window_figures(recs, 2.0, 10.0, 10_000_000, clock="t")
    assert lk is not None
    assert (lk.sent_packets, lk.drops, lk.marks) == (8000, 160, 80)
    assert lk.seconds == pytest.approx(8.0)
    assert lk.utilization == pytest.approx(8 * 150_000 * 80 / (10_000_000 * 8.0))
    assert lk.mbps == pytest.approx(12.0)
    # records that stop early do not cover the window
    assert window_figures(recs[:50], 2.0, 10.0, 10_000_000, clock="t") is None


def test_eta_from_the_runs_done() -> None:
    assert eta_s(0.0, 0, 10, 60.0) == 600.0
    assert eta_s(150.0, 2, 10, 60.0) == 600.0
    assert eta_s(700.0, 10, 10, 60.0) == 0.0
