"""Plots and the summary of a benchmark's results folder.

The runs of a cell (qdisc, load, ecn) are its replications, one per seed.
Every figure is computed per run and reported as the mean over the seeds
with its 95% confidence interval (aqmtools.bench.intervals); the qdiscs
are compared with the experiment's reference qdisc paired by seed (the
same seed offers the same workload to both), and each difference is
called significant or within noise. Response-time quantiles count the
exchanges cut off by the end of the drain at their elapsed time (a lower
bound, marked ">=" where it makes the quantile one); unfinished exchanges
are counted per response-size class. Offered load is measured (bytes
requested over the measured window) and printed beside the nominal one.
A configuration that ran on a bottleneck of its own rate (the uncongested
reference) is named with it ("uncongested, 100 Mbit/s") wherever it
appears; its utilization is of its own link, its offered load of the
experiment's rate, which sized its population as the others'.

Plots, for each (load, ecn): the response-time CDF up to 2 s (the DCN
paper's figures 9/11/13) and its CCDF over the whole range, the fraction
of bytes by response size (figures 10/12/14), each pooled over the seeds;
for each ECN setting, loss and the response-time quantiles against load
with their intervals; for each run of the first seed, the downstream
queue and the qdisc's own state over time (from aqmstat).

Usage: python3 -m aqmtools.bench.report OUT
"""

from __future__ import annotations

import math
import sys
from collections import defaultdict
from collections.abc import Callable
from functools import partial
from pathlib import Path
from typing import Any

import matplotlib

matplotlib.use("Agg")
import matplotlib.pyplot as plt

from aqmtools.bench.intervals import Interval, mean_ci, paired
from aqmtools.bench.stats import (
    Exchange,
    Run,
    Unresponsive,
    WebLog,
    bytes_by_size,
    cdf,
    censored_quantile,
    connect_words,
    jain,
    read_run,
    run_times,
    unresponsive,
)

# the qdisc's own state worth plotting beside the queue, per kind
# (aqmstat JSON keys): the controller's output of each algorithm
STATE_KEYS = {
    "pi": ("prob", "p"),
    "rem": ("prob", "m = 1 - phi^-price"),
    "ared": ("prob", "p_b"),
    "riops": ("prob_out", "p_b of OUT packets"),
    "dcn": ("pref", "pref (packets / Tdec)"),
    "blue": ("p_m", "p_m"),
    "afd": ("m_fair", "M_fair"),
    "sfb": ("penalized", "penalized flows"),
    "pie": ("prob", "p"),
    "red": ("qave", "average queue"),
}

Cell = tuple[str, float, bool]
Metric = Callable[[Run], float]


def _tag(load: float, ecn: bool) -> str:
    return f"load{round(load * 100)}-ecn{int(ecn)}"


def cell_title(load: float, ecn: bool) -> str:
    return f"{load:.0%} load, {'ECN' if ecn else 'no ECN'}"


def _save(fig: Any, ax: Any, path: Path, title: str, grid: str = "major") -> None:
    ax.set_title(title)
    ax.legend(fontsize="small")
    ax.grid(alpha=0.3, which=grid)
    fig.savefig(path, dpi=110, bbox_inches="tight")
    plt.close(fig)


def seed_of(r: Run) -> int:
    return int(r.meta.get("seed", 0))


def experiment_rate(meta: dict[str, Any]) -> float:
    """The experiment's rate, which sized the run's population (run.json
    from before qdiscs had rates of their own: the run's rate)."""
    return float(meta.get("experiment_rate_bps", meta["rate_bps"]))


def label(meta: dict[str, Any]) -> str:
    """A run's configuration as the tables and plots name it: the qdisc's
    name, and its rate when that is not the experiment's."""
    if float(meta["rate_bps"]) == experiment_rate(meta):
        return str(meta["qdisc"])
    return f"{meta['qdisc']}, {float(meta['rate_bps']) / 1e6:g} Mbit/s"


class Results:
    """The runs of a results folder, by cell and seed, in the experiment's
    order of qdiscs."""

    def __init__(self, runs: list[Run]) -> None:
        self.runs = runs
        self.cells: dict[Cell, list[Run]] = defaultdict(list)
        self.names: list[str] = []
        # qdisc name -> how it is shown (label())
        self.labels: dict[str, str] = {}
        for r in runs:
            m = r.meta
            self.cells[(m["qdisc"], m["load"], m["ecn"])].append(r)
            if m["qdisc"] not in self.names:
                self.names.append(m["qdisc"])
                self.labels[m["qdisc"]] = label(m)
        for group in self.cells.values():
            group.sort(key=seed_of)
        self.loads = sorted({r.meta["load"] for r in runs})
        self.ecns = sorted({r.meta["ecn"] for r in runs})
        self.seeds = sorted({seed_of(r) for r in runs})

    def group(self, load: float, ecn: bool) -> list[list[Run]]:
        """The cells of one (load, ecn), a list of runs per qdisc."""
        return [self.cells[(n, load, ecn)] for n in self.names if (n, load, ecn) in self.cells]


