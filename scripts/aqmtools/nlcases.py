"""Run the raw-netlink policy cases of selftests/net/nlpolicy.json as TAP.

Each case sends one RTM_NEWQDISC that tc cannot build (see nlqdisc.py),
then checks the kernel's answer and what `tc qdisc show` prints after it:

  {"id": "b121", "name": "...",
   "setup": ["qdisc add dev $DEV root handle 1: blue limit 300"],
   "change": false, "kind": "blue", "attrs": ["1:u32:100", "2:u32:3000"],
   "error": "regex of the extack message, or null when the request must pass",
   "show": "regex that `tc qdisc show dev $DEV` must match afterwards"}

All cases run in one process: importing pyroute2 costs 13-16 s in the
emulated (TCG) test VM, against 0.2 s on the host, so one process per
request, as tdc runs its cases, would spend minutes on imports alone.

Usage: python3 -m aqmtools.nlcases DEV CASES.json   (root, in a netns
whose DEV is a dummy device without a qdisc of its own)
"""

from __future__ import annotations

import json
import re
import subprocess
import sys
from collections.abc import Callable
from dataclasses import dataclass

from aqmtools.nlqdisc import Attr, parse_handle, send, typed_attr

# send(dev, handle, kind, attrs, change) -> (errno, extack message)
Sender = Callable[[str, int, str, list[Attr], bool], tuple[int, str]]
# tc(args) -> (exit status, stdout + stderr)
TcRunner = Callable[[list[str]], tuple[int, str]]


@dataclass(frozen=True)
class Case:
    """One request and what must follow from it."""

    cid: str
    name: str
    setup: list[str]
    change: bool
    kind: str
    attrs: list[Attr]
    error: str | None
    show: str


def load(text: str) -> list[Case]:
    """The cases of a JSON document; ValueError names a malformed one."""
    cases = []
    for raw in json.loads(text):
        try:
            cases.append(
                Case(
                    cid=str(raw["id"]),
                    name=str(raw["name"]),
                    setup=[str(s) for s in raw.get("setup", [])],
                    change=bool(raw.get("change", False)),
                    kind=str(raw["kind"]),
                    attrs=[typed_attr(str(a)) for a in raw["attrs"]],
                    error=None if raw["error"] is None else str(raw["error"]),
                    show=str(raw["show"]),
                )
            )
            re.compile(cases[-1].show)
            re.compile(cases[-1].error or "")
        except (KeyError, TypeError, ValueError, re.error) as e:
            raise ValueError(f"case {raw.get('id', '?')!r}: {e}") from e
    ids = [c.cid for c in cases]
    if len(set(ids)) != len(ids):
        raise ValueError("duplicate case ids")
    return cases


def run_case(case: Case, dev: str, sender: Sender, tc: TcRunner) -> list[str]:
    """Run CASE on DEV; return why it failed (empty when it passed).

    The device's root qdisc is deleted afterwards, so cases are
    independent of their order; when `tc qdisc show` found the device's
    own noqueue root there is nothing to delete, and no tc runs for it
    (two cases in three: a tc costs about 0.1 s in the TCG VM).
    """
    why = []
    bare = False
    try:
        for line in case.setup:
            rc, out = tc(line.replace("$DEV", dev).split())
            if rc:
                return [f"setup `tc {line}` failed: {out.strip()}"]
        err, msg = sender(dev, parse_handle("1:"), case.kind, case.attrs, case.change)
        if case.error is None and err:
            why.append(f"kernel refused it: errno {err} {msg!r}")
        elif case.error is not None and not err:
            why.append("kernel accepted it")
        elif case.error is not None and not re.search(case.error, msg):
            why.append(f"extack {msg!r} does not match {case.error!r}")
        rc, out = tc(["qdisc", "show", "dev", dev])
        bare = rc == 0 and re.fullmatch(r"qdisc noqueue 0: root refcnt \d+ *\n?", out) is not None
        if rc or not re.search(case.show, out):
            why.append(f"tc qdisc show: {out.strip()!r} does not match {case.show!r}")
    finally:
        if not bare:
            tc(["qdisc", "del", "dev", dev, "root"])
    return why


def run(cases: list[Case], dev: str, sender: Sender, tc: TcRunner) -> tuple[list[str], int]:
    """TAP lines for CASES and the number that failed."""
    lines = [f"1..{len(cases)}"]
    failed = 0
    for n, case in enumerate(cases, 1):
        why = run_case(case, dev, sender, tc)
        ok = "ok" if not why else "not ok"
        lines.append(f"{ok} {n} {case.cid}: {case.name}")
        lines += [f"# {w}" for w in why]
        failed += bool(why)
    return lines, failed


def tc_subprocess(args: list[str]) -> tuple[int, str]:
    """Run the tc on PATH (the project's plugins through TC_LIB_DIR)."""
    p = subprocess.run(["tc", *args], capture_output=True, text=True, check=False)
    return p.returncode, p.stdout + p.stderr


def main(argv: list[str]) -> int:
    if len(argv) != 3:
        print(__doc__, file=sys.stderr)
        return 1
    with open(argv[2], encoding="utf-8") as f:
        cases = load(f.read())
    lines, failed = run(cases, argv[1], send, tc_subprocess)
    print("\n".join(lines), flush=True)
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
