"""Allocation failure in every step of a qdisc request (fail-nth).

For n = 1, 2, ... the n-th fault-injection point of this thread's next
request fails (/proc/thread-self/fail-nth), until a request runs with
fewer than n points. Each point is one allocation on the way, the
qdisc's own in init or change and the core's around them. The caller
sets failslab and fail_page_alloc to fail sleeping and order-0
allocations too, in their debugfs, which `ip netns exec` does not mount
(selftests/reliability/failslab.sh).

The request is a create of the qdisc (none there before) or a change of
it (from one configuration to another). For each injected failure:
- refused: the qdisc is as before, options byte for byte (or still
  absent, and the device's previous root qdisc in place);
- accepted (the failed allocation was one the code may do without) or
  its answer lost: the qdisc shows the requested configuration or the old
  one, nothing in between.
The qdisc is left in place, configured by the last request (which ran
without a fault), for the caller to pass traffic through it.

Usage: failnth.py SPEC DEV KIND create|change
Prints one TAP line (numbered by $FAILNTH_TAP_N, default 1).
"""

from __future__ import annotations

import errno
import os
import sys
from collections import Counter

from aqmtools import rtnl
from aqmtools.nlfuzz import load_spec, pack

HANDLE = 0x10000
MAX_POINTS = 2000

# per kind: the configuration created, and the one changed to (attribute
# names of Documentation/netlink/specs/tc-aqm.yaml); the changes resize
# the tables where the qdisc has any
CONFIGS: dict[str, tuple[dict[str, int], dict[str, int]]] = {
    "pi": ({"limit": 1000, "qref": 50}, {"limit": 500, "qref": 30, "tupdate": 20000}),
    "rem": ({"limit": 1000, "qref": 50}, {"limit": 500, "qref": 30, "tupdate": 20000}),
    "ared": (
        {"limit": 1000, "qth-min": 20, "qth-max": 60},
        {"limit": 500, "qth-min": 30, "qth-max": 90, "interval": 250000},
    ),
    "riops": (
        {"limit": 1000, "flows": 1024},
        {"limit": 500, "flows": 2048, "short": 10, "in-qth-min": 30, "in-qth-max": 90},
    ),
    "dcn": ({"sb-size": 1024, "hb-size": 256}, {"sb-size": 2048, "hb-size": 512, "qref": 30}),
    "afd": ({"shadow": 1000, "flows": 256}, {"shadow": 2000, "sample": 10, "flows": 512}),
    "blue": ({"limit": 500}, {"limit": 300, "threshold": 100}),
    "sfb": ({"aqm-levels": 8, "aqm-bins": 16}, {"aqm-levels": 4, "aqm-bins": 64}),
}


def options(spec: str, kind: str, values: dict[str, int]) -> bytes:
    by_name = {a.name: a for a in load_spec(spec, kind)}
    return b"".join(rtnl.nla(by_name[n].atype, pack(by_name[n].kind, v)) for n, v in values.items())


class FailNth:
    """This thread's /proc/thread-self/fail-nth, opened once: reading and
    writing it then allocate nothing, so they cannot take the fault."""

    def __init__(self) -> None:
        self.fd = os.open("/proc/thread-self/fail-nth", os.O_RDWR)

    def arm(self, n: int) -> None:
        """The n-th fault-injection point from now on fails."""
        os.pwrite(self.fd, str(n).encode(), 0)

    def injected(self) -> bool:
        """Whether the armed fault was injected (and disarm it)."""
        left = int(os.pread(self.fd, 32, 0).strip() or b"0")
        if left:
            self.arm(0)
        return left == 0


