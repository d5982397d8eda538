"""Netlink fuzzing of a qdisc: random, boundary and malformed TCA_OPTIONS.

Each request is a create, replace or change of the qdisc under test, a
delete, or a dump of its statistics. Its options come from the qdisc's
attribute set in Documentation/netlink/specs/tc-aqm.yaml (types and
policy ranges): values in range, at and past the bounds, zero and all
ones; payloads shorter and longer than the type; nests without
NLA_F_NESTED or without members; unknown and duplicated attribute types;
and options that are not attributes at all.

The oracle, for each request, from a dump before and after it:
- refused: the qdisc is as it was, its options byte for byte (or still
  absent);
- accepted: the qdisc is there with its kind, and each attribute that was
  sent well formed and in range dumps the value sent (ratios compared as
  fractions).
Anything else is a violation, printed with the request. The kernel log
is the guest's to check (a splat fails the run there).

Usage: nlfuzz.py SPEC DEV PARENT HANDLE KIND COUNT SEED
  PARENT: "root" or MAJ:MIN of the class the qdisc is grafted to
Prints one TAP line (numbered by $NLFUZZ_TAP_N, default 1) and a summary.
"""

from __future__ import annotations

import os
import random
import struct
import sys
from collections import Counter
from dataclasses import dataclass
from fractions import Fraction
from typing import Any

import yaml  # type: ignore[import-untyped]

from aqmtools import rtnl

RATIO_NUM, RATIO_DEN = 1, 2
_BITS = {"u8": 8, "u16": 16, "u32": 32, "u64": 64}
_FMT = {"u8": "=B", "u16": "=H", "u32": "=I", "u64": "=Q"}


@dataclass(frozen=True)
class AttrSpec:
    """One attribute of a qdisc's TCA_OPTIONS, from the YAML spec."""

    atype: int
    name: str
    kind: str  # u8, u16, u32, u64, ratio, binary, pad, ...
    lo: int
    hi: int
    min_len: int = 0
    # 0 asks the kernel to derive the value, and the dump shows the result
    zero_derived: bool = False


@dataclass
class Sent:
    """An attribute as sent, and whether the oracle may compare it."""

    atype: int
    payload: bytes
    checked: bool  # well formed and in range: must dump as sent if accepted
    ratio: Fraction | None = None


# attributes whose 0 is "derive it", by attribute set: ared's thresholds
# (from the target delay and the rate)
ZERO_DERIVED = {"tc-ared-attrs": {"qth-min", "qth-max"}}


def load_spec(path: str, kind: str) -> list[AttrSpec]:
    """The attributes of tc-KIND-attrs, numbered from 1 in order."""
    with open(path) as f:
        doc = yaml.safe_load(f)
    sets = {s["name"]: s for s in doc["attribute-sets"]}
    out = []
    for i, a in enumerate(sets[f"tc-{kind}-attrs"]["attributes"], start=1):
        t = a["type"]
        checks = a.get("checks", {})
        if t == "nest" and a.get("nested-attributes") == "tc-aqm-ratio-attrs":
            t = "ratio"
        bits = _BITS.get(t, 0)
        hi = checks.get("max", (1 << bits) - 1 if bits else 0)
        out.append(
            AttrSpec(
                atype=a.get("value", i),
                name=a["name"],
                kind=t,
                lo=int(checks.get("min", 0)),
                hi=int(hi),
                min_len=int(checks.get("min-len", 0)),
                zero_derived=a["name"] in ZERO_DERIVED.get(f"tc-{kind}-attrs", set()),
            )
        )
    return out


def pack(kind: str, value: int) -> bytes:
    return struct.pack(_FMT[kind], value & ((1 << _BITS[kind]) - 1))


def ratio_nest(num: int | None, den: int | None, nested: bool = True) -> bytes:
    body = b""
    if num is not None:
        body += rtnl.nla(RATIO_NUM, struct.pack("=Q", num))
    if den is not None:
        body += rtnl.nla(RATIO_DEN, struct.pack("=Q", den))
    return body


