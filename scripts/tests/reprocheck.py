"""What the reproduction tests check alike for each paper: that the
transcription's quotations are in the paper store's text (and, for a
paper of parts, that its claims are well formed), that the markers a page
quotes stand in the experiment files' headers, the page that
aqmtools.repro.page writes, called or run as a command, the plan that
reproduce.sh --dry-run prints, and that the installed tc reads the
experiment files' words (with our plugins)."""

from __future__ import annotations

import dataclasses
import os
import re
import shutil
import subprocess
import sys
from collections.abc import Callable, Iterable, Mapping, Sequence
from pathlib import Path
from types import ModuleType

import pytest

from aqmtools.bench.experiment import load
from aqmtools.repro import page, plan

TOP = Path(__file__).resolve().parents[2]
PAPERS = Path("/work/shared/papers")
SECTION = re.compile(r"\bsection\b", re.I)


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


def run_python(*args: str, cwd: Path = TOP) -> subprocess.CompletedProcess[str]:
    """python3 ARGS from CWD (the repository's top), with scripts on the
    path (as scripts/reproduce.sh runs aqmtools.repro.page)."""
    env = {**os.environ, "PYTHONPATH": str(TOP / "scripts")}
    cmd = [sys.executable, *args]
    return subprocess.run(cmd, env=env, cwd=cwd, capture_output=True, text=True, check=False)


def check_part_claims(t: ModuleType) -> None:
    """The transcription T of a paper of parts (aqmtools.repro.blue,
    aqmtools.repro.queuelaw): its claims lettered in order, each saying
    where the paper makes it, its words, what tests it, its exhibit and
    its parts (every part tested by some claim); its settings and what
    the text lost, each with what they need."""
    keys = [c.key for c in t.CLAIMS]
    assert keys == [chr(ord("a") + i) for i in range(len(keys))]
    for c in t.CLAIMS:
        assert SECTION.search(c.where) and c.quote and c.test and c.statement
        assert c.parts and set(c.parts) <= set(t.PARTS)
        assert t.exhibit(c.exhibit) is not None, c.key
    assert t.claim("a") is t.CLAIMS[0] and t.claim("zz") is None
    assert {p for c in t.CLAIMS for p in c.parts} == set(t.PARTS)
    for s in t.SETTINGS:
        assert s.section and s.quote and s.value
    assert all(what and why for what, why in t.LOST)


# what an experiment file with the paper's end hosts may set apart from
# the same file with today's Linux hosts
HOSTS_KEYS = ("name", "description", "hosts", "paper_window", "window")


def same_but_hosts(paper_file: str, linux_file: str) -> None:
    """PAPER_FILE and LINUX_FILE (experiment files) run the same
    experiment, but for their end hosts (and their names)."""
    a, b = (load((plan.EXPERIMENTS / f).read_text()) for f in (paper_file, linux_file))
    assert (a.hosts, b.hosts) == ("paper", "linux")
    da, db = dataclasses.asdict(a), dataclasses.asdict(b)
    for key in HOSTS_KEYS:
        da.pop(key), db.pop(key)
    assert da == db, (paper_file, linux_file)


def page_and_plan(paper: str, tmp_path: Path) -> str:
    """PAPER's page written by the module's entry (from a folder that is
    not there), and the plan reproduce.sh --dry-run prints (with no results
    folders), which is returned."""
    md = tmp_path / f"{paper}.md"
    r = run_python("-m", "aqmtools.repro.page", paper, str(md), str(tmp_path / "x"))
    assert r.returncode == 0, r.stderr
    assert md.read_text().startswith("# Reproduction:")
    dry = subprocess.run(
        ["bash", str(TOP / "scripts/reproduce.sh"), "--dry-run", paper],
        capture_output=True,
        text=True,
        env=dict(os.environ, AQM_BENCH_DIR=str(tmp_path)),
        check=False,
        timeout=120,
    )
    assert dry.returncode == 0, dry.stderr
    return dry.stdout


# what tc says when its request reaches a kernel that refuses it (a user
# namespace's): the words passed tc's parser
EPERM = "RTNETLINK answers: Operation not permitted"


def tc_with_plugins(out: Path, plugins: Sequence[str]) -> str:
    """The installed tc, with our PLUGINS (q_NAME.so) built for it into OUT
    (as test_q_sfb_kernel.py builds q_sfb.so); the test is skipped without
    tc, user namespaces (a request would reach the host's kernel) or the
    installed tc's iproute2 source."""
    tc = shutil.which("tc", path=os.environ.get("PATH", "") + ":/usr/sbin:/sbin")
    if tc is None:
        pytest.skip("no tc installed")
    if shutil.which("unshare") is None or (
        subprocess.run(["unshare", "-r", "true"], capture_output=True, check=False).returncode
    ):
        pytest.skip("no user namespaces: a request would reach the host's kernel")
    src = os.environ.get("IPROUTE2_SRC")
    if not src:
        r = subprocess.run(
            [str(TOP / "scripts/tc/iproute2-src.sh")], capture_output=True, text=True, check=False
        )
        if r.returncode != 0:
            pytest.skip(f"no iproute2 source for the installed tc: {r.stderr.strip()}")
        src = r.stdout.strip()
    targets = [f"{out}/q_{name}.so" for name in plugins]
    subprocess.run(
        ["make", "-s", "-C", str(TOP / "tc"), f"IPROUTE2_SRC={src}", f"O={out}", *targets],
        check=True,
    )
    return tc


def tc_add(tc: str, spec: str, env: Mapping[str, str]) -> tuple[int, list[str]]:
    """tc's exit status and what it says (but its warning for a RED weight
    of 2^-10 and below, not an error) adding SPEC as a root qdisc in a user
    namespace, which refuses it: (2, [EPERM]) when tc read the words."""
    r = subprocess.run(
        ["unshare", "-r", tc, "qdisc", "add", "dev", "lo", "root", *spec.split()],
        capture_output=True,
        text=True,
        env=dict(env),
        check=False,
        timeout=30,
    )
    out = r.stdout + r.stderr
    return r.returncode, [
        x for x in out.splitlines() if x.strip() and "seems to be too large" not in x
    ]
