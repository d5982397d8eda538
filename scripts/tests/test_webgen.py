"""Tests of webgen, the compiled web traffic generator (scripts/bench/webgen).

The binary is built from scripts/bench/Makefile into a temporary folder; set
WEBGEN_CFLAGS (for example '-O1 -g -fsanitize=address,undefined') to build it
with other flags: the end-to-end test then also fails on any sanitizer report.
The end-to-end test runs the server and the client on the loopback of a
private network namespace (unshare), in a forked child of pytest.
"""

from __future__ import annotations

import concurrent.futures
import csv
import ctypes
import fcntl
import io
import multiprocessing
import os
import signal
import socket
import struct
import subprocess
import sys
import time
from collections import defaultdict
from dataclasses import dataclass
from pathlib import Path

import pytest

BENCH = Path(__file__).resolve().parents[1] / "bench"
HEADER = (
    "user,conn,server,start_us,first_byte_us,end_us,req_bytes,resp_bytes,persistent,status,req_size"
)
SANITIZER_MARKS = ("AddressSanitizer", "LeakSanitizer", "runtime error:")
PORT = 18080


@pytest.fixture(scope="module")
def webgen(tmp_path_factory: pytest.TempPathFactory) -> Path:
    out = tmp_path_factory.mktemp("webgen")
    cmd = ["make", "-s", "-C", str(BENCH), f"OUT={out}", f"{out}/webgen"]
    cflags = os.environ.get("WEBGEN_CFLAGS")
    if cflags:
        cmd.append(f"CFLAGS={cflags}")
    subprocess.run(cmd, check=True)
    return out / "webgen"


def _sample(webgen: Path, *args: str) -> list[str]:
    r = subprocess.run([str(webgen), "sample", *args], check=True, capture_output=True, text=True)
    return r.stdout.split()


def test_response_sizes_follow_dcn_figures_1_2(webgen: Path) -> None:
    sizes = [int(x) for x in _sample(webgen, "-n", "1000000", "--seed", "1")]
    n, total = len(sizes), sum(sizes)
    small = [x for x in sizes if x <= 10_000]
    large = [x for x in sizes if x > 1_000_000]
    p_small, b_small = len(small) / n, sum(small) / total
    p_large, b_large = len(large) / n, sum(large) / total
    p_100k = sum(1 for x in sizes if x > 100_000) / n
    figures = (
        f"<=10KB: {p_small:.4f} of responses, {b_small:.4f} of bytes; "
        f">1MB: {p_large:.5f} of responses, {b_large:.4f} of bytes; "
        f">100KB: {p_100k:.4f}; mean {total / n:.0f} B, max {max(sizes)} B"
    )
    assert n == 1_000_000
    assert 0.87 <= p_small <= 0.93, figures
    assert 0.15 <= b_small < 0.25, figures
    assert 0 < p_large < 0.01, figures
    assert 0.18 <= b_large <= 0.32, figures
    assert p_100k < 0.012, figures
    assert min(sizes) >= 1, figures
    assert max(sizes) <= 10_000_000, figures


def test_same_seed_same_draws_other_seed_other_draws(webgen: Path) -> None:
    for what in ("sizes", "think", "page", "req"):
        a = _sample(webgen, "-n", "2000", "--seed", "5", "--what", what)
        b = _sample(webgen, "-n", "2000", "--seed", "5", "--what", what)
        c = _sample(webgen, "-n", "2000", "--seed", "6", "--what", what)
        assert a == b, what
        assert a != c, what


def test_think_page_and_request_draws_in_range(webgen: Path) -> None:
    think = [float(x) for x in _sample(webgen, "-n", "20000", "--what", "think")]
    assert all(1.0 <= t <= 300.0 for t in think)
    assert 2.0 < sum(think) / len(think) < 3.6  # bounded Pareto, mean 2.8 s
    pages = _sample(webgen, "-n", "20000", "--what", "page")
    embedded, persistent = [int(x) for x in pages[0::2]], [int(x) for x in pages[1::2]]
    assert all(0 <= k <= 50 for k in embedded)
    assert all(p == 0 for k, p in zip(embedded, persistent, strict=True) if k == 0)
    assert 0.55 < embedded.count(0) / len(embedded) < 0.75
    assert 0 < sum(persistent) < len(persistent)
    req = [int(x) for x in _sample(webgen, "-n", "20000", "--what", "req")]
    assert all(150 <= r <= 2000 for r in req)


