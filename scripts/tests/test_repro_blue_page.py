"""The BLUE paper's reproduction page (aqmtools.repro.blue_page): the
claims' verdicts on synthetic results folders, and the page itself, with
no folder and with runs."""

from __future__ import annotations

import json
import math
import shutil
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path

import pytest
from reprocheck import page_and_plan, page_text, unquoted_markers

from aqmtools.bench.experiment import load
from aqmtools.bench.stats import read_run
from aqmtools.repro import blue, page, plan
from aqmtools.repro import blue_page as bp

SEEDS = (101, 102, 103)
DURATION, WARMUP = 10.0, 2.0
RATE = 10_000_000
# packets reaching the bottleneck a second in a synthetic run
ARRIVALS = 800


@dataclass
class Fig:
    """What a synthetic run measures: the bottleneck's loss and
    utilization (percent), BLUE's p_m (None: no such state), each TCP
    flow's goodput (bit/s) and each UDP flow's datagrams and losses a
    second."""

    loss: float = 0.0
    util: float = 100.0
    p_m: float | None = None
    tcp: list[float] = field(default_factory=list)
    udp: list[tuple[int, int]] = field(default_factory=list)


def _run(out: Path, exp_name: str, order: int, q: str, ld: float, seed: int, f: Fig) -> None:
    d = out / f"{q}-load{round(ld * 100)}-ecn1-s{seed}"
    d.mkdir(parents=True)
    meta = {
        "experiment": exp_name,
        "order": order,
        "qdisc": q,
        "spec": q,
        "load": ld,
        "ecn": True,
        "seed": seed,
        "seed_set": "reporting",
        "workload": "long",
        "hosts": "paper",
        "cc": "reno",
        "users": 0,
        "duration_s": DURATION,
        "warmup_s": WARMUP,
        "rate_bps": RATE,
        "experiment_rate_bps": RATE,
        "start_wall": 1000.0,
        "client_rtts_ms": [60.0] * 8,
        "netem_drops": 0,
        "valid": True,
    }
    (d / "run.json").write_text(json.dumps(meta))
    leaf = {"kind": "x", "handle": "10:", "packets": 0, "bytes": 0, "drops": 0}
    for name in ("tc-before.json", "tc-after.json"):
        (d / name).write_text(json.dumps({"down": [leaf]}))
    # aqmstat's records, a second apart over the run: counters at the rates
    # that give the loss and the utilization
    drops = ARRIVALS * f.loss / 100
    sent_bytes = f.util / 100 * RATE / 8
    recs = []
    for t in range(int(DURATION) + 1):
        r = {"wall": 1000.0 + t, "t": float(t), "kind": "x", "qlen": 0}
        r |= {"packets": round((ARRIVALS - drops) * t), "drops": round(drops * t)}
        r["bytes"] = round(sent_bytes * t)
        if f.p_m is not None:
            r["p_m"] = f.p_m
        recs.append(r)
    (d / "aqmstat-down.jsonl").write_text("".join(json.dumps(r) + "\n" for r in recs))
    if f.tcp:
        streams = [{"receiver": {"bits_per_second": b}} for b in f.tcp]
        end = {"streams": streams, "sum_received": {"bits_per_second": sum(f.tcp)}}
        (d / "iperf-tcp0.json").write_text(json.dumps({"end": end}))
    for k, (sent, lost) in enumerate(f.udp):
        intervals = [
            {
                "streams": [
                    {"start": float(t), "end": t + 1.0, "packets": sent, "lost_packets": lost}
                ]
            }
            for t in range(int(DURATION))
        ]
        total = {"packets": sent * 10, "lost_packets": lost * 10, "seconds": DURATION}
        j = {"start": {"connected": [{}]}, "intervals": intervals, "end": {"sum": total}}
        (d / f"iperf-udp{k + 1}.json").write_text(json.dumps(j))


Figs = Callable[[str, float, int], Fig]


