"""The raw data of a published experiment, small enough for the repository.

`pack OUT DEST` writes the raw data of a results folder into DEST: the
experiment file, the commits measured and the calibration in
DEST/raw.tar.xz, and each seed's runs in DEST/raw-sSEED.tar.xz (one
archive a seed, built the same way every time, so that an experiment
published part by part commits each seed's data once: a later part leaves
the earlier seeds' archives byte for byte as they were). For every run
its run.json, the tc statistics before and after, the webgen logs
(every exchange, with the columns the report reads), the iperf3 results
(their "end" sections, and of a TCP flow what its goodput over the
measured window is computed from, see tcp_slim, and of a UDP
flow its intervals' datagrams and losses, see udp_slim; a TCP flow
stopped without an end keeps its whole output, an empty one stays empty;
archives of before the intervals were kept give the TCP flows' goodputs
over their whole tests, and the report says so), flent's summaries and
the downstream aqmstat trace thinned to one record per 100 ms for the
runs of the first seed (the report plots their queues over time) and one
per second for the others, keeping the records that bound the measured
window, so that the report computed from the archive is the report of the
full data; the upstream trace (requests and ACKs) is left out. Archives
of before the per-seed split hold everything in raw.tar.xz; they still
read. A run unpacked from an archive carries a file ARCHIVED and is
packed again as it is (its trace not thinned twice, its iperf3 results
not slimmed again): a folder unpacked from a published experiment,
with runs added or some measured again, packs to the same archives for
the seeds it did not touch, byte for byte.

Format 2 (a file "format" in the archive) stores the webgen logs without
what the report does not read or can restore: a warm-up exchange keeps
only its status (the report counts them), and a request size equal to
the response's is left empty; `report` restores both before reading.
Archives without the file (format 1) hold the logs as they were.

`report ARCHIVE DIR` unpacks ARCHIVE (raw.tar.xz: with the raw-s*.tar.xz
beside it) into DIR and writes the summary and the plots there (python3 -m
aqmtools.bench.report DIR). `unpack ARCHIVE DIR` only unpacks: a results
folder that `scripts/bench.sh ... --keep` adds seeds to (reproduce.sh
--from-published).

Usage: python3 -m aqmtools.bench.archive pack OUT DEST
       python3 -m aqmtools.bench.archive report ARCHIVE DIR
       python3 -m aqmtools.bench.archive unpack ARCHIVE DIR
"""

from __future__ import annotations

import csv
import io
import json
import sys
import tarfile
import tempfile
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

from aqmtools.bench import report
from aqmtools.bench.stats import (
    FlowGoodput,
    iperf_goodputs,
    iperf_json,
    iperf_unconnected,
    receiving,
    run_goodputs,
)

# aqmstat samples every 10 ms; the archive keeps one record in THIN of
# the first seed's runs, one in THIN_LATER of the others'
THIN = 10
THIN_LATER = 100
FORMAT = "2"
# marks a run unpacked from an archive: its trace is thinned already
ARCHIVED = "ARCHIVED"
TOP_FILES = ("experiment.toml", "commit", "calibration/calibration.json")
# what aqmtools.bench.stats.read_web reads of a webgen log
WEB_COLUMNS = ("start_us", "end_us", "resp_bytes", "status", "req_size")


def thin_trace(
    records: list[dict[str, Any]], t0: float, t1: float, every: int = THIN
) -> list[dict[str, Any]]:
    """Every EVERY-th record, the last one, and the first at or after T0
    and the last at or before T1 on the wall clock (the measured window's
    bounds, which the report's link figures are computed from)."""
    keep = {0, len(records) - 1} if records else set()
    keep |= set(range(0, len(records), every))
    inside = [i for i, r in enumerate(records) if t0 <= r.get("wall", -1.0) <= t1]
    if inside:
        keep |= {inside[0], inside[-1]}
    return [records[i] for i in sorted(keep)]