@pytest.mark.parametrize(
    "args",
    [
        [],
        ["bogus"],
        ["sample"],
        ["sample", "-n", "x"],
        ["sample", "-n", "3", "--what", "nothing"],
        ["server", "-p", "0"],
        ["server", "-p", "70000"],
        ["client", "-u", "3", "-d", "1"],
        ["client", "-s", "127.0.0.1", "-d", "1"],
        ["client", "-s", "127.0.0.1", "-u", "3"],
        ["client", "-s", "127.0.0.1", "-u", "3", "-d", "1", "-w", "1"],
        ["client", "-s", "127.0.0.1", "-u", "3", "-d", "1", "-r", "-1"],
        ["client", "-s", "127.0.0.1:99999", "-u", "3", "-d", "1"],
        ["client", "-s", "127.0.0.1", "-u", "three", "-d", "1"],
        ["client", "-s", "127.0.0.1", "-u", "3", "-d", "1", "extra"],
    ],
)
def test_usage_errors(webgen: Path, args: list[str]) -> None:
    r = subprocess.run([str(webgen), *args], capture_output=True, text=True, timeout=10)
    assert r.returncode == 2, (args, r.returncode, r.stderr)
    assert "webgen" in r.stderr and r.stdout == "", (args, r.stderr)


# --- end to end, in a private network namespace ---------------------------


@dataclass
class E2E:
    log: str  # 5 s run, 20 users
    log_short: str  # the same seed for 2 s
    client_rc: int
    client_err: str
    short_rc: int
    refused_rc: int
    refused_log: str
    small_during_big: bytes
    after_kill: bytes
    server_alive: bool
    server_rc: int
    server_err: str


def _lo_up() -> None:
    siocgifflags, siocsifflags, iff_up = 0x8913, 0x8914, 0x1
    with socket.socket(socket.AF_INET, socket.SOCK_DGRAM) as s:
        ifr = fcntl.ioctl(s, siocgifflags, struct.pack("16sH14x", b"lo", 0))
        flags = struct.unpack("16sH14x", ifr)[1] | iff_up
        fcntl.ioctl(s, siocsifflags, struct.pack("16sH14x", b"lo", flags))


def _wait_listening(port: int) -> None:
    """Waits for the server to accept (readiness, not a timing assertion)."""
    for _ in range(3000):
        try:
            socket.create_connection(("127.0.0.1", port), timeout=1).close()
            return
        except OSError:
            time.sleep(0.02)
    raise RuntimeError("webgen server did not start listening")


def _get(port: int, size: int) -> bytes:
    """One HTTP exchange with Connection: close; the whole answer."""
    with socket.create_connection(("127.0.0.1", port), timeout=30) as s:
        s.sendall(f"GET /{size} HTTP/1.1\r\nHost: t\r\nConnection: close\r\n\r\n".encode())
        chunks = []
        while chunk := s.recv(65536):
            chunks.append(chunk)
    return b"".join(chunks)


# A client that starts a 100 MB download, reads 1 MB of it and waits to be killed.
BIG_READER = """
import socket, sys
s = socket.create_connection(("127.0.0.1", int(sys.argv[1])))
s.sendall(b"GET /100000000 HTTP/1.1\\r\\nHost: t\\r\\n\\r\\n")
got = 0
while got < 1000000:
    got += len(s.recv(65536))
print("reading", flush=True)
sys.stdin.read()
"""


def _scenario(webgen: str, work: str) -> E2E:
    wd = Path(work)
    client = [webgen, "client", "-s", f"127.0.0.1:{PORT},[::1]:{PORT}", "-u", "20", "--seed", "7"]
    srv_err = open(wd / "server.err", "w")  # noqa: SIM115 (closed below)
    server = subprocess.Popen([webgen, "server", "-p", str(PORT)], stderr=srv_err)
    try:
        _wait_listening(PORT)
        run = subprocess.run(
            [*client, "-d", "5", "-w", "1", "-o", str(wd / "log.csv")],
            capture_output=True,
            text=True,
        )
        short = subprocess.run(
            [*client, "-d", "2", "-o", str(wd / "short.csv")], capture_output=True, text=True
        )
        refused = subprocess.run(
            [webgen, "client", "-s", f"127.0.0.1:{PORT + 1}", "-u", "3", "-d", "1", "-r", "0"],
            capture_output=True,
            text=True,
        )
        # A 100 MB response in progress must not hold up a small one, and
        # the server must survive its client being killed mid-response.
        big = subprocess.Popen(
            [sys.executable, "-c", BIG_READER, str(PORT)],
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            text=True,
        )
        assert big.stdout is not None
        big.stdout.readline()
        small = _get(PORT, 12345)
        big.kill()
        big.wait()
        after = _get(PORT, 54321)
        alive = server.poll() is None
    finally:
        server.send_signal(signal.SIGTERM)
        server_rc = server.wait(timeout=30)
        srv_err.close()
    return E2E(
        log=(wd / "log.csv").read_text(),
        log_short=(wd / "short.csv").read_text(),
        client_rc=run.returncode,
        client_err=run.stderr,
        short_rc=short.returncode,
        refused_rc=refused.returncode,
        refused_log=refused.stdout,
        small_during_big=small,
        after_kill=after,
        server_alive=alive,
        server_rc=server_rc,
        server_err=(wd / "server.err").read_text() + run.stderr + short.stderr,
    )


