"""Read the figures the netns selftests take from iperf3's JSON output
(`iperf3 -J`): what a UDP client got through, and the TCP receivers'
rates."""

from __future__ import annotations

import json
from typing import Any


def _end(path: str) -> dict[str, Any]:
    with open(path, encoding="utf-8") as f:
        end: dict[str, Any] = json.load(f)["end"]
    return end


def udp_goodput(path: str) -> tuple[float, float]:
    """(bit/s that arrived, percent lost) of the UDP client run in PATH:
    what the client sent less what the server reported lost. iperf3 can
    report more than 100% lost for a flow that is cut off (it did for the
    UDP flows of dcn-unresponsive.sh with floor 0): the rate is then 0, not
    negative."""
    s = _end(path)["sum"]
    lost = float(s["lost_percent"])
    return max(0.0, float(s["bits_per_second"]) * (1 - lost / 100)), lost


def udp_stream_goodputs(path: str) -> list[float]:
    """bit/s that arrived of every UDP stream of the client run in PATH
    (`iperf3 -u -P N`): each stream's sent rate less what the server
    reported lost of it, never below 0 (see udp_goodput)."""
    return [
        max(0.0, float(u["bits_per_second"]) * (1 - float(u["lost_percent"]) / 100))
        for u in (s["udp"] for s in _end(path)["streams"])
    ]


def tcp_rates(path: str) -> list[float]:
    """The receiver's bit/s of every TCP stream of the client run in PATH."""
    return [float(s["receiver"]["bits_per_second"]) for s in _end(path)["streams"]]


def tcp_total(path: str) -> float:
    """The receiver's bit/s summed over the streams of the run in PATH."""
    return float(_end(path)["sum_received"]["bits_per_second"])
