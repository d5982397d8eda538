"""Hostile frames into a qdisc: raw Ethernet frames sent out of a device.

A packet socket's frames go through the device's qdiscs like any other
(no PACKET_QDISC_BYPASS), so frames sent out of the router's bottleneck
reach the qdisc under test as they are, whatever a stack would make of
them: not IP at all, IPv4 headers that lie about their length, fragments,
IPv6 with chains of extension headers, VLAN tags, frames of the minimum
and maximum sizes, and many distinct flows. The qdiscs hash and classify
every one of them (the flow dissector), count them and queue them.

Usage: hostile.py DEV KIND COUNT [SEED]
  KIND: nonip, trunc4, frag4, ext6, vlan, tiny, max, flows, all
Prints "sent N" (frames the socket took) on stdout.
"""

from __future__ import annotations

import random
import socket
import struct
import sys
from collections.abc import Callable

ETH_P_IP = 0x0800
ETH_P_IPV6 = 0x86DD
ETH_P_8021Q = 0x8100
ETH_P_EXP = 0x88B5  # IEEE local experimental


def mac(dev: str) -> bytes:
    with open(f"/sys/class/net/{dev}/address") as f:
        return bytes.fromhex(f.read().strip().replace(":", ""))


def checksum(data: bytes) -> int:
    if len(data) % 2:
        data += b"\0"
    s: int = sum(struct.unpack(f"!{len(data) // 2}H", data))
    s = (s >> 16) + (s & 0xFFFF)
    s += s >> 16
    return ~s & 0xFFFF


def ipv4(
    rng: random.Random,
    payload: bytes,
    *,
    proto: int = 17,
    ihl: int = 5,
    tot_len: int | None = None,
    frag: int = 0,
) -> bytes:
    src = bytes([198, 18, rng.randint(0, 255), rng.randint(1, 254)])
    dst = bytes([198, 18, 2, 2])
    options = b"\x01" * (max(ihl, 5) * 4 - 20)
    length = tot_len if tot_len is not None else 20 + len(options) + len(payload)
    hdr = struct.pack(
        "!BBHHHBBH4s4s",
        (4 << 4) | (ihl & 0xF),
        0,
        length & 0xFFFF,
        rng.randint(0, 0xFFFF),
        frag,
        64,
        proto,
        0,
        src,
        dst,
    )
    hdr = hdr[:10] + struct.pack("!H", checksum(hdr + options)) + hdr[12:]
    return hdr + options + payload


def udp(rng: random.Random, size: int, sport: int | None = None) -> bytes:
    sp = sport if sport is not None else rng.randint(1, 0xFFFF)
    return struct.pack("!HHHH", sp, 9, 8 + size, 0) + bytes(size)


def ipv6(rng: random.Random, nxt: int, payload: bytes) -> bytes:
    src = bytes.fromhex("20010db8000100000000000000000002")[:14] + rng.randbytes(2)
    dst = bytes.fromhex("20010db8000200000000000000000002")
    return struct.pack("!IHBB", (6 << 28) | rng.randint(0, 0xFFFFF), len(payload), nxt, 64) + (
        src + dst + payload
    )


def ext_chain(rng: random.Random, n: int, final: int, tail: bytes) -> tuple[int, bytes]:
    """N IPv6 extension headers (hop-by-hop first), then FINAL's TAIL."""
    kinds = [0] + [rng.choice([43, 60, 44]) for _ in range(n - 1)]
    body = tail
    nxt = final
    for k in reversed(kinds):
        if k == 44:  # fragment header: 8 bytes
            body = (
                struct.pack("!BBHI", nxt, 0, rng.choice([0, 1, 8 << 3]), rng.getrandbits(32)) + body
            )
        else:  # hop-by-hop, routing, destination options: 8 bytes of padding
            body = struct.pack("!BB", nxt, 0) + b"\x01\x04\0\0\0\0" + body
        nxt = k
    return nxt, body


