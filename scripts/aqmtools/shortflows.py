"""Short UDP flows for the DCN selftest: many flows of a few packets each.

Every flow is a new socket (so a new source port and a new 5-tuple) that
sends ``--pkts`` datagrams back to back and closes. The receiver counts the
datagrams it got; each carries its flow and sequence number.

``pace`` instead keeps one flow (a fixed source port) at a fixed rate, so
that a test can make the same flow fast and then slow.

Usage (inside network namespaces of the test VM):
  python3 -m aqmtools.shortflows recv PORT SECONDS [IDLE]  prints: flows packets
  python3 -m aqmtools.shortflows send HOST PORT FLOWS PKTS INTERVAL
  python3 -m aqmtools.shortflows pace HOST PORT SPORT PPS SECONDS
"""

from __future__ import annotations

import socket
import struct
import sys
import time

_HDR = struct.Struct("!II")
_PAYLOAD = 1000


# the source ports of send()'s flows: SPORT_BASE + flow number, each flow
# its own (the kernel's own choice may give two flows in a row the same
# port, hence the same 5-tuple: one flow of twice the packets)
SPORT_BASE = 30000


def send(host: str, port: int, flows: int, pkts: int, interval: float) -> int:
    """Send flows of pkts datagrams, one flow every interval seconds, each
    from its own source port."""
    fam = socket.AF_INET6 if ":" in host else socket.AF_INET
    if not 0 < flows <= 65535 - SPORT_BASE:
        raise ValueError(f"flows must be 1..{65535 - SPORT_BASE}")
    sent = 0
    for flow in range(flows):
        with socket.socket(fam, socket.SOCK_DGRAM) as s:
            s.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
            s.bind(("", SPORT_BASE + flow))
            for seq in range(pkts):
                s.sendto(_HDR.pack(flow, seq) + bytes(_PAYLOAD - _HDR.size), (host, port))
                sent += 1
        time.sleep(interval)
    return sent


def pace(host: str, port: int, sport: int, pps: float, seconds: float) -> int:
    """One flow from sport at pps datagrams per second for seconds."""
    fam = socket.AF_INET6 if ":" in host else socket.AF_INET
    sent = 0
    start = time.monotonic()
    with socket.socket(fam, socket.SOCK_DGRAM) as s:
        s.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        s.bind(("", sport))
        while (now := time.monotonic() - start) < seconds:
            s.sendto(_HDR.pack(sport, sent) + bytes(_PAYLOAD - _HDR.size), (host, port))
            sent += 1
            time.sleep(max(0.0, sent / pps - now))
    return sent


def recv(port: int, seconds: float, bind: str = "", idle: float = 0.0) -> tuple[int, int]:
    """Count (distinct flows, datagrams) received within seconds.

    With idle > 0, stop as well once idle seconds pass without a datagram
    after the first one (the sender is done), however slow the sender was.
    """
    fam = socket.AF_INET6 if ":" in bind else socket.AF_INET
    flows: set[int] = set()
    packets = 0
    end = time.monotonic() + seconds
    with socket.socket(fam, socket.SOCK_DGRAM) as s:
        s.bind((bind, port))
        while (left := end - time.monotonic()) > 0:
            s.settimeout(min(left, idle) if idle > 0 and packets else left)
            try:
                data = s.recv(2048)
            except TimeoutError:
                break
            if len(data) >= _HDR.size:
                flows.add(_HDR.unpack_from(data)[0])
                packets += 1
    return len(flows), packets


def main(argv: list[str]) -> int:
    if len(argv) in (4, 5) and argv[1] == "recv":
        idle = float(argv[4]) if len(argv) == 5 else 0.0
        nflows, npkts = recv(int(argv[2]), float(argv[3]), idle=idle)
        print(nflows, npkts)
        return 0
    if len(argv) == 7 and argv[1] == "send":
        print(send(argv[2], int(argv[3]), int(argv[4]), int(argv[5]), float(argv[6])))
        return 0
    if len(argv) == 7 and argv[1] == "pace":
        print(pace(argv[2], int(argv[3]), int(argv[4]), float(argv[5]), float(argv[6])))
        return 0
    print(__doc__, file=sys.stderr)
    return 2


if __name__ == "__main__":
    sys.exit(main(sys.argv))
