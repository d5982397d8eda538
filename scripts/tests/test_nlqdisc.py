"""Tests of the RTM_NEWQDISC tool used by the tc test cases."""

from __future__ import annotations

import struct
from typing import Any

import pytest

from aqmtools.nlqdisc import Attr, main, options_class, parse_handle, register, typed_attr

NESTED = 0x8000


def _encode(attrs: list[Attr]) -> bytes:
    """TCA_OPTIONS as pyroute2 packs it for ATTRS (header included)."""
    opts: Any = options_class(attrs)()
    opts["attrs"] = [[f"OPT_{a.atype}", a.value] for a in attrs]
    opts.encode()
    return bytes(opts.data[: opts["header"]["length"]])


def _nla(atype: int, payload: bytes) -> bytes:
    hdr = struct.pack("=HH", 4 + len(payload), atype)
    return (hdr + payload).ljust((len(hdr) + len(payload) + 3) & ~3, b"\0")


def test_typed_attr_formats() -> None:
    assert typed_attr("1:u32:100") == Attr(1, "uint32", 100)
    assert typed_attr("7:u8:2") == Attr(7, "uint8", 2)
    assert typed_attr("2:u64:0x10") == Attr(2, "uint64", 16)
    assert typed_attr("4:hex:0102") == Attr(4, "cdata", b"\1\2")
    assert typed_attr("4:ratio:1/100") == Attr(
        4, "ratio", {"attrs": [["TCA_AQM_RATIO_NUM", 1], ["TCA_AQM_RATIO_DEN", 100]]}
    )
    assert typed_attr("4:ratio:3") == Attr(4, "ratio", {"attrs": [["TCA_AQM_RATIO_NUM", 3]]})


@pytest.mark.parametrize(
    "spec", ["1:u32", "1:f32:1", "x:u32:1", "1:u32:y", "0:u8:1", "4:ratio:a/b"]
)
def test_typed_attr_rejects(spec: str) -> None:
    with pytest.raises(ValueError):
        typed_attr(spec)


def test_integers_encode_as_plain_attributes() -> None:
    got = _encode([typed_attr("1:u32:100"), typed_attr("8:u8:1"), typed_attr("6:u64:5")])
    body = _nla(1, struct.pack("=I", 100)) + _nla(8, b"\1") + _nla(6, struct.pack("=Q", 5))
    assert got[4:] == body
    assert struct.unpack_from("=H", got)[0] == 4 + len(body)


def test_ratio_is_a_flagged_nest_of_two_u64() -> None:
    got = _encode([typed_attr("4:ratio:1/50")])
    ratio = _nla(1, struct.pack("=Q", 1)) + _nla(2, struct.pack("=Q", 50))
    assert got[4:] == _nla(4 | NESTED, ratio)


def test_ratio_without_denominator() -> None:
    got = _encode([typed_attr("9:ratio:1")])
    assert got[4:] == _nla(9 | NESTED, _nla(1, struct.pack("=Q", 1)))


def test_hex_is_sent_byte_for_byte() -> None:
    got = _encode([typed_attr("4:hex:0100000000000000")])
    assert got[4:] == _nla(4, bytes.fromhex("0100000000000000"))


def test_register_sets_root_parent_and_options() -> None:
    from pyroute2.netlink.rtnl import TC_H_ROOT  # type: ignore[import-untyped]
    from pyroute2.netlink.rtnl.tcmsg import plugins  # type: ignore[import-untyped]

    register("aqmtest", [typed_attr("1:u32:7")])
    plugin = plugins.pop("aqmtest")
    assert plugin.parent == TC_H_ROOT
    assert plugin.get_parameters({}) == {"attrs": [["OPT_1", 7]]}


def test_parse_handle() -> None:
    assert parse_handle("1:") == 0x10000
    assert parse_handle("ffff:a") == 0xFFFF000A


def test_usage() -> None:
    assert main(["nlqdisc"]) == 1
    assert main(["nlqdisc", "lo", "1:", "blue", "bad"]) == 1
    assert main(["nlqdisc", "no-such-dev0", "1:", "blue", "1:u32:1"]) == 1
