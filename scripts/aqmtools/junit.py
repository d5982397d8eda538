"""Convert a JUnit XML report (pytest --junitxml) to TAP.

Usage: python3 -m aqmtools.junit REPORT.xml > results.tap
Exit status: 0 when the report was read (the results carry pass/fail), 1 when
it is missing or unreadable, in which case one failing result is printed.
"""

from __future__ import annotations

import sys
import xml.etree.ElementTree as ET
from pathlib import Path


def to_tap(xml_text: str) -> list[str]:
    """TAP lines for every testcase of the report, plan first."""
    root = ET.fromstring(xml_text)
    lines: list[str] = []
    for i, case in enumerate(root.iter("testcase"), start=1):
        name = f"{case.get('classname', '')}::{case.get('name', '')}".strip(":")
        if case.find("skipped") is not None:
            lines.append(f"ok {i} {name} # SKIP")
        elif case.find("failure") is not None or case.find("error") is not None:
            lines.append(f"not ok {i} {name}")
        else:
            lines.append(f"ok {i} {name}")
    return [f"1..{len(lines)}", *lines]


def main(argv: list[str]) -> int:
    if len(argv) != 2:
        print(f"usage: {argv[0]} REPORT.xml", file=sys.stderr)
        return 2
    try:
        lines = to_tap(Path(argv[1]).read_text())
    except (OSError, ET.ParseError) as e:
        print(f"1..1\nnot ok 1 pytest report unreadable: {e}")
        return 1
    print("\n".join(lines))
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