class Frames:
    """Generators of hostile frames, each a bytes object without FCS."""

    def __init__(self, dst: bytes, src: bytes, rng: random.Random) -> None:
        self.eth = dst + src
        self.rng = rng
        self.flow = 0

    def frame(self, ethertype: int, body: bytes) -> bytes:
        return self.eth + struct.pack("!H", ethertype) + body

    def nonip(self) -> bytes:
        et = self.rng.choice([ETH_P_EXP, 0x0806, 0x88CC, 0x0000, 0xFFFF])
        return self.frame(et, self.rng.randbytes(self.rng.randint(0, 1486)))

    def trunc4(self) -> bytes:
        r, rng = self.rng.randrange(5), self.rng
        if r == 0:  # the header says 1500 bytes, the frame has 28
            return self.frame(ETH_P_IP, ipv4(rng, udp(rng, 0), tot_len=1500))
        if r == 1:  # IHL below 5
            return self.frame(ETH_P_IP, ipv4(rng, udp(rng, 10), ihl=3))
        if r == 2:  # IHL 15 with a frame shorter than 60 bytes of header
            return self.frame(ETH_P_IP, ipv4(rng, b"", ihl=15)[:30])
        if r == 3:  # fewer bytes than an IPv4 header
            return self.frame(ETH_P_IP, rng.randbytes(rng.randint(0, 19)))
        # version 6 under the IPv4 ethertype
        return self.frame(ETH_P_IP, b"\x60" + rng.randbytes(39))

    def frag4(self) -> bytes:
        rng = self.rng
        off = rng.choice([0, 1, 185, 0x1FFF])
        mf = rng.choice([0, 0x2000])
        return self.frame(ETH_P_IP, ipv4(rng, udp(rng, rng.randint(0, 1400)), frag=mf | off))

    def ext6(self) -> bytes:
        rng = self.rng
        n = rng.choice([1, 2, 4, 8, 20])
        nxt, body = ext_chain(rng, n, 17, udp(rng, rng.randint(0, 200)))
        pkt = ipv6(rng, nxt, body)
        if rng.random() < 0.3:  # cut inside the chain
            pkt = pkt[: 40 + rng.randint(0, 8 * n)]
        return self.frame(ETH_P_IPV6, pkt)

    def vlan(self) -> bytes:
        rng = self.rng
        inner = struct.pack("!HH", rng.randint(0, 4095), ETH_P_IP) + ipv4(rng, udp(rng, 100))
        if rng.random() < 0.3:  # two tags
            inner = struct.pack("!HH", rng.randint(0, 4095), ETH_P_8021Q) + inner
        return self.frame(ETH_P_8021Q, inner)

    def tiny(self) -> bytes:
        # the Ethernet header alone, or up to the 60-byte minimum
        return self.frame(ETH_P_IP, self.rng.randbytes(self.rng.choice([0, 1, 20, 46])))

    def max(self) -> bytes:
        return self.frame(ETH_P_IP, ipv4(self.rng, udp(self.rng, 1500 - 28)))

    def flows(self) -> bytes:
        # every frame a new flow: source address and port count up
        self.flow += 1
        rng = self.rng
        f = self.flow
        src_port = 1024 + f % 64000
        pkt = ipv4(rng, udp(rng, 64, sport=src_port))
        pkt = pkt[:12] + bytes([198, 18, (f // 64000) % 256, 1 + (f // 16) % 250]) + pkt[16:]
        return self.frame(ETH_P_IP, pkt)


def main(argv: list[str]) -> int:
    if len(argv) not in (4, 5):
        print(__doc__, file=sys.stderr)
        return 1
    dev, kind, count = argv[1], argv[2], int(argv[3])
    rng = random.Random(int(argv[4]) if len(argv) == 5 else 1)
    # a locally administered unicast address nobody has: the peer drops
    # the frames, after the qdisc has queued and sent them
    frames = Frames(b"\x02\0\0\0\0\x01", mac(dev), rng)
    gens: dict[str, Callable[[], bytes]] = {
        "nonip": frames.nonip,
        "trunc4": frames.trunc4,
        "frag4": frames.frag4,
        "ext6": frames.ext6,
        "vlan": frames.vlan,
        "tiny": frames.tiny,
        "max": frames.max,
        "flows": frames.flows,
    }
    chosen = list(gens.values()) if kind == "all" else [gens[kind]]
    s = socket.socket(socket.AF_PACKET, socket.SOCK_RAW)
    s.bind((dev, 0))
    sent = 0
    for i in range(count):
        try:
            s.send(chosen[i % len(chosen)]())
            sent += 1
        except OSError:
            # a full queue (ENOBUFS) is the qdisc dropping: keep going
            pass
    print(f"sent {sent}")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
