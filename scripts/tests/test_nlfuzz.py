"""The netlink fuzzer's host-side parts: the spec, the generator, the oracle."""

from __future__ import annotations

import random
import struct
from fractions import Fraction
from pathlib import Path

from aqmtools import nlfuzz, rtnl

SPEC = str(Path(__file__).resolve().parents[2] / "Documentation/netlink/specs/tc-aqm.yaml")


def test_attributes_round_trip() -> None:
    raw = rtnl.nla(3, b"\1\2\3") + rtnl.nla(5, struct.pack("=I", 7), nested=True)
    assert len(raw) % 4 == 0
    assert rtnl.parse_attrs(raw) == {3: b"\1\2\3", 5: struct.pack("=I", 7)}


def test_parse_stops_at_an_overlong_attribute() -> None:
    raw = rtnl.nla(1, b"abcd") + struct.pack("=HH", 64, 2) + b"\0" * 4
    assert rtnl.parse_attrs(raw) == {1: b"abcd"}


def test_spec_numbers_attributes_as_the_uapi() -> None:
    sfb = {a.name: a for a in nlfuzz.load_spec(SPEC, "sfb")}
    assert sfb["parms"].atype == 1 and sfb["parms"].kind == "binary"
    assert sfb["parms"].min_len == 36
    assert sfb["aqm-warm-raise"].atype == 9
    assert (sfb["aqm-levels"].lo, sfb["aqm-levels"].hi) == (1, 16)
    assert sfb["aqm-red"].atype == 10 and sfb["aqm-red"].hi == 1
    assert (sfb["aqm-red-min"].lo, sfb["aqm-red-min"].hi) == (0, 32766)
    assert (sfb["aqm-red-max"].lo, sfb["aqm-red-max"].hi) == (1, 32767)
    assert sfb["aqm-red-max-p"].kind == "ratio" and sfb["aqm-red-max-p"].atype == 13
    assert sfb["aqm-red-ceil"].kind == "ratio" and sfb["aqm-red-ceil"].atype == 14
    assert (sfb["aqm-red-interval"].lo, sfb["aqm-red-interval"].hi) == (0, 60 * 10**6)
    assert sfb["aqm-red-wlog"].hi == 16 and sfb["aqm-red-gentle"].atype == 17
    pi = {a.name: a for a in nlfuzz.load_spec(SPEC, "pi")}
    assert pi["a"].kind == "ratio"
    assert pi["limit"].atype == 1 and pi["limit"].hi == 1048576
    rem = {a.name: a for a in nlfuzz.load_spec(SPEC, "rem")}
    assert rem["phi"].kind == "ratio" and rem["phi"].atype == 5
    assert rem["rate"].atype == 7 and (rem["rate"].lo, rem["rate"].hi) == (0, 1 << 40)
    assert rem["avpkt"].atype == 11 and rem["pad"].kind == "pad"
    ared = {a.name: a for a in nlfuzz.load_spec(SPEC, "ared")}
    assert ared["max-p"].kind == "ratio" and ared["max-p"].atype == 5
    assert ared["qth-min"].atype == 2 and ared["qth-max"].atype == 3
    assert (ared["qth-min"].lo, ared["qth-min"].hi) == (0, (1 << 31) - 1)
    assert ared["rate"].atype == 12 and (ared["rate"].lo, ared["rate"].hi) == (1000, 1 << 40)
    assert ared["avpkt"].atype == 13 and ared["pad"].kind == "pad"
    riops = {a.name: a for a in nlfuzz.load_spec(SPEC, "riops")}
    assert riops["short"].atype == 2 and riops["short"].lo == 0
    assert riops["short"].hi == (1 << 32) - 1
    assert (riops["timeout"].lo, riops["timeout"].hi) == (1000, 3600 * 10**6)
    assert riops["flows"].atype == 4 and riops["flows"].hi == 1 << 18
    assert riops["in-qth-min"].atype == 5 and riops["out-qth-max"].atype == 9
    assert (riops["in-qth-max"].lo, riops["in-qth-max"].hi) == (0, 1 << 20)
    assert riops["in-max-p"].kind == "ratio" and riops["in-max-p"].atype == 7
    assert riops["out-max-p"].atype == 10 and riops["ecn-ceil"].atype == 13
    assert riops["gentle"].kind == "u8" and riops["gentle"].hi == 1
    assert riops["rate"].atype == 14 and (riops["rate"].lo, riops["rate"].hi) == (1000, 1 << 40)
    assert riops["avpkt"].atype == 15 and riops["pad"].atype == 16 and riops["pad"].kind == "pad"
    # every threshold the kernel dumps as sent: none is derived
    assert not any(a.zero_derived for a in riops.values())


