"""The DCN paper's reproduction page (aqmtools.repro.page): Table 1 beside
ours, and the claims' verdicts, on synthetic results folders."""

from __future__ import annotations

import json
import shutil
from collections.abc import Callable
from pathlib import Path

from reprocheck import page_text, run_python
from tcdump import tc_dump

from aqmtools.bench.intervals import Paired, mean_ci
from aqmtools.bench.stats import read_run
from aqmtools.repro import dcn, page, plan

SEEDS = (101, 102, 103)
# the configurations that run with ECN too (repro-dcn-*.toml)
WITH_ECN = {"pi-2.9ms", "pi-24pkt", "afd", "riops"}
CONFIGS = [n for names in dcn.OURS.values() for n in names]

# webgen's client log, as run.py leaves it (test_bench_replication.py's
# columns: req_size last)
HEADER = (
    "user,conn,server,start_us,first_byte_us,end_us,req_bytes,resp_bytes,persistent,status,"
    "req_size\n"
)


def _row(start: int, end: int, size: int) -> str:
    return f"0,0,10.2.1.2:8080,{start},,{end},300,{size},1,ok,{size}\n"


_q = tc_dump


def _run(
    out: Path,
    qdisc: str,
    load: float,
    ecn: bool,
    seed: int,
    loss_pct: float,
    rts_ms: tuple[int, ...] = (50, 60, 70, 400),
    hosts: str = "paper",
) -> None:
    """A run of the web workload whose bottleneck lost LOSS_PCT of 10,000
    arrivals (the test_bench_stats.py / test_bench_replication.py layout,
    with the keys the page reads)."""
    d = out / f"{qdisc}-load{round(load * 100)}-ecn{int(ecn)}-s{seed}"
    d.mkdir(parents=True)
    rate = 100_000_000 if qdisc == "uncongested" else 10_000_000
    meta = {
        "experiment": f"repro-dcn-{hosts}",
        "order": CONFIGS.index(qdisc),
        "qdisc": qdisc,
        "spec": "pfifo limit 24",
        "load": load,
        "ecn": ecn,
        "seed": seed,
        "seed_set": "reporting",
        "reference": "droptail",
        "workload": "web",
        "hosts": hosts,
        "host_sysctls": ["net.ipv4.tcp_sack=0"] if hosts == "paper" else [],
        "host_route": "window 16384" if hosts == "paper" else "",
        "cc": "reno",
        "users": round(load * 60),
        "duration_s": 10.0,
        "warmup_s": 1.0,
        "drain_s": 5.0,
        "rate_bps": rate,
        "experiment_rate_bps": 10_000_000,
        "client_rtts_ms": [20.0, 80.0],
        "exit_codes": [0],
        "netem_drops": 0,
        "valid": True,
    }
    (d / "run.json").write_text(json.dumps(meta))
    # three small responses and a large one, the last
    sizes = [1000, 2000, 3000, 200_000]
    rows = [_row(1_000_000, 1_000_000 + ms * 1000, s) for ms, s in zip(rts_ms, sizes, strict=False)]
    (d / "web-c1.csv").write_text(HEADER + "".join(rows))
    (d / "tc-before.json").write_text(json.dumps({"down": _q(0, 0, 0), "up": []}))
    drops = round(loss_pct * 100)
    after = {"down": _q(10_000 - drops, 11_000_000, drops), "up": []}
    (d / "tc-after.json").write_text(json.dumps(after))


Loss = Callable[[str, float, bool, int], float]


def _folder(out: Path, loss: Loss, skip: tuple[str, ...] = (), hosts: str = "paper") -> Path:
    """Every run of a repro-dcn experiment on SEEDS (less the SKIP
    configurations), with LOSS(config, load, ecn, seed)."""
    out.mkdir(parents=True)
    shutil.copy(plan.EXPERIMENTS / f"repro-dcn-{hosts}.toml", out / "experiment.toml")
    for seed in SEEDS:
        for ld in dcn.LOADS:
            for q in CONFIGS:
                if q in skip:
                    continue
                for ecn in (False, True) if q in WITH_ECN else (False,):
                    _run(out, q, ld, ecn, seed, loss(q, ld, ecn, seed), hosts=hosts)
    return out


def _offset(seed: int) -> float:
    """A seed's effect, shared by every configuration on it."""
    return 1.5 * (seed - SEEDS[0])


