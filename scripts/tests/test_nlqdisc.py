"""Tests of the raw RTM_NEWQDISC builder used by the tc test cases."""

from __future__ import annotations

import struct

import pytest

from aqmtools.nlqdisc import (
    NLA_F_NESTED,
    NLM_F_ACK_TLVS,
    NLMSG_ERROR,
    RTM_NEWQDISC,
    TC_H_ROOT,
    attr,
    main,
    parse_ack,
    parse_handle,
    request,
    typed_attr,
)


def test_attr_is_padded() -> None:
    assert attr(3, b"ab") == struct.pack("=HH", 6, 3) + b"ab\0\0"
    assert len(attr(1, b"blue\0")) == 12


def test_typed_attr_formats() -> None:
    assert typed_attr("1:u32:100") == struct.pack("=HHI", 8, 1, 100)
    assert typed_attr("7:u8:2") == struct.pack("=HHB", 5, 7, 2) + b"\0" * 3
    assert typed_attr("4:ratio:1/100") == struct.pack("=HHQQ", 20, 4, 1, 100)
    assert typed_attr("4:hex:0102") == struct.pack("=HH", 6, 4) + b"\1\2\0\0"
    assert typed_attr("2:u64:0x10") == struct.pack("=HHQ", 12, 2, 16)


@pytest.mark.parametrize("spec", ["1:u32", "1:f32:1", "x:u32:1", "1:u32:y"])
def test_typed_attr_rejects(spec: str) -> None:
    with pytest.raises(ValueError):
        typed_attr(spec)


def test_parse_handle() -> None:
    assert parse_handle("1:") == 0x10000
    assert parse_handle("ffff:a") == 0xFFFF000A


def test_request_layout() -> None:
    msg = request(5, 0x10000, "blue", [typed_attr("1:u32:100")], change=False)
    length, mtype, flags, _, _ = struct.unpack_from("=IHHII", msg)
    assert (length, mtype) == (len(msg), RTM_NEWQDISC)
    assert flags == 0x1 | 0x4 | 0x200 | 0x400
    _, _, _, ifindex, handle, parent, _ = struct.unpack_from("=BBHiIII", msg, 16)
    assert (ifindex, handle, parent) == (5, 0x10000, TC_H_ROOT)
    assert msg[36:48] == attr(1, b"blue\0")
    alen, atype = struct.unpack_from("=HH", msg, 48)
    assert (alen, atype) == (12, 2 | NLA_F_NESTED)
    change = request(5, 0x10000, "blue", [], change=True)
    assert struct.unpack_from("=H", change, 6)[0] == 0x1 | 0x4


def _ack(err: int, msg: bytes | None) -> bytes:
    tlv = attr(1, msg + b"\0") if msg is not None else b""
    flags = NLM_F_ACK_TLVS if msg is not None else 0
    body = struct.pack("=i", err) + struct.pack("=IHHII", 48, RTM_NEWQDISC, 5, 1, 0) + tlv
    return struct.pack("=IHHII", 16 + len(body), NLMSG_ERROR, flags, 1, 0) + body


def test_parse_ack() -> None:
    assert parse_ack(_ack(-22, b"sch_blue: limit and bytelimit are exclusive")) == (
        22,
        "sch_blue: limit and bytelimit are exclusive",
    )
    assert parse_ack(_ack(0, None)) == (0, "")
    with pytest.raises(ValueError):
        parse_ack(struct.pack("=IHHII", 16, 16, 0, 1, 0))


def test_usage() -> None:
    assert main(["nlqdisc"]) == 1
    assert main(["nlqdisc", "lo", "1:", "blue", "bad"]) == 1
