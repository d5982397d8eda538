"""Judge a qdisc under an unresponsive ECT(0) flood from aqmstat's records.

hostile.sh floods the bottleneck twice with the same UDP, once ECT(0)
(marking cannot slow it: the sender ignores marks) and once not
ECN-capable, and records the qdisc under test with aqmstat (JSON lines, a
record per tick, each with its CLOCK_MONOTONIC time "t"). Over the
settled part of each flood (from SKIP seconds after the first record to
the last), the counters give, by conservation of packets at the qdisc:

    arrivals = sent + dropped + (qlen at the end - qlen at the start)

so offered load and service rate are both measured, with no assumption
about what the sender managed on the machine.

What an ECT(0) flood must not win is a queue: a qdisc that marked
instead of dropping would let it sit at the limit. So the ECT(0) flood
must be dropped, and must keep a queue no longer on average than the
same flood not ECN-capable (within a tenth of the limit). How fast the
queue comes down is the controller's own business: PI with Hollot's
gains climbs to the probability of a 4x overload (0.75) in about a minute
and a half, with or without ECN, and a comparison does not count that
against ECN. Both floods must have been floods: arrivals at least
OVERLOAD times what was sent (a slower sender tests nothing, and fails).

Usage: flood.py ECT_RECORDS PLAIN_RECORDS LIMIT [SKIP]
Prints one line, "0 FIGURES" when the ECT(0) flood won nothing and
"1 FIGURES: REASON" when it did, for the shell's tap_result.
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


def compare(ect: Flood | None, plain: Flood | None, limit: int) -> str | None:
    """Why the ECT(0) flood won something over the PLAIN one, or None."""
    for name, f in (("ECT(0)", ect), ("not-ECT", plain)):
        if f is None:
            return f"the {name} records do not cover the window"
        if f.overload < OVERLOAD:
            return f"no {name} flood: arrivals {f.overload:.2f} x departures, {OVERLOAD} needed"
    assert ect is not None and plain is not None
    if ect.dropped == 0:
        return "the ECT(0) flood was never dropped"
    if ect.mean_qlen > plain.mean_qlen + limit / 10:
        return (
            f"ECT(0) kept a longer queue: mean {ect.mean_qlen:.0f} against "
            f"{plain.mean_qlen:.0f} + {limit / 10:.0f}"
        )
    return None


def main(argv: list[str]) -> int:
    if len(argv) not in (4, 5):
        print(__doc__, file=sys.stderr)
        return 2
    skip = float(argv[4]) if len(argv) == 5 else 0.0
    floods = []
    for path in argv[1:3]:
        with open(path, encoding="utf-8") as fh:
            floods.append(settled(read(fh.read()), skip))
    ect, plain = floods
    why = compare(ect, plain, int(argv[3]))
    figures = "; ".join(
        f"{name}: {f.describe() if f else 'no window'}"
        for name, f in (("ECT(0)", ect), ("not-ECT", plain))
    )
    print(f"1 {figures}: {why}" if why else f"0 {figures}")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