def _folder(root: Path, part: str, figs: Figs, only: Callable[[str], bool] | None = None) -> Path:
    """The runs of PART's paper-hosts file on SEEDS, each measuring FIGS
    (configuration, load, seed)."""
    name = f"repro-{part}-paper"
    out = root / name
    out.mkdir(parents=True)
    shutil.copy(plan.EXPERIMENTS / f"{name}.toml", out / "experiment.toml")
    exp = load((plan.EXPERIMENTS / f"{name}.toml").read_text())
    names = [q.name for q in exp.qdiscs]
    for q, ld, _, s in exp.runs(list(SEEDS)):
        if only is None or only(q.name):
            _run(out, name, names.index(q.name), q.name, ld, s, figs(q.name, ld, s))
    return out


def _judge(key: str, *dirs: Path) -> list[page.Judgement[str]]:
    folders = [page.read_folder(d, bp.summarize) for d in dirs]
    profs, _ = bp.profiles(folders)
    claim = next(c for c in bp.CLAIMS if c.key == key)
    return bp.judge(claim, profs[0])


def _one(key: str, *dirs: Path) -> page.Judgement[str]:
    (j,) = _judge(key, *dirs)
    return j


def _kb(q: str) -> int:
    """The paper's kB of a Figure 5 configuration."""
    return dict((s, kb) for s, kb in bp.SIZES)[q.rsplit("-", 1)[1]]


# --- Figure 5 -------------------------------------------------------------------------


def _fig5_1000(q: str, ld: float, s: int) -> Fig:
    """BLUE loses nothing; RED 25% at the smallest buffer down to 2.5% at
    the largest, the seed moving it a little."""
    if q.startswith("blue"):
        return Fig(loss=0.0, p_m=0.3)
    return Fig(loss=2500 / _kb(q) + (s - 102) * 0.5)


def test_zero_loss_and_double_digits_are_reproduced(tmp_path: Path) -> None:
    out = _folder(tmp_path, blue.FIG5_1000, _fig5_1000)
    j = _one("a", out)
    assert j.verdict == page.REPRODUCED, j.why
    assert len(j.outcomes) == 6
    line = j.outcomes[0].line()
    assert line.startswith(
        "loss %: the highest of blue-b1-17.8ms, blue-b2-17.8ms, blue-b3-17.8ms, "
        "blue-b4-17.8ms, minus 0.1: -0.10 ± 0.00 points (3 seeds: 101, 102, 103); "
        "claimed below 0 (the value below 0.1): significant, as claimed"
    )
    assert "the highest: blue-b" in line
    j = _one("b", out)
    assert j.verdict == page.REPRODUCED, j.why
    assert "loss %: red-r1-17.8ms minus red-r1-178ms: +22.50 ± 0.00 points" in j.outcomes[0].line()
    assert "loss %: red-r1-17.8ms, minus 10: +15.00 ± 1.24 points" in j.outcomes[1].line()
    # claim (e) needs the 4000 sources' folder too: not attempted, named
    j = _one("e", out)
    assert j.verdict == page.NOT_ATTEMPTED
    assert "no runs of `repro-blue-fig5-4000-paper` (Fig. 5(b), 4000 sources)" in j.why


def test_blue_losing_more_than_red_is_not_reproduced(tmp_path: Path) -> None:
    def figs(q: str, ld: float, s: int) -> Fig:
        loss = 5.0 + s - 102 if q.startswith("red") else 30.0 + (s - 102)
        return Fig(loss=loss, util=99.95 + 0.01 * (s - 102), p_m=1.0)

    out = _folder(tmp_path, blue.FIG5_4000, figs)
    j = _one("c", out)
    assert j.verdict == page.NOT_REPRODUCED
    assert j.why.startswith("significant against the claim: loss %: the lowest of red-r1-17.8ms")
    assert "significant, AGAINST the claim" in j.outcomes[0].line()
    assert _one("d", out).verdict == page.NOT_REPRODUCED
    # p_m at 1 throughout: the level holds
    assert _one("f", out).verdict == page.REPRODUCED
    # over 99.9% utilized, with Figure 5(a)'s runs too
    fig5a = _folder(tmp_path, blue.FIG5_1000, lambda q, ld, s: Fig(util=99.95 + 0.01 * (s - 102)))
    j = _one("e", out, fig5a)
    assert j.verdict == page.REPRODUCED, j.why
    assert len(j.outcomes) == 12