def web_columns(text: str) -> str:
    """A webgen log with the columns the report reads (WEB_COLUMNS), every
    row kept: the exchanges' times, sizes and outcomes; not the user, the
    connection, the server, the request's size or the first byte. A
    warm-up row keeps only its status, and req_size is left empty where
    it equals resp_bytes (format 2; web_restore undoes it)."""
    rows = list(csv.DictReader(io.StringIO(text)))
    out = io.StringIO()
    w = csv.writer(out, lineterminator="\n")
    w.writerow(WEB_COLUMNS)
    for r in rows:
        vals = {c: r.get(c, "") for c in WEB_COLUMNS}
        if vals["status"] == "warmup":
            vals = {c: "" for c in WEB_COLUMNS} | {"status": "warmup"}
        elif vals["req_size"] == vals["resp_bytes"]:
            vals["req_size"] = ""
        w.writerow([vals[c] for c in WEB_COLUMNS])
    return out.getvalue()


def web_restore(text: str) -> str:
    """A format-2 webgen log as the report reads it: the request sizes
    left out restored from the response's"""
    rows = list(csv.DictReader(io.StringIO(text)))
    out = io.StringIO()
    w = csv.writer(out, lineterminator="\n")
    w.writerow(WEB_COLUMNS)
    for r in rows:
        if r["status"] != "warmup" and not r["req_size"]:
            r["req_size"] = r["resp_bytes"]
        w.writerow([r[c] for c in WEB_COLUMNS])
    return out.getvalue()


# what tcp_slim keeps of an interval's receiving stream
INTERVAL_KEYS = ("start", "end", "bytes")


def interval_streams(j: dict[str, Any], keys: tuple[str, ...]) -> list[dict[str, Any]]:
    """The intervals of iperf3 output J, each with only its receiving
    streams and of those only KEYS."""
    return [
        {
            "streams": [
                {k: st[k] for k in keys if k in st}
                for st in (iv.get("streams") or [] if isinstance(iv, dict) else [])
                if receiving(st)
            ]
        }
        for iv in j.get("intervals") or []
    ]


def tcp_slim(j: dict[str, Any]) -> dict[str, Any]:
    """What the report reads of a TCP flow's iperf3 output J: its "end";
    of a flow that never connected, that it did not; of one that connected
    and has a timestamp, what places its goodput in the measured window
    (stats.iperf_window_goodputs): the second it connected
    (start.timestamp.timesecs), a socket for each stream connected, the
    test's planned duration (start.test_start.duration), the start, end
    and bytes of each interval's receiving streams, and its error (which,
    with the duration, says whether the run stopped it). Without a
    timestamp only the end, as archives of before the intervals were
    kept: stats reads such a flow over its whole test either way."""
    out: dict[str, Any] = {"end": j.get("end", {})}
    start = j.get("start")
    if not isinstance(start, dict):
        return out
    connected = start.get("connected")
    if not connected:
        out["start"] = {"connected": []}
        return out
    stamp = start.get("timestamp")
    if not isinstance(stamp, dict) or "timesecs" not in stamp:
        return out
    sockets = [{"socket": c.get("socket")} if isinstance(c, dict) else {} for c in connected]
    out["start"] = {"connected": sockets, "timestamp": {"timesecs": stamp["timesecs"]}}
    test = start.get("test_start")
    if isinstance(test, dict) and "duration" in test:
        out["start"]["test_start"] = {"duration": test["duration"]}
    out["intervals"] = interval_streams(j, INTERVAL_KEYS)
    if "error" in j:
        out["error"] = j["error"]
    return out


# what udp_slim keeps of an interval's receiving stream
UDP_INTERVAL_KEYS = ("start", "end", "packets", "lost_packets")