def test_generated_good_values_are_in_range() -> None:
    specs = nlfuzz.load_spec(SPEC, "dcn")
    gen = nlfuzz.Generator(specs, random.Random(1))
    for s in gen.specs:
        for _ in range(50):
            payload, _, sent = gen.good(s)
            if s.kind in ("u8", "u16", "u32", "u64"):
                (v,) = struct.unpack(nlfuzz._FMT[s.kind], payload)
                assert s.lo <= v <= s.hi and sent.checked
            if s.kind == "ratio":
                assert sent.ratio is not None and 0 <= sent.ratio <= 1


def test_zero_derived_thresholds_are_not_compared() -> None:
    # ared dumps the thresholds in use: a 0 sent comes back derived
    specs = {s.name: s for s in nlfuzz.load_spec(SPEC, "ared")}
    assert specs["qth-min"].zero_derived and specs["qth-max"].zero_derived
    assert not specs["limit"].zero_derived
    gen = nlfuzz.Generator(list(specs.values()), random.Random(3))
    seen = set()
    for _ in range(400):
        payload, _, sent = gen.good(specs["qth-min"])
        (v,) = struct.unpack("=I", payload)
        assert sent.checked == (v != 0)
        seen.add(v == 0)
    assert seen == {True, False}


def test_generator_mixes_every_label() -> None:
    gen = nlfuzz.Generator(nlfuzz.load_spec(SPEC, "pi"), random.Random(2))
    labels = {gen.options()[2].split("-")[0] for _ in range(2000)}
    assert {"valid", "bad", "unknown", "no", "not", "overlong"} <= labels


def qdisc(options: bytes) -> rtnl.Qdisc:
    return rtnl.Qdisc(handle=0x10000, parent=rtnl.TC_H_ROOT, kind="pi", options=options)


def test_oracle_compares_scalars_and_ratios() -> None:
    limit = struct.pack("=I", 100)
    ratio = nlfuzz.ratio_nest(2, 4)
    q = qdisc(rtnl.nla(1, limit) + rtnl.nla(3, ratio, nested=True))
    ok = [
        nlfuzz.Sent(1, limit, True),
        nlfuzz.Sent(3, b"", True, Fraction(1, 2)),
    ]
    assert nlfuzz.dumped_ok(q, ok) == ""
    assert "sent" in nlfuzz.dumped_ok(q, [nlfuzz.Sent(1, struct.pack("=I", 99), True)])
    assert "not dumped" in nlfuzz.dumped_ok(q, [nlfuzz.Sent(2, limit, True)])
    assert "ratio" in nlfuzz.dumped_ok(q, [nlfuzz.Sent(3, b"", True, Fraction(1, 3))])
    # unchecked attributes are not compared
    assert nlfuzz.dumped_ok(q, [nlfuzz.Sent(2, limit, False)]) == ""


def test_same_compares_options_not_queue() -> None:
    a, b = qdisc(b"x"), qdisc(b"x")
    b.qlen = 5
    assert nlfuzz.same(a, b)
    assert not nlfuzz.same(a, qdisc(b"y"))
    assert not nlfuzz.same(a, None) and nlfuzz.same(None, None)
