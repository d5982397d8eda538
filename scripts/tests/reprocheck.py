"""What the reproduction tests check alike for each paper: that the
transcription's quotations are in the paper store's text, that the
markers a page quotes stand in the experiment files' headers, and the
page that aqmtools.repro.page writes, called or run as a command."""

from __future__ import annotations

import os
import re
import subprocess
import sys
from collections.abc import Callable, Iterable, Sequence
from pathlib import Path

from aqmtools.repro import page, plan

TOP = Path(__file__).resolve().parents[2]
PAPERS = Path("/work/shared/papers")


def norm(text: str) -> str:
    """TEXT without what every extraction garbles: quotation marks, curly
    apostrophes, hyphens, spaces, case."""
    text = re.sub('[\u201c\u201d"]', "", text)
    text = re.sub("[\u2019']", "'", text)
    return re.sub("[\\s\\-\u2013]", "", text).lower()


def unquoted(text: str, quotes: Iterable[str], normed: Callable[[str], str] = norm) -> list[str]:
    """The QUOTES not in TEXT, both as NORMED reads them: a quotation is in
    it when its parts between "[...]" stand in it in order."""
    text = normed(text)
    missing = []
    for quote in quotes:
        at = 0
        for part in quote.split("[...]"):
            at = text.find(normed(part), at)
            if at < 0:
                missing.append(quote)
                break
    return missing


def unquoted_markers(paper: str, markers: Sequence[str]) -> list[str]:
    """The MARKERS that begin no quoted part of any of PAPER's experiment
    files' headers (page.quotes, lists kept)."""
    texts = [f.read_text() for f in plan.paper_files(paper)]
    return [m for m in markers if not any(page.quotes(t, (m,), lists=True) for t in texts)]


def page_text(out: Path, paper: str, *dirs: Path) -> str:
    """PAPER's page of the results folders DIRS, as page.main writes it
    to OUT."""
    assert page.main(["page", paper, str(out), *map(str, dirs)]) == 0
    return out.read_text()


def run_python(*args: str) -> subprocess.CompletedProcess[str]:
    """python3 ARGS from the repository's top, with scripts on the path
    (as scripts/reproduce.sh runs aqmtools.repro.page)."""
    env = {**os.environ, "PYTHONPATH": str(TOP / "scripts")}
    cmd = [sys.executable, *args]
    return subprocess.run(cmd, env=env, cwd=TOP, capture_output=True, text=True, check=False)
