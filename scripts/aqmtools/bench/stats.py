"""Figures of one benchmark run, from the files run.py wrote.

Response time is the DCN paper's: from the request (connection set-up
included) to the last byte of the response; exchanges started in the
warm-up are left out. Nothing after it is: an exchange still unfinished
when the run's drain ends is censored at its elapsed time (webgen logs
the drain's end as its end_us), which is a lower bound of its response
time, and the quantiles count it (censored_quantile says when that makes
a quantile a lower bound itself).
Loss, marks and utilization come from the bottleneck qdisc's own counters
(tc -s -j before and after the run), in the downstream direction, which
carries the responses.
"""

from __future__ import annotations

import csv
import functools
import io
import json
import re
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from aqmtools.bench.experiment import fair_share_bps

# xstats keys under which qdiscs report ECN marks (tc -j names)
MARK_KEYS = ("marks", "marked", "ecn_mark")


@dataclass(frozen=True)
class Exchange:
    """One request/response of the web workload (of an unfinished one,
    end_us is when it was cut off and resp_bytes what had arrived)."""

    start_us: int
    end_us: int
    resp_bytes: int
    # the response size asked for (0 in logs from before webgen logged it)
    req_size: int = 0

    @property
    def size(self) -> int:
        """The response's size: asked for, or received in old logs."""
        return self.req_size or self.resp_bytes

    @property
    def seconds(self) -> float:
        return (self.end_us - self.start_us) / 1e6


@dataclass(frozen=True)
class WebLog:
    """What a run's webgen clients logged."""

    done: list[Exchange]
    warmup: int
    unfinished: int
    errors: int
    # the unfinished exchanges whose cut-off time was logged (censored)
    cut: list[Exchange] = field(default_factory=list)
    # response bytes requested by the measured exchanges (any outcome)
    offered_bytes: int = 0

    @property
    def censored_s(self) -> list[float]:
        return [e.seconds for e in self.cut]


def read_web(texts: list[str]) -> WebLog:
    """Parse webgen client logs (CSV with a header line)."""
    done: list[Exchange] = []
    cut: list[Exchange] = []
    counts = {"warmup": 0, "unfinished": 0, "error": 0}
    offered = 0
    for text in texts:
        for row in csv.DictReader(io.StringIO(text)):
            status = row["status"]
            if status not in counts and status != "ok":
                raise ValueError(f"unknown webgen status {status!r}")
            size = int(row.get("req_size") or 0)
            if status != "warmup":
                offered += size
            if status == "ok" or (status == "unfinished" and row["end_us"]):
                e = Exchange(int(row["start_us"]), int(row["end_us"]), int(row["resp_bytes"]), size)
                (done if status == "ok" else cut).append(e)
            if status != "ok":
                counts[status] += 1
    return WebLog(done, counts["warmup"], counts["unfinished"], counts["error"], cut, offered)


def cdf(values: list[float]) -> tuple[list[float], list[float]]:
    """Sorted VALUES and, for each, the fraction of values at or below it."""
    xs = sorted(values)
    n = len(xs)
    return xs, [(i + 1) / n for i in range(n)]


def quantile(values: list[float], q: float) -> float:
    """The Q-quantile (nearest rank) of VALUES; nan when there are none."""
    if not values:
        return float("nan")
    xs = sorted(values)
    rank = max(1, min(len(xs), round(q * len(xs) + 0.5)))
    return xs[rank - 1]


def censored_quantile(done: list[float], cut: list[float], q: float) -> tuple[float, bool]:
    """The Q-quantile of response times when the exchanges of CUT were cut
    off after the times given (their response times are at least those):
    the quantile of both together, and whether it is only a lower bound,
    which it is when a censored time lies at or below it (that exchange's
    true time may lie above, and would move the quantile up)."""
    value = quantile(done + cut, q)
    return value, any(c <= value for c in cut)


def bytes_by_size(exchanges: list[Exchange]) -> tuple[list[int], list[float]]:
    """The DCN paper's figures 10/12/14: response sizes in increasing order
    and the fraction of all response bytes transferred by responses up to
    each size (an unfinished exchange counts what it received, at the size
    it asked for)."""
    pairs = sorted((e.size, e.resp_bytes) for e in exchanges)
    total = sum(b for _, b in pairs)
    acc, frac = 0, []
    for _, b in pairs:
        acc += b
        frac.append(acc / total if total else 0.0)
    return [s for s, _ in pairs], frac


def jain(rates: list[float]) -> float:
    """Jain's fairness index: (sum x)^2 / (n sum x^2), 1 when all equal."""
    if not rates or not any(rates):
        return float("nan")
    return sum(rates) ** 2 / (len(rates) * sum(x * x for x in rates))