def _loss_claim(tmp_path: Path, dcn_minus_others: dict[int, float]) -> page.Judgement[page.Variant]:
    """Claim (b) on runs whose DCN loses DCN_MINUS_OTHERS[seed] points more
    than every other configuration (5% plus the seed's effect)."""

    def loss(q: str, ld: float, ecn: bool, seed: int) -> float:
        base = 5 + _offset(seed)
        return base + dcn_minus_others[seed] if q.startswith("dcn") else base

    f = page.read_folder(_folder(tmp_path / "repro-dcn-paper", loss))
    claim = next(c for c in page.CLAIMS if c.key == "b")
    js = page.judge(claim, f.results)
    # judged for each pair of our PI and DCN configurations
    assert [j.variant for j in js] == list(page.VARIANTS)
    assert len({j.verdict for j in js}) == 1
    return js[0]


def test_dcn_clearly_lower_loss_on_every_seed_is_reproduced(tmp_path: Path) -> None:
    j = _loss_claim(tmp_path, {101: -4.0, 102: -3.5, 103: -4.5})
    assert j.verdict == page.REPRODUCED
    # 2 loads x (drop-tail, PI, AFD and RIO-PS each without and with ECN)
    assert len(j.outcomes) == 12
    line = j.outcomes[0].line()
    assert "-4.00 ± " in line and "(3 seeds: 101, 102, 103)" in line
    assert "significant, as claimed" in line
    # the paper's own loss, beside ours: drop-tail 6.0, DCN 2.3 at 98%
    assert "Table 1: 2.3 minus 6.0" in line


def test_dcn_clearly_higher_loss_is_not_reproduced(tmp_path: Path) -> None:
    j = _loss_claim(tmp_path, {101: 4.0, 102: 3.5, 103: 4.5})
    assert j.verdict == page.NOT_REPRODUCED
    assert "significant against the claim" in j.why
    assert "droptail (no ECN)" in j.why


def test_differences_that_straddle_noise_are_in_direction_only(tmp_path: Path) -> None:
    j = _loss_claim(tmp_path, {101: -2.0, 102: 1.0, 103: -0.5})
    assert j.verdict == page.IN_DIRECTION
    assert all(o.state == "noise" for o in j.outcomes)
    assert "within noise, mean as claimed" in j.outcomes[0].line()


def test_a_missing_configuration_is_not_attempted(tmp_path: Path) -> None:
    out = _folder(tmp_path / "repro-dcn-paper", lambda q, ld, e, s: 1.0, skip=("afd",))
    f = page.read_folder(out)
    claim = next(c for c in page.CLAIMS if c.key == "b")
    for j in page.judge(claim, f.results):
        assert j.verdict == page.NOT_ATTEMPTED
        assert "no run of afd (no ECN) at 98%" in j.why
        assert "no run of afd (ECN) at 105%" in j.why
    text = page.dcn_page([out])
    assert "| AFD qref = 240 | 98% | ECN | afd | 6.2 | - |" in text
    assert "not attempted" in text


def _cells(line: str) -> list[str]:
    return [c.strip() for c in line.strip().strip("|").split("|")]


def _plain(text: str) -> str:
    """A cell without its footnote mark."""
    return text.split("[^")[0]


def test_table1_prints_the_papers_values_beside_ours(tmp_path: Path) -> None:
    out = _folder(tmp_path / "repro-dcn-paper", lambda q, ld, e, s: 2.0 + _offset(s))
    text = page.dcn_page([out])
    rows = [_cells(x) for x in text.splitlines() if x.startswith("| ") and x.count("|") == 12]
    for r in dcn.TABLE1:
        for config in dcn.OURS[r.scheme]:
            key = [r.scheme, f"{r.load:.0%}", "ECN" if r.ecn else "no ECN", config]
            found = [c for c in rows if c[:4] == key]
            assert len(found) == 1, key
            c = found[0]
            # the paper's values exactly as dcn.py holds them
            assert _plain(c[4]) == str(r.loss_pct)
            assert _plain(c[6]).split(" (")[0] == str(r.completed_millions)
            assert float(_plain(c[8])) == round(r.throughput_mbps, 1)
            # and footnoted where their place in the table is uncertain
            assert ("[^" in c[6]) == ("completed_millions" in r.uncertain)
            assert ("[^" in c[4]) == ("loss_pct" in r.uncertain)
            # ours: 2.0, 3.5, 5.0 % over the seeds
            half = mean_ci([2.0, 3.5, 5.0]).half
            assert c[5] == f"3.50 ± {half:.2f}"
            # every configuration completed as many exchanges as the uncongested
            assert c[7] == "100.0 ± 0.0"
            # 11e6 bytes in 10 s of 10 Mbit/s: 88%, the uncongested's too
            assert c[9] == "88.0 ± 0.0"
            assert c[10] == "3 (101, 102, 103)"
    assert "[^u1]: Uncertain in the paper's text:" in text
    assert "### End hosts `paper` (`repro-dcn-paper`" in text