def _in_netns(webgen: str, work: str) -> E2E | str:
    """Runs the scenario in a new network namespace; a string: why not."""
    libc = ctypes.CDLL(None, use_errno=True)
    clone_newnet = 0x40000000
    if libc.unshare(clone_newnet) != 0:
        return f"unshare(CLONE_NEWNET) not permitted: {os.strerror(ctypes.get_errno())}"
    _lo_up()
    return _scenario(webgen, work)


def _rows(text: str) -> list[dict[str, str]]:
    assert text.splitlines()[0] == HEADER
    return list(csv.DictReader(io.StringIO(text)))


def _response_ok(answer: bytes, size: int) -> bool:
    head, _, body = answer.partition(b"\r\n\r\n")
    return (
        head.startswith(b"HTTP/1.1 200 ")
        and f"Content-Length: {size}".encode() in head
        and (len(body) == size)
    )


def test_end_to_end_on_loopback(webgen: Path, tmp_path: Path) -> None:
    ctx = multiprocessing.get_context("fork")
    with concurrent.futures.ProcessPoolExecutor(1, mp_context=ctx) as ex:
        res = ex.submit(_in_netns, str(webgen), str(tmp_path)).result(timeout=600)
    if isinstance(res, str):
        pytest.skip(res)

    for mark in SANITIZER_MARKS:
        assert mark not in res.server_err, res.server_err
    assert res.client_rc == 0 and res.short_rc == 0, res.client_err
    assert res.server_alive and res.server_rc == 0, res.server_err

    rows = _rows(res.log)
    statuses = {r["status"] for r in rows}
    assert "error" not in statuses, [r for r in rows if r["status"] == "error"]
    assert statuses <= {"ok", "warmup", "unfinished"}, statuses
    done = [r for r in rows if r["status"] in ("ok", "warmup")]
    assert len([r for r in done if r["status"] == "ok"]) >= 20, statuses
    for r in done:
        assert r["resp_bytes"] == r["req_size"], r
        assert int(r["start_us"]) <= int(r["first_byte_us"]) <= int(r["end_us"]), r
        assert 150 <= int(r["req_bytes"]) <= 2000, r
        assert r["server"] in (f"127.0.0.1:{PORT}", f"[::1]:{PORT}"), r
    for r in rows:  # warmup marks exactly the exchanges started in the first second
        assert (r["status"] == "warmup") == (int(r["start_us"]) < 1_000_000), r
    assert {r["persistent"] for r in done} == {"0", "1"}

    # A persistent connection carries its page's objects; others carry one.
    per_conn: dict[str, list[dict[str, str]]] = defaultdict(list)
    for r in rows:
        per_conn[r["conn"]].append(r)
    assert any(len(v) > 1 for v in per_conn.values())
    for v in per_conn.values():
        assert len({r["user"] for r in v}) == 1
        assert len(v) == 1 or all(r["persistent"] == "1" for r in v), v

    # The same seed issues the same requests: the 2 s run is a prefix of the 5 s run.
    def seqs(rs: list[dict[str, str]]) -> dict[str, list[tuple[str, ...]]]:
        out: dict[str, list[tuple[str, ...]]] = defaultdict(list)
        for r in sorted(rs, key=lambda r: int(r["start_us"])):
            out[r["user"]].append((r["server"], r["req_size"], r["req_bytes"], r["persistent"]))
        return out

    long_seqs, short_seqs = seqs(rows), seqs(_rows(res.log_short))
    assert sum(len(v) for v in short_seqs.values()) > 0
    for user, seq in short_seqs.items():
        assert long_seqs[user][: len(seq)] == seq, user

    assert res.refused_rc == 1
    refused = _rows(res.refused_log)
    assert refused and all(r["status"] == "error" for r in refused)
    assert all(r["first_byte_us"] == "" and r["resp_bytes"] == "0" for r in refused)

    assert _response_ok(res.small_during_big, 12345)
    assert _response_ok(res.after_kill, 54321)
