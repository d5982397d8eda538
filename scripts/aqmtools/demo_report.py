"""Summary table of a demo run (scripts/demo.sh).

For each configuration the guest left NAME.iperf.json (iperf3 -J),
NAME.ping.txt (ping under load), NAME.tc.json (tc -s -j of the bottleneck
qdisc) and NAME.qdisc.txt. This prints one row per configuration.

Usage: python3 -m aqmtools.demo_report DIR NAME...
"""

from __future__ import annotations

import json
import math
import re
import statistics
import sys
from dataclasses import dataclass
from pathlib import Path
from typing import Any

_RTT = re.compile(r"time=([0-9.]+) ms")


@dataclass
class Row:
    name: str
    qdisc: str
    goodput_mbit: float
    retransmits: int
    rtt_median_ms: float
    rtt_p95_ms: float
    drops: int
    marks: int
    sent_pkts: int


def ping_rtts(text: str) -> list[float]:
    """RTT samples in ms from ping's per-reply lines."""
    return [float(m.group(1)) for m in _RTT.finditer(text)]


def percentile(values: list[float], p: float) -> float:
    """Nearest-rank percentile, p in [0, 100]."""
    if not values:
        return float("nan")
    s = sorted(values)
    k = max(0, min(len(s) - 1, math.ceil(p / 100 * len(s)) - 1))
    return s[k]


def marks_of(qd: dict[str, Any]) -> int:
    """ECN marks from a qdisc's JSON, whatever its xstats call them."""
    for key in ("marked", "marks", "ecn_mark", "ecn_marks"):
        if key in qd:
            return int(qd[key])
    return 0


def load_row(d: Path, name: str) -> Row:
    iperf = json.loads((d / f"{name}.iperf.json").read_text())
    end = iperf["end"]
    tc: list[dict[str, Any]] = json.loads((d / f"{name}.tc.json").read_text())
    qd = tc[0] if tc else {}
    rtts = ping_rtts((d / f"{name}.ping.txt").read_text())
    return Row(
        name=name,
        qdisc=(d / f"{name}.qdisc.txt").read_text().strip(),
        goodput_mbit=end["sum_received"]["bits_per_second"] / 1e6,
        retransmits=int(end["sum_sent"].get("retransmits", 0)),
        rtt_median_ms=statistics.median(rtts) if rtts else float("nan"),
        rtt_p95_ms=percentile(rtts, 95),
        drops=int(qd.get("drops", 0)),
        marks=marks_of(qd),
        sent_pkts=int(qd.get("packets", 0)),
    )


def table(rows: list[Row]) -> str:
    head = (
        f"{'config':<8} {'goodput':>9} {'RTT p50':>8} {'RTT p95':>8} "
        f"{'drops':>6} {'marks':>6} {'retx':>6}  qdisc"
    )
    unit = f"{'':<8} {'Mbit/s':>9} {'ms':>8} {'ms':>8} {'':>6} {'':>6} {'':>6}"
    lines = [head, unit]
    for r in rows:
        lines.append(
            f"{r.name:<8} {r.goodput_mbit:>9.2f} {r.rtt_median_ms:>8.1f} "
            f"{r.rtt_p95_ms:>8.1f} {r.drops:>6} {r.marks:>6} {r.retransmits:>6}  {r.qdisc}"
        )
    return "\n".join(lines)


def main(argv: list[str]) -> int:
    if len(argv) < 3:
        print(f"usage: {argv[0]} DIR NAME...", file=sys.stderr)
        return 2
    d = Path(argv[1])
    try:
        rows = [load_row(d, n) for n in argv[2:]]
    except (OSError, KeyError, ValueError, IndexError) as e:
        print(f"demo results incomplete: {e}", file=sys.stderr)
        return 1
    print(table(rows))
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