def udp_slim(j: dict[str, Any]) -> dict[str, Any]:
    """What the report and the reproduction pages read of a UDP flow's
    iperf3 output J (its receiver's): its "end"; of a flow whose handshake
    was lost, that nothing connected (stats.udp_goodputs knows it by that);
    of one that started, the start, end, datagrams and losses of each
    interval's receiving streams, from which stats.udp_window_counts counts
    the measured window (archives of before 2026-11-28 kept only the end:
    their losses read over the whole test, see stats.udp_whole_test), and,
    as tcp_slim, its error and the test's planned duration, from which
    stats.iperf_stopped and stats.iperf_overran tell a flow the run stopped
    once its time was up (archives of before 2026-11-29 lost them: such a
    flow reads as stopped by the run's "stopped" count alone, and its run
    as one with a process stopped at the run's end)."""
    out: dict[str, Any] = {"end": j.get("end", {})}
    start = j.get("start")
    if isinstance(start, dict) and not start.get("connected"):
        out["start"] = {"connected": []}
        return out
    test = start.get("test_start") if isinstance(start, dict) else None
    if isinstance(start, dict) and isinstance(test, dict) and "duration" in test:
        sockets = [
            {"socket": c.get("socket")} if isinstance(c, dict) else {} for c in start["connected"]
        ]
        out["start"] = {"connected": sockets, "test_start": {"duration": test["duration"]}}
    out["intervals"] = interval_streams(j, UDP_INTERVAL_KEYS)
    if "error" in j:
        out["error"] = j["error"]
    return out


def _tcp_read(text: str, meta: dict[str, Any]) -> tuple[list[float | None], int, list[FlowGoodput]]:
    """What stats reads of a TCP flow's iperf3 output, of the run of
    run.json META: its goodputs over the whole test and over the run's
    measured window, and whether it never connected."""
    return iperf_goodputs([text]), iperf_unconnected([text]), run_goodputs(meta, [text])


def _reads_the_same(slim: str, text: str, meta: dict[str, Any]) -> bool:
    """Whether stats reads the slim form SLIM of a TCP flow's iperf3
    output as it reads the whole output TEXT (a slim form it cannot read
    does not)."""
    try:
        return _tcp_read(slim, meta) == _tcp_read(text, meta)
    except ValueError:
        return False


def _run_files(rundir: Path, every: int = THIN) -> dict[str, bytes]:
    """The archived files of one run, by name; its aqmstat trace keeps one
    record in EVERY."""
    files: dict[str, bytes] = {}
    meta = json.loads((rundir / "run.json").read_text())
    for name in ("run.json", "tc-before.json", "tc-after.json"):
        files[name] = (rundir / name).read_bytes()
    for p in sorted(rundir.glob("web-c*.csv")):
        files[p.name] = web_columns(p.read_text()).encode()
    for p in sorted(rundir.glob("flent-*.txt")):
        files[p.name] = p.read_bytes()
    for p in sorted(rundir.glob("iperf-*.json")):
        if (rundir / ARCHIVED).exists():
            # slimmed when first packed, by the rules of then, which read
            # as the whole output did: kept as they are
            files[p.name] = p.read_bytes()
            continue
        text = p.read_text()
        if not text.strip():
            # killed before it wrote anything: stats knows it by that
            files[p.name] = b""
            continue
        j = iperf_json(text)
        if j is None:
            # no object to read (stats.iperf_json): kept whole, as stats
            # reads it
            files[p.name] = text.encode()
            continue
        if p.name.startswith("iperf-tcp"):
            slim = json.dumps(tcp_slim(j)) + "\n"
            # a TCP flow stopped without an end result is read from its
            # intervals' seconds and its "start": kept whole
            if not _reads_the_same(slim, text, meta):
                slim = text
            files[p.name] = slim.encode()
            continue
        files[p.name] = (json.dumps(udp_slim(j)) + "\n").encode()
    trace = rundir / "aqmstat-down.jsonl"
    if trace.exists():
        recs = [json.loads(x) for x in trace.read_text().splitlines() if x.strip()]
        t0 = meta.get("start_wall", 0.0)
        kept = thin_trace(recs, t0 + meta["warmup_s"], t0 + meta["duration_s"], every)
        files[trace.name] = "".join(json.dumps(r) + "\n" for r in kept).encode()
    return files