def leaf(snapshot: list[dict[str, Any]]) -> dict[str, Any]:
    """The qdisc under test (handle 10:) in a tc -s -j dump."""
    for q in snapshot:
        if q.get("handle") == "10:":
            return q
    raise ValueError("no qdisc with handle 10: in the dump")


def marks_of(q: dict[str, Any]) -> int | None:
    """ECN marks a qdisc reports, if it reports them."""
    for key in MARK_KEYS:
        if isinstance(q.get(key), int):
            return int(q[key])
    return None


@dataclass(frozen=True)
class LinkFigures:
    """The downstream bottleneck over a run."""

    sent_packets: int
    sent_bytes: int
    drops: int
    marks: int | None
    loss: float
    utilization: float
    seconds: float

    @property
    def mbps(self) -> float:
        return 8 * self.sent_bytes / self.seconds / 1e6


def _figures(b: dict[str, Any], a: dict[str, Any], rate_bps: int, secs: float) -> LinkFigures:
    sent = a["packets"] - b["packets"]
    sent_bytes = a["bytes"] - b["bytes"]
    drops = a["drops"] - b["drops"]
    mb, ma = marks_of(b), marks_of(a)
    arrivals = sent + drops
    return LinkFigures(
        sent_packets=sent,
        sent_bytes=sent_bytes,
        drops=drops,
        marks=ma - mb if ma is not None and mb is not None else None,
        loss=drops / arrivals if arrivals else 0.0,
        utilization=8 * sent_bytes / (rate_bps * secs),
        seconds=secs,
    )


def window_figures(
    records: list[dict[str, Any]], t0: float, t1: float, rate_bps: int, clock: str = "wall"
) -> LinkFigures | None:
    """The same figures from aqmstat records, over the measured window
    [T0, T1] of the records' CLOCK key: the first record at or after T0 and
    the last at or before T1. None when the records do not cover the
    window (within a tenth of it)."""
    inside = [r for r in records if t0 <= r[clock] <= t1]
    if len(inside) < 2 or (inside[-1][clock] - inside[0][clock]) < 0.9 * (t1 - t0):
        return None
    first, last = inside[0], inside[-1]
    return _figures(first, last, rate_bps, last[clock] - first[clock])


def link_figures(
    before: dict[str, Any], after: dict[str, Any], rate_bps: int, secs: float
) -> LinkFigures:
    """Differences of the qdisc's counters over the run: loss ratio =
    drops / (sent + drops), utilization = bits sent / (rate x seconds)."""
    return _figures(leaf(before["down"]), leaf(after["down"]), rate_bps, secs)


def _interval_rate(items: list[Any]) -> float | None:
    """Bit/s of iperf3 interval records (each with bytes and seconds)."""
    seconds = sum(float(x["seconds"]) for x in items)
    return 8 * sum(float(x["bytes"]) for x in items) / seconds if seconds > 0 else None


# where a whole iperf3 -J object begins (iperf_json)
_OBJECT_START = re.compile(r'\{\s*\n\t"start":')
# the stream count of a test, in an iperf3 -J file's start block
_NUM_STREAMS = re.compile(r'"num_streams":\s*(\d+)')


# the files of a run are read by several figures in turn (a run has at
# most a few tens of iperf3 files)
@functools.lru_cache(maxsize=64)
def iperf_json(text: str) -> dict[str, Any] | None:
    """The object of one iperf3 -J file, None when it holds none. Each
    text is parsed once: the object is shared, to be read, not changed.

    iperf 3.12, stopped by the run (SIGTERM, run.Bench.wait_all) while its
    end-of-test exchange is stuck, may leave a file that is not JSON: in
    repro-blue-fig13-paper (blue, 75%, seed 101, before 2026-11-29) a
    client's file held its output cut off in mid-write at 57 s, then the
    whole object written again from its start, its intervals to 96 s, its
    end and its errors ("unable to send control message: Broken pipe",
    then "interrupt - the client has terminated"), and no closing brace.
    In repro-queuelaw-mark-paper (mark probability 0.5, 99 flows, seed
    101) a stopped client's file began with iperf3's line "WARNING:  Size
    of data read does not correspond to offered length" before its object.
    Such files are read as iperf3's last whole object: the last that
    begins at a top-level "start", closed when its brace is missing.
    Duplicate keys keep their last value (the stop's error)."""
    starts = [m.start() for m in _OBJECT_START.finditer(text)]
    tails = [text] + ([text[starts[-1] :]] if starts and starts[-1] > 0 else [])
    for tail in tails:
        for t in (tail, tail.rstrip() + "\n}"):
            try:
                j = json.loads(t)
            except json.JSONDecodeError:
                continue
            return j if isinstance(j, dict) else None
    return None