# --- per-run figures ------------------------------------------------------


def measured_s(r: Run) -> float:
    return float(r.meta["duration_s"] - r.meta["warmup_s"])


def offered_load(r: Run) -> float:
    """Bytes requested per second over the measured window, as a fraction
    of the experiment's bottleneck, the rate the nominal load is of (nan
    without web exchanges)."""
    if not r.web.offered_bytes:
        return math.nan
    return 8 * r.web.offered_bytes / measured_s(r) / experiment_rate(r.meta)


def rt_quantile(web: WebLog, q: float) -> tuple[float, bool]:
    """Response-time quantile (ms) with the cut-off exchanges censored."""
    v, lower = censored_quantile([e.seconds for e in web.done], web.censored_s, q)
    return v * 1000, lower


def _in_class(e: Exchange, lo: int, hi: int | None) -> bool:
    return e.size > lo and (hi is None or e.size <= hi)


def class_log(web: WebLog, lo: int, hi: int | None) -> WebLog:
    """The exchanges of WEB whose response size is in (LO, HI]."""
    done = [e for e in web.done if _in_class(e, lo, hi)]
    cut = [e for e in web.cut if _in_class(e, lo, hi)]
    return WebLog(done, 0, len(cut), 0, cut)


METRICS: dict[str, Metric] = {
    "loss %": lambda r: r.link.loss * 100,
    "Mbit/s": lambda r: r.link.mbps,
    "util %": lambda r: r.link.utilization * 100,
    "offered %": lambda r: offered_load(r) * 100,
    "completed": lambda r: float(len(r.web.done)),
    "unfinished": lambda r: float(r.web.unfinished),
    "RT p50 ms": lambda r: rt_quantile(r.web, 0.5)[0],
    "RT p90 ms": lambda r: rt_quantile(r.web, 0.9)[0],
    "RT p99 ms": lambda r: rt_quantile(r.web, 0.99)[0],
    "Jain": lambda r: jain(r.goodputs),
}
# how each metric is printed, and the quantile it is (for the ">=" mark)
FORMATS = {"loss %": ".2f", "Mbit/s": ".2f", "util %": ".1f", "offered %": ".1f", "Jain": ".3f"}
QUANTILES = {"RT p50 ms": 0.5, "RT p90 ms": 0.9, "RT p99 ms": 0.99}


def interval(runs: list[Run], metric: str) -> Interval:
    return mean_ci([METRICS[metric](r) for r in runs])


def cell_text(runs: list[Run], metric: str) -> str:
    """The mean ± interval of METRIC over RUNS, ">=" before a quantile
    that a censored exchange makes a lower bound in any run."""
    text = interval(runs, metric).fmt(FORMATS.get(metric, ".0f"))
    q = QUANTILES.get(metric)
    if q is not None and text != "-" and any(rt_quantile(r.web, q)[1] for r in runs):
        text = ">= " + text
    return text


# --- plots ----------------------------------------------------------------


def plot_group(out: Path, load: float, ecn: bool, cells: list[list[Run]]) -> list[str]:
    """The three comparison plots of one (load, ecn), pooled over the
    seeds (cut-off exchanges at their elapsed time); their file names."""
    tag, what = _tag(load, ecn), cell_title(load, ecn)
    names = [f"rt-cdf-{tag}.png", f"rt-ccdf-{tag}.png", f"bytes-{tag}.png"]
    pooled = {
        label(runs[0].meta): [e for r in runs for e in r.web.done + r.web.cut] for runs in cells
    }
    cdfs = {name: cdf([e.seconds for e in ex]) for name, ex in pooled.items() if ex}
    seeds = len({seed_of(r) for runs in cells for r in runs})
    note = f", {seeds} seeds pooled" if seeds > 1 else ""

    curves = [(name, [e.seconds for e in ex], "-") for name, ex in pooled.items()]
    _cdf_plot(out / names[0], curves, f"Response times, {what}{note}", False)

    fig, ax = plt.subplots(figsize=(7, 4.5))
    for name, (xs, ys) in cdfs.items():
        ax.plot(xs, [1 - y + 1 / len(ys) for y in ys], label=name)
    ax.set(xscale="log", yscale="log", xlabel="response time (s)", ylabel="fraction above")
    _save(fig, ax, out / names[1], f"Response-time CCDF, {what}{note}", grid="both")

    fig, ax = plt.subplots(figsize=(7, 4.5))
    for name, ex in pooled.items():
        sizes, frac = bytes_by_size(ex)
        ax.plot(sizes, frac, label=name)
    ax.set(xscale="log", ylim=(0, 1), xlabel="response size (bytes)")
    ax.set(ylabel="fraction of bytes transferred")
    _save(fig, ax, out / names[2], f"Bytes by response size, {what}{note}")
    return names


