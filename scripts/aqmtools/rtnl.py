"""Raw rtnetlink for qdisc requests: build them byte by byte, read the answers.

pyroute2 packs only well-formed attributes; the reliability suite needs
requests that are not (short and long payloads, nests without their flag,
attributes past the end of the message), and needs them fast. This module
speaks the protocol directly with the socket module: one RTM_*QDISC
request, its errno and extended ack; a dump of the qdiscs of a device,
each decoded to its top-level attributes.
"""

from __future__ import annotations

import errno
import os
import socket
import struct
from dataclasses import dataclass, field

RTM_NEWQDISC = 36
RTM_DELQDISC = 37
RTM_GETQDISC = 38
NLMSG_ERROR = 2
NLMSG_DONE = 3

NLM_F_REQUEST = 0x1
NLM_F_MULTI = 0x2
NLM_F_ACK = 0x4
NLM_F_DUMP = 0x300
NLM_F_REPLACE = 0x100
NLM_F_EXCL = 0x200
NLM_F_CREATE = 0x400
NLM_F_ACK_TLVS = 0x200

NLA_F_NESTED = 0x8000
NLA_TYPE_MASK = 0x3FFF
NLMSGERR_ATTR_MSG = 1

SOL_NETLINK = 270
NETLINK_CAP_ACK = 10
NETLINK_EXT_ACK = 11

TCA_KIND = 1
TCA_OPTIONS = 2
TCA_STATS2 = 7
TCA_STATS_BASIC = 1
TCA_STATS_QUEUE = 3

TC_H_ROOT = 0xFFFFFFFF

_NLMSGHDR = struct.Struct("=IHHII")
_TCMSG = struct.Struct("=BxxxiIII")
_NLATTR = struct.Struct("=HH")


def align4(n: int) -> int:
    return (n + 3) & ~3


def nla(atype: int, payload: bytes, nested: bool = False) -> bytes:
    """One attribute, padded to 4 bytes; NESTED sets NLA_F_NESTED."""
    t = atype | (NLA_F_NESTED if nested else 0)
    raw = _NLATTR.pack(_NLATTR.size + len(payload), t) + payload
    return raw + b"\0" * (align4(len(raw)) - len(raw))


def parse_attrs(data: bytes) -> dict[int, bytes]:
    """The attributes of DATA by type (flags masked off); the last wins."""
    out: dict[int, bytes] = {}
    off = 0
    while off + _NLATTR.size <= len(data):
        length, atype = _NLATTR.unpack_from(data, off)
        if length < _NLATTR.size or off + length > len(data):
            break
        out[atype & NLA_TYPE_MASK] = data[off + _NLATTR.size : off + length]
        off += align4(length)
    return out


@dataclass
class Qdisc:
    """One qdisc of a dump: its identity, kind, raw options and queue."""

    handle: int
    parent: int
    kind: str
    options: bytes
    qlen: int = -1
    backlog: int = -1
    attrs: dict[int, bytes] = field(default_factory=dict)


