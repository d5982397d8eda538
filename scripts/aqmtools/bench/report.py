"""Plots and the summary table of a benchmark's results folder.

For each (load, ecn) of the runs found in OUT: the response-time CDF up to
2 s (the DCN paper's figures 9/11/13) and its CCDF over the whole range,
the fraction of bytes by response size (figures 10/12/14), one line per
qdisc; for each run, the downstream queue and the qdisc's own state over
time (from aqmstat). summary.md is shaped like the DCN paper's table 1:
loss, completed exchanges and link throughput per qdisc, with and without
ECN, plus response-time quantiles and, for long flows, Jain's index.

Usage: python3 -m aqmtools.bench.report OUT
"""

from __future__ import annotations

import math
import sys
from collections import defaultdict
from pathlib import Path
from typing import Any

import matplotlib

matplotlib.use("Agg")
import matplotlib.pyplot as plt

from aqmtools.bench.stats import Run, bytes_by_size, cdf, jain, quantile, read_run

# the qdisc's own state worth plotting beside the queue, per kind
# (aqmstat JSON keys): the controller's output of each algorithm
STATE_KEYS = {
    "pi": ("prob", "p"),
    "dcn": ("pref", "pref (packets / Tdec)"),
    "blue": ("p_m", "p_m"),
    "afd": ("m_fair", "M_fair"),
    "sfb": ("penalized", "penalized flows"),
    "pie": ("prob", "p"),
    "red": ("qave", "average queue"),
}


def _group(runs: list[Run]) -> dict[tuple[float, bool], list[Run]]:
    groups: dict[tuple[float, bool], list[Run]] = defaultdict(list)
    for r in runs:
        groups[(r.meta["load"], r.meta["ecn"])].append(r)
    return groups


def _tag(load: float, ecn: bool) -> str:
    return f"load{round(load * 100)}-ecn{int(ecn)}"


def _title(load: float, ecn: bool) -> str:
    return f"{load:.0%} load, {'ECN' if ecn else 'no ECN'}"


def _save(fig: Any, ax: Any, path: Path, title: str, grid: str = "major") -> None:
    ax.set_title(title)
    ax.legend(fontsize="small")
    ax.grid(alpha=0.3, which=grid)
    fig.savefig(path, dpi=110, bbox_inches="tight")
    plt.close(fig)


def plot_group(out: Path, load: float, ecn: bool, runs: list[Run]) -> list[str]:
    """The three comparison plots of one (load, ecn); their file names."""
    tag, what = _tag(load, ecn), _title(load, ecn)
    names = [f"rt-cdf-{tag}.png", f"rt-ccdf-{tag}.png", f"bytes-{tag}.png"]
    cdfs = {r.meta["qdisc"]: cdf([e.seconds for e in r.web.done]) for r in runs}

    fig, ax = plt.subplots(figsize=(7, 4.5))
    for name, (xs, ys) in cdfs.items():
        ax.plot(xs, ys, label=name)
    ax.set(xlim=(0, 2), ylim=(0, 1), xlabel="response time (s)", ylabel="cumulative fraction")
    _save(fig, ax, out / names[0], f"Response times, {what}")

    fig, ax = plt.subplots(figsize=(7, 4.5))
    for name, (xs, ys) in cdfs.items():
        ax.plot(xs, [1 - y + 1 / len(ys) for y in ys], label=name)
    ax.set(xscale="log", yscale="log", xlabel="response time (s)", ylabel="fraction above")
    _save(fig, ax, out / names[1], f"Response-time CCDF, {what}", grid="both")

    fig, ax = plt.subplots(figsize=(7, 4.5))
    for r in runs:
        sizes, frac = bytes_by_size(r.web.done)
        ax.plot(sizes, frac, label=r.meta["qdisc"])
    ax.set(xscale="log", ylim=(0, 1), xlabel="response size (bytes)")
    ax.set(ylabel="fraction of bytes transferred")
    _save(fig, ax, out / names[2], f"Bytes by response size, {what}")
    return names


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
    ax.set_title(f"{run.meta['qdisc']}: {_title(run.meta['load'], run.meta['ecn'])}")
    fig.savefig(out / name, dpi=100, bbox_inches="tight")
    plt.close(fig)
    return name


def _fmt(x: float, spec: str) -> str:
    return "-" if math.isnan(x) else format(x, spec)