# the DCN paper's Figures 15-18 split the responses at 100,000 bytes
SIZE_SPLIT = 100_000


def _seconds(runs: list[Run], log: Callable[[Run], WebLog]) -> list[float]:
    """The response times of RUNS' exchanges (LOG of each), pooled, the
    cut-off ones at their elapsed time."""
    return [e.seconds for r in runs for e in log(r).done + log(r).cut]


def _cdf_plot(
    path: Path, curves: list[tuple[str, list[float], str]], title: str, log: bool
) -> None:
    """One CDF a curve (name, samples, matplotlib format); LOG: a log
    time axis, else 0-2 s as the comparison plots."""
    fig, ax = plt.subplots(figsize=(7, 4.5))
    for name, xs, fmt in curves:
        if xs:
            cx, cy = cdf(xs)
            ax.plot(cx, cy, fmt, label=name)
    ax.set(ylim=(0, 1), xlabel="response time (s)", ylabel="cumulative fraction")
    if log:
        ax.set(xscale="log")
    else:
        ax.set(xlim=(0, 2))
    _save(fig, ax, path, title, grid="both" if log else "major")


def plot_classes(out: Path, load: float, ecn: bool, cells: list[list[Run]]) -> list[str]:
    """The response-time CDFs of the responses up to SIZE_SPLIT bytes and
    of those above it, every configuration of one (load, ecn) on each,
    pooled over the seeds (the DCN paper's Figures 15-18); their names."""
    tag, what = _tag(load, ecn), cell_title(load, ecn)
    names = []
    for cls, lo, hi, log in (("small", 0, SIZE_SPLIT, False), ("large", SIZE_SPLIT, None, True)):
        curves = [
            (label(runs[0].meta), _seconds(runs, partial(_class_web, lo=lo, hi=hi)), "-")
            for runs in cells
        ]
        if not any(xs for _, xs, _ in curves):
            continue
        side = f"up to {SIZE_SPLIT:,}" if hi is not None else f"over {SIZE_SPLIT:,}"
        names.append(f"rt-cdf-{cls}-{tag}.png")
        _cdf_plot(out / names[-1], curves, f"Responses of {side} bytes, {what}", log)
    return names


def plot_by_load(out: Path, res: Results) -> list[str]:
    """For each configuration and ECN setting with runs at more than one
    load: its response-time CDF at every load, pooled over the seeds,
    beside those of the experiment's configurations on a link of another
    rate (an uncongested reference) at the same loads, dashed (the DCN
    paper's Figures 5-8); their names."""
    refs = [n for n in res.names if res.labels[n] != n]
    names = []
    for q in res.names:
        if q in refs:
            continue
        for ecn in res.ecns:
            loads = [ld for ld in res.loads if (q, ld, ecn) in res.cells]
            if len(loads) < 2:
                continue
            curves = []
            for i, ld in enumerate(loads):
                curves.append((f"{ld:.0%}", _seconds(res.cells[(q, ld, ecn)], _web), f"C{i}-"))
                for n in refs:
                    runs = res.cells.get((n, ld, ecn)) or res.cells.get((n, ld, False), [])
                    curves.append((f"{res.labels[n]}, {ld:.0%}", _seconds(runs, _web), f"C{i}--"))
            names.append(f"rt-cdf-by-load-{q}-ecn{int(ecn)}.png")
            title = f"Response times of {q}, {'ECN' if ecn else 'no ECN'}, by load"
            _cdf_plot(out / names[-1], curves, title, False)
    return names


def _web(r: Run) -> WebLog:
    return r.web


def _class_web(r: Run, lo: int, hi: int | None) -> WebLog:
    return class_log(r.web, lo, hi)


