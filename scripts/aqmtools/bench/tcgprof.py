"""The instruction profile of `make bench-pps --profile` (issue 34).

Under TCG perf's samples say nothing (every sample of the pktgen CPU fell
on one address), so bench-pps --profile runs QEMU with the tcgprof plugin
(scripts/bench/tcgprof/tcgprof.c): it counts the guest kernel's executed
instructions by address, from the end of each measurement's warm-up to the
end of its run. The guest leaves in OUT/prof/ one KEY.txt per measurement
("ADDR COUNT" lines), the modules' symbols of that moment in KEY.modsyms
(a module swapped between measurements moves), and the kernel's own in
kallsyms; raw.jsonl's record names KEY in "profile" and holds pktgen's
result, whose packets offered divide the counts.

The report: per cell (queue state, flows), the kernel's instructions per
packet offered by function, for every qdisc of the run side by side (the
median over its rounds), the functions that make up at least --min of a
qdisc's total or are among its --top; then the totals by module. Counts
are exact for what ran, but not a time: a division, a cache miss or a
lock's wait count as one instruction, or as those of the loop that spins.

With --lines QDISC=KO, also by source line for one qdisc's module: KO is
that module built with debug information from the same tree (make -C KDIR
M=TREE KCFLAGS=-g modules: -g leaves the code as it is), and addr2line
names each address's line, the innermost of its inlined calls.

Usage: python3 -m aqmtools.bench.tcgprof OUT [-o FILE] [--top N] [--min SHARE]
                                             [--lines QDISC=KO]...
"""

from __future__ import annotations

import argparse
import bisect
import json
import statistics
import subprocess
import sys
from collections import Counter, defaultdict
from collections.abc import Iterable, Iterator, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from aqmtools.bench.pps import fmt_flows, parse_result, table

UNKNOWN = "(no symbol)"


@dataclass(frozen=True)
class Symbols:
    """Text symbols sorted by address: ADDRS[i] starts NAMES[i]."""

    addrs: list[int]
    names: list[str]

    def name_of(self, addr: int) -> str:
        i = bisect.bisect_right(self.addrs, addr) - 1
        return self.names[i] if i >= 0 else UNKNOWN


def read_symbols(lines: Iterable[str]) -> list[tuple[int, str]]:
    """(address, name) of the text symbols in /proc/kallsyms lines; a
    module's symbol is named "name [module]"."""
    out = []
    for line in lines:
        parts = line.split()
        if len(parts) < 3 or parts[1] not in ("t", "T", "w", "W"):
            continue
        name = parts[2] if len(parts) == 3 else f"{parts[2]} {parts[3]}"
        out.append((int(parts[0], 16), name))
    return out


def symbols(*tables: Sequence[tuple[int, str]]) -> Symbols:
    rows = sorted(r for t in tables for r in t)
    return Symbols([a for a, _ in rows], [n for _, n in rows])


def read_counts(lines: Iterable[str]) -> list[tuple[int, int]]:
    """The plugin's dump: (address, instructions executed)."""
    out = []
    for line in lines:
        parts = line.split()
        if len(parts) == 2:
            out.append((int(parts[0], 16), int(parts[1])))
    return out


def by_function(counts: Iterable[tuple[int, int]], syms: Symbols) -> Counter[str]:
    out: Counter[str] = Counter()
    for addr, n in counts:
        out[syms.name_of(addr)] += n
    return out


def module_of(name: str) -> str:
    """The module of a "name [module]" symbol, "kernel" otherwise."""
    if name.endswith("]") and " [" in name:
        return name[name.rindex(" [") + 2 : -1]
    return "kernel" if name != UNKNOWN else UNKNOWN


@dataclass(frozen=True)
class Profile:
    round: int
    state: str
    flows: int
    qdisc: str
    packets: int
    per_function: Counter[str]

    def per_packet(self, fn: str) -> float:
        return self.per_function[fn] / self.packets


def profiled(out: Path) -> Iterator[tuple[dict[str, Any], int, list[tuple[int, str]], Path]]:
    """Every profiled measurement of OUT's raw.jsonl (not mq): its record,
    the packets pktgen offered, the modules' symbols and its dump's path."""
    prof = out / "prof"
    for line in (out / "raw.jsonl").read_text(encoding="utf-8").splitlines():
        rec = json.loads(line) if line.strip() else {}
        key = rec.get("profile")
        if rec.get("type") != "measure" or not key or rec.get("state") == "mq":
            continue
        offered = parse_result(rec["pktgen"]).offered
        if not offered:
            continue
        mods = read_symbols((prof / f"{key}.modsyms").read_text(encoding="utf-8").splitlines())
        yield rec, offered, mods, prof / f"{key}.txt"