def test_the_page_on_no_folder_says_nothing_was_run(tmp_path: Path) -> None:
    text = page_text(tmp_path / "docs" / "dcn.md", "dcn")
    assert "Nothing was run yet: no results folder was given." in text
    assert "make reproduce PAPER=dcn" in text
    assert "python3 -m aqmtools.repro.page dcn docs/reproduction/dcn.md" in text
    # the paper's values alone, no figure of ours
    assert "| DCN qref = 24 | 105% | no ECN | dcn-2.9ms | 3.0 | - |" in text
    assert "**not attempted**: no runs." in text
    for word in (page.REPRODUCED, page.IN_DIRECTION, page.NOT_REPRODUCED):
        assert f"**{word}**:" not in text


def test_partial_and_missing_folders_never_crash(tmp_path: Path) -> None:
    out = tmp_path / "repro-dcn-linux"
    for seed in SEEDS[:2]:
        _run(out, "droptail", 0.9, False, seed, 3.0, hosts="linux")
        _run(out, "dcn-2.9ms", 0.9, False, seed, 1.0, hosts="linux")
    # a run cut off before its counters were written
    broken = out / "afd-load90-ecn0-s101"
    broken.mkdir()
    (broken / "run.json").write_text("{}")
    text = page_text(tmp_path / "dcn.md", "dcn", tmp_path / "nowhere", out)
    assert "no such folder (not run yet)" in text
    assert "unreadable, left out: afd-load90-ecn0-s101" in text
    assert "`repro-dcn-paper` (end hosts `paper`" in text and "not attempted" in text
    assert "### End hosts `linux` (`repro-dcn-linux`" in text
    # ours where it ran, nothing invented where it did not
    assert "| drop-tail queue size = 240 | 90% | no ECN | droptail | 1.8 | 3.00 ± 0.00 |" in text
    assert "| drop-tail queue size = 240 | 98% | no ECN | droptail | 6.0 | - |" in text
    assert "- (no uncongested run)" in text
    assert "nan" not in text
    # claim (e) at 90% has its figures, the other loads are missing
    assert "End hosts `linux` (`repro-dcn-linux`), dcn-2.9ms, pi-2.9ms: **not attempted**" in text
    assert (
        "RT p90 at 90%: dcn-2.9ms (no ECN) minus droptail (no ECN): +0 ± 0 ms (2 seeds: 101, 102)"
        in text
    )


def test_equal_or_superior_within_noise_is_in_direction_only() -> None:
    def outcome(diffs: list[float], tolerant: bool) -> page.Outcome:
        check = page.Check(("a", 0.98, True), ("b", 0.98, False), "RT p90", -1, tolerant)
        pair = Paired(mean_ci(diffs), [101, 102, 103])
        return page.Outcome(check, pair, (), ())

    # DCN a little slower than PI with ECN, within noise: "equal"
    assert page.verdict([outcome([30, -40, 20], True)])[0] == page.IN_DIRECTION
    assert page.verdict([outcome([-30, -40, -35], True)])[0] == page.REPRODUCED
    assert page.verdict([outcome([30, 40, 35], True)])[0] == page.NOT_REPRODUCED
    # a strict claim whose mean goes the other way within noise
    assert page.verdict([outcome([30, -40, 20], False)])[0] == page.INCONCLUSIVE