def plot_intervals(out: Path, res: Results, ecn: bool) -> str | None:
    """Loss and the response-time quantiles against load, a point per
    qdisc and load with its 95% interval."""
    if len(res.loads) < 2 and len(res.seeds) < 2:
        return None
    name = f"intervals-ecn{int(ecn)}.png"
    metrics = ["loss %", "RT p50 ms", "RT p90 ms"]
    fig, axes = plt.subplots(1, len(metrics), figsize=(5 * len(metrics), 4))
    width = (
        0.25
        * min([b - a for a, b in zip(res.loads, res.loads[1:], strict=False)] or [0.1])
        / max(1, len(res.names))
    )
    for ax, metric in zip(axes, metrics, strict=True):
        for k, qname in enumerate(res.names):
            pts = [
                (
                    ld + (k - len(res.names) / 2) * width,
                    interval(res.cells[(qname, ld, ecn)], metric),
                )
                for ld in res.loads
                if (qname, ld, ecn) in res.cells
            ]
            if not pts:
                continue
            xs = [x * 100 for x, _ in pts]
            ys = [iv.mean for _, iv in pts]
            err = [0.0 if math.isnan(iv.half) else iv.half for _, iv in pts]
            ax.errorbar(
                xs, ys, yerr=err, fmt="o-", capsize=3, ms=3, lw=0.8, label=res.labels[qname]
            )
        ax.set(xlabel="nominal load (%)", ylabel=metric)
        ax.grid(alpha=0.3)
    axes[0].legend(fontsize="small")
    fig.suptitle(f"Means and 95% intervals over the seeds, {'ECN' if ecn else 'no ECN'}")
    fig.savefig(out / name, dpi=100, bbox_inches="tight")
    plt.close(fig)
    return name


def plot_state(out: Path, rundir: Path, run: Run) -> str | None:
    """Queue length and the controller's state over time, downstream."""
    recs = run.samples
    if not recs:
        return None
    name = f"state-{rundir.name}.png"
    fig, ax = plt.subplots(figsize=(8, 3.5))
    t = [r["t"] for r in recs]
    ax.plot(t, [r["qlen"] for r in recs], lw=0.6, color="tab:blue")
    ax.set(xlabel="time (s)", ylabel="queue (packets)")
    key = STATE_KEYS.get(recs[0].get("kind", ""))
    if key and key[0] in recs[0]:
        ax2 = ax.twinx()
        ax2.plot(t, [r.get(key[0], math.nan) for r in recs], lw=0.8, color="tab:red")
        ax2.set_ylabel(key[1], color="tab:red")
    ax.set_title(f"{label(run.meta)}: {cell_title(run.meta['load'], run.meta['ecn'])}")
    fig.savefig(out / name, dpi=100, bbox_inches="tight")
    plt.close(fig)
    return name


# --- tables ---------------------------------------------------------------


def main_table(cells: list[list[Run]]) -> list[str]:
    cols = ["offered %", "loss %", "Mbit/s", "util %", "completed", "unfinished"]
    cols += ["RT p50 ms", "RT p90 ms", "RT p99 ms"]
    has_long = any(r.goodputs for runs in cells for r in runs)
    if has_long:
        cols.append("Jain")
    lines = [
        "| qdisc | seeds | " + " | ".join(cols) + " | marks | valid |",
        "|---|---:|" + "---:|" * len(cols) + "---:|---|",
    ]
    for runs in cells:
        marks = [r.link.marks for r in runs]
        mark = "-" if any(m is None for m in marks) else mean_ci([float(m or 0) for m in marks])
        valid = sum(not r.problems for r in runs)
        why = " (" + ", ".join(sorted({p for r in runs for p in r.problems})) + ")"
        lines.append(
            f"| {label(runs[0].meta)} | {len(runs)} | "
            + " | ".join(cell_text(runs, c) for c in cols)
            + f" | {mark if isinstance(mark, str) else mark.fmt('.0f')} | "
            + f"{valid}/{len(runs)}{why if valid < len(runs) else ''} |"
        )
    return [*lines, ""]


PAIRED = ("loss %", "Mbit/s", "RT p50 ms", "RT p90 ms", "RT p99 ms", "unfinished")


def paired_table(cells: list[list[Run]], reference: str) -> list[str]:
    """Each qdisc minus the reference, paired by seed."""
    columns = [(m, FORMATS.get(m, ".0f"), METRICS[m]) for m in PAIRED]
    return _paired(cells, reference, "Paired by seed", columns)


Column = tuple[str, str, Callable[[Run], float]]


def _paired(cells: list[list[Run]], reference: str, what: str, columns: list[Column]) -> list[str]:
    """A table of each qdisc minus the reference in every column (name,
    format, the run's figure: nan where it has none), paired by seed;
    none unless the reference has figures on two seeds or more."""
    ref = next((runs for runs in cells if runs[0].meta["qdisc"] == reference), None)
    if ref is None or len(cells) < 2:
        return []
    ref_seeds = {seed_of(r) for r in ref if any(not math.isnan(f(r)) for _, _, f in columns)}
    if len(ref_seeds) < 2:
        return []
    shown = label(ref[0].meta)
    lines = [
        f"{what} with {shown} (qdisc minus {shown}: mean difference and "
        "its 95% interval over the common seeds; 'within noise' where the interval "
        "contains 0):",
        "",
        "| qdisc | seeds | " + " | ".join(name for name, _, _ in columns) + " |",
        "|---|---:|" + "---|" * len(columns),
    ]
    for runs in cells:
        if runs is ref:
            continue
        row = []
        n = 0
        for _, spec, f in columns:
            p = paired({seed_of(r): f(r) for r in ref}, {seed_of(r): f(r) for r in runs})
            n = max(n, len(p.seeds))
            row.append(p.verdict(spec))
        lines.append(f"| {label(runs[0].meta)} | {n} | " + " | ".join(row) + " |")
    return [*lines, ""]