# --- Figure 13 ------------------------------------------------------------------------


def test_a_mean_in_direction_within_noise_is_in_direction_only(tmp_path: Path) -> None:
    # RED's loss grows with the connections; BLUE's is below it on average,
    # one seed against
    def figs(q: str, ld: float, s: int) -> Fig:
        red = 10 * ld + 0.1 * (s - 102)
        if q == "red":
            return Fig(loss=red, util=97.0)
        return Fig(loss=red + {101: -2.0, 102: 0.5, 103: -1.5}[s], util=99.0, p_m=0.95)

    out = _folder(tmp_path, blue.FIG13, figs)
    j = _one("i", out)
    assert j.verdict == page.IN_DIRECTION, j.why
    assert j.why == "every mean difference in the claimed direction, 5 of 5 within noise"
    assert (
        j.outcomes[0]
        .line()
        .startswith("loss %: blue at 20 connections minus red at 20 connections: -1.00 ± ")
    )
    h = _one("h", out)
    assert h.verdict == page.REPRODUCED, h.why
    assert "loss %: red at 50 connections minus red at 20 connections: +1.50" in (
        h.outcomes[0].line()
    )
    assert _one("g", out).verdict == page.REPRODUCED
    assert _one("j", out).verdict == page.REPRODUCED


# --- Table III, Figures 16, 18 and 19 -------------------------------------------------


def _table3(q: str, ld: float, s: int) -> Fig:
    """SFB drops the nonresponsive flow's datagrams and little else; the
    others lose TCP packets (drops of 40 a second less the UDP flow's)."""
    tcp = [100e3 + 1e3 * k for k in range(89)]
    if q == "sfb":
        return Fig(loss=30 / 8, tcp=tcp, udp=[(38, 30 + (s - 102))])
    udp = {"red": 1, "sfred": 10, "sfq-red": 20, "sfb-linux": 38}[q]
    loss = (udp + 40 + 2 * (s - 102)) / 8
    return Fig(loss=loss, tcp=[x / 2 for x in tcp], udp=[(38, udp)])


def test_table_iii_claims_and_the_loss_split(tmp_path: Path) -> None:
    four = _folder(tmp_path, blue.TABLE3_4, _table3)
    hundred = _folder(tmp_path, blue.TABLE3_100, _table3)
    j = _one("k", four, hundred)
    assert j.verdict == page.REPRODUCED, j.why
    # SFB: 30 drops a second, all the UDP flow's (one TCP drop on seed 101);
    # RED: 41 drops, 1 of them UDP: 40 TCP frames a second, 4.85% of the link
    line = j.outcomes[0].line()
    assert line.startswith("TCP loss, % of link: sfb minus red: -4.80 ± ")
    runs = page.cell(page.read_folder(four).results, "red", 1.0, True)
    r = next(x for x in runs if x.meta["seed"] == 102)
    assert bp.tcp_loss_link(r) == pytest.approx(100 * 40 * 1514 * 8 / 10e6, rel=0.02)
    assert bp.udp_loss_pct(r) == pytest.approx(100 / 38)
    assert bp.udp_loss_link(r) == pytest.approx(100 * 1442 * 8 / 10e6)
    assert bp.total_loss_link(r) == pytest.approx(bp.tcp_loss_link(r) + bp.udp_loss_link(r))
    for key in ("l", "m", "n"):
        assert _one(key, four, hundred).verdict == page.REPRODUCED, key
    # Figure 16: the TCP flows get twice as much under SFB; as fair either way
    assert _one("o", four, hundred).verdict == page.REPRODUCED
    p = _one("p", four, hundred)
    assert p.verdict == page.INCONCLUSIVE and "TCP Jain: sfq-red minus sfb" in p.why


def _fig19(q: str, ld: float, s: int) -> Fig:
    """89 TCP flows; some get nothing: 5, 9, 0, 0 and 0 under the five."""
    shut = {"sfb-static": 5, "sfb-1level": 9}.get(q, 0) + (s == 103 and q == "sfb-static")
    tcp = [1.0] * shut + [100e3] * (89 - shut)
    udp = {"sfb-moving": 30, "sfb-db": 3, "sfb-db-raise": 2}.get(q, 1)
    return Fig(loss=5.0, tcp=tcp, udp=[(100, 100 - udp)] * 8)


