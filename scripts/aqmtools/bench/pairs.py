"""Every qdisc of a results folder paired by seed with any one of them.

A summary pairs each qdisc with its experiment's reference only (the
`reference` key: fq_codel, pie). A claim about two other qdiscs (our sfb
against Linux's, riops against dcn in the paper's mode) needs the same
tables against another reference; this prints them, for every (load,
ECN) cell of the folder, in the summary's form: the web figures
(report.paired_table, when the runs had web exchanges) and the figures
of unresponsive flows (report.paired_unresponsive_table, when they had
UDP and long TCP flows).

RESULTS is a results folder, or a published page's raw.tar.xz (its
per-seed archives beside it are read too).

Usage: python3 -m aqmtools.bench.pairs RESULTS REFERENCE
Exit status 0, 2 on a usage error, missing runs or an unknown reference.
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

from aqmtools.bench import archive
from aqmtools.bench.report import (
    Results,
    cell_title,
    paired_table,
    paired_unresponsive_table,
)
from aqmtools.bench.stats import read_runs


def tables(res: Results, reference: str) -> list[str]:
    """Both paired tables of every cell against REFERENCE."""
    if reference not in res.names:
        raise ValueError(f"no qdisc {reference!r} (there are: {', '.join(res.names)})")
    lines: list[str] = []
    for ld in res.loads:
        for ecn in res.ecns:
            cells = res.group(ld, ecn)
            if not cells:
                continue
            body = paired_table(cells, reference) + paired_unresponsive_table(cells, reference)
            body = body or ["(fewer than two common seeds)", ""]
            lines += [f"## {cell_title(ld, ecn)}", "", *body]
    return lines


def main(argv: list[str]) -> int:
    ap = argparse.ArgumentParser(prog="aqmtools.bench.pairs", description=__doc__.splitlines()[0])
    ap.add_argument("results", type=Path)
    ap.add_argument("reference")
    a = ap.parse_args(argv[1:])
    with archive.results_folder(a.results) as folder:
        runs = read_runs(folder)
    if not runs:
        print(f"no runs in {a.results}", file=sys.stderr)
        return 2
    runs.sort(key=lambda r: r.meta.get("order", 0))
    try:
        lines = tables(Results(runs), a.reference)
    except ValueError as e:
        print(f"{a.results}: {e}", file=sys.stderr)
        return 2
    print("\n".join(lines))
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