# response size classes (bytes): the DCN paper's figures 15-18 split at
# 100 KB; 10 KB is the bulk of its figure 1's responses (about 90%)
SIZE_CLASSES = (
    (0, 10_000, "<= 10 KB"),
    (10_000, 100_000, "10-100 KB"),
    (100_000, 1_000_000, "100 KB-1 MB"),
    (1_000_000, None, "> 1 MB"),
)


def _quantile_cell(logs: list[WebLog]) -> str:
    """Mean over the seeds of p50 / p90 (ms) of LOGS."""
    cells = []
    for q in (0.5, 0.9):
        vals = [rt_quantile(w, q) for w in logs if w.done or w.cut]
        iv = mean_ci([v for v, _ in vals])
        text = "-" if iv.n == 0 else format(iv.mean, ".0f")
        cells.append((">=" if any(lb for _, lb in vals) else "") + text)
    return " / ".join(cells)


def size_table(cells: list[list[Run]]) -> list[str]:
    """Response time p50 / p90 (ms, mean over the seeds) per response-size
    class, with the exchanges completed and cut off (summed over seeds)."""
    if not any(r.web.done for runs in cells for r in runs):
        return []
    lines = [
        "Response time p50 / p90 (ms, mean over the seeds) by response size; in brackets "
        "the exchanges completed and those still unfinished at the end of the drain "
        "(summed over the seeds):",
        "",
        "| qdisc | " + " | ".join(name for _, _, name in SIZE_CLASSES) + " |",
        "|---|" + "---:|" * len(SIZE_CLASSES),
    ]
    for runs in cells:
        row = []
        for lo, hi, _ in SIZE_CLASSES:
            logs = [class_log(r.web, lo, hi) for r in runs]
            done = sum(len(w.done) for w in logs)
            cut = sum(len(w.cut) for w in logs)
            row.append(f"{_quantile_cell(logs)} ({done}, {cut} unfinished)")
        lines.append(f"| {label(runs[0].meta)} | " + " | ".join(row) + " |")
    return [*lines, ""]


def rtt_bands(cells: list[list[Run]]) -> list[tuple[float, float]]:
    """RTT bands for the per-RTT table: the hosts' RTTs when every seed
    has the same ones (fixed classes), else four equal bands of the range."""
    rtts = {tuple(r.meta["client_rtts_ms"]) for runs in cells for r in runs}
    if len(rtts) == 1:
        vals = sorted(set(next(iter(rtts))))
        return [(v, v) for v in vals]
    lo = min(min(x) for x in rtts)
    hi = max(max(x) for x in rtts)
    step = (hi - lo) / 4 or 1.0
    return [(lo + k * step, lo + (k + 1) * step) for k in range(4)]


def _in_band(rtt: float, lo: float, hi: float, last: bool) -> bool:
    """Whether RTT is in [LO, HI) (in [LO, HI] for the last band; equal to
    LO for a fixed class, LO == HI)."""
    if lo == hi:
        return rtt == lo
    return lo <= rtt < hi or (last and rtt == hi)


def rtt_table(cells: list[list[Run]]) -> list[str]:
    """Response-time p50 / p90 (ms) by client RTT: whether a qdisc favours
    short or long RTTs (mean over the seeds of each band's quantiles)."""
    if not any(r.by_host for runs in cells for r in runs):
        return []
    bands = rtt_bands(cells)

    def band_name(b: tuple[float, float]) -> str:
        return f"{b[0]:g} ms" if b[0] == b[1] else f"{b[0]:.0f}-{b[1]:.0f} ms"

    lines = [
        "Response time p50 / p90 (ms, mean over the seeds) by client RTT:",
        "",
        "| qdisc | " + " | ".join(band_name(b) for b in bands) + " |",
        "|---|" + "---:|" * len(bands),
    ]
    for runs in cells:
        row = []
        for k, (lo, hi) in enumerate(bands):
            logs = []
            for r in runs:
                rtts = r.meta["client_rtts_ms"]
                hosts = [i for i in r.by_host if _in_band(rtts[i - 1], lo, hi, k == len(bands) - 1)]
                done = [e for i in hosts for e in r.by_host[i].done]
                cut = [e for i in hosts for e in r.by_host[i].cut]
                logs.append(WebLog(done, 0, len(cut), 0, cut))
            row.append(_quantile_cell(logs))
        lines.append(f"| {label(runs[0].meta)} | " + " | ".join(row) + " |")
    return [*lines, ""]