def test_figures_18_19_claims_and_the_two_readings_of_double_buffering(tmp_path: Path) -> None:
    out = _folder(tmp_path, blue.FIG19, _fig19)
    runs = page.cell(page.read_folder(out).results, "sfb-static", 1.0, True)
    assert bp.shut_out_pct(runs[0]) == pytest.approx(100 * 5 / 89)
    # 5 or 6 of 89 shut out: 5.99% on average against equation (1)'s 5.03%
    q = _one("q", out)
    assert q.verdict == page.IN_DIRECTION, q.why
    assert "TCP flows shut out %: sfb-static, minus 3.77" in q.outcomes[0].line()
    assert "TCP flows shut out %: sfb-static, minus 6.29" in q.outcomes[1].line()
    for key in ("r", "s", "t"):
        assert _one(key, out).verdict == page.REPRODUCED, key
    # (u) is judged for each reading of the warm-up
    u = _judge("u", out)
    assert [x.variant for x in u] == ["sfb-db", "sfb-db-raise"]
    assert all(x.verdict == page.REPRODUCED for x in u)
    assert (
        u[1]
        .outcomes[0]
        .line()
        .startswith("nonresponsive goodput, % of link: sfb-db-raise minus sfb-moving: ")
    )
    assert (
        u[0].outcomes[1].line().startswith("nonresponsive goodput, % of link: sfb-db, minus 8.56: ")
    )
    # the other claims do not depend on it: judged once
    assert [x.variant for x in _judge("t", out)] == [None]


def test_double_buffering_that_holds_the_flows_well_above_fig_19a_fails_u(
    tmp_path: Path,
) -> None:
    # double buffering below the moving hash, but the nonresponsive flows
    # still take far more than the 8.56% of Fig. 19(a): as measured
    def figs(q: str, ld: float, s: int) -> Fig:
        got = {"sfb-moving": 60, "sfb-db": 50, "sfb-db-raise": 50}.get(q, 40) + s % 2
        return Fig(loss=5.0, tcp=[100e3] * 89, udp=[(100, 100 - got)] * 8)

    u = _judge("u", _folder(tmp_path, blue.FIG19, figs))
    assert all(x.verdict == page.NOT_REPRODUCED for x in u), [x.why for x in u]
    assert all("sfb-db" in x.why and "minus 8.56" in x.why for x in u), [x.why for x in u]
    assert all(x.outcomes[0].state == "for" for x in u)


def test_a_missing_configuration_is_not_attempted_and_named(tmp_path: Path) -> None:
    out = _folder(tmp_path, blue.FIG19, _fig19, only=lambda q: q != "sfb-moving")
    j = _one("t", out)
    assert j.verdict == page.NOT_ATTEMPTED
    assert j.why == "missing: no run of sfb-moving at 100% in `repro-sfb-fig19-paper`"


# --- the page ---------------------------------------------------------------------------


def test_the_page_on_no_folder_computes_equation_1_and_attempts_nothing(tmp_path: Path) -> None:
    text = page_text(tmp_path / "blue.md", "blue")
    assert text.startswith(f"# Reproduction: {blue.SHORT_TITLE}\n")
    assert "Nothing was run yet: no results folder was given." in text
    for c in blue.CLAIMS:
        assert f"| ({c.key}) {c.statement} | {c.where} | - | not attempted (no runs) |" in text
    claims = text[text.index("## Claims") :]
    assert claims.count("**not attempted**: no runs (of ") == len(blue.CLAIMS)
    for word in (page.REPRODUCED, page.IN_DIRECTION, page.NOT_REPRODUCED, page.INCONCLUSIVE):
        assert f"**{word}**:" not in claims
    # equation (1), computed now
    assert "| 8.96% (36) | 8.9555% (35.82 of 400); drawn at random: " in text
    assert "**reproduced**: 8.96% and 36 flows, as printed |" in text
    assert "**reproduced**: 16.12% and 64 flows, as printed |" in text
    assert "**in direction only**: the model's mean is 6.9 bins (30%)" in text
    # the paper's own numbers and settings, quoted; the files' headers
    for s in blue.SETTINGS:
        assert f'"{s.quote}"' in text
    assert "| SFB | `sfb` | 1.86 (4.13%); 1.85 (4.11%); 0.01 (0.02%) | - | 92.5 | - |" in text
    assert "> How the paper's settings scale." in text and "> - RED: Linux's red" in text
    assert "make reproduce PAPER=blue" in text and "about 38 h 13 min" in text
    assert "nan" not in text


