"""What dcn leaves the largest transfers, measured from a results folder.

Two questions of issue 35 (why do dcn's settings leave responses over
1 MB unfinished where pie completes them?), answered from runs already
made, with no new run:

1. Where pref sits. From each dcn run's aqmstat records of the downstream
   bottleneck over a window (default 15-60 s: past the warm-up's
   transient, before the drain), with HB holding a flow and the rate
   measured: pref (packets per Tdec), the HB flows, the flows above pref,
   and two ratios, medians over the samples:
   - even = pref / (link / HB): pref over an equal split of the link's
     packets per Tdec among the HB flows (1: pref is exactly that split);
   - held = pref * over / link: the part of the link that the flows above
     pref, each held to pref, can carry together.
   "link" is the measured departure rate times Tdec (--tdec, the
   experiment's; dcn's default 0.8 s).

2. What the largest responses get. For every qdisc, the goodput of each
   response over 1 MB, completed or unfinished (the bytes that arrived
   over the time from the request to the end or the cut-off), by client
   RTT class (below 50 ms and from 50 ms), and paired with the reference
   by seed (the mean goodput of a seed's large responses; seeds without
   one are left out of the pairing).

Usage: python3 -m aqmtools.bench.dcnshare RESULTS [--reference pie]
       [--tdec 0.8] [--window 15 60]
"""

from __future__ import annotations

import argparse
import sys
from collections import defaultdict
from dataclasses import dataclass
from pathlib import Path
from statistics import mean, median
from typing import Any

from aqmtools.bench.intervals import mean_ci, paired
from aqmtools.bench.report import Results, seed_of
from aqmtools.bench.stats import Exchange, Run, read_runs

LARGE = 1_000_000
SHORT_RTT_MS = 50.0


@dataclass(frozen=True)
class PrefFigures:
    """Medians and means over one run's samples in the window."""

    samples: int
    pref: float
    hb: float
    over: float
    even: float
    held: float


def pref_figures(
    samples: list[dict[str, Any]], tdec_s: float, t0: float, t1: float
) -> PrefFigures | None:
    """Where pref sat in [T0, T1] s (None without a usable sample)."""
    use = [
        s
        for s in samples
        if "pref" in s and t0 <= s["t"] <= t1 and s["hb_flows"] > 0 and s["rate"] > 0
    ]
    if not use:
        return None
    link = [s["rate"] * tdec_s for s in use]
    return PrefFigures(
        samples=len(use),
        pref=median(s["pref"] for s in use),
        hb=mean(s["hb_flows"] for s in use),
        over=mean(s["over_pref"] for s in use),
        even=median(s["pref"] * s["hb_flows"] / li for s, li in zip(use, link, strict=True)),
        held=median(s["pref"] * s["over_pref"] / li for s, li in zip(use, link, strict=True)),
    )


def goodput_bps(e: Exchange) -> float:
    """Bytes that arrived over the exchange's time, bit/s."""
    return e.resp_bytes * 8 / e.seconds if e.seconds > 0 else 0.0


def large_goodputs(r: Run, lo: int = LARGE) -> list[tuple[float, float, bool]]:
    """(client RTT ms, goodput bit/s, finished) of each response over LO."""
    rtts = r.meta.get("client_rtts_ms", [])
    out = []
    for host, log in sorted(r.by_host.items()):
        rtt = float(rtts[host - 1]) if host - 1 < len(rtts) else float("nan")
        for e in log.done:
            if e.size > lo:
                out.append((rtt, goodput_bps(e), True))
        for e in log.cut:
            if e.size > lo:
                out.append((rtt, goodput_bps(e), False))
    return out


def _mbps(xs: list[float]) -> str:
    return f"{mean(xs) / 1e6:.2f}" if xs else "-"


def report(res: Results, reference: str, tdec_s: float, t0: float, t1: float) -> list[str]:
    lines = [f"# pref in the window {t0:g}-{t1:g} s (Tdec {tdec_s:g} s), dcn runs"]
    lines.append("run | samples | pref | HB | over pref | even | held")
    for r in res.runs:
        f = pref_figures(r.samples, tdec_s, t0, t1)
        if f is None:
            continue
        m = r.meta
        lines.append(
            f"{m['qdisc']} load {m['load']:g} ecn {int(m['ecn'])} s{seed_of(r)} | {f.samples} | "
            f"{f.pref:.1f} | {f.hb:.1f} | {f.over:.1f} | {f.even:.2f} | {f.held:.2f}"
        )
    lines += ["", f"# responses over {LARGE // 1_000_000} MB: goodput, Mbit/s (mean)"]
    lines.append(
        f"qdisc | load | ecn | n (unfinished) | RTT < {SHORT_RTT_MS:g} ms | "
        f"RTT >= {SHORT_RTT_MS:g} ms | all | paired with {reference}"
    )
    for load in res.loads:
        for ecn in res.ecns:
            ref = _per_seed(res.cells.get((reference, load, ecn), []))
            for name in res.names:
                runs = res.cells.get((name, load, ecn), [])
                if not runs:
                    continue
                g = [x for r in runs for x in large_goodputs(r)]
                short = [bps for rtt, bps, _ in g if rtt < SHORT_RTT_MS]
                long_ = [bps for rtt, bps, _ in g if rtt >= SHORT_RTT_MS]
                unf = sum(not fin for _, _, fin in g)
                pair = "" if name == reference else paired(ref, _per_seed(runs)).verdict(".2f")
                lines.append(
                    f"{name} | {load:g} | {int(ecn)} | {len(g)} ({unf}) | {_mbps(short)} | "
                    f"{_mbps(long_)} | {mean_ci([b / 1e6 for _, b, _ in g]).fmt('.2f')} | {pair}"
                )
    return lines


def _per_seed(runs: list[Run]) -> dict[int, float]:
    """Mean goodput of each seed's large responses, Mbit/s."""
    by: dict[int, list[float]] = defaultdict(list)
    for r in runs:
        by[seed_of(r)] += [bps / 1e6 for _, bps, _ in large_goodputs(r)]
    return {s: mean(v) for s, v in by.items() if v}


def main(argv: list[str]) -> int:
    ap = argparse.ArgumentParser(prog="aqmtools.bench.dcnshare", description=__doc__)
    ap.add_argument("results", type=Path)
    ap.add_argument("--reference", default="pie")
    ap.add_argument("--tdec", type=float, default=0.8)
    ap.add_argument("--window", type=float, nargs=2, default=[15.0, 60.0])
    a = ap.parse_args(argv[1:])
    runs = read_runs(a.results)
    if not runs:
        print(f"no runs in {a.results}", file=sys.stderr)
        return 2
    print("\n".join(report(Results(runs), a.reference, a.tdec, a.window[0], a.window[1])))
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
