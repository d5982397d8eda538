"""Tests of the JUnit-to-TAP converter."""

from __future__ import annotations

from pathlib import Path

from aqmtools.junit import main, to_tap
from aqmtools.tap import parse

REPORT = """<?xml version="1.0" encoding="utf-8"?>
<testsuites><testsuite name="pytest" tests="4">
<testcase classname="t.test_a" name="test_ok" time="0.1"/>
<testcase classname="t.test_a" name="test_bad"><failure message="x">boom</failure></testcase>
<testcase classname="t.test_a" name="test_err"><error message="e"/></testcase>
<testcase classname="t.test_a" name="test_skip"><skipped message="s"/></testcase>
</testsuite></testsuites>
"""


def test_to_tap_counts() -> None:
    lines = to_tap(REPORT)
    assert lines[0] == "1..4"
    s = parse("\n".join(lines), "pytest")
    assert (s.passed, s.failed, s.skipped) == (1, 2, 1)


def test_missing_report_fails(tmp_path: Path, capsys: object) -> None:
    assert main(["junit", str(tmp_path / "none.xml")]) == 1
