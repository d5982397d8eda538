"""What the tests put where the harness keeps `tc -s -j qdisc show` of the
bottleneck (tc-before.json, tc-after.json): the htb root, empty, and the
qdisc under test at handle 10: with its counters."""

from __future__ import annotations


def tc_dump(
    packets: int, nbytes: int, drops: int, kind: str = "x", **extra: int
) -> list[dict[str, object]]:
    """The two qdiscs of a dump; EXTRA adds counters to the one under test."""
    return [
        {"kind": "htb", "handle": "1:", "packets": 0, "bytes": 0, "drops": 0},
        {
            "kind": kind,
            "handle": "10:",
            "packets": packets,
            "bytes": nbytes,
            "drops": drops,
            **extra,
        },
    ]
