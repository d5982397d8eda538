"""The runner's module swap (run.Bench.use_module): a module of the wanted
origin that is already loaded is used as it is, since another selftest
beside the harness may hold it (CI's failure of stop 44: rmmod failed,
then insmod "File exists"); otherwise the leaves become pfifo and the
module is replaced."""

from __future__ import annotations

from pathlib import Path

import pytest

from aqmtools.bench import run
from aqmtools.bench.experiment import Qdisc, load

EXP = """
name = "t"
rate = "10mbit"
duration = 60
warmup = 10
reporting_seeds = [101]
loads = [1.0]
ecn = [false]
clients = 2
servers = 1
rtt_ms = [80, 80]
workload = "long"
long_flows = 2
[[qdisc]]
name = "dcn"
spec = "dcn limit 1000"
"""


@pytest.fixture
def bench(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> tuple[run.Bench, list[list[str]]]:
    (tmp_path / "net/sched").mkdir(parents=True)
    for kind in ("dcn", "sfb"):
        (tmp_path / f"net/sched/sch_{kind}.ko").write_bytes(b"")
    kdir = tmp_path / "kernel"
    (kdir / "net/sched").mkdir(parents=True)
    monkeypatch.setenv("AQM_KDIR", str(kdir))
    b = run.Bench(load(EXP), tmp_path / "out", tmp_path / "scripts/bench")
    cmds: list[list[str]] = []
    monkeypatch.setattr(run, "sh", lambda cmd, check=True: cmds.append(cmd) or "")
    return b, cmds


def _taint(root: Path, kind: str, text: str) -> None:
    (root / f"sch_{kind}").mkdir(parents=True)
    (root / f"sch_{kind}/taint").write_text(text)


def test_out_of_tree_reads_the_taint(tmp_path: Path) -> None:
    _taint(tmp_path, "dcn", "OE\n")
    _taint(tmp_path, "sfb", "\n")
    assert run.out_of_tree("dcn", tmp_path) is True
    assert run.out_of_tree("sfb", tmp_path) is False
    assert run.out_of_tree("pi", tmp_path) is None


@pytest.mark.parametrize(
    ("module", "loaded", "swaps"),
    [
        ("", True, False),  # ours is loaded: kept, even if another test holds it
        ("", None, True),  # nothing loaded: inserted
        ("", False, True),  # Linux's loaded, ours wanted: swapped
        ("linux", False, False),
        ("linux", True, True),
    ],
)
def test_use_module_swaps_only_a_module_of_the_other_origin(
    bench: tuple[run.Bench, list[list[str]]],
    monkeypatch: pytest.MonkeyPatch,
    module: str,
    loaded: bool | None,
    swaps: bool,
) -> None:
    b, cmds = bench
    kind = "sfb" if module == "linux" else "dcn"
    monkeypatch.setattr(run, "out_of_tree", lambda k: loaded)
    q = Qdisc(name=kind, spec=f"{kind} limit 1000", module=module)
    b.use_module(q)
    inserted = [c for c in cmds if c[0] == "insmod"]
    assert bool(inserted) == swaps
    if swaps:
        assert ["rmmod", f"sch_{kind}"] in cmds
        want = b.loaded[kind]
        assert inserted == [["insmod", str(want)]]
        assert ("kernel" in want.parts) == (module == "linux")
    # once chosen, a second use does nothing
    cmds.clear()
    b.use_module(q)
    assert cmds == []
