"""Tests of the short-flow generator over loopback."""

from __future__ import annotations

import threading
import time

from aqmtools.shortflows import main, pace, recv, send


def test_send_and_count_over_loopback() -> None:
    result: list[tuple[int, int]] = []
    t = threading.Thread(target=lambda: result.append(recv(45871, 2.0, "127.0.0.1")))
    t.start()
    time.sleep(0.3)
    assert send("127.0.0.1", 45871, flows=5, pkts=3, interval=0.01) == 15
    t.join()
    assert result == [(5, 15)]


def test_usage() -> None:
    assert main(["shortflows"]) == 2


def test_pace_keeps_rate_and_port() -> None:
    result: list[tuple[int, int]] = []
    t = threading.Thread(target=lambda: result.append(recv(45872, 1.5, "127.0.0.1")))
    t.start()
    time.sleep(0.3)
    sent = pace("127.0.0.1", 45872, 45873, pps=50, seconds=0.5)
    t.join()
    assert 20 <= sent <= 30
    assert result == [(1, sent)]  # one flow: the fixed source port


def test_recv_stops_when_the_sender_is_done() -> None:
    result: list[tuple[int, int]] = []
    start = time.monotonic()
    t = threading.Thread(target=lambda: result.append(recv(45874, 30.0, "127.0.0.1", idle=0.5)))
    t.start()
    time.sleep(0.3)
    send("127.0.0.1", 45874, flows=2, pkts=2, interval=0.01)
    t.join()
    assert result == [(2, 4)]
    assert time.monotonic() - start < 5.0