def goodputs_said(runs: list[Run]) -> str:
    """What the TCP and UDP flows' goodputs of RUNS are over, as a table's
    caption says it: the TCP flows' over the measured window, but those of
    files that do not place their intervals in time (Run.tcp_whole_test),
    counted, over their whole test."""
    whole = sum(r.tcp_whole_test for r in runs)
    note = ""
    if whole:
        flows = sum(len(r.goodputs) for r in runs)
        note = (
            f" ({whole} of the {flows} flows, archived without their intervals: over "
            "their whole test)"
        )
    return (
        "a TCP flow's goodput is the bytes it received in the measured window over the "
        f"window's length{note}, a UDP flow's is over its whole test (warm-up included)"
    )


def long_flows_table(cells: list[list[Run]]) -> list[str]:
    """The goodput (Mbit/s) of the long TCP flows and the UDP flows."""
    if not any(r.goodputs or r.udp or r.udp_missing for runs in cells for r in runs):
        return []
    said = goodputs_said([r for runs in cells for r in runs])
    lines = [
        "Long flows, goodput (Mbit/s, mean ± 95% interval over the seeds): TCP in all, "
        "the TCP flow that got least, UDP in all (over the runs whose UDP flow started; "
        f"the runs whose flow never did are counted apart); {said}:",
        "",
        "| qdisc | TCP total | TCP lowest | UDP | UDP never started |",
        "|---|---:|---:|---:|---:|",
    ]
    for runs in cells:
        tot = mean_ci([sum(r.goodputs) / 1e6 for r in runs if r.goodputs])
        low = mean_ci([min(r.goodputs) / 1e6 for r in runs if r.goodputs])
        udp = mean_ci([sum(r.udp) / 1e6 for r in runs if r.udp])
        missing = sum(r.udp_missing > 0 for r in runs)
        lines.append(
            f"| {label(runs[0].meta)} | {tot.fmt('.2f')} | {low.fmt('.2f')} | {udp.fmt('.2f')} "
            f"| {missing}/{len(runs)} |"
        )
    return [*lines, ""]


def warmup_said(cells: list[list[Run]]) -> str:
    """The runs' warm-up, as the table's text gives it."""
    warm = sorted({float(r.meta.get("warmup_s", 0.0)) for runs in cells for r in runs})
    return " or ".join(f"{w:g} s" for w in warm) or "(unknown)"


def unresponsive_table(cells: list[list[Run]]) -> list[str]:
    """How the unresponsive UDP flows fared against the long TCP flows
    (stats.Unresponsive), per qdisc: means and 95% intervals over the
    seeds whose runs had both."""
    figs = [[f for r in runs if (f := unresponsive(r)) is not None] for runs in cells]
    if not any(figs):
        return []
    said = goodputs_said([r for runs in cells for r in runs if unresponsive(r) is not None])
    lines = [
        "Unresponsive flows (mean ± 95% interval over the seeds). A flow's fair share is "
        "the downstream bottleneck's measured throughput (bytes its qdisc sent over the "
        "measured window, headers included: a flow's payload at exactly its share reads "
        f"about 0.96) over the TCP and UDP flows; {said}. UDP: the UDP flows' goodput in all over "
        "their fair shares (a flow that never started counts 0); TCP lowest: the TCP flow "
        "that got least, over its fair share; Jain: over the TCP flows' goodputs (a TCP "
        "flow without a result, killed before it wrote one, counts among the flows but is "
        "left out of TCP lowest and Jain, and its run lists it among its problems); never "
        "started: UDP flows whose handshake was lost, of all the seeds' UDP flows; TCP "
        "connected by: seconds after the run's start by which every TCP flow had "
        "connected (stats.last_connect_s), to read beside the warm-up's "
        f"{warmup_said(cells)} (a flow connected later was measured over part of the window):",
        "",
        "| qdisc | seeds | flows TCP + UDP | UDP / fair share | TCP lowest / fair share "
        "| Jain (TCP) | UDP never started | TCP connected by, s |",
        "|---|---:|---:|---:|---:|---:|---:|---:|",
    ]
    for runs, fs in zip(cells, figs, strict=True):
        if not fs:
            lines.append(f"| {label(runs[0].meta)} | 0 | - | - | - | - | - | - |")
            continue
        counts = sorted({f"{f.tcp_flows} + {f.udp_flows}" for f in fs})
        udp = mean_ci([f.udp for f in fs]).fmt(".2f")
        low = mean_ci([f.tcp_lowest for f in fs]).fmt(".2f")
        jn = mean_ci([f.jain for f in fs]).fmt(".3f")
        missing = f"{sum(f.udp_missing for f in fs)}/{sum(f.udp_flows for f in fs)}"
        known = [r.tcp_connected_s for r in runs if unresponsive(r) is not None]
        by = mean_ci([x for x in known if x is not None]).fmt(".1f") if None not in known else "-"
        lines.append(
            f"| {label(runs[0].meta)} | {len(fs)} | {', '.join(counts)} | {udp} | {low} "
            f"| {jn} | {missing} | {by} |"
        )
    return [*lines, ""]