class Generator:
    """Random attribute lists for one qdisc kind."""

    def __init__(self, specs: list[AttrSpec], rng: random.Random) -> None:
        self.specs = [s for s in specs if s.kind != "pad"]
        self.pads = [s for s in specs if s.kind == "pad"]
        self.max_type = max(s.atype for s in specs)
        self.rng = rng

    def valid_int(self, s: AttrSpec) -> int:
        r = self.rng.random()
        if r < 0.3:
            return self.rng.choice([s.lo, s.hi])
        if r < 0.6 and s.hi - s.lo > 1000:
            # small values are the common ones
            return self.rng.randint(s.lo, min(s.hi, s.lo + 1000))
        return self.rng.randint(s.lo, s.hi)

    def good(self, s: AttrSpec) -> tuple[bytes, bool, Sent]:
        """A well-formed attribute, in range: (payload, nested, sent)."""
        rng = self.rng
        if s.kind in _BITS:
            v = self.valid_int(s)
            p = pack(s.kind, v)
            return p, False, Sent(s.atype, p, not (s.zero_derived and v == 0))
        if s.kind == "ratio":
            den = rng.choice([1, 2, 3, 10, 100, 1000, 1 << 20, rng.randint(1, 1 << 32)])
            num = rng.randint(0, den)
            return ratio_nest(num, den), True, Sent(s.atype, b"", True, Fraction(num, den))
        if s.kind == "binary":
            # sfb's tc_sfb_qopt: nine u32, plausible values (0 = Linux's default)
            vals = [rng.choice([0, rng.randint(1, 100000)]) for _ in range(9)]
            p = struct.pack("=9I", *vals)
            return p, False, Sent(s.atype, p, False)
        p = os.urandom(rng.randint(0, 8))
        return p, False, Sent(s.atype, p, False)

    def bad(self, s: AttrSpec) -> tuple[int, bytes, bool]:
        """A malformed or out-of-range attribute: (type, payload, nested)."""
        rng = self.rng
        r = rng.randrange(8)
        if s.kind in _BITS:
            nbytes = _BITS[s.kind] // 8
            if r == 0 and s.lo > 0:
                return s.atype, pack(s.kind, s.lo - 1), False
            if r == 1 and s.hi < (1 << _BITS[s.kind]) - 1:
                return s.atype, pack(s.kind, s.hi + 1), False
            if r == 2:
                return s.atype, pack(s.kind, (1 << _BITS[s.kind]) - 1), False
            if r == 3:
                return s.atype, pack(s.kind, 0), False
            if r == 4:
                return s.atype, pack(s.kind, self.valid_int(s)), True  # nested flag
            n = rng.choice([x for x in (0, 1, 2, 3, 5, 7, 8, 9, 16) if x != nbytes])
            return s.atype, os.urandom(n), False
        if s.kind == "ratio":
            choices = [
                (ratio_nest(1, 2), False),  # no NLA_F_NESTED
                (ratio_nest(rng.randint(0, 9), None), True),  # no denominator
                (ratio_nest(None, rng.randint(1, 9)), True),  # no numerator
                (ratio_nest(rng.randint(1, 9), 0), True),  # zero denominator
                (ratio_nest(rng.randint(11, 99), 10), True),  # above 1
                (ratio_nest((1 << 64) - 1, (1 << 64) - 1), True),
                (b"", True),
                (rtnl.nla(7, b"\1\2\3\4"), True),  # unknown member
            ]
            p, nested = choices[r]
            return s.atype, p, nested
        if s.kind == "binary":
            n = rng.choice([0, 1, max(s.min_len - 1, 0), s.min_len + 4, 64])
            return s.atype, os.urandom(n), False
        return s.atype, os.urandom(rng.randint(0, 12)), False

    def options(self) -> tuple[bytes | None, list[Sent], str]:
        """TCA_OPTIONS' payload (None: no TCA_OPTIONS), what was sent, a label."""
        rng = self.rng
        r = rng.random()
        sent: list[Sent] = []
        body = b""
        label = "valid"
        if r < 0.03:
            return None, [], "no-options"
        if r < 0.06:
            junk = os.urandom(rng.choice([1, 2, 3, 5, 6]))
            return junk, [], "not-attributes"
        if r < 0.09:
            # a header whose length runs past the end of the options
            return struct.pack("=HH", 64, self.specs[0].atype) + b"\0" * 4, [], "overlong"
        chosen = rng.sample(self.specs, rng.randint(0, min(4, len(self.specs))))
        n_bad = 0
        if r >= 0.5:
            n_bad = 1 if r < 0.85 else 2
        for i, s in enumerate(chosen):
            if i < n_bad:
                atype, p, nested = self.bad(s)
                body += rtnl.nla(atype, p, nested)
                label = f"bad-{s.name}"
            else:
                p, nested, snt = self.good(s)
                body += rtnl.nla(s.atype, p, nested)
                sent.append(snt)
        if rng.random() < 0.1:
            t = rng.choice([0, self.max_type + 1, self.max_type + 2, rtnl.NLA_TYPE_MASK])
            body += rtnl.nla(t, os.urandom(4))
            label = f"unknown-{t}"
        if sent and rng.random() < 0.05:
            # the same attribute twice: only the last may count
            dup = sent[-1]
            body += rtnl.nla(dup.atype, dup.payload) if dup.ratio is None else b""
            label = "duplicate"
        if self.pads and rng.random() < 0.03:
            body += rtnl.nla(self.pads[0].atype, os.urandom(rng.choice([0, 4, 8])))
            label = "pad"
        return body, sent, label


def dumped_ok(q: rtnl.Qdisc, sent: list[Sent]) -> str:
    """'' when Q's options show every checked attribute of SENT, else why not."""
    opts = rtnl.parse_attrs(q.options)
    last: dict[int, Sent] = {s.atype: s for s in sent}
    for s in last.values():
        if not s.checked:
            continue
        got = opts.get(s.atype)
        if got is None:
            return f"attribute {s.atype} not dumped"
        if s.ratio is not None:
            members = rtnl.parse_attrs(got)
            if RATIO_NUM not in members or RATIO_DEN not in members:
                return f"ratio {s.atype} dumped without its members"
            num = struct.unpack("=Q", members[RATIO_NUM][:8])[0]
            den = struct.unpack("=Q", members[RATIO_DEN][:8])[0]
            if den == 0 or Fraction(num, den) != s.ratio:
                return f"ratio {s.atype}: sent {s.ratio}, dumped {num}/{den}"
        elif got != s.payload:
            return f"attribute {s.atype}: sent {s.payload.hex()}, dumped {got.hex()}"
    return ""


