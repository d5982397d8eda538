"""The DCN paper's Figures 5-18 beside the plots of the reproduction: the
section of docs/reproduction/dcn.md that links, for each figure, the plots
publish.sh drew from the same runs (docs/results/NAME/*.png,
aqmtools.bench.report).

The paper's figures are curves of which its text keeps no point; the
claims made of them are tested in numbers on the page (claims (c)-(k)).
The plots show the curves of the pooled runs of every reporting seed:
Figures 5-8 one plot a configuration and ECN setting, every load on it
beside the uncongested link (report.plot_by_load); Figures 9-14 one plot
a load and ECN setting, every configuration on it (report.plot_group);
Figures 15-18 the responses up to and over 100,000 bytes
(report.plot_classes).
"""

from __future__ import annotations

from collections.abc import Callable

from aqmtools.repro import dcn, plan
from aqmtools.repro.page import Folder

LOADS = (90, 98, 105)


def _link(name: str, f: str, text: str) -> list[str]:
    """A link to plot F of the published folder NAME, if published."""
    if (plan.TOP / "docs" / "results" / name / f).is_file():
        return [f"[{text}](../results/{name}/{f})"]
    return []


def by_cell(stem: str, loads: tuple[int, ...] = LOADS) -> Callable[[str], list[str]]:
    """The plots STEM-loadL-ecnE.png of a folder, by load and ECN."""

    def links(name: str) -> list[str]:
        out = []
        for ld in loads:
            for ecn in (0, 1):
                f = f"{stem}-load{ld}-ecn{ecn}.png"
                out += _link(name, f, f"{ld}%{', ECN' if ecn else ''}")
        return out

    return links


def by_load(scheme: str) -> Callable[[str], list[str]]:
    """The plots of SCHEME's configurations across the loads, by ECN."""

    def links(name: str) -> list[str]:
        out = []
        for q in dcn.OURS[scheme]:
            for ecn in (0, 1):
                f = f"rt-cdf-by-load-{q}-ecn{ecn}.png"
                out += _link(name, f, f"{q}{', ECN' if ecn else ''}")
        return out

    return links


# the paper's figures: (numbers, what they show, the links to our plots of
# them in a published folder)
FIGURES: tuple[tuple[str, str, Callable[[str], list[str]]], ...] = (
    ("5", "DCN's response-time CDF at each load, beside the uncongested link", by_load(dcn.DCN)),
    ("6", "PI's, with and without ECN", by_load(dcn.PI)),
    ("7", "AFD's", by_load(dcn.AFD)),
    ("8", "RIO-PS's", by_load(dcn.RIOPS)),
    ("9, 11, 13", "every scheme's response-time CDF at 90%, 98% and 105%", by_cell("rt-cdf")),
    ("9, 11, 13 (tail)", "the same as complementary CDFs", by_cell("rt-ccdf")),
    ("10, 12, 14", "the fraction of all bytes by response size at each load", by_cell("bytes")),
    (
        "15, 17",
        "response-time CDFs of the responses up to 100,000 bytes at 90% and 98% (ours: every load)",
        by_cell("rt-cdf-small"),
    ),
    (
        "16, 18",
        "the same of the responses over 100,000 bytes (ours on a log time axis)",
        by_cell("rt-cdf-large"),
    ),
)


def section(folders: list[Folder]) -> list[str]:
    """The page's section: one row a figure, one column a folder with runs."""
    blocks = [f for f in folders if f.runs]
    lines = [
        "## Figures 5-18 beside the plots of ours",
        "",
        "The paper's figures are curves, and its text keeps no point of them: what it says "
        "of them is tested in numbers in the claims above. Beside each, the plots drawn "
        "from the published runs (`scripts/bench/publish.sh`, when a folder's last "
        "reporting seed is published; every seed's runs pooled, the exchanges cut off by "
        "the drain at their elapsed time). Figures 5-8 are one plot a configuration and ECN "
        "setting, its curve at each load beside the uncongested link's at the same load "
        "(dashed; the uncongested link runs without ECN); Figures 9-18 one plot a load and "
        "ECN setting, every configuration on it (an ECN plot holds those that run with ECN).",
        "",
    ]
    if not blocks:
        return [*lines, "No runs.", ""]
    heads = " | ".join(f"`{f.name}`" for f in blocks)
    lines += [f"| Figure | what it shows | {heads} |", "|---|---|" + "---|" * len(blocks)]
    for number, what, links in FIGURES:
        cells = [", ".join(links(f.name)) or "not published yet" for f in blocks]
        lines.append(f"| {number} | {what} | {' | '.join(cells)} |")
    return [*lines, ""]