def _unresponsive_figure(get: Callable[[Unresponsive], float]) -> Callable[[Run], float]:
    def figure(r: Run) -> float:
        f = unresponsive(r)
        return math.nan if f is None else get(f)

    return figure


UNRESPONSIVE_PAIRED: list[Column] = [
    ("UDP / fair share", ".2f", _unresponsive_figure(lambda f: f.udp)),
    ("TCP lowest / fair share", ".2f", _unresponsive_figure(lambda f: f.tcp_lowest)),
    ("Jain (TCP)", ".3f", _unresponsive_figure(lambda f: f.jain)),
]


def paired_unresponsive_table(cells: list[list[Run]], reference: str) -> list[str]:
    """The figures of unresponsive_table, each qdisc minus the reference,
    paired by seed (the same seed starts the same flows at the same times
    under both)."""
    return _paired(cells, reference, "Unresponsive flows paired by seed", UNRESPONSIVE_PAIRED)


def table1(res: Results) -> list[str]:
    """The DCN paper's table 1: per qdisc and load, loss %, completed
    exchanges and Mbit/s without and with ECN side by side (means ± 95%
    intervals over the seeds; "-" where a qdisc has no run of that kind)."""
    lines = [
        "| qdisc | load | loss % | loss % ECN | completed | completed ECN | Mbit/s | Mbit/s ECN |",
        "|---|---:|---:|---:|---:|---:|---:|---:|",
    ]
    for name in res.names:
        for ld in res.loads:
            off = res.cells.get((name, ld, False), [])
            on = res.cells.get((name, ld, True), [])
            if not off and not on:
                continue
            row = [
                cell_text(runs, metric) if runs else "-"
                for metric in ("loss %", "completed", "Mbit/s")
                for runs in (off, on)
            ]
            lines.append(f"| {res.labels[name]} | {ld:.0%} | " + " | ".join(row) + " |")
    return [*lines, ""]


def specs(res: Results) -> list[str]:
    """The tc words of every configuration, once each: as the experiment
    gives them and, where they hold a time, as run."""
    seen: dict[tuple[str, bool], tuple[str, str]] = {}
    for r in res.runs:
        m = r.meta
        seen.setdefault((m["qdisc"], m["ecn"]), (m.get("spec_template", m["spec"]), m["spec"]))
    lines = []
    for (name, ecn), (template, spec) in seen.items():
        shown = f"`{spec}`" if template == spec else f"`{template}`, at this rate `{spec}`"
        lines.append(f"- {res.labels[name]}{' (ECN runs)' if ecn else ''}: {shown}")
    marking = [res.labels[name] for (name, _), (_, spec) in seen.items() if netem_marks(spec)]
    if marking:
        lines += [
            "",
            f"netem marks instead of dropping ({', '.join(dict.fromkeys(marking))}): it counts "
            "a packet it marks as a drop and sends it all the same, so their 'loss %' is the "
            "packets notified, marked or dropped, over the packets sent and dropped: p / (1 + p) "
            "of ECN-capable traffic at a probability p, not packets lost.",
        ]
    return [*lines, ""]


def netem_marks(spec: str) -> bool:
    """Whether SPEC is a netem that marks ECN-capable packets (`ecn`) in
    place of its random loss: sch_netem then counts each mark in its drops."""
    words = spec.split()
    return bool(words) and words[0] == "netem" and "ecn" in words[1:]