def load(out: Path) -> list[Profile]:
    """Every profiled measurement of the results folder OUT."""
    kernel = read_symbols((out / "prof" / "kallsyms").read_text(encoding="utf-8").splitlines())
    profiles = []
    for rec, offered, mods, dump in profiled(out):
        counts = read_counts(dump.read_text(encoding="utf-8").splitlines())
        profiles.append(
            Profile(
                int(rec["round"]),
                rec["state"],
                int(rec["flows"]),
                rec["qdisc"],
                offered,
                by_function(counts, symbols(kernel, mods)),
            )
        )
    return profiles


def fmt(x: float) -> str:
    return f"{x:,.0f}" if x >= 10 else f"{x:.1f}"


def cell_section(ps: Sequence[Profile], top: int, share: float) -> list[str]:
    """One cell's table: functions x qdiscs, instructions per packet."""
    runs: dict[str, list[Profile]] = defaultdict(list)
    for p in ps:
        runs[p.qdisc].append(p)
    qdiscs = sorted(runs)

    def med(q: str, fn: str) -> float:
        return statistics.median(p.per_packet(fn) for p in runs[q])

    def total(q: str) -> float:
        return statistics.median(sum(p.per_function.values()) / p.packets for p in runs[q])

    chosen: dict[str, None] = {}
    for q in qdiscs:
        summed: dict[str, float] = defaultdict(float)
        for p in runs[q]:
            for fn, n in p.per_function.items():
                summed[fn] += n / p.packets / len(runs[q])
        tot = sum(summed.values())
        for i, (fn, v) in enumerate(sorted(summed.items(), key=lambda kv: -kv[1])):
            if i < top or (tot and v / tot >= share):
                chosen[fn] = None
    fns = sorted(chosen, key=lambda f: -max(med(q, f) for q in qdiscs))
    rows = [[f"`{fn}`"] + [fmt(med(q, fn)) for q in qdiscs] for fn in fns]
    rows.append(["**all of the kernel**"] + [f"**{fmt(total(q))}**" for q in qdiscs])
    out = table(["function \\ qdisc", *qdiscs], rows)
    mods: dict[str, dict[str, float]] = defaultdict(dict)
    for q in qdiscs:
        per_mod: dict[str, float] = defaultdict(float)
        for p in runs[q]:
            for fn, n in p.per_function.items():
                per_mod[module_of(fn)] += n / p.packets / len(runs[q])
        for m, v in per_mod.items():
            mods[m][q] = v
    out += ["", "By module:", ""]
    out += table(
        ["module \\ qdisc", *qdiscs],
        [[m] + [fmt(mods[m].get(q, 0.0)) for q in qdiscs] for m in sorted(mods)],
    )
    rounds = {q: len(runs[q]) for q in qdiscs}
    out += ["", "Rounds: " + ", ".join(f"{q} {n}" for q, n in rounds.items()) + "."]
    return out


def ko_symbols(ko: Path) -> dict[str, tuple[str, int, int]]:
    """The functions of a module file: name -> (section, offset in it, size)."""
    text = subprocess.run(
        ["nm", "--defined-only", "-f", "sysv", str(ko)], check=True, capture_output=True, text=True
    ).stdout
    out = {}
    for line in text.splitlines():
        cols = [c.strip() for c in line.split("|")]
        if len(cols) == 7 and cols[3] == "FUNC":
            out[cols[0]] = (cols[6], int(cols[1], 16), int(cols[4] or "0", 16))
    return out


def addr2line(ko: Path, section: str, offsets: Sequence[int]) -> dict[int, str]:
    """offset -> "file:line (function)" of the innermost inlined call."""
    if not offsets:
        return {}
    text = subprocess.run(
        ["addr2line", "-e", str(ko), "-j", section, "-i", "-f", "-a"],
        input="".join(f"{o:#x}\n" for o in offsets),
        check=True,
        capture_output=True,
        text=True,
    ).stdout
    out: dict[int, str] = {}
    cur = -1
    lines = text.splitlines()
    i = 0
    while i < len(lines):
        if lines[i].startswith("0x"):
            cur = int(lines[i], 16)
            i += 1
            continue
        if cur not in out and i + 1 < len(lines):
            where = lines[i + 1].split(" ")[0]
            where = where.split("/")[-2] + "/" + where.split("/")[-1] if "/" in where else where
            out[cur] = f"{where} ({lines[i]})"
        i += 2
    return out