def _iperf_object(text: str) -> dict[str, Any]:
    """iperf_json of TEXT, which must hold an object (ValueError)."""
    j = iperf_json(text)
    if j is None:
        raise ValueError("iperf3 output holds no JSON object")
    return j


def _iperf_flows(text: str, streams: int = 1) -> tuple[list[float | None], bool]:
    """The goodputs of one iperf3 -J file (iperf_goodputs) and whether it
    is of a flow that never connected; STREAMS, its process's -P where
    known, counts the flows of a file that cannot say."""
    if not text.strip():
        # killed before it wrote anything
        return [None] * streams, False
    j = iperf_json(text)
    if j is None:
        # no object to read: its streams' goodputs are unknown
        m = _NUM_STREAMS.search(text)
        return [None] * (int(m.group(1)) if m else streams), False
    start = j.get("start")
    connected = isinstance(start, dict) and bool(start.get("connected"))
    if start is not None and not connected:
        # never connected, whatever its end (stopped while it connected,
        # iperf3 3.12 writes one of zeros)
        return [0.0], True
    if isinstance(start, dict) and "timestamp" in start and "test_start" not in start:
        # its test never began: iperf3 begins it once every one of its -P
        # streams has connected, and this one was stopped while some had
        # not (repro-blue-fig13-paper, red, seed 101, before 2026-11-29:
        # 16 to 22 of 25, the SYNs of the others lost under the paper
        # hosts' 1-s minimum RTO). No stream got a byte.
        return [0.0] * max(streams, len(start["connected"])), True
    end = j.get("end") or {}
    if not isinstance(end, dict):
        raise ValueError("iperf3 output whose end is not a JSON object")
    ends = end.get("streams") or []
    s = end.get("sum_received") or end.get("sum")
    # a sum of no time: killed before the test began (no end result)
    ended = not (isinstance(s, dict) and s.get("seconds") == 0)
    if ended and len(ends) > 1:
        try:
            return [float(x["receiver"]["bits_per_second"]) for x in ends], False
        except (KeyError, TypeError) as e:
            raise ValueError(f"iperf3 streams without a receiver's result: {e}") from e
    if ended and s is not None:
        try:
            return [float(s["bits_per_second"])], False
        except (KeyError, TypeError) as e:
            raise ValueError(f"iperf3 sum without a rate: {e}") from e
    if start is None:
        return [0.0], True
    intervals = j.get("intervals") or []
    if not intervals:
        return [None], False
    try:
        n = len(intervals[0]["streams"])
        if n > 1:
            return [_interval_rate([iv["streams"][i] for iv in intervals]) for i in range(n)], False
        return [_interval_rate([iv["sum"] for iv in intervals])], False
    except (KeyError, IndexError, TypeError, ValueError) as e:
        raise ValueError(f"iperf3 intervals without bytes and seconds: {e}") from e


def iperf_goodputs(texts: list[str]) -> list[float | None]:
    """Goodput in bit/s of each iperf3 flow (-J output), at the receiver:
    a file of one stream is one flow (its sum, as always); a file of
    several (-P, the experiment's long_streams) one flow a stream.

    A flow still running when the run's processes were stopped (run.py:
    SIGTERM, then SIGKILL) may lack an end result:
    - an empty file (killed before it wrote anything): None, unknown
      (one a stream where run_goodputs knows its -P);
    - a flow that never connected (no "start", or start.connected empty:
      its connection or iperf3's control exchange never completed under
      the run's load): 0.0, one flow whatever its -P, as it got nothing;
    - connected, without an end: its rate over the intervals it wrote
      (the client's, which receives with -R: bytes over seconds), one
      a stream of several; None when it wrote none;
    - a file with no object to read (iperf_json): None, unknown, one a
      stream of the test's num_streams when its start block gives it.
    Any other output raises ValueError. The report reads the goodputs over
    the measured window instead (iperf_window_goodputs), these only where
    a file does not place its intervals in time."""
    return [rate for text in texts for rate in _iperf_flows(text)[0]]


# iperf3's error when the run stopped a flow (run.Bench.wait_all's SIGTERM
# to the client or to its server): its last interval ended then
STOPPED_ERRORS = ("the client has terminated", "the server has terminated")


