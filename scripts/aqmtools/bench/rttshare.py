"""The long TCP flows' goodput by client RTT, over their fair share.

In the experiments of many unresponsive flows (unresponsive-10mbit.toml)
the long TCP flow k runs from client host k mod `clients`, whose RTT is
the run's client_rtts_ms[k mod clients]. For each qdisc and RTT this
gives the mean goodput of the TCP flows of that RTT over their fair
share (stats.unresponsive's: the bottleneck's measured throughput over
the TCP and UDP flows), the lowest of them, and the flows under an
eighth of their share ("starved"), each the mean and 95% interval over
the seeds, and a row "all" for all RTTs. Where the UDP flows took more
than their shares, it says at which RTT the TCP flows gave it up, and
whether some were starved (as equation (1) of the SFB paper counts the
flows whose every bin an unresponsive flow shares) or all held back alike.

RESULTS is a results folder, or a published page's raw.tar.xz.

Usage: python3 -m aqmtools.bench.rttshare RESULTS
"""

from __future__ import annotations

import re
import sys
from collections import defaultdict
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from aqmtools.bench import archive
from aqmtools.bench.experiment import fair_share_bps
from aqmtools.bench.intervals import mean_ci
from aqmtools.bench.stats import read_run, run_goodputs

STARVED = 1 / 8
_TCP_FILE = re.compile(r"iperf-tcp(\d+)\.json$")


@dataclass(frozen=True)
class RttFigures:
    """One run's TCP flows of one RTT, over the fair share."""

    rtt_ms: float
    flows: int
    mean: float
    lowest: float
    starved: int


@dataclass(frozen=True)
class RunShares:
    qdisc: str
    seed: int
    order: int
    by_rtt: list[RttFigures]


def flow_rtts(meta: dict[str, Any], rundir: Path) -> dict[int, tuple[float, float]]:
    """Flow index -> (client RTT ms, goodput bit/s) of every TCP flow with
    a result in RUNDIR."""
    rtts = meta["client_rtts_ms"]
    out = {}
    for p in rundir.glob("iperf-tcp*.json"):
        m = _TCP_FILE.search(p.name)
        if m is None:
            continue
        k = int(m.group(1))
        got = [g.bps for g in run_goodputs(meta, [p.read_text()]) if g.bps is not None]
        if got:
            out[k] = (float(rtts[k % len(rtts)]), got[0])
    return out


def run_shares(rundir: Path) -> RunShares | None:
    """RUNDIR's figures; None unless it had TCP and UDP flows."""
    r = read_run(rundir)
    tcp_flows = len(r.goodputs) + r.tcp_missing
    udp_flows = len(r.udp) + r.udp_missing
    if not tcp_flows or not udp_flows or r.link.seconds <= 0:
        return None
    link_bps = 8 * r.link.sent_bytes / r.link.seconds
    fair = fair_share_bps(link_bps, tcp_flows, udp_flows)
    if fair <= 0:
        return None
    per: dict[float, list[float]] = defaultdict(list)
    for rtt, bps in flow_rtts(r.meta, rundir).values():
        per[rtt].append(bps / fair)
    by_rtt = [
        RttFigures(rtt, len(v), sum(v) / len(v), min(v), sum(x < STARVED for x in v))
        for rtt, v in sorted(per.items())
    ]
    return RunShares(
        str(r.meta["qdisc"]), int(r.meta.get("seed", 0)), int(r.meta.get("order", 0)), by_rtt
    )


def table(shares: list[RunShares]) -> list[str]:
    """Per qdisc (in the experiment's order) and RTT: means ± 95% intervals
    over the seeds."""
    by_q: dict[str, list[RunShares]] = defaultdict(list)
    for s in sorted(shares, key=lambda s: (s.order, s.seed)):
        by_q[s.qdisc].append(s)
    lines = [
        "| qdisc | seeds | RTT ms | TCP flows a seed | mean / fair share "
        "| lowest / fair share | starved (< 1/8 of the share) a seed |",
        "|---|---:|---:|---:|---:|---:|---:|",
    ]
    for q, runs in by_q.items():
        rows = [
            (f"{rtt:g}", [[f for f in s.by_rtt if f.rtt_ms == rtt] for s in runs])
            for rtt in sorted({f.rtt_ms for s in runs for f in s.by_rtt})
        ]
        rows.append(("all", [s.by_rtt for s in runs]))
        for name, per_run in rows:
            per_run = [fs for fs in per_run if fs]
            flows = [sum(f.flows for f in fs) for fs in per_run]
            means = [
                sum(f.mean * f.flows for f in fs) / n for fs, n in zip(per_run, flows, strict=True)
            ]
            lows = [min(f.lowest for f in fs) for fs in per_run]
            starved = [float(sum(f.starved for f in fs)) for fs in per_run]
            lines.append(
                f"| {q} | {len(per_run)} | {name} | {_count(flows)} "
                f"| {mean_ci(means).fmt('.2f')} | {mean_ci(lows).fmt('.2f')} "
                f"| {mean_ci(starved).fmt('.1f')} |"
            )
    return [*lines, ""]


def _count(flows: list[int]) -> str:
    """The TCP flows a seed: one number when every seed had as many."""
    if len(set(flows)) == 1:
        return str(flows[0])
    return mean_ci([float(n) for n in flows]).fmt(".1f")


def _shares(folder: Path) -> list[RunShares]:
    return [s for p in sorted(folder.glob("*/run.json")) if (s := run_shares(p.parent))]


def main(argv: list[str]) -> int:
    if len(argv) != 2:
        print(__doc__, file=sys.stderr)
        return 2
    results = Path(argv[1])
    with archive.results_folder(results) as folder:
        shares = _shares(folder)
    if not shares:
        print(f"no runs with TCP and UDP flows in {results}", file=sys.stderr)
        return 2
    print("\n".join(table(shares)))
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