class Rtnl:
    """A NETLINK_ROUTE socket with extended acks, capped to the header."""

    def __init__(self) -> None:
        self.sock = socket.socket(socket.AF_NETLINK, socket.SOCK_RAW, socket.NETLINK_ROUTE)
        self.sock.setsockopt(SOL_NETLINK, NETLINK_EXT_ACK, 1)
        self.sock.setsockopt(SOL_NETLINK, NETLINK_CAP_ACK, 1)
        self.sock.setsockopt(socket.SOL_SOCKET, socket.SO_RCVBUF, 1 << 20)
        self.sock.bind((0, 0))
        self.seq = 0

    def close(self) -> None:
        self.sock.close()

    def __enter__(self) -> Rtnl:
        return self

    def __exit__(self, *_: object) -> None:
        self.close()

    def _send(self, mtype: int, flags: int, payload: bytes) -> int:
        self.seq += 1
        hdr = _NLMSGHDR.pack(_NLMSGHDR.size + len(payload), mtype, flags, self.seq, 0)
        self.sock.send(hdr + payload)
        return self.seq

    def _messages(self, seq: int) -> list[tuple[int, int, bytes]]:
        """The answers to SEQ: (type, flags, payload) up to the ack or DONE."""
        out: list[tuple[int, int, bytes]] = []
        while True:
            data = self.sock.recv(1 << 20)
            off = 0
            while off + _NLMSGHDR.size <= len(data):
                length, mtype, flags, mseq, _ = _NLMSGHDR.unpack_from(data, off)
                if length < _NLMSGHDR.size:
                    raise OSError(errno.EPROTO, "short netlink message")
                body = data[off + _NLMSGHDR.size : off + length]
                off += align4(length)
                if mseq != seq:
                    continue
                out.append((mtype, flags, body))
                if mtype in (NLMSG_ERROR, NLMSG_DONE) or not flags & NLM_F_MULTI:
                    return out

    def request(self, mtype: int, flags: int, payload: bytes) -> tuple[int, str]:
        """Send one request with NLM_F_ACK: (errno, extack message), 0 on success."""
        seq = self._send(mtype, flags | NLM_F_REQUEST | NLM_F_ACK, payload)
        for mtype_, mflags, body in self._messages(seq):
            if mtype_ != NLMSG_ERROR:
                continue
            (err,) = struct.unpack_from("=i", body)
            msg = ""
            if mflags & NLM_F_ACK_TLVS:
                # the error, then the request's header (capped), then TLVs
                tlvs = parse_attrs(body[4 + _NLMSGHDR.size :])
                msg = tlvs.get(NLMSGERR_ATTR_MSG, b"").rstrip(b"\0").decode(errors="replace")
            return -err, msg
        raise OSError(errno.EPROTO, "no ack")

    def qdiscs(self, ifindex: int) -> list[Qdisc]:
        """Every qdisc of IFINDEX (a dump filtered by the kernel on it)."""
        seq = self._send(RTM_GETQDISC, NLM_F_REQUEST | NLM_F_DUMP, _TCMSG.pack(0, ifindex, 0, 0, 0))
        out = []
        for mtype, _, body in self._messages(seq):
            if mtype == NLMSG_ERROR:
                (err,) = struct.unpack_from("=i", body)
                if err:
                    raise OSError(-err, os.strerror(-err))
                continue
            if mtype != RTM_NEWQDISC:
                continue
            _, idx, handle, parent, _ = _TCMSG.unpack_from(body)
            if idx != ifindex:
                continue
            attrs = parse_attrs(body[_TCMSG.size :])
            q = Qdisc(
                handle=handle,
                parent=parent,
                kind=attrs.get(TCA_KIND, b"").rstrip(b"\0").decode(),
                options=attrs.get(TCA_OPTIONS, b""),
                attrs=attrs,
            )
            stats = parse_attrs(attrs.get(TCA_STATS2, b""))
            queue = stats.get(TCA_STATS_QUEUE, b"")
            if len(queue) >= 8:
                q.qlen, q.backlog = struct.unpack_from("=II", queue)
            out.append(q)
        return out

    def qdisc(self, ifindex: int, handle: int) -> Qdisc | None:
        """The qdisc HANDLE of IFINDEX, or None."""
        for q in self.qdiscs(ifindex):
            if q.handle == handle:
                return q
        return None


def tcmsg(ifindex: int, handle: int, parent: int) -> bytes:
    """The tcmsg header of a qdisc request."""
    return _TCMSG.pack(socket.AF_UNSPEC, ifindex, handle, parent, 0)


def kind_attr(kind: str) -> bytes:
    return nla(TCA_KIND, kind.encode() + b"\0")


def ifindex(dev: str) -> int:
    return socket.if_nametoindex(dev)