def iperf_overran(texts: list[str]) -> int:
    """How many of the iperf3 files TEXTS are of flows the run stopped
    (STOPPED_ERRORS) once their test's time was up: their intervals reach
    start.test_start.duration (-t), and only the exchange that ends the
    test, whose control connection crosses the bottleneck, had not
    finished (its sender sends on until the stop). Their time, and the
    measured window in it, was whole. In BLUE's Figure 13 with the paper's
    hosts (RED, 100 flows, seed 101 at 20a724c) a client planned for 89 s
    wrote intervals to 143.5 s."""
    n = 0
    for text in texts:
        j = iperf_json(text) if text.strip() else None
        if j is None or not _stopped(j):
            continue
        test = (j.get("start") or {}).get("test_start")
        planned = test.get("duration") if isinstance(test, dict) else None
        ends = [
            float(st["end"])
            for iv in j.get("intervals") or []
            if isinstance(iv, dict)
            for st in iv.get("streams") or []
            if isinstance(st, dict) and isinstance(st.get("end"), int | float)
        ]
        n += isinstance(planned, int | float) and planned > 0 and max(ends, default=0.0) >= planned
    return n


def _stopped(j: dict[str, Any]) -> bool:
    """Whether iperf3's object J says the run stopped its flow."""
    error = j.get("error")
    return isinstance(error, str) and any(x in error for x in STOPPED_ERRORS)


def iperf_stopped(texts: list[str]) -> int:
    """How many of the iperf3 files TEXTS are of flows the run stopped
    (STOPPED_ERRORS: its SIGTERM at its end to the client or its server)."""
    n = 0
    for text in texts:
        j = iperf_json(text) if text.strip() else None
        n += j is not None and _stopped(j)
    return n


@dataclass(frozen=True)
class FlowGoodput:
    """The goodput of one long TCP flow (iperf_window_goodputs): bit/s,
    None when unknown; whole_test when it is iperf3's over the flow's
    whole test (iperf_goodputs), its file not placing its intervals in
    time."""

    bps: float | None
    whole_test: bool = False


def receiving(st: Any) -> bool:
    """Whether ST, a stream of an iperf3 interval, is the receiving side's:
    "sender" false (the client's, which receives with -R), or absent (the
    archive's compact form keeps no others)."""
    return isinstance(st, dict) and not st.get("sender")


def _received(iv: Any) -> list[dict[str, Any]]:
    """The receiving side's streams of an iperf3 interval (see receiving)."""
    streams = iv.get("streams") if isinstance(iv, dict) else None
    if not isinstance(streams, list):
        raise ValueError("iperf3 interval without streams")
    return [st for st in streams if receiving(st)]


def _window_flows(
    text: str,
    start_wall: float | None,
    t0: float,
    t1: float,
    end_wall: float | None,
    streams: int = 1,
) -> list[FlowGoodput]:
    """The goodputs of one iperf3 -J file over [T0, T1] seconds after
    START_WALL (iperf_window_goodputs)."""
    rates, never = _iperf_flows(text, streams)
    j = iperf_json(text)
    if never or j is None or all(r is None for r in rates):
        return [FlowGoodput(r) for r in rates]
    start = j.get("start") or {}
    stamp = start.get("timestamp") if isinstance(start, dict) else None
    secs = stamp.get("timesecs") if isinstance(stamp, dict) else None
    intervals = j.get("intervals") or []
    if start_wall is None or not isinstance(secs, int | float) or not intervals:
        return [FlowGoodput(r, whole_test=r is not None) for r in rates]
    try:
        spans = [
            [(float(st["start"]), float(st["end"]), float(st["bytes"])) for st in _received(iv)]
            for iv in intervals
        ]
    except (KeyError, TypeError, ValueError) as e:
        raise ValueError(f"iperf3 intervals without start, end and bytes: {e}") from e
    n = len(rates)
    if n > 1 and any(len(s) != n for s in spans):
        raise ValueError(f"iperf3 intervals whose receiving streams are not its {n} flows")
    offset = max(0.0, float(secs) - start_wall)
    test = start.get("test_start")
    planned = test.get("duration") if isinstance(test, dict) else None
    last = max((b for s in spans for _, b, _ in s), default=0.0)
    if end_wall is not None and _stopped(j) and isinstance(planned, int | float) and last < planned:
        # stopped by the run before its time was up: its last interval
        # ended then, just before end_wall, however late its data
        # connection was set up
        offset = max(offset, end_wall - start_wall - last)
    got = [0.0] * n
    for s in spans:
        for i, (a, b, nbytes) in enumerate(s):
            inside = min(offset + b, t1) - max(offset + a, t0)
            if b > a and inside > 0:
                got[0 if n == 1 else i] += nbytes * inside / (b - a)
    return [
        FlowGoodput(None if r is None else 8 * g / (t1 - t0))
        for r, g in zip(rates, got, strict=True)
    ]


