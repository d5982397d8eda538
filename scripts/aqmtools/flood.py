"""Judge a qdisc under an unresponsive flood from aqmstat's records of it.

hostile.sh floods the bottleneck with ECT(0) UDP that marking cannot slow
and records the qdisc under test with aqmstat (JSON lines, one record per
tick, each with its CLOCK_MONOTONIC time "t"). Over the settled part of
the flood (the records SKIP seconds and more after the first), the
counters give, by conservation of packets at the qdisc:

    arrivals = sent + dropped + (qlen at the end - qlen at the start)

so the offered load and the service rate are both measured, with no
assumption about what the sender managed on the machine. The qdisc holds
the flood when:

- the flood was one: arrivals at least OVERLOAD times what was sent (a
  sender slower than the link tests nothing, and says so);
- the queue stayed off its limit: every sample below LIMIT (so no sample
  saw a full queue, where drops are no longer the qdisc's own choice)
  and the mean below half of it;
- it dropped: marking alone cannot hold a sender that ignores marks.

Usage: flood.py RECORDS LIMIT [SKIP]
Prints one line, "0 FIGURES" when the qdisc held the flood and
"1 FIGURES: REASON" when it did not, for the shell's tap_result.
"""

from __future__ import annotations

import json
import sys
from dataclasses import dataclass
from typing import Any

from aqmtools.bench.stats import window_figures

OVERLOAD = 1.5


@dataclass(frozen=True)
class Flood:
    """The qdisc over the settled window of a flood."""

    seconds: float
    arrived: int
    sent: int
    dropped: int
    marked: int | None
    mean_qlen: float
    max_qlen: int
    samples: int

    @property
    def overload(self) -> float:
        """Arrivals over departures: 2 for a flood at twice the link."""
        return self.arrived / self.sent if self.sent else float("inf")

    def describe(self) -> str:
        marks = "" if self.marked is None else f", {self.marked} marked"
        return (
            f"{self.arrived} arrivals in {self.seconds:.1f} s at "
            f"{self.overload:.2f} x the {self.sent} sent: {self.dropped} dropped{marks}; "
            f"queue mean {self.mean_qlen:.0f}, max {self.max_qlen} "
            f"({self.samples} samples)"
        )


def read(text: str) -> list[dict[str, Any]]:
    """aqmstat's JSON lines, in order."""
    return [json.loads(line) for line in text.splitlines() if line.strip()]


def settled(records: list[dict[str, Any]], skip: float) -> Flood | None:
    """The flood from SKIP seconds after the first record to the last, or
    None when the records do not cover that window."""
    if not records:
        return None
    t0, t1 = records[0]["t"] + skip, records[-1]["t"]
    if t1 <= t0:
        return None
    fig = window_figures(records, t0, t1, rate_bps=1, clock="t")
    if fig is None:
        return None
    inside = [r for r in records if t0 <= r["t"] <= t1]
    grown = inside[-1]["qlen"] - inside[0]["qlen"]
    return Flood(
        seconds=fig.seconds,
        arrived=fig.sent_packets + fig.drops + grown,
        sent=fig.sent_packets,
        dropped=fig.drops,
        marked=fig.marks,
        mean_qlen=sum(r["qlen"] for r in inside) / len(inside),
        max_qlen=max(r["qlen"] for r in inside),
        samples=len(inside),
    )


def verdict(f: Flood | None, limit: int) -> str | None:
    """Why the qdisc did not hold the flood, or None when it did."""
    if f is None:
        return "the records do not cover the window"
    if f.overload < OVERLOAD:
        return f"no flood: arrivals {f.overload:.2f} x departures, {OVERLOAD} needed"
    if f.max_qlen >= limit:
        return f"the queue reached its limit {limit}"
    if 2 * f.mean_qlen >= limit:
        return f"the mean queue is not under half the limit {limit}"
    if f.dropped == 0:
        return "nothing dropped"
    return None


def main(argv: list[str]) -> int:
    if len(argv) not in (3, 4):
        print(__doc__, file=sys.stderr)
        return 2
    with open(argv[1], encoding="utf-8") as fh:
        records = read(fh.read())
    f = settled(records, float(argv[3]) if len(argv) == 4 else 0.0)
    why = verdict(f, int(argv[2]))
    figures = f.describe() if f else f"{len(records)} records"
    print(f"1 {figures}: {why}" if why else f"0 {figures}")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
