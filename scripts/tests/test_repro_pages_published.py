"""Every reproduction page in the repository is the one its own command
(the page's "Regenerate" section) makes from the published results: the
folders the command names are plan.page_folders', and with the published
archives (docs/results/NAME/raw.tar.xz) unpacked where it names them, the
command writes the page byte for byte. A page regenerated from build
folders that were never published, or a folder the command leaves out (a
section the next `make reproduce` would lose), fails here."""

from __future__ import annotations

from pathlib import Path

import pytest
from reprocheck import TOP, run_python

from aqmtools.bench import archive
from aqmtools.repro import plan

COMMAND = "PYTHONPATH=scripts python3 -m aqmtools.repro.page "


def page_command(text: str) -> list[str]:
    """The arguments of the page command a page prints."""
    (line,) = [ln for ln in text.splitlines() if ln.startswith(COMMAND)]
    return line[len(COMMAND) :].split()


@pytest.mark.parametrize("paper", sorted(plan.PAPERS))
def test_the_repositorys_page_is_made_by_its_command_from_the_published_results(
    paper: str, tmp_path: Path
) -> None:
    page = TOP / "docs" / "reproduction" / f"{paper}.md"
    want = page.read_text(encoding="utf-8")
    args = page_command(want)
    names = plan.page_folders(paper)
    assert args == [paper, f"docs/reproduction/{paper}.md", *(f"build/bench/{n}" for n in names)]
    for name in names:
        published = TOP / "docs" / "results" / name / "raw.tar.xz"
        if published.exists():
            archive.unpack(published, tmp_path / "build" / "bench" / name)
    r = run_python("-m", "aqmtools.repro.page", *args, cwd=tmp_path)
    assert r.returncode == 0, r.stderr
    got = (tmp_path / "docs" / "reproduction" / f"{paper}.md").read_text(encoding="utf-8")
    assert got == want


def test_the_published_form_writes_the_same_page_from_any_directory(tmp_path: Path) -> None:
    # the smallest page that has published results, made from another
    # directory than the top: the folders are named as the first form does
    paper = "dcn"
    want = (TOP / "docs" / "reproduction" / f"{paper}.md").read_text(encoding="utf-8")
    out = tmp_path / "out" / f"{paper}.md"
    r = run_python("-m", "aqmtools.repro.page", "--published", paper, str(out), cwd=tmp_path)
    assert r.returncode == 0, r.stderr
    assert out.read_text(encoding="utf-8") == want
    assert f"`make repro-page PAPER={paper}`" in want
    # nothing left behind where it ran, and a paper it has no page for refused
    assert sorted(p.name for p in tmp_path.iterdir()) == ["out"]
    r = run_python("-m", "aqmtools.repro.page", "--published", "nosuch", cwd=tmp_path)
    assert r.returncode == 2 and "the papers are" in r.stderr
