"""The DCN paper's Figures 5-18 beside the plots of the reproduction: the
section of docs/reproduction/dcn.md that links, for each figure, the plots
publish.sh drew from the same runs (docs/results/NAME/*.png), or says
where the figure's content is given in numbers instead.

The paper's figures are curves of which its text keeps no point; the
claims made of them are tested in numbers on the page (claims (c)-(h)).
The plots show the curves of the pooled runs of every reporting seed, one
plot per load and ECN setting, every configuration on it.
"""

from __future__ import annotations

from aqmtools.repro import plan
from aqmtools.repro.page import Folder

# the paper's figures: (numbers, what they show, the plot of ours by its
# file name's stem, or None and where the page gives it instead)
FIGURES: tuple[tuple[str, str, str | None, str], ...] = (
    (
        "5-8",
        "each AQM's response-time CDF at 90%, 98% and 105% (DCN, PI, AFD, RIO-PS)",
        None,
        "not drawn per scheme: the same runs are drawn per load in Figures 9, 11 and 13's "
        "plots below",
    ),
    ("9, 11, 13", "every scheme's response-time CDF at 90%, 98% and 105%", "rt-cdf", ""),
    ("9, 11, 13 (tail)", "the same as complementary CDFs", "rt-ccdf", ""),
    (
        "10, 12, 14",
        "the fraction of all bytes by response size at 90%, 98% and 105%",
        "bytes",
        "",
    ),
    (
        "15-18",
        "response-time CDFs of the responses under and over 100,000 bytes at 90% and 98%",
        None,
        "not drawn: claims (g) and (h) give their quantiles with intervals",
    ),
)
LOADS = (90, 98, 105)


def plots(name: str, stem: str) -> list[str]:
    """Links to the published plots of folder NAME whose file names start
    with STEM, by load and ECN ("-" for none published)."""
    out = []
    for ld in LOADS:
        for ecn in (0, 1):
            f = f"{stem}-load{ld}-ecn{ecn}.png"
            if (plan.TOP / "docs" / "results" / name / f).is_file():
                out.append(f"[{ld}%{', ECN' if ecn else ''}](../results/{name}/{f})")
    return out


def section(folders: list[Folder]) -> list[str]:
    """The page's section: one row a figure, one column a folder with runs."""
    blocks = [f for f in folders if f.runs]
    lines = [
        "## Figures 5-18 beside the plots of ours",
        "",
        "The paper's figures are curves, and its text keeps no point of them: what it says "
        "of them is tested in numbers in the claims above. Beside each, the plots drawn "
        "from the published runs (`scripts/bench/publish.sh`, when a folder's last "
        "reporting seed is published: every seed's runs pooled, every configuration on "
        "one plot a load and ECN setting; an ECN plot holds the configurations that run "
        "with ECN).",
        "",
    ]
    if not blocks:
        return [*lines, "No runs.", ""]
    heads = " | ".join(f"`{f.name}`" for f in blocks)
    lines += [f"| Figure | what it shows | {heads} |", "|---|---|" + "---|" * len(blocks)]
    for number, what, stem, instead in FIGURES:
        cells = []
        for f in blocks:
            links = plots(f.name, stem) if stem else []
            cells.append(", ".join(links) if links else instead or "not published yet")
        lines.append(f"| {number} | {what} | {' | '.join(cells)} |")
    return [*lines, ""]
