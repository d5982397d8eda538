"""Where DCN's and PI's early drops fell in the DCN paper's reproduction:
the section of docs/reproduction/dcn.md that gives, beside claim (b)'s
verdict, what the qdiscs' own counters measured over each run's window.

DCN drops only the packets of flows in its HB table, each with probability
1 - pref/pktcount (section 3.2 of the paper), so its drops fall on the
flows whose count is above pref, and those at twice pref or more lose at
least every other packet. sch_dcn counts those (xstats penalty_drops:
early drops at a probability of 1/2 or more), and aqmstat samples pref,
the HB flows and those above pref. PI drops every packet with one
probability, which aqmstat samples too. Nothing here is a claim of the
paper: it is what the runs measured, for the reader who asks why a claim
failed. The page says which reading of pktcount the runs used.
"""

from __future__ import annotations

import math
from typing import Any

from aqmtools.bench.intervals import mean_ci
from aqmtools.bench.report import Results
from aqmtools.bench.stats import Run
from aqmtools.repro import dcn
from aqmtools.repro.page import Folder, cell, spec_values, summary_of, window_records

# the pairs of configurations claim (b) compares (repro-dcn-*.toml), and
# they run without ECN
PAIRS = (("dcn-2.9ms", "pi-2.9ms"), ("dcn-24pkt", "pi-24pkt"))
PAIRED = tuple(q for pair in PAIRS for q in pair)

# the figures, by the name the page prints, with the number format; each is
# a mean over a run's measured window (a level) or a ratio of the
# differences of two counters over it
FIGURES: dict[str, str] = {
    "mean queue, packets": ".1f",
    "pref, packets a Tdec": ".1f",
    "flows in HB": ".1f",
    "flows in HB above pref": ".1f",
    "early drops, % of arrivals": ".2f",
    "early drops at probability >= 1/2, % of early drops": ".0f",
    "early drops a second per flow above pref": ".1f",
    "drop probability, %": ".2f",
}

# aqmstat's fields whose mean over the window a figure is
LEVELS = {
    "mean queue, packets": "qlen",
    "pref, packets a Tdec": "pref",
    "flows in HB": "hb_flows",
    "flows in HB above pref": "over_pref",
}


def _delta(first: dict[str, Any], last: dict[str, Any], key: str) -> float:
    return float(last.get(key, 0)) - float(first.get(key, 0))


def summarize(r: Run) -> dict[str, float]:
    """FIGURES over the run's measured window, those its qdisc reports
    (page.read_folder's SUMMARY): none without two aqmstat records there."""
    recs = window_records(r)
    if len(recs) < 2:
        return {}
    out: dict[str, float] = {}
    for name, key in LEVELS.items():
        xs = [float(x[key]) for x in recs if key in x]
        if xs:
            out[name] = sum(xs) / len(xs)
    first, last = recs[0], recs[-1]
    arrivals = _delta(first, last, "packets") + _delta(first, last, "drops")
    early = _delta(first, last, "early_drops")
    if "early_drops" in last and arrivals > 0:
        out["early drops, % of arrivals"] = 100 * early / arrivals
    if "penalty_drops" in last and early > 0:
        out["early drops at probability >= 1/2, % of early drops"] = (
            100 * _delta(first, last, "penalty_drops") / early
        )
    secs = float(last["wall"]) - float(first["wall"])
    above = out.get("flows in HB above pref", 0.0)
    if "early_drops" in last and secs > 0 and above > 0:
        out["early drops a second per flow above pref"] = early / secs / above
    ps = [float(x["prob"]) for x in recs if "prob" in x]
    if ps:
        out["drop probability, %"] = 100 * sum(ps) / len(ps)
    return out


def _row(res: Results, config: str, name: str, loads: tuple[float, ...]) -> list[str]:
    """FIGURES' NAME of CONFIG (no ECN) at each of LOADS (mean ± 95%
    interval over the seeds), "-" where no run at the load has the figure."""
    cells = []
    for ld in loads:
        xs = [summary_of(r, name) for r in cell(res, config, ld, False)]
        xs = [x for x in xs if not math.isnan(x)]
        cells.append(mean_ci(xs).fmt(FIGURES[name]) if xs else "-")
    return cells


def block(
    f: Folder,
    configs: tuple[str, ...] = PAIRED,
    loads: tuple[float, ...] = dcn.LOADS,
) -> list[str]:
    """The table of one folder: the figures of each of CONFIGS (claim
    (b)'s pairs by default), load by load."""
    heads = " | ".join(f"{ld:.0%}" for ld in loads)
    lines = [
        f"| configuration | figure | {heads} | seeds |",
        "|---|---|" + "---:|" * len(loads) + "---|",
    ]
    res = f.results
    for config in configs:
        runs = [r for ld in loads for r in cell(res, config, ld, False)]
        if not runs:
            continue
        seeds = len({int(r.meta["seed"]) for r in runs})
        for name in FIGURES:
            row = _row(res, config, name, loads)
            if all(c == "-" for c in row):
                continue
            lines.append(f"| {config} | {name} | {' | '.join(row)} | {seeds} |")
    return [*lines, ""]


def pktcount_reading(f: Folder) -> str:
    """Which reading of pktcount the folder's dcn ran with (its "floor")."""
    ours = {p[0] for p in PAIRS}
    specs = {str(r.meta.get("spec", "")) for r in f.runs if r.meta.get("qdisc") in ours}
    floors = sorted({w for s in specs for w in spec_values(s, "floor")})
    if floors == ["0"]:
        return (
            "These runs count every arrival in pktcount, dropped or not (`floor 0`): "
            "section 3.2's definition, the one its drop probability is written with "
            '("the number of packets from that flow that have arrived at the router within '
            'a period of Tdec"). Section 3.1 describes the count as "the number of forwarded '
            'packets" (`floor 1` in tc-dcn(8)); the section "Claim (b) with pktcount counting '
            'forwarded packets, tested" below runs it beside these settings.'
        )
    if not floors:
        return "No dcn run here gives its floor."
    return f"These runs used dcn's floor {', '.join(floors)} (tc-dcn(8))."


def section(folders: list[Folder]) -> list[str]:
    """The page's section: an introduction, then one table per folder."""
    blocks = [f for f in folders if f.runs]
    lines = [
        "## Where the early drops fell (measured, beside claim (b))",
        "",
        "Not a claim of the paper: what the qdiscs' own counters measured over each run's "
        "window (aqmstat's samples every 100 ms, `aqmtools/repro/dcn_drops.py`), for "
        "the reader who asks why claim (b) failed. DCN drops only packets of the flows in "
        "its HB table, each with probability 1 - pref/pktcount (section 3.2), so a flow at "
        "twice pref or more loses at least every other packet it sends; sch_dcn counts "
        "those drops apart (early drops at probability >= 1/2). PI drops any packet with "
        "one probability. pref is in packets a Tdec (800 ms); a flow above pref is one "
        "DCN is dropping from; its early drops a second over their mean number says how "
        "hard each is hit (a ratio of the window's means). Each figure is the mean over "
        "the seeds ± the half width of its 95% interval; the loss itself and its paired "
        "comparisons are in Table 1 and claim (b) above.",
        "",
    ]
    if not blocks:
        return [*lines, "No runs.", ""]
    for f in blocks:
        lines += [f"### End hosts `{f.hosts}` (`{f.name}`)", "", pktcount_reading(f), ""]
        lines += block(f)
    return lines