def rtt_table(group: list[Run]) -> list[str]:
    """Response-time p50 / p90 (ms) by client host, hosts in order of RTT:
    whether a qdisc favours short or long RTTs."""
    rtts = group[0].meta["client_rtts_ms"]
    hosts = sorted(range(1, len(rtts) + 1), key=lambda i: rtts[i - 1])
    if not any(r.by_host for r in group):
        return []
    lines = [
        "Response time p50 / p90 (ms) by client RTT:",
        "",
        "| qdisc | " + " | ".join(f"{rtts[i - 1]:g} ms" for i in hosts) + " |",
        "|---|" + "---:|" * len(hosts),
    ]
    for r in group:
        cells = []
        for i in hosts:
            ms = [e.seconds * 1000 for e in r.by_host.get(i, [])]
            cells.append(f"{_fmt(quantile(ms, 0.5), '.0f')} / {_fmt(quantile(ms, 0.9), '.0f')}")
        lines.append(f"| {r.meta['qdisc']} | " + " | ".join(cells) + " |")
    return [*lines, ""]


# response size classes (bytes): the DCN paper's figures 15-18 split at
# 100 KB; 10 KB is the bulk of its figure 1's responses (about 90%)
SIZE_CLASSES = (
    (0, 10_000, "<= 10 KB"),
    (10_000, 100_000, "10-100 KB"),
    (100_000, None, "> 100 KB"),
)


def size_table(group: list[Run]) -> list[str]:
    """Response-time p50 / p90 (ms) and the count of exchanges per response
    size class: whether a qdisc protects the short exchanges."""
    if not any(r.web.done for r in group):
        return []
    lines = [
        "Response time p50 / p90 (ms) by response size (exchanges):",
        "",
        "| qdisc | " + " | ".join(name for _, _, name in SIZE_CLASSES) + " |",
        "|---|" + "---:|" * len(SIZE_CLASSES),
    ]
    for r in group:
        cells = []
        for lo, hi, _ in SIZE_CLASSES:
            ms = [
                e.seconds * 1000
                for e in r.web.done
                if e.resp_bytes > lo and (hi is None or e.resp_bytes <= hi)
            ]
            cells.append(
                f"{_fmt(quantile(ms, 0.5), '.0f')} / {_fmt(quantile(ms, 0.9), '.0f')} ({len(ms)})"
            )
        lines.append(f"| {r.meta['qdisc']} | " + " | ".join(cells) + " |")
    return [*lines, ""]


def long_flows_table(group: list[Run]) -> list[str]:
    """The goodput (Mbit/s) of each long TCP flow and each UDP flow."""
    if not any(r.goodputs or r.udp for r in group):
        return []
    lines = [
        "Long flows, goodput (Mbit/s):",
        "",
        "| qdisc | TCP flows | UDP flows |",
        "|---|---|---|",
    ]
    for r in group:
        tcp = ", ".join(f"{x / 1e6:.2f}" for x in r.goodputs) or "-"
        udp = ", ".join(f"{x / 1e6:.2f}" for x in r.udp) or "-"
        lines.append(f"| {r.meta['qdisc']} | {tcp} | {udp} |")
    return [*lines, ""]


def table1(runs: list[Run]) -> list[str]:
    """The DCN paper's table 1: per qdisc and load, loss %, completed
    exchanges and Mbit/s without and with ECN side by side ("-" where a
    qdisc has no run of that kind)."""
    by: dict[tuple[str, float], dict[bool, Run]] = defaultdict(dict)
    names: list[str] = []
    for r in runs:
        by[(r.meta["qdisc"], r.meta["load"])][r.meta["ecn"]] = r
        if r.meta["qdisc"] not in names:
            names.append(r.meta["qdisc"])
    loads = sorted({r.meta["load"] for r in runs})

    def cells(r: Run | None) -> tuple[str, str, str]:
        if r is None:
            return "-", "-", "-"
        return f"{r.link.loss * 100:.2f}", str(len(r.web.done)), f"{r.link.mbps:.2f}"

    lines = [
        "| qdisc | load | loss % | loss % ECN | completed | completed ECN | Mbit/s | Mbit/s ECN |",
        "|---|---:|---:|---:|---:|---:|---:|---:|",
    ]
    for name in names:
        for ld in loads:
            runs_of = by.get((name, ld), {})
            if not runs_of:
                continue
            off, on = cells(runs_of.get(False)), cells(runs_of.get(True))
            lines.append(
                f"| {name} | {ld:.0%} | {off[0]} | {on[0]} | {off[1]} | {on[1]} "
                f"| {off[2]} | {on[2]} |"
            )
    return [*lines, ""]