def test_one_seed_gives_no_verdict() -> None:
    check = page.Check(("a", 0.98, True), ("b", 0.98, False), "RT p90", -1, False)
    one = page.Outcome(check, Paired(mean_ci([-30.0]), [101]), (), ())
    v, why = page.verdict([one, one])
    assert v == page.NOT_ATTEMPTED
    assert "one common reporting seed" in why
    # with two seeds the same differences are judged
    two = page.Outcome(check, Paired(mean_ci([-30.0, -31.0]), [101, 102]), (), ())
    assert page.verdict([two]) == (
        page.REPRODUCED,
        "its one comparison significant in the claimed direction",
    )
    assert page.verdict([two, two])[1] == "all 2 comparisons significant in the claimed direction"
    # one comparison of one seed beside judged ones (the queue law's (b):
    # three drop seeds, one mark seed) leaves the claim open, not "in
    # direction only" with the one-seed difference counted as noise
    v, why = page.verdict([two, one])
    assert v == page.NOT_ATTEMPTED and why.startswith("1 of 2 comparisons have one common")
    # unless a judged one already fails it
    against = page.Outcome(check, Paired(mean_ci([30.0, 31.0]), [101, 102]), (), ())
    assert page.verdict([against, one])[0] == page.NOT_REPRODUCED


def test_module_entry_runs_with_scripts_on_the_path(tmp_path: Path) -> None:
    md = tmp_path / "dcn.md"
    r = run_python("-m", "aqmtools.repro.page", "dcn", str(md))
    assert r.returncode == 0, r.stderr
    assert md.read_text().startswith("# Reproduction:")
    r = run_python("-m", "aqmtools.repro.page", "nosuch", str(md))
    assert r.returncode == 2 and "dcn" in r.stderr


def test_small_response_figures_leave_out_the_large_ones(tmp_path: Path) -> None:
    # the fixture's run: responses of 1, 2 and 3 KB in 50, 60 and 70 ms and
    # one of 200 KB in 400 ms
    _run(tmp_path, "dcn-24pkt", 0.9, False, 101, 1.0)
    r = read_run(tmp_path / "dcn-24pkt-load90-ecn0-s101")
    assert len(page.small_log(r).done) == 3
    assert page.FIGURES["RT p90 < 100 KB"].of(r) <= 70
    assert page.FIGURES["RT p90"].of(r) > 70
    assert len(page.large_log(r).done) == 1
    assert page.FIGURES["RT p25 > 100 KB"].of(r) == page.FIGURES["RT p50 > 100 KB"].of(r) == 400


def test_dcn_faster_on_small_responses_reproduces_claim_g(tmp_path: Path) -> None:
    out = _folder(tmp_path / "repro-dcn-paper", lambda q, ld, e, s: 5.0)
    for d in out.glob("dcn-*"):
        # DCN's small responses 20-30 ms faster, its large one slower
        (d / "web-c1.csv").unlink()
        rows = [_row(1_000_000, 1_000_000 + ms * 1000, sz) for ms, sz in ((30, 1000), (35, 2000))]
        rows.append(_row(1_000_000, 1_000_000 + 40_000, 3000))
        rows.append(_row(1_000_000, 1_000_000 + 900_000, 200_000))
        (d / "web-c1.csv").write_text(HEADER + "".join(rows))
    f = page.read_folder(out)
    claim = next(c for c in page.CLAIMS if c.key == "g")
    js = page.judge(claim, f.results)
    assert [j.variant for j in js] == list(page.VARIANTS)
    # 2 loads x 2 quantiles x (PI, AFD, RIO-PS) x (no ECN, ECN); all below
    assert all(len(j.outcomes) == 24 for j in js)
    assert {j.verdict for j in js} == {page.REPRODUCED}
    assert {o.check.figure for o in js[0].outcomes} == {"RT p50 < 100 KB", "RT p90 < 100 KB"}


def test_dcn_slower_on_large_responses_fails_claim_h(tmp_path: Path) -> None:
    # the fixture's runs: one large response in 400 ms; DCN's in 900 ms
    out = _folder(tmp_path / "repro-dcn-paper", lambda q, ld, e, s: 5.0)
    for d in out.glob("dcn-*"):
        rows = [_row(1_000_000, 1_000_000 + 50_000, 1000)]
        rows.append(_row(1_000_000, 1_000_000 + 900_000, 200_000))
        (d / "web-c1.csv").write_text(HEADER + "".join(rows))
    claim = next(c for c in page.CLAIMS if c.key == "h")
    js = page.judge(claim, page.read_folder(out).results)
    # the median at 90% and the 25th percentile at 98%, against 6 others
    assert all(len(j.outcomes) == 12 for j in js)
    assert {j.verdict for j in js} == {page.NOT_REPRODUCED}
    assert {(o.check.b[1], o.check.figure) for o in js[0].outcomes} == {
        (0.9, "RT p50 > 100 KB"),
        (0.98, "RT p25 > 100 KB"),
    }