def line_profile(out: Path, qdisc: str, ko: Path, top: int) -> list[str]:
    """Instructions per packet by source line of QDISC's module, per cell
    (median over rounds), from the module file KO built with -g."""
    module = f"[{ko.stem}]"
    funcs = ko_symbols(ko)
    per_cell: dict[tuple[str, int], list[dict[str, float]]] = defaultdict(list)
    for rec, offered, mods, dump in profiled(out):
        if rec.get("qdisc") != qdisc:
            continue
        mine = symbols([(a, n) for a, n in mods if n.endswith(module)])
        by_section: dict[str, dict[int, int]] = defaultdict(dict)
        for addr, n in read_counts(dump.read_text(encoding="utf-8").splitlines()):
            name = mine.name_of(addr)
            if name == UNKNOWN:
                continue
            i = bisect.bisect_right(mine.addrs, addr) - 1
            fn = name.split(" ")[0]
            if fn not in funcs:
                continue
            section, base, size = funcs[fn]
            if addr - mine.addrs[i] >= size:
                # past the module's last function: another module's code
                continue
            off = base + addr - mine.addrs[i]
            by_section[section][off] = by_section[section].get(off, 0) + n
        lines: dict[str, float] = defaultdict(float)
        for section, counts in by_section.items():
            where = addr2line(ko, section, sorted(counts))
            for off, n in counts.items():
                lines[where.get(off, f"{section}+{off:#x}")] += n / offered
        per_cell[(rec["state"], int(rec["flows"]))].append(lines)
    text: list[str] = []
    for (state, flows), runs in sorted(per_cell.items()):
        keys = {k for r in runs for k in r}
        med = {k: statistics.median(r.get(k, 0.0) for r in runs) for k in keys}
        best = sorted(med.items(), key=lambda kv: -kv[1])[:top]
        text += ["", f"### {qdisc} by source line: queue {state}, {fmt_flows(flows)} flows", ""]
        text += table(
            ["line (innermost function)", "instructions / packet"],
            [[f"`{k}`", fmt(v)] for k, v in best],
        )
        text += ["", f"All of {module}: {fmt(sum(med.values()))} a packet; {len(runs)} rounds."]
    return text


def report(profiles: Sequence[Profile], top: int = 12, share: float = 0.02) -> str:
    if not profiles:
        raise ValueError("no profiled measurement (was bench-pps run with --profile?)")
    lines = [
        "# Instructions per packet by function (`make bench-pps --profile`)",
        "",
        "The guest kernel's instructions executed from the end of each "
        "measurement's warm-up to the end of its run, counted by QEMU's tcgprof "
        "plugin, over the packets pktgen offered; the median over the rounds. "
        "Exact counts of what ran, not times: a division or a cache miss is one "
        "instruction. The functions shown make up at least "
        f"{share:.0%} of a qdisc's total or are among its {top} largest.",
    ]
    cells: dict[tuple[str, int], list[Profile]] = defaultdict(list)
    for p in profiles:
        cells[(p.state, p.flows)].append(p)
    for (state, flows), ps in sorted(cells.items()):
        lines += ["", f"## Queue {state}, {fmt_flows(flows)} flows", ""]
        lines += cell_section(ps, top, share)
    return "\n".join(lines) + "\n"


def main(argv: Sequence[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("out", type=Path, help="bench-pps results folder run with --profile")
    ap.add_argument("-o", "--output", type=Path, help="write here instead of stdout")
    ap.add_argument("--top", type=int, default=12, help="functions per qdisc at least")
    ap.add_argument("--min", type=float, default=0.02, help="share of a qdisc's total")
    ap.add_argument(
        "--lines",
        action="append",
        default=[],
        metavar="QDISC=KO",
        help="also by source line of QDISC's module, KO built with -g",
    )
    a = ap.parse_args(argv)
    try:
        text = report(load(a.out), a.top, a.min)
        for spec in a.lines:
            qdisc, sep, ko = spec.partition("=")
            if not sep:
                raise ValueError(f"--lines {spec}: QDISC=KO expected")
            text += "\n".join(line_profile(a.out, qdisc, Path(ko), 3 * a.top)) + "\n"
    except (OSError, ValueError, subprocess.CalledProcessError) as e:
        print(f"tcgprof: {e}", file=sys.stderr)
        return 1
    if a.output:
        a.output.write_text(text, encoding="utf-8")
    else:
        sys.stdout.write(text)
    return 0


if __name__ == "__main__":
    sys.exit(main())