def same(a: rtnl.Qdisc | None, b: rtnl.Qdisc | None) -> bool:
    if a is None or b is None:
        return a is b
    return (a.kind, a.handle, a.parent, a.options) == (b.kind, b.handle, b.parent, b.options)


def fuzz(
    spec: str, dev: str, parent: int, handle: int, kind: str, count: int, seed: int
) -> dict[str, Any]:
    rng = random.Random(seed)
    gen = Generator(load_spec(spec, kind), rng)
    idx = rtnl.ifindex(dev)
    stats: Counter[str] = Counter()
    violations: list[str] = []
    with rtnl.Rtnl() as nl:
        before = nl.qdisc(idx, handle)
        for i in range(count):
            r = rng.random()
            if r < 0.05:
                op = "delete"
            elif r < 0.10:
                op = "dump"
            elif r < 0.30 or before is None:
                op = "create"
            elif r < 0.60:
                op = "replace"
            else:
                op = "change"
            stats[op] += 1
            if op == "dump":
                after = nl.qdisc(idx, handle)
                if not same(before, after):
                    violations.append(f"#{i} dump: the qdisc changed by itself")
                before = after
                continue
            if op == "create" and before is not None:
                err, _ = nl.request(rtnl.RTM_DELQDISC, 0, rtnl.tcmsg(idx, handle, parent))
                if err:
                    violations.append(f"#{i} delete before create: errno {err}")
                before = nl.qdisc(idx, handle)
            msg = rtnl.tcmsg(idx, handle, parent)
            label = ""
            sent: list[Sent] = []
            if op == "delete":
                err, ext = nl.request(rtnl.RTM_DELQDISC, 0, msg)
            else:
                body, sent, label = gen.options()
                payload = msg + rtnl.kind_attr(kind)
                if body is not None:
                    # without NLA_F_NESTED the strict parsers refuse the whole nest
                    payload += rtnl.nla(rtnl.TCA_OPTIONS, body, nested=rng.random() < 0.9)
                flags = {
                    "create": rtnl.NLM_F_CREATE | rtnl.NLM_F_EXCL,
                    "replace": rtnl.NLM_F_CREATE | rtnl.NLM_F_REPLACE,
                    "change": 0,
                }[op]
                err, ext = nl.request(rtnl.RTM_NEWQDISC, flags, payload)
                stats[f"{op}-{'refused' if err else 'accepted'}"] += 1
                if not err and not label.startswith("valid"):
                    stats[f"accepted-{label.split('-')[0]}"] += 1
            after = nl.qdisc(idx, handle)
            stats[f"errno-{err}"] += 1
            what = f"#{i} {op} {label} errno {err} {ext!r}"
            if err:
                if not same(before, after):
                    violations.append(f"{what}: refused, but the qdisc changed")
            elif op == "delete":
                if after is not None:
                    violations.append(f"{what}: deleted, but still dumped")
            elif after is None or after.kind != kind:
                violations.append(f"{what}: accepted, but no {kind} qdisc dumped")
            else:
                why = dumped_ok(after, sent)
                if why:
                    violations.append(f"{what}: accepted, but {why}")
            if after is not None and (after.qlen >= 1 << 31 or after.backlog >= 1 << 31):
                violations.append(f"{what}: qlen {after.qlen} backlog {after.backlog}")
            before = after
    return {"requests": count, "stats": dict(stats), "violations": violations}


def parse_parent(text: str) -> int:
    if text == "root":
        return rtnl.TC_H_ROOT
    major, _, minor = text.partition(":")
    return (int(major, 16) << 16) | int(minor or "0", 16)


def main(argv: list[str]) -> int:
    if len(argv) != 8:
        print(__doc__, file=sys.stderr)
        return 1
    spec, dev, parent, handle, kind, count, seed = argv[1:]
    res = fuzz(spec, dev, parse_parent(parent), parse_parent(handle), kind, int(count), int(seed))
    st = res["stats"]
    acc = sum(v for k, v in st.items() if k.endswith("-accepted"))
    ref = sum(v for k, v in st.items() if k.endswith("-refused"))
    n = os.environ.get("NLFUZZ_TAP_N", "1")
    where = "root" if parent == "root" else f"child of {parent}"
    v = res["violations"]
    print(
        f"{'not ok' if v else 'ok'} {n} {kind} ({where}): {count} requests, seed {seed}: "
        f"{acc} accepted, {ref} refused, {st.get('delete', 0)} deletes, "
        f"{st.get('dump', 0)} dumps; {len(v)} violations"
    )
    for line in v[:20]:
        print(f"#   {line}")
    print("# " + ", ".join(f"{k} {st[k]}" for k in sorted(st)), file=sys.stderr)
    return 1 if v else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