def _write_tar(path: Path, files: list[tuple[str, bytes]]) -> None:
    """PATH, an xz tar of FILES, the same bytes for the same files (no
    times, owners or modes of this machine)."""
    with tarfile.open(path, "w:xz", preset=9) as tar:
        for name, data in files:
            info = tarfile.TarInfo(name)
            info.size = len(data)
            info.mtime = 0
            tar.addfile(info, io.BytesIO(data))


def pack(out: Path, dest: Path) -> Path:
    """DEST/raw.tar.xz and DEST/raw-sSEED.tar.xz from the results folder
    OUT (archives of seeds no longer in OUT are removed). Returns the
    first."""
    dest.mkdir(parents=True, exist_ok=True)
    top = [("format", (FORMAT + "\n").encode())]
    top += [(name, (out / name).read_bytes()) for name in TOP_FILES if (out / name).exists()]
    path = dest / "raw.tar.xz"
    _write_tar(path, top)
    rundirs = sorted(p.parent for p in out.glob("*/run.json"))
    seeds = {d: int(json.loads((d / "run.json").read_text()).get("seed", 0)) for d in rundirs}
    first = min(seeds.values(), default=0)
    for old in dest.glob("raw-s*.tar.xz"):
        old.unlink()
    for seed in sorted(set(seeds.values())):
        every = THIN if seed == first else THIN_LATER
        files = [
            (f"{d.name}/{name}", data)
            for d in rundirs
            if seeds[d] == seed
            for name, data in _run_files(d, 1 if (d / ARCHIVED).exists() else every).items()
        ]
        _write_tar(dest / f"raw-s{seed}.tar.xz", files)
    return path


@contextmanager
def results_folder(path: Path) -> Iterator[Path]:
    """PATH as a results folder: itself, or a published page's raw.tar.xz
    (and its per-seed archives) unpacked into a temporary one, removed
    on leaving."""
    if not path.is_file():
        yield path
        return
    with tempfile.TemporaryDirectory() as tmp:
        unpack(path, Path(tmp))
        yield Path(tmp)


def unpack(archive: Path, dest: Path) -> None:
    """ARCHIVE's files into DEST (plain files under DEST only), and those
    of the per-seed archives beside a raw.tar.xz."""
    dest.mkdir(parents=True, exist_ok=True)
    parts = [archive]
    if archive.name == "raw.tar.xz":
        parts += sorted(archive.parent.glob("raw-s*.tar.xz"))
    for part in parts:
        for run in _extract(part, dest):
            (dest / run / ARCHIVED).touch()
    fmt = dest / "format"
    if fmt.exists() and fmt.read_text().strip() == "2":
        for p in dest.glob("*/web-c*.csv"):
            p.write_text(web_restore(p.read_text()))


def _extract(archive: Path, dest: Path) -> set[str]:
    """ARCHIVE's plain files into DEST; anything else is refused. Returns
    the runs it held (the folders of a run.json)."""
    runs = set()
    with tarfile.open(archive, "r:xz") as tar:
        for m in tar.getmembers():
            parts = Path(m.name).parts
            if not m.isfile() or Path(m.name).is_absolute() or ".." in parts:
                raise ValueError(f"{archive}: {m.name!r} is not a plain file of the archive")
            src = tar.extractfile(m)
            assert src is not None
            target = dest.joinpath(*parts)
            target.parent.mkdir(parents=True, exist_ok=True)
            target.write_bytes(src.read())
            if len(parts) == 2 and parts[1] == "run.json":
                runs.add(parts[0])
    return runs


def main(argv: list[str]) -> int:
    if len(argv) != 4 or argv[1] not in ("pack", "report", "unpack"):
        print(__doc__, file=sys.stderr)
        return 1
    if argv[1] == "pack":
        path = pack(Path(argv[2]), Path(argv[3]))
        print(f"{path}: {path.stat().st_size} bytes")
        return 0
    unpack(Path(argv[2]), Path(argv[3]))
    if argv[1] == "unpack":
        return 0
    return report.main(["report", argv[3]])


if __name__ == "__main__":
    sys.exit(main(sys.argv))