def test_the_page_with_runs_prints_ours_and_the_verdicts(tmp_path: Path) -> None:
    dirs = [
        _folder(tmp_path, blue.FIG5_1000, _fig5_1000),
        _folder(tmp_path, blue.TABLE3_4, _table3),
        _folder(tmp_path, blue.FIG19, _fig19),
        tmp_path / "repro-blue-fig13-linux",
    ]
    text = page_text(tmp_path / "blue.md", "blue", *dirs)
    assert "nan" not in text
    assert f"- `{dirs[3]}`: no such folder (not run yet)." in text
    assert "reporting seeds run: 101, 102, 103 of 101, 102, 103, 104, 105; 144 of 240 runs" in text
    # Figure 5's grid: R1's loss at the smallest buffer, 25 ± t x 0.5
    assert "| R1 | 25.00 ± 1.24 | 12.50 ± 1.24 |" in text
    # Table III: ours beside the paper's
    assert "| SFB | `sfb` | 1.86 (4.13%); 1.85 (4.11%); 0.01 (0.02%) | " in text
    assert "| (a) With 1000 sources BLUE loses nothing at any buffer size | " in text
    assert "| `paper` | reproduced |" in text
    assert "| `paper` (`sfb-db-raise`) | reproduced |" in text
    assert "Ours, end hosts `paper`: not attempted (no runs of `repro-blue-fig13-paper`" in text
    # no verdict of the linux hosts, which ran nothing
    assert "| `linux` |" not in text


def test_every_marker_quotes_a_header() -> None:
    assert unquoted_markers("blue", bp.MARKERS) == []


def test_the_checks_name_configurations_the_files_run() -> None:
    assert [c.key for c in bp.CLAIMS] == [c.key for c in blue.CLAIMS]
    exps = {bp.part_of(f.stem): load(f.read_text()) for f in plan.paper_files("blue")}
    for claim, spec in zip(bp.CLAIMS, blue.CLAIMS, strict=True):
        for v in bp.VARIANTS:
            checks = claim.checks(v)
            assert checks and all(isinstance(c, bp.Cmp) for c in checks)
            for c in checks:
                assert isinstance(c, bp.Cmp)
                assert c.part in spec.parts and c.figure in bp.FIGS
                exp = exps[c.part]
                names = {q.name for q in exp.qdiscs}
                assert set(c.a_set + c.b_set) <= names, (claim.key, c.a_set, c.b_set)
                assert c.a[1] in exp.loads and c.b[1] in exp.loads
                assert (c.bound is None) == bool(c.a_set)


def test_module_entry_writes_the_page_and_the_plan_prints(tmp_path: Path) -> None:
    dry = page_and_plan("blue", tmp_path)
    assert dry.startswith("reproduce blue: 12 experiment files, about 38 h 13 min")
    assert "repro-sfb-fig19-linux.toml --keep --seed 105 (about 10 min)" in dry


