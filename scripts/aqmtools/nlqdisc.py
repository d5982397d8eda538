"""Send one raw RTM_NEWQDISC, for rejection paths that tc cannot produce.

tc plugins check their options before sending them, so the kernel's own
checks of impossible combinations and malformed attributes (two exclusive
options together, a u8 flag of 2, a short struct) are only reachable with
hand-made netlink. This tool builds the request from typed attributes,
prints the kernel's extended ack like tc does ("Error: MSG.") and exits 2
on a kernel error, as tc does, 0 on success, 1 on bad usage.

Usage: nlqdisc.py [--change] DEV HANDLE KIND [TYPE:FORMAT:VALUE...]
  HANDLE: "1:" (root qdisc with handle 1:)
  FORMAT: u8, u16, u32, u64, ratio (NUM/DEN as two u64), hex (raw bytes)
Example: nlqdisc.py dummy1 1: blue 1:u32:100 2:u32:3000

Standard library only: it runs under the system python3 of the test VM.
"""

from __future__ import annotations

import os
import socket
import struct
import sys

RTM_NEWQDISC = 36
NLM_F_REQUEST = 0x1
NLM_F_ACK = 0x4
NLM_F_EXCL = 0x200
NLM_F_CREATE = 0x400
NLM_F_ACK_TLVS = 0x200
NLMSG_ERROR = 2
NLA_F_NESTED = 0x8000
TCA_KIND = 1
TCA_OPTIONS = 2
TC_H_ROOT = 0xFFFFFFFF
SOL_NETLINK = 270
NETLINK_CAP_ACK = 10
NETLINK_EXT_ACK = 11
NLMSGERR_ATTR_MSG = 1


def _align(n: int) -> int:
    return (n + 3) & ~3


def attr(atype: int, payload: bytes) -> bytes:
    """One netlink attribute, padded to 4 bytes."""
    hdr = struct.pack("=HH", 4 + len(payload), atype)
    return (hdr + payload).ljust(_align(4 + len(payload)), b"\0")


def typed_attr(spec: str) -> bytes:
    """An attribute from TYPE:FORMAT:VALUE."""
    parts = spec.split(":", 2)
    if len(parts) != 3:
        raise ValueError(f"{spec!r}: TYPE:FORMAT:VALUE expected")
    atype, fmt, value = int(parts[0], 0), parts[1], parts[2]
    ints = {"u8": "=B", "u16": "=H", "u32": "=I", "u64": "=Q"}
    if fmt in ints:
        return attr(atype, struct.pack(ints[fmt], int(value, 0)))
    if fmt == "ratio":
        num, _, den = value.partition("/")
        return attr(atype, struct.pack("=QQ", int(num, 0), int(den or "1", 0)))
    if fmt == "hex":
        return attr(atype, bytes.fromhex(value))
    raise ValueError(f"{spec!r}: unknown format {fmt!r}")


def parse_handle(text: str) -> int:
    """tc's MAJOR:MINOR (hex) as a 32-bit handle."""
    major, _, minor = text.partition(":")
    return (int(major or "0", 16) << 16) | int(minor or "0", 16)


def request(ifindex: int, handle: int, kind: str, opts: list[bytes], change: bool) -> bytes:
    """The RTM_NEWQDISC message: root qdisc KIND with nested OPTS."""
    flags = NLM_F_REQUEST | NLM_F_ACK
    if not change:
        flags |= NLM_F_CREATE | NLM_F_EXCL
    tcm = struct.pack("=BBHiIII", socket.AF_UNSPEC, 0, 0, ifindex, handle, TC_H_ROOT, 0)
    body = (
        tcm
        + attr(TCA_KIND, kind.encode() + b"\0")
        + attr(TCA_OPTIONS | NLA_F_NESTED, b"".join(opts))
    )
    return struct.pack("=IHHII", 16 + len(body), RTM_NEWQDISC, flags, 1, 0) + body


def parse_ack(data: bytes) -> tuple[int, str]:
    """(errno, extack message) of an NLMSG_ERROR reply (capped ack)."""
    _, mtype, mflags, _, _ = struct.unpack_from("=IHHII", data, 0)
    if mtype != NLMSG_ERROR:
        raise ValueError(f"unexpected reply type {mtype}")
    (err,) = struct.unpack_from("=i", data, 16)
    msg = ""
    off = 16 + 4 + 16  # header, error, the request's header (capped)
    while mflags & NLM_F_ACK_TLVS and off + 4 <= len(data):
        alen, atype = struct.unpack_from("=HH", data, off)
        if alen < 4:
            break
        if atype == NLMSGERR_ATTR_MSG:
            msg = data[off + 4 : off + alen].rstrip(b"\0").decode(errors="replace")
        off += _align(alen)
    return -err, msg


def main(argv: list[str]) -> int:
    args = argv[1:]
    change = bool(args) and args[0] == "--change"
    if change:
        args = args[1:]
    if len(args) < 3:
        print(__doc__, file=sys.stderr)
        return 1
    dev, handle, kind, specs = args[0], args[1], args[2], args[3:]
    try:
        opts = [typed_attr(s) for s in specs]
        msg = request(socket.if_nametoindex(dev), parse_handle(handle), kind, opts, change)
    except (ValueError, OSError) as e:
        print(f"nlqdisc: {e}", file=sys.stderr)
        return 1
    with socket.socket(socket.AF_NETLINK, socket.SOCK_RAW, socket.NETLINK_ROUTE) as s:
        s.setsockopt(SOL_NETLINK, NETLINK_CAP_ACK, 1)
        s.setsockopt(SOL_NETLINK, NETLINK_EXT_ACK, 1)
        s.sendto(msg, (0, 0))
        err, text = parse_ack(s.recv(65536))
    if err:
        text = text or os.strerror(err)
        print(f"Error: {text}{'' if text.endswith('.') else '.'}", file=sys.stderr)
        return 2
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