def iperf_window_goodputs(
    texts: list[str],
    start_wall: float | None,
    t0: float,
    t1: float,
    end_wall: float | None = None,
    streams: list[int] | None = None,
) -> list[FlowGoodput]:
    """Goodput in bit/s of each long TCP flow (iperf3 -J output, one flow
    a file of one stream, one a stream of a file of several, as
    iperf_goodputs) over the measured window [T0, T1] seconds after
    START_WALL (run.json's start_wall, warmup_s and duration_s): the bytes
    the receiving side (the client, -R) counted in its one-second
    intervals, each interval's in proportion to its overlap with the
    window, over the window's length. A flow that connected after the
    window gets 0, one still running at its end only its bytes inside.

    The intervals' times are of the flow's own test; they are placed at
    max(0, start.timestamp.timesecs - START_WALL) seconds after the run's
    start (a flow that started with the run at 0). That timestamp is whole
    seconds (truncated), and iperf3 takes it when its control connection
    has exchanged the test's parameters, before it connects the data
    streams: a flow is placed up to a second early, and earlier still by
    the time its data connections took to set up (seconds of SYN retries
    under a flood). A flow the run stopped before its test's time was up
    (STOPPED_ERRORS, its intervals ending before start.test_start.duration)
    is placed by its end instead, when END_WALL (run.json's, taken when
    every process of the run had ended) is given: its last interval ended
    when it was stopped, a few seconds at most before END_WALL
    (run.Bench.wait_all's grace). In sfred-10mbit (droptail, seed 103) a
    flow stamped 5 s after the run's start wrote 35 s of intervals up to
    the stop at about 100 s: its data flowed only from about 65 s, once
    the UDP flood had ended.

    As iperf_goodputs: an empty file gives None (unknown), a flow that
    never connected 0.0. A file without intervals or a timestamp (archives
    of before they were kept), or a run without START_WALL, gives
    iperf_goodputs' figure over the flow's whole test, said by
    whole_test. STREAMS, when given, is each file's -P (process_streams):
    a file that cannot say how many streams it had (empty, not JSON, a
    test that never began) counts that many. Any other output raises
    ValueError."""
    if t1 <= t0:
        raise ValueError(f"a measured window of no time: [{t0}, {t1}]")
    per_file = streams if streams is not None and len(streams) == len(texts) else [1] * len(texts)
    return [
        f
        for text, n in zip(texts, per_file, strict=True)
        for f in _window_flows(text, start_wall, t0, t1, end_wall, n)
    ]


def last_connect_s(meta: dict[str, Any], texts: list[str]) -> float | None:
    """Seconds after the run's start (run.json's start_wall) by which every
    long TCP flow of the iperf3 files TEXTS that connected had: the latest
    start.timestamp.timesecs, plus one (it is truncated to the second, and
    taken once the control connection is up). None without start_wall or
    without a connected flow that has a timestamp (archives of before
    2026-11-26). The measured window opens at the warm-up's end: a flow
    connected after it was measured over part of the window only.

    Spawned one after the other, the 40 TCP flows of unresponsive-10mbit
    connected 15 to 80 s after the start (every run published before
    2026-11-29); released together at the start line (run.Bench.
    start_workload), 11 to 15 s after it on tuning seed 1: starting 40
    iperf3 processes at once takes that long in the VM beside 32 UDP
    floods."""
    start_wall = meta.get("start_wall")
    if start_wall is None:
        return None
    last: float | None = None
    for text in texts:
        j = iperf_json(text)
        start = j.get("start") if j is not None else None
        if not isinstance(start, dict) or not start.get("connected"):
            continue
        stamp = start.get("timestamp")
        secs = stamp.get("timesecs") if isinstance(stamp, dict) else None
        if isinstance(secs, int | float):
            at = float(secs) + 1 - start_wall
            last = at if last is None else max(last, at)
    return last


def run_times(meta: dict[str, Any]) -> tuple[float, float]:
    """The experiment's duration and warm-up (s) of the run of run.json
    META: its duration_s and warmup_s less the connect phase they hold
    (experiment long_connect, run.Bench.connect_first)."""
    phase = float(meta.get("connect_s", 0.0))
    return float(meta["duration_s"]) - phase, float(meta["warmup_s"]) - phase


def connect_words(metas: list[dict[str, Any]]) -> str:
    """What runs' connect phases were, for a heading ("" without any):
    at most long_connect_s, and the least and most connect_s."""
    took = [float(m["connect_s"]) for m in metas if "connect_s" in m]
    if not took:
        return ""
    most = max(float(m.get("long_connect_s", 0.0)) for m in metas)
    return (
        f"the long flows connected first (handshakes ahead of the data), at most {most:g} s "
        f"(they took {min(took):.1f}-{max(took):.1f} s)"
    )