def header(res: Results) -> list[str]:
    m = res.runs[0].meta
    sets = sorted({r.meta.get("seed_set", "tuning") for r in res.runs})
    rtts = {tuple(r.meta["client_rtts_ms"]) for r in res.runs}
    rtt_text = (
        f"client RTTs {', '.join(f'{x:g}' for x in next(iter(rtts)))} ms"
        if len(rtts) == 1
        else f"client RTTs drawn per seed ({min(min(x) for x in rtts):g}-"
        f"{max(max(x) for x in rtts):g} ms)"
    )
    hosts = m.get("hosts", "linux")
    prof = ", ".join([*m.get("host_sysctls", []), m.get("host_route", "")]).strip(", ")
    duration, warmup = run_times(m)
    connect = connect_words([r.meta for r in res.runs])
    return [
        f"Experiment `{m['experiment']}`: bottleneck {experiment_rate(m) / 1e6:g} Mbit/s, "
        f"{duration:g} s per run ({warmup:g} s warm-up, then a drain of at most "
        f"{m.get('drain_s', 2):g} s{'; ' + connect if connect else ''}), "
        f"workload {m.get('workload', 'web')}, end hosts "
        f"`{hosts}` ({prof or 'the kernel defaults'}, {m.get('cc', 'reno')}), {rtt_text}. "
        f"Seeds: {', '.join(map(str, res.seeds))} ({' and '.join(sets)}"
        f"{'' if sets == ['reporting'] else ': NOT for claims'}).",
        "",
        "Each figure is the mean over the seeds ± the half width of its 95% confidence "
        "interval (Student t, n - 1 degrees of freedom). Loss, marks, Mbit/s and utilization "
        "are those of the downstream bottleneck (server to client) over the measured window. "
        "Response times count the exchanges cut off by the end of the drain at their elapsed "
        "time; '>=' marks a quantile that this makes a lower bound. 'offered %' is the bytes "
        "requested over the measured window, against the nominal load of the heading.",
        "",
        *own_rates(res),
    ]


def own_rates(res: Results) -> list[str]:
    """What a configuration named with a rate of its own is, when there is one."""
    own = [res.labels[n] for n in res.names if res.labels[n] != n]
    if not own:
        return []
    return [
        f"Ran on a bottleneck of its own rate: {'; '.join(own)}. It was offered the same "
        "users as the others of its load and seed (the population of the experiment's "
        "rate); its utilization is of its own link, its offered load of the experiment's "
        "rate.",
        "",
    ]


def summary(
    res: Results,
    plots: dict[tuple[float, bool], list[str]],
    extra: list[str],
    by_load: list[str] | None = None,
) -> str:
    """The markdown summary (BY_LOAD: plot_by_load's plots, last)."""
    lines = ["# Benchmark summary", "", *header(res), "Configurations:", "", *specs(res)]
    reference = res.runs[0].meta.get("reference") or res.names[0]
    if len(res.loads) * len(res.ecns) > 1:
        lines += ["## Loss, completed exchanges, throughput (the DCN paper's table 1)", ""]
        lines += table1(res)
    lines += [f"![{p}]({p})" for p in extra]
    lines.append("")
    for ld in res.loads:
        for ecn in res.ecns:
            cells = res.group(ld, ecn)
            if not cells:
                continue
            lines += [f"## {cell_title(ld, ecn)}", ""]
            lines += main_table(cells)
            lines += paired_table(cells, reference)
            lines += rtt_table(cells)
            lines += size_table(cells)
            lines += long_flows_table(cells)
            lines += unresponsive_table(cells)
            lines += paired_unresponsive_table(cells, reference)
            for runs in cells:
                r = runs[0]
                for name, text in sorted(r.flent.items()):
                    lines += [
                        f"flent {name}, {r.meta['qdisc']} (seed {seed_of(r)}):",
                        "",
                        "```",
                        text.rstrip(),
                        "```",
                        "",
                    ]
            lines += [f"![{p}]({p})" for p in plots.get((ld, ecn), [])]
            lines.append("")
    if by_load:
        lines += ["## Each configuration's response times across the loads", ""]
        lines += [*(f"![{p}]({p})" for p in by_load), ""]
    return "\n".join(lines)


def main(argv: list[str]) -> int:
    if len(argv) != 2:
        print(__doc__, file=sys.stderr)
        return 1
    out = Path(argv[1])
    rundirs = sorted(p.parent for p in out.glob("*/run.json"))
    runs = [read_run(d) for d in rundirs]
    # in the experiment's order (its qdiscs as listed), not by name
    order = sorted(range(len(runs)), key=lambda i: runs[i].meta.get("order", 0))
    rundirs, runs = [rundirs[i] for i in order], [runs[i] for i in order]
    if not runs:
        print(f"no runs in {out}", file=sys.stderr)
        return 1
    res = Results(runs)
    # the response-time plots need web exchanges (not in flent or
    # long-flow experiments)
    plots = {}
    for ld in res.loads:
        for ecn in res.ecns:
            cells = res.group(ld, ecn)
            if cells and all(r.web.done for runs in cells for r in runs):
                plots[(ld, ecn)] = plot_group(out, ld, ecn, cells)
                plots[(ld, ecn)] += plot_classes(out, ld, ecn, cells)
    extra = [p for e in res.ecns if (p := plot_intervals(out, res, e))]
    web = all(r.web.done for r in res.runs)
    by_load = plot_by_load(out, res) if web else []
    first = res.seeds[0]
    for d, r in zip(rundirs, runs, strict=True):
        if seed_of(r) == first:
            plot_state(out, d, r)
    (out / "summary.md").write_text(summary(res, plots, extra, by_load) + "\n")
    print((out / "summary.md").read_text())
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
