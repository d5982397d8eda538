"""Parse TAP and KTAP result files and summarise them.

Every stage of ``make check`` leaves its results as TAP (host steps, netns
selftests, tc-testing's tdc.py) or KTAP (KUnit suites) in one directory.
This module counts leaf test results across all of them, treats a plan that
was not met (a suite cut short by a crash) and ``Bail out!`` as failures, and
prints one closing line ``N passed, N failed, N skipped``.

Usage: python3 -m aqmtools.tap RESULTS_DIR
Exit status: 0 when nothing failed and at least one test ran, else 1.
"""

from __future__ import annotations

import re
import sys
from dataclasses import dataclass, field
from pathlib import Path

_RESULT = re.compile(
    r"^(?P<indent>\s*)(?P<not>not )?ok(?: (?P<num>\d+))?(?P<desc>[^#]*)(?:#\s*(?P<dir>.*))?$"
)
_PLAN = re.compile(r"^(?P<indent>\s*)1\.\.(?P<n>\d+)")
_SUBTEST = re.compile(r"^(?P<indent>\s*)# Subtest: (?P<name>.*)$")
_BAIL = re.compile(r"^\s*Bail out!(?P<why>.*)$")
# "[   12.345678] " in front of KTAP lines taken from the kernel log
_KLOG_PREFIX = re.compile(r"^\[\s*\d+\.\d+\]\s?")


@dataclass
class Summary:
    """Counts of leaf results, and what failed."""

    passed: int = 0
    failed: int = 0
    skipped: int = 0
    failures: list[str] = field(default_factory=list)
    # failing results marked TODO: expected failures, counted as passed
    expected: list[str] = field(default_factory=list)

    def add(self, other: Summary) -> None:
        self.passed += other.passed
        self.failed += other.failed
        self.skipped += other.skipped
        self.failures.extend(other.failures)
        self.expected.extend(other.expected)

    def closing_line(self) -> str:
        return f"{self.passed} passed, {self.failed} failed, {self.skipped} skipped"


@dataclass
class _Level:
    plan: int | None = None
    results: int = 0
    child_failed: bool = False
    had_children: bool = False


@dataclass(frozen=True)
class Result:
    """One result line: ok or not, its description and its directive
    (``SKIP ...``, ``TODO ...`` or empty)."""

    ok: bool
    desc: str
    directive: str

    @property
    def skipped(self) -> bool:
        return self.directive.upper().startswith("SKIP")

    @property
    def todo(self) -> bool:
        return self.directive.upper().startswith("TODO")


def results(text: str) -> list[Result]:
    """The top-level result lines of one TAP stream, in order (the nested
    results of KTAP subtests are counted by parse, not listed here)."""
    out = []
    for line in text.splitlines():
        m = _RESULT.match(line.rstrip())
        if m and not m.group("indent"):
            directive = (m.group("dir") or "").strip()
            out.append(Result(m.group("not") is None, m.group("desc").strip(" -"), directive))
    return out


def _indent_width(s: str) -> int:
    return len(s.expandtabs(4))


def parse(text: str, source: str = "") -> Summary:
    """Count the leaf results of one TAP/KTAP stream."""
    out = Summary()
    levels: dict[int, _Level] = {}
    names: list[str] = []  # open subtest names, for messages

    def level(width: int) -> _Level:
        return levels.setdefault(width, _Level())

    def close_deeper(width: int) -> tuple[bool, bool]:
        """Close levels deeper than width; report (had children, any failed)."""
        had, failed = False, False
        for w in sorted([w for w in levels if w > width], reverse=True):
            lv = levels.pop(w)
            had = True
            failed = failed or lv.child_failed
            if lv.plan is not None and lv.results < lv.plan:
                missing = lv.plan - lv.results
                out.failed += missing
                failed = True
                where = "/".join([source, *names])
                out.failures.append(f"{where}: {missing} of {lv.plan} planned results missing")
        return had, failed

    for raw in text.splitlines():
        line = _KLOG_PREFIX.sub("", raw.rstrip())
        if m := _BAIL.match(line):
            out.failed += 1
            out.failures.append(f"{source}: Bail out!{m.group('why')}")
            continue
        if m := _SUBTEST.match(line):
            names.append(m.group("name").strip())
            continue
        if m := _PLAN.match(line):
            level(_indent_width(m.group("indent"))).plan = int(m.group("n"))
            continue
        m = _RESULT.match(line)
        if not m:
            continue
        width = _indent_width(m.group("indent"))
        had_children, child_failed = close_deeper(width)
        lv = level(width)
        lv.results += 1
        ok = m.group("not") is None
        directive = (m.group("dir") or "").strip()
        desc = m.group("desc").strip(" -")
        if had_children:
            # a parent: its leaves were counted; count it only when it
            # failed for a reason of its own (suite init, crash)
            if names:
                names.pop()
            if not ok and not child_failed:
                out.failed += 1
                out.failures.append(f"{source}: {desc}")
            lv.child_failed = lv.child_failed or not ok
            continue
        if directive.upper().startswith("SKIP"):
            out.skipped += 1
        elif ok or directive.upper().startswith("TODO"):
            out.passed += 1
            if not ok:
                out.expected.append(f"{'/'.join([source, *names])}: {desc}")
        else:
            out.failed += 1
            lv.child_failed = True
            out.failures.append(f"{'/'.join([source, *names])}: {desc}")
    close_deeper(-1)
    return out


def summarise(directory: Path) -> Summary:
    """Parse every *.tap and *.ktap file below directory."""
    total = Summary()
    files = sorted(list(directory.rglob("*.tap")) + list(directory.rglob("*.ktap")))
    for f in files:
        total.add(parse(f.read_text(errors="replace"), f.stem))
    return total


def failure_log_tail(directory: Path, failure: str, lines: int = 40) -> list[str]:
    """The end of the stderr a VM result kept beside its TAP (NAME.err),
    so that a log that only shows the summary (CI) still shows why"""
    source = failure.split("/", 1)[0].split(":", 1)[0]
    err = directory / f"{source}.err"
    if not err.is_file():
        return []
    return err.read_text(errors="replace").splitlines()[-lines:]


def main(argv: list[str]) -> int:
    if len(argv) != 2:
        print(f"usage: {argv[0]} RESULTS_DIR", file=sys.stderr)
        return 2
    s = summarise(Path(argv[1]))
    for f in s.failures:
        print(f"FAIL {f}")
        for line in failure_log_tail(Path(argv[1]), f):
            print(f"  | {line}")
    for f in s.expected:
        print(f"XFAIL {f}")
    if s.expected:
        print(f"{len(s.expected)} expected failures (TODO), counted as passed")
    if s.passed + s.failed == 0:
        print("no test result found")
        s.failed += 1
    print(s.closing_line())
    return 0 if s.failed == 0 else 1


if __name__ == "__main__":
    sys.exit(main(sys.argv))