def process_streams(meta: dict[str, Any], processes: int) -> list[int] | None:
    """The long TCP flows of each of the PROCESSES iperf3 processes of the
    run of run.json META, as experiment.long_processes spreads them (the
    first ones one more); None where unknown (no long_flows, or flows in
    steps). Which process has one more, the files' order does not say:
    a file that cannot say how many it had (_iperf_flows) may be
    counted one off."""
    flows = meta.get("long_flows")
    if not isinstance(flows, int) or flows < processes or processes <= 0:
        return None
    if meta.get("long_steps"):
        return None
    return [flows // processes + (i < flows % processes) for i in range(processes)]


def run_goodputs(meta: dict[str, Any], texts: list[str]) -> list[FlowGoodput]:
    """iperf_window_goodputs of the TCP iperf3 files TEXTS (all of the run)
    of the run of run.json META, over its measured window."""
    return iperf_window_goodputs(
        texts,
        meta.get("start_wall"),
        meta["warmup_s"],
        meta["duration_s"],
        meta.get("end_wall"),
        process_streams(meta, len(texts)),
    )


def iperf_unconnected(texts: list[str]) -> int:
    """How many of the iperf3 files are of flows that never connected
    (the 0.0 goodputs iperf_goodputs gives them)."""
    return sum(_iperf_flows(text)[1] for text in texts)


def udp_goodputs(texts: list[str], payload: int = 1400) -> list[float | None]:
    """Goodput in bit/s of each UDP iperf3 flow (-J output): the datagrams
    that arrived (sent less lost) of PAYLOAD bytes, over the test's time.
    None for a flow that never started: iperf3 3.12 sends its UDP handshake
    as one datagram each way and gives up when one is lost ("connected"
    empty, no intervals, and still exit status 0), which a run whose
    downstream drops hard at the start saw (sfred-10mbit, red, 2 of 3 seeds)."""
    rates: list[float | None] = []
    for text in texts:
        j = _iperf_object(text)
        s = j.get("end", {}).get("sum")
        if not s or not s.get("seconds"):
            if "start" in j and not j["start"].get("connected"):
                rates.append(None)
                continue
            raise ValueError(f"UDP iperf3 output without a result: {j.get('error', '?')}")
        rates.append((s["packets"] - s["lost_packets"]) * payload * 8 / s["seconds"])
    return rates


def udp_window_counts(texts: list[str], t0: float, t1: float) -> list[tuple[int, int, float]]:
    """(datagrams, lost, seconds) of each UDP iperf3 flow that started (-J
    output of its receiver), over its one-second intervals that lie within
    [T0, T1] seconds of its own start: the measured window as near as the
    flow's clock gives it (the flows start with the run, before the other
    traffic). A flow that never started (see udp_goodputs) is left out.

    The datagrams received are counted in the window; those sent, from
    the flow's rate over its whole test (its end: the highest sequence
    number over the test's seconds) times the window's seconds, and the
    lost are the difference. The receiver's own per-interval losses are
    not used: it learns of a gap only when the next datagram arrives, so
    a flow held to almost nothing (a penalty that passed no datagram for
    seconds) has a gap that began before the window counted inside it
    (measured: 66,722 datagrams "sent" in a 49-s window of a flow sending
    about 900 a second, Linux's sfb in repro-sfb-table3-100pct-linux, seed
    105). A flow without intervals (archived before they were kept: see
    udp_whole_test) counts its whole test, from its "end"."""
    out = []
    for text in texts:
        j = _iperf_object(text)
        if "start" in j and not j["start"].get("connected"):
            continue
        total = j.get("end", {}).get("sum", {})
        if "intervals" not in j:
            out.append(
                (
                    int(total.get("packets", 0)),
                    int(total.get("lost_packets", 0)),
                    float(total.get("seconds", 0.0)),
                )
            )
            continue
        received = 0
        seconds = 0.0
        for iv in j.get("intervals", []):
            for st in iv.get("streams", []):
                start, end = float(st.get("start", -1.0)), float(st.get("end", 0.0))
                if not receiving(st) or not t0 <= start < end <= t1:
                    continue
                received += int(st.get("packets", 0)) - int(st.get("lost_packets", 0))
                seconds += end - start
        whole = float(total.get("seconds", 0.0))
        rate = int(total.get("packets", 0)) / whole if whole > 0 else 0.0
        sent = max(round(rate * seconds), received)
        out.append((sent, sent - received, seconds))
    return out


def udp_whole_test(texts: list[str]) -> int:
    """How many of the started UDP flows of TEXTS have no intervals (an
    archive of before 2026-11-28 kept only their end): udp_window_counts
    counts them over their whole test, warm-up included."""
    n = 0
    for text in texts:
        j = _iperf_object(text)
        if "start" in j and not j["start"].get("connected"):
            continue
        n += "intervals" not in j
    return n


# Run.problems: the long TCP flows' goodputs over the measured window, in
# all, above this times what the bottleneck sent in it (headers included,
# so their payload cannot reach it). iperf_window_goodputs places a file's
# intervals by its start stamp, which iperf3 takes before it connects the
# data streams, and a process of several streams begins its test only once
# all have connected: one whose SYNs were lost for tens of seconds (sfb
# penalizing a misclassified flow) is placed that much too early, so that
# bytes it received after the window are counted in it, beside the other
# flows' own (measured: 12.6 Mbit/s of TCP goodput through 10.0, a file of
# 11 streams whose 97-s test ran until 136 s after the run's start; the
# sfb-fig19-increment-paper run of sfb-static-fast, seed 101). The 2%
# allows for the edges of the window, where intervals count in proportion.
GOODPUT_OVER_LINK = 1.02


@dataclass(frozen=True)
class Run:
    """Everything the report needs about one run."""

    meta: dict[str, Any]
    web: WebLog
    link: LinkFigures
    # goodput of the long TCP flows with a result over the measured window,
    # bit/s (0.0 of a flow that never connected; see tcp_whole_test)
    goodputs: list[float]
    flent: dict[str, str]
    # the measured exchanges of each client host (1-based, as web-cN.csv),
    # whose RTT is meta["client_rtts_ms"][N - 1]
    by_host: dict[int, WebLog]
    # aqmstat's records of the downstream bottleneck (empty without them)
    samples: list[dict[str, Any]]
    # goodput of the unresponsive UDP flows that started, bit/s
    udp: list[float]
    # UDP flows that never started (their handshake was lost)
    udp_missing: int = 0
    # (datagrams, lost, seconds) of each UDP flow that started, over the
    # measured window (udp_window_counts)
    udp_window: list[tuple[int, int, float]] = field(default_factory=list)
    # UDP flows counted in udp_window over their whole test (no intervals)
    udp_whole_test: int = 0
    # long TCP flows without a result (killed before they wrote one: their
    # goodput is unknown, and not in goodputs)
    tcp_missing: int = 0
    # long TCP flows that never connected (in goodputs, as 0.0)
    tcp_unconnected: int = 0
    # long TCP flows whose goodput is over their whole test, not the
    # measured window (their files do not place their intervals in time)
    tcp_whole_test: int = 0
    # seconds after the start by which the long TCP flows had connected
    # (last_connect_s; None when unknown)
    tcp_connected_s: float | None = None
    # processes still running at the run's end, which the run stopped
    # (run.Bench.wait_all): run.json's count, or the iperf3 files that
    # say so (iperf_stopped) where more (run.json has it since 2026-11-29)
    stopped: int = 0
    # of them, iperf3 flows stopped once their time was up (iperf_overran),
    # and iperf3 flows stopped before it (cut off)
    stopped_over: int = 0
    stopped_cut: int = 0

    @property
    def problems(self) -> list[str]:
        """Why the run is not the experiment it was meant to be (empty
        when it is): it stays in every table, and the tables say so."""
        out = []
        if not self.meta.get("valid", True):
            out.append("netem dropped")
        if self.udp_missing:
            out.append("UDP flow never started")
        if self.tcp_missing:
            out.append("TCP flow without a result")
        if self.tcp_unconnected:
            out.append("TCP flow never connected")
        if self.meta.get("start_ready", 0) < self.meta.get("start_held", 0):
            # run.Bench.start_workload: some processes were not at the
            # start line when it was released, and started late
            out.append("process missed the start")
        connected = self.meta.get("connect_streams")
        if isinstance(connected, int) and connected < self.meta.get("long_flows", 0):
            # experiment long_connect: the qdisc under test went on with
            # some flows still connecting (run.Bench.connect_first)
            out.append("long flows not connected before the load")
        took, limit = self.meta.get("connect_s"), self.meta.get("long_connect_s")
        if isinstance(took, int | float) and isinstance(limit, int | float) and took > limit:
            # the qdisc went on after the phase's time (a poll or tc slow
            # in the VM): the processes, given that time on top of the
            # run's, end before the measured window does
            out.append("connect phase past its time")
        if self.link.seconds > 0 and sum(self.goodputs) > GOODPUT_OVER_LINK * self.link.mbps * 1e6:
            out.append("TCP goodput above the link")
        if self.stopped_cut or self.stopped > 2 * self.stopped_over:
            # its flows were cut off (their goodputs are of the bytes they
            # had), or a process other than an iperf3 was. Not the flows
            # stopped once their time was up, their end-of-test exchange
            # late (it crosses the bottleneck; their time was whole), nor
            # their servers, still sending: up to two processes a flow
            # (run.json counts processes, the files only the clients)
            out.append("process stopped at the run's end")
        return out


@dataclass(frozen=True)
class Unresponsive:
    """The unresponsive UDP flows against the long TCP flows of one run.

    A flow's fair share is the downstream bottleneck's measured throughput
    (LinkFigures: the bytes its qdisc sent, headers included, over the
    measured window) over the TCP and the UDP flows. udp is the UDP
    flows' goodput in all over their fair shares (a flow that never
    started counts 0); tcp_lowest the goodput of the TCP flow that got
    least over its fair share; jain the index of the TCP flows' goodputs.
    tcp_flows counts the TCP flows without a result too (tcp_missing of
    them), which tcp_lowest and jain leave out: their goodput is unknown.
    """

    tcp_flows: int
    udp_flows: int
    udp_missing: int
    fair_bps: float
    udp: float
    tcp_lowest: float
    jain: float
    tcp_missing: int = 0


def unresponsive(r: Run) -> Unresponsive | None:
    """R's figures of unresponsive flows; None unless it had both UDP
    flows and long TCP flows (counted from their iperf3 files)."""
    udp_flows = len(r.udp) + r.udp_missing
    tcp_flows = len(r.goodputs) + r.tcp_missing
    if not udp_flows or not tcp_flows:
        return None
    link_bps = 8 * r.link.sent_bytes / r.link.seconds if r.link.seconds > 0 else 0.0
    fair = fair_share_bps(link_bps, tcp_flows, udp_flows)
    nan = float("nan")
    return Unresponsive(
        tcp_flows=tcp_flows,
        udp_flows=udp_flows,
        udp_missing=r.udp_missing,
        fair_bps=fair,
        udp=sum(r.udp) / (udp_flows * fair) if fair > 0 else nan,
        tcp_lowest=min(r.goodputs) / fair if fair > 0 and r.goodputs else nan,
        jain=jain(r.goodputs),
        tcp_missing=r.tcp_missing,
    )


def read_runs(folder: Path) -> list[Run]:
    """Every run of a results folder (a directory with a run.json each)."""
    return [read_run(p.parent) for p in sorted(folder.glob("*/run.json"))]


def read_run(rundir: Path) -> Run:
    meta = json.loads((rundir / "run.json").read_text())
    logs = {int(p.stem[len("web-c") :]): p.read_text() for p in rundir.glob("web-c*.csv")}
    web = read_web([logs[i] for i in sorted(logs)])
    by_host = {i: read_web([text]) for i, text in logs.items()}
    before = json.loads((rundir / "tc-before.json").read_text())
    after = json.loads((rundir / "tc-after.json").read_text())
    # over the measured window when aqmstat covered it: the snapshots
    # also hold the warm-up and the drain after the run
    path = rundir / "aqmstat-down.jsonl"
    text = path.read_text() if path.exists() else ""
    records = [json.loads(x) for x in text.splitlines() if x.strip()]
    t0 = meta.get("start_wall", 0.0)
    link = window_figures(records, t0 + meta["warmup_s"], t0 + meta["duration_s"], meta["rate_bps"])
    if link is None:
        link = link_figures(before, after, meta["rate_bps"], meta["duration_s"])
    tcp_texts = [p.read_text() for p in sorted(rundir.glob("iperf-tcp*.json"))]
    # over the measured window, as every other figure
    tcps = run_goodputs(meta, tcp_texts)
    goodputs = [g.bps for g in tcps if g.bps is not None]
    flent = {p.stem[len("flent-") :]: p.read_text() for p in sorted(rundir.glob("flent-*.txt"))}
    udp_texts = [p.read_text() for p in sorted(rundir.glob("iperf-udp*.json"))]
    udps = udp_goodputs(udp_texts)
    udp = [u for u in udps if u is not None]
    window = udp_window_counts(udp_texts, meta["warmup_s"], meta["duration_s"])
    stopped_files = iperf_stopped(tcp_texts + udp_texts)
    over = iperf_overran(tcp_texts + udp_texts)
    return Run(
        meta,
        web,
        link,
        goodputs,
        flent,
        by_host,
        records,
        udp,
        udp_missing=len(udps) - len(udp),
        udp_window=window,
        udp_whole_test=udp_whole_test(udp_texts),
        tcp_missing=len(tcps) - len(goodputs),
        tcp_unconnected=iperf_unconnected(tcp_texts),
        tcp_whole_test=sum(g.whole_test for g in tcps),
        tcp_connected_s=last_connect_s(meta, tcp_texts),
        stopped=max(int(meta.get("stopped", 0)), stopped_files),
        stopped_over=over,
        stopped_cut=stopped_files - over,
    )