def run(spec: str, dev: str, kind: str, mode: str) -> tuple[int, Counter[str], list[str]]:
    first, second = CONFIGS[kind]
    idx = rtnl.ifindex(dev)
    msg = rtnl.tcmsg(idx, HANDLE, rtnl.TC_H_ROOT)
    create = (
        msg
        + rtnl.kind_attr(kind)
        + rtnl.nla(rtnl.TCA_OPTIONS, options(spec, kind, first), nested=True)
    )
    change = (
        msg
        + rtnl.kind_attr(kind)
        + rtnl.nla(rtnl.TCA_OPTIONS, options(spec, kind, second), nested=True)
    )
    outcomes: Counter[str] = Counter()
    violations: list[str] = []
    points = 0
    with rtnl.Rtnl() as nl:
        nl.sock.settimeout(5)

        def reset() -> tuple[rtnl.Qdisc | None, rtnl.Qdisc | None]:
            """The state before each try; and the configuration the request
            asks for, as the kernel dumps it without faults."""
            nl.request(rtnl.RTM_DELQDISC, 0, msg)
            if mode == "create":
                nl.request(rtnl.RTM_NEWQDISC, rtnl.NLM_F_CREATE | rtnl.NLM_F_EXCL, create)
                want = nl.qdisc(idx, HANDLE)
                nl.request(rtnl.RTM_DELQDISC, 0, msg)
                return None, want
            nl.request(rtnl.RTM_NEWQDISC, rtnl.NLM_F_CREATE | rtnl.NLM_F_EXCL, create)
            before = nl.qdisc(idx, HANDLE)
            nl.request(rtnl.RTM_NEWQDISC, 0, change)
            want = nl.qdisc(idx, HANDLE)
            nl.request(rtnl.RTM_DELQDISC, 0, msg)
            nl.request(rtnl.RTM_NEWQDISC, rtnl.NLM_F_CREATE | rtnl.NLM_F_EXCL, create)
            return before, want

        before, want = reset()
        if want is None or (mode == "change" and before is None):
            return 0, outcomes, [f"{kind} {mode}: the request fails without any fault"]
        payload, flags = (
            (create, rtnl.NLM_F_CREATE | rtnl.NLM_F_EXCL) if mode == "create" else (change, 0)
        )
        fail = FailNth()
        for n in range(1, MAX_POINTS + 1):
            before, _ = reset()
            fail.arm(n)
            try:
                err, ext = nl.request(rtnl.RTM_NEWQDISC, flags, payload)
            except OSError as e:
                err, ext = -(e.errno or errno.EIO), "answer lost"
            hit = fail.injected()
            if not hit:
                points = n - 1
                if err:
                    violations.append(f"n={n}: no fault injected, yet errno {err} {ext!r}")
                break
            after = nl.qdisc(idx, HANDLE)
            outcomes[f"errno {err}" if err > 0 else ("accepted" if err == 0 else "lost")] += 1
            if err > 0 and not same(before, after):
                violations.append(f"n={n}: refused (errno {err} {ext!r}) but the qdisc changed")
            elif err <= 0 and not (same(after, want) or same(after, before)):
                violations.append(f"n={n}: errno {err} {ext!r}: the qdisc is neither old nor new")
        else:
            violations.append(f"more than {MAX_POINTS} fault points")
        # the last request ran without a fault: the qdisc stays, for the
        # caller to pass traffic through it
    return points, outcomes, violations


def same(a: rtnl.Qdisc | None, b: rtnl.Qdisc | None) -> bool:
    if a is None or b is None:
        return a is b
    return (a.kind, a.options) == (b.kind, b.options)


def main(argv: list[str]) -> int:
    if len(argv) != 5 or argv[4] not in ("create", "change"):
        print(__doc__, file=sys.stderr)
        return 1
    spec, dev, kind, mode = argv[1:]
    points, outcomes, violations = run(spec, dev, kind, mode)
    n = os.environ.get("FAILNTH_TAP_N", "1")
    seen = ", ".join(f"{k} {v}" for k, v in sorted(outcomes.items())) or "none"
    print(
        f"{'not ok' if violations or not points else 'ok'} {n} {kind} {mode}: "
        f"{points} allocation points failed one by one ({seen}); {len(violations)} violations"
    )
    for v in violations[:20]:
        print(f"#   {v}")
    return 1 if violations or not points else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