def test_the_figures_section_links_the_published_plots(tmp_path: Path) -> None:
    from aqmtools.repro import dcn_figures

    # the published experiment's folder links its plots; one of an
    # experiment never published has none
    ours = page.read_folder(_folder(tmp_path / "repro-dcn-paper", lambda q, ld, e, s: 5.0))
    never = _folder(tmp_path / "never", lambda q, ld, e, s: 5.0, hosts="linux")
    toml = never / "experiment.toml"
    toml.write_text(toml.read_text().replace('name = "repro-dcn-linux"', 'name = "never"'))
    other = page.read_folder(never)
    assert other.name == "never" and other.runs
    text = "\n".join(dcn_figures.section([ours, other]))
    row = next(x for x in text.splitlines() if x.startswith("| 10, 12, 14 |"))
    cells = [c.strip() for c in row.strip("|").split("|")]
    published = plan.TOP / "docs/results/repro-dcn-paper/bytes-load98-ecn1.png"
    assert published.is_file()
    assert "[98%, ECN](../results/repro-dcn-paper/bytes-load98-ecn1.png)" in cells[2]
    assert cells[3] == "not published yet"
    # Figures 5-8: a plot a configuration of the scheme and ECN setting
    # (DCN runs without ECN only); 15-18: the two size classes by load
    rows = {x.split("|")[1].strip(): x for x in text.splitlines() if x.startswith("| ")}
    assert "[dcn-24pkt](../results/repro-dcn-paper/rt-cdf-by-load-dcn-24pkt-ecn0.png)" in rows["5"]
    assert "ECN" not in rows["5"].split("|")[3]
    pub = "../results/repro-dcn-paper"
    assert f"[pi-2.9ms, ECN]({pub}/rt-cdf-by-load-pi-2.9ms-ecn1.png)" in rows["6"]
    assert "[90%](../results/repro-dcn-paper/rt-cdf-large-load90-ecn0.png)" in rows["16, 18"]
    assert "[98%, ECN](../results/repro-dcn-paper/rt-cdf-small-load98-ecn1.png)" in rows["15, 17"]
    assert "No runs." in dcn_figures.section([page.read_folder(tmp_path / "absent")])


def _slower(out: Path, pattern: str, ms: int) -> None:
    """Every response of the runs matching PATTERN takes MS more."""
    for d in out.glob(pattern):
        sizes = [1000, 2000, 3000, 200_000]
        rows = [
            _row(1_000_000, 1_000_000 + (t + ms) * 1000, s)
            for t, s in zip((50, 60, 70, 400), sizes, strict=True)
        ]
        (d / "web-c1.csv").write_text(HEADER + "".join(rows))


def _verdicts(out: Path, key: str) -> set[str]:
    claim = next(c for c in page.CLAIMS if c.key == key)
    return {j.verdict for j in page.judge(claim, page.read_folder(out).results)}


def test_the_claims_of_figures_6_to_9(tmp_path: Path) -> None:
    out = _folder(tmp_path / "repro-dcn-paper", lambda q, ld, e, s: 5.0)
    # PI without ECN slower at 98% and 105%: claim (i) holds
    _slower(out, "pi-*-load98-ecn0-s*", 100)
    _slower(out, "pi-*-load105-ecn0-s*", 200)
    assert _verdicts(out, "i") == {page.REPRODUCED}
    # AFD no faster with ECN: claim (j) is not shown (mean zero)
    assert _verdicts(out, "j") == {page.INCONCLUSIVE}
    # PI with ECN as fast as AFD and RIO-PS everywhere: "comparable" holds
    # within noise; slower than RIO-PS at 90% it fails
    assert _verdicts(out, "k") == {page.IN_DIRECTION}
    _slower(out, "pi-*-load90-ecn1-s*", 50)
    assert _verdicts(out, "k") == {page.NOT_REPRODUCED}
    claim = next(c for c in page.CLAIMS if c.key == "k")
    assert len(claim.checks(page.VARIANTS[0])) == 3 * 2 * 2