def specs(runs: list[Run]) -> list[str]:
    """The tc words of every configuration, once each."""
    seen: dict[tuple[str, bool], str] = {}
    for r in runs:
        seen.setdefault((r.meta["qdisc"], r.meta["ecn"]), r.meta["spec"])
    return [
        f"- {name}{' (ECN runs)' if ecn else ''}: `{spec}`" for (name, ecn), spec in seen.items()
    ] + [""]


def summary(runs: list[Run], plots: dict[tuple[float, bool], list[str]]) -> str:
    """The markdown summary: the overview of the DCN paper's table 1 when
    the experiment has more than one (load, ecn), then one table per
    (load, ecn)."""
    lines = ["# Benchmark summary", ""]
    if runs:
        m = runs[0].meta
        lines += [
            f"Experiment `{m['experiment']}`: bottleneck {m['rate_bps'] / 1e6:g} Mbit/s, "
            f"{m['duration_s']:g} s per run ({m['warmup_s']:g} s warm-up), client RTTs "
            f"{', '.join(f'{x:g}' for x in m['client_rtts_ms'])} ms. Loss, marks, Mbit/s and "
            "utilization are those of the downstream bottleneck (server to client), over the "
            "measured window.",
            "",
        ]
        lines += ["Configurations:", "", *specs(runs)]
    if len(_group(runs)) > 1:
        lines += ["## Loss, completed exchanges, throughput (the DCN paper's table 1)", ""]
        lines += table1(runs)
    for (load, ecn), group in sorted(_group(runs).items()):
        lines += [f"## {_title(load, ecn)}", ""]
        lines.append(
            "| qdisc | loss % | marks | completed | Mbit/s | util % "
            "| RT p50 ms | RT p90 ms | RT p99 ms | users | Jain | valid |"
        )
        lines.append("|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---|")
        for r in group:
            rts = [e.seconds * 1000 for e in r.web.done]
            lk = r.link
            lines.append(
                f"| {r.meta['qdisc']} | {lk.loss * 100:.2f} | "
                f"{'-' if lk.marks is None else lk.marks} | {len(r.web.done)} | {lk.mbps:.2f} | "
                f"{lk.utilization * 100:.1f} | {_fmt(quantile(rts, 0.5), '.0f')} | "
                f"{_fmt(quantile(rts, 0.9), '.0f')} | {_fmt(quantile(rts, 0.99), '.0f')} | "
                f"{r.meta['users']} | {_fmt(jain(r.goodputs), '.3f')} | "
                f"{'yes' if r.meta['valid'] else 'NO (netem dropped)'} |"
            )
        lines.append("")
        lines += rtt_table(group)
        lines += size_table(group)
        lines += long_flows_table(group)
        for r in group:
            for name, text in sorted(r.flent.items()):
                lines += [f"flent {name}, {r.meta['qdisc']}:", "", "```", text.rstrip(), "```", ""]
        lines += [f"![{p}]({p})" for p in plots.get((load, ecn), [])]
        lines.append("")
    return "\n".join(lines)


def main(argv: list[str]) -> int:
    if len(argv) != 2:
        print(__doc__, file=sys.stderr)
        return 1
    out = Path(argv[1])
    rundirs = sorted(p.parent for p in out.glob("*/run.json"))
    # in the experiment's order (its qdiscs as listed), not by name
    runs = [read_run(d) for d in rundirs]
    order = sorted(range(len(runs)), key=lambda i: runs[i].meta.get("order", 0))
    rundirs, runs = [rundirs[i] for i in order], [runs[i] for i in order]
    if not runs:
        print(f"no runs in {out}", file=sys.stderr)
        return 1
    # the response-time plots need web exchanges (not in flent or
    # long-flow experiments)
    plots = {
        (load, ecn): plot_group(out, load, ecn, group)
        for (load, ecn), group in _group(runs).items()
        if all(r.web.done for r in group)
    }
    for d, r in zip(rundirs, runs, strict=True):
        plot_state(out, d, r)
    (out / "summary.md").write_text(summary(runs, plots) + "\n")
    print((out / "summary.md").read_text())
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