def test_summarize_counts_sfbs_drops_by_cause_over_the_window(tmp_path: Path) -> None:
    _run(tmp_path, "x", 0, "sfb", 1.0, 101, Fig())
    d = tmp_path / "sfb-load100-ecn1-s101"
    meta = json.loads((d / "run.json").read_text())
    (d / "run.json").write_text(json.dumps(meta | {"spec": "sfb limit 200 bins 32"}))
    recs = []
    for t in range(int(DURATION) + 1):
        # 30 drops a second at the limit, 2 at max, 50 early, none by the
        # penalty, 5 marks; the queue at the limit from 6 s on; the
        # warm-up's counts outside the window (large) are not counted
        k = t if t >= WARMUP else 1000 * t
        r = {"wall": 1000.0 + t, "kind": "sfb", "qlen": 199 if t >= 6 else 100}
        r |= {"queuedrop": 30 * k, "bucketdrop": 2 * k, "earlydrop": 50 * k}
        r |= {"penaltydrop": 0, "marked": 5 * k, "packets": 800 * t, "bytes": 0}
        r["drops"] = r["queuedrop"] + r["bucketdrop"] + r["earlydrop"]
        recs.append(r)
    (d / "aqmstat-down.jsonl").write_text("".join(json.dumps(r) + "\n" for r in recs))
    s = bp.summarize(read_run(d))
    assert s["queuedrop"] == pytest.approx(30.0) and s["bucketdrop"] == pytest.approx(2.0)
    assert s["earlydrop"] == pytest.approx(50.0) and s["marked"] == pytest.approx(5.0)
    assert s["penaltydrop"] == 0.0
    # the records of 2..10 s: 2-5 at 100 packets, 6-10 at 199 (limit 200)
    assert s["qlen"] == pytest.approx((4 * 100 + 5 * 199) / 9)
    assert s["at limit"] == pytest.approx(100 * 5 / 9)


def test_summarize_gives_red_and_blue_notifications_over_the_window(tmp_path: Path) -> None:
    for q, names in (
        ("red", ("marked", "early", "pdrop")),
        ("blue", ("marks", "early_drops", "overflow_drops")),
    ):
        _run(tmp_path, "x", 0, q, 1.0, 101, Fig())
        d = tmp_path / f"{q}-load100-ecn1-s101"
        recs = []
        for t in range(int(DURATION) + 1):
            # a second: 800 sent, 600 of them marked, 8 dropped early and 2
            # at the limit; the warm-up's (large) outside the window
            k = t if t >= WARMUP else 1000 * t
            r = {"wall": 1000.0 + t, "kind": q, "qlen": 20, "packets": 800 * k, "bytes": 0}
            r |= dict(zip(names, (600 * k, 8 * k, 2 * k), strict=True)) | {"drops": 10 * k}
            recs.append(r)
        (d / "aqmstat-down.jsonl").write_text("".join(json.dumps(r) + "\n" for r in recs))
        s = bp.summarize(read_run(d))
        assert s["marked, % of sent"] == pytest.approx(75.0), q
        assert s["early drops, % of arrivals"] == pytest.approx(100 * 8 / 810), q
        assert s["limit drops, % of arrivals"] == pytest.approx(100 * 2 / 810), q


def test_flows_without_a_byte_are_a_share_of_the_flows() -> None:
    @dataclass
    class R:
        goodputs: list[float]

    assert bp.no_byte_pct(R([0.0, 1e6, 0.0, 2e6])) == 50.0  # type: ignore[arg-type]
    assert math.isnan(bp.no_byte_pct(R([])))  # type: ignore[arg-type]


# --- Table III's cause, tested ----------------------------------------------------------


def _cause(q: str, ld: float, s: int) -> Fig:
    """sfb at limit 200 drops 120 packets a second, 100 of them the UDP
    flow's (of 900); the others 205, 200 of them the UDP flow's."""
    k = s - SEEDS[0]
    if q == "sfb":
        return Fig(loss=15.0 + 0.5 * k, udp=[(900, 100 + 3 * k)], tcp=[1e6] * 4)
    return Fig(loss=25.625 + 0.25 * k, udp=[(900, 200 + k)], tcp=[1e6] * 4)


def test_the_cause_section_reads_its_own_folder(tmp_path: Path) -> None:
    out = tmp_path / bp.CAUSE
    out.mkdir()
    src = plan.EXPERIMENTS / f"{bp.CAUSE}.toml"
    shutil.copy(src, out / "experiment.toml")
    exp = load(src.read_text())
    names = [q.name for q in exp.qdiscs]
    assert tuple(names) == bp.CAUSE_CONFIGS
    for q, ld, _, s in exp.runs(list(SEEDS)):
        _run(out, bp.CAUSE, names.index(q.name), q.name, ld, s, _cause(q.name, ld, s))
    text = bp.blue_page([out])
    sec = text[text.index("## Table III's cause, tested") :]
    sec = sec[: sec.index("\n## ", 5)]
    assert "Not run yet" not in sec
    # sfb-limit500 minus sfb: TCP loss (drops less the UDP losses, as
    # frames of the link) lower, the UDP flow's loss higher
    pairs = sec[sec.index("Paired by seed with the reproduction's setting") :]
    row = next(x for x in pairs.splitlines() if x.startswith("| `sfb-limit500` |"))
    tcp, udp = (x.strip(" |") for x in row.split(" | ")[1:3])
    assert tcp.endswith(", lower") and udp.endswith(", higher")
    # not a part of either host profile: no "left out" note, Table III's
    # cells not attempted
    assert "left out" not in text
    empty = bp.blue_page([])
    assert "Not run yet." in empty[empty.index("## Table III's cause, tested") :]


def test_the_cause_folder_is_a_page_extra_the_command_names() -> None:
    assert plan.PAGE_EXTRAS["blue"] == (bp.CAUSE, bp.FIG19_CAUSE)
    assert plan.page_folders("blue")[-2:] == [bp.CAUSE, bp.FIG19_CAUSE]
    for cause in (bp.CAUSE, bp.FIG19_CAUSE):
        assert all(e.name != cause for e in map(plan.read, plan.paper_files("blue")))


def test_fig19_gives_where_the_drops_fell_beside_the_goodputs(tmp_path: Path) -> None:
    out = _folder(tmp_path, "sfb-fig19", lambda q, ld, s: Fig())
    for seed in SEEDS:
        d = out / f"sfb-moving-load100-ecn1-s{seed}"
        recs = []
        for t in range(int(DURATION) + 1):
            # a second: 180 drops at the limit, 280 at max, 8 early (one
            # more on seed 103); the queue at the limit throughout; the
            # warm-up's counts outside the window (large) are not counted
            k = t if t >= WARMUP else 1000 * t
            early = 8 + (seed == 103)
            r = {"wall": 1000.0 + t, "kind": "sfb", "qlen": 199, "packets": 800 * t}
            r |= {"queuedrop": 180 * k, "bucketdrop": 280 * k, "earlydrop": early * k}
            r |= {"penaltydrop": 0, "marked": 0, "bytes": 0}
            # the highest bin's p_m, and a flow penalized from 6 s on
            r |= {"maxprob": 0.25, "penalized": int(t >= 6)}
            r["drops"] = r["queuedrop"] + r["bucketdrop"] + r["earlydrop"]
            recs.append(r)
        (d / "aqmstat-down.jsonl").write_text("".join(json.dumps(r) + "\n" for r in recs))
        meta = json.loads((d / "run.json").read_text())
        (d / "run.json").write_text(json.dumps(meta | {"spec": "sfb limit 200 rehash 2000"}))
    f = page.read_folder(out, bp.summarize)
    text = "\n".join(bp._block("Fig. 19", blue.FIG19, f))
    assert text.index("TCP flows shut out %") < text.index("Where the drops fell")
    rows = [x for x in text.splitlines() if x.startswith("| `sfb-moving` |")]
    cells = [c.strip() for c in rows[1].strip("|").split("|")]
    # mean queue, records at the limit, then queuedrop, bucketdrop, earlydrop,
    # penaltydrop and marked a second; 8.3 ± t(2) x 0.577 / sqrt(3) early
    assert cells[1:4] == ["199 ± 0", "100 ± 0", "180.0 ± 0.0"]
    assert cells[4:7] == ["280.0 ± 0.0", "8.3 ± 1.4", "0.0 ± 0.0"]
    # marks, then p_m and the records of 2-10 s with a flow penalized (6-10 s)
    assert cells[7:10] == ["0.0 ± 0.0", "0.25 ± 0.00", "56 ± 0"]
    # Linux's sfb has maxprob in its xstats but no penalized: no such figure
    d = out / "sfb-static-load100-ecn1-s101"
    recs = [
        json.loads(x)
        for x in (out / "sfb-moving-load100-ecn1-s101" / "aqmstat-down.jsonl")
        .read_text()
        .splitlines()
    ]
    for r in recs:
        del r["penalized"]
    (d / "aqmstat-down.jsonl").write_text("".join(json.dumps(r) + "\n" for r in recs))
    s = bp.summarize(read_run(d))
    assert s["maxprob"] == pytest.approx(0.25) and "penalized" not in s


def _cause19(root: Path, figs: Figs, seeds: tuple[int, ...] = SEEDS) -> Path:
    """The runs of the Figure 19 cause file on SEEDS, each measuring FIGS."""
    out = root / bp.FIG19_CAUSE
    out.mkdir(parents=True)
    src = plan.EXPERIMENTS / f"{bp.FIG19_CAUSE}.toml"
    shutil.copy(src, out / "experiment.toml")
    exp = load(src.read_text())
    names = [q.name for q in exp.qdiscs]
    for q, ld, _, s in exp.runs(list(seeds)):
        _run(out, exp.name, names.index(q.name), q.name, ld, s, figs(q.name, ld, s))
    return out


def test_the_fig19_cause_file_is_the_reproductions_but_for_the_step() -> None:
    cause = load((plan.EXPERIMENTS / f"{bp.FIG19_CAUSE}.toml").read_text())
    repro = load((plan.EXPERIMENTS / "repro-sfb-fig19-paper.toml").read_text())
    ours = {q.name: q.spec for q in repro.qdiscs}
    specs = {q.name: q.spec for q in cause.qdiscs}
    assert tuple(specs) == bp.FIG19_CAUSE_CONFIGS
    assert specs["sfb-moving"] == ours["sfb-moving"]
    step = "increment 0.011 decrement 0.001 "
    for fast, like in (("moving", "moving"), ("db", "db"), ("static", "static")):
        want = ours[f"sfb-{like}"].replace("rehash", step + "rehash")
        assert specs[f"sfb-{fast}-fast"] == want
    for key in ("rate_bps", "duration_s", "warmup_s", "long_flows", "udp_flows", "hosts"):
        assert getattr(cause, key) == getattr(repro, key), key
    assert cause.reporting_seeds == repro.reporting_seeds and cause.tuning_seeds == [1, 2]
    assert plan.page_folders("blue")[-1] == bp.FIG19_CAUSE


def test_the_fig19_cause_section_judges_its_hypotheses(tmp_path: Path) -> None:
    assert "Not run yet." in "\n".join(bp.fig19_cause_section(None))

    def figs(q: str, ld: float, s: int) -> Fig:
        # the nonresponsive flows lose a share of their 90 datagrams a
        # second: little under the reproduction's setting, most under the
        # fast step, nearly all with double buffering; the TCP flows get
        # what they leave
        lost = {"sfb-moving": 40, "sfb-moving-fast": 80, "sfb-db-fast": 88}.get(q, 60)
        lost += s - 102
        tcp = [lost * 64_000.0 / 89] * 89
        return Fig(tcp=tcp, udp=[(90, lost)] * 8)

    out = _cause19(tmp_path, figs)
    text = "\n".join(bp.fig19_cause_section(page.read_folder(out, bp.summarize)))
    keys = ("H1, ", "H2, ", "H3, ")
    heads = {x.split(",")[0]: x for x in text.splitlines() if x.startswith(keys)}
    assert set(heads) == {"H1", "H2", "H3"}
    assert all("**holds**: its one comparison significant" in x for x in heads.values()), heads
    # each rests on one paired difference, printed under it
    h1 = "- nonresponsive goodput, % of link: sfb-moving-fast minus sfb-moving: "
    assert "(3 seeds: 101, 102, 103)" in next(x for x in text.splitlines() if x.startswith(h1))
    assert "| configuration minus `sfb-moving` |" in text
    # one seed gives no verdict
    one = _cause19(tmp_path / "one", figs, seeds=(101,))
    text = "\n".join(bp.fig19_cause_section(page.read_folder(one, bp.summarize)))
    assert text.count("**no verdict**: one common reporting seed so far") == 3
    assert "**holds**" not in text
