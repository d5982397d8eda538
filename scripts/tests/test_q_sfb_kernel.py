"""q_sfb sends linux-aqm's sfb options only to linux-aqm's sch_sfb.

Linux's sfb drops the attributes it does not know without a word, so
tc/q_sfb.c checks the kernel's sch_sfb (/sys/module/sch_sfb/version, after
modprobe when it is not loaded) before sending one of our options. These
tests run the built q_sfb.so through a real tc with AQM_TEST_SYSROOT set to
a fake tree: sys/module/sch_sfb as Linux's or ours would show it, and
proc/sys/kernel/modprobe naming a fake modprobe that logs its arguments
and "loads" one or the other. tc runs in a user namespace of its own
(unshare -r), so that a request that gets through the plugin reaches the
kernel without CAP_NET_ADMIN in its network namespace and is refused
("Operation not permitted", exit 2): nothing on the host changes.

The tc is the installed one with q_sfb.so built against the installed
version's source (scripts/tc/iproute2-src.sh), or AQM_TEST_TC with the
plugins in AQM_TEST_TC_LIB_DIR (scripts/tc/build-versions.sh runs these
tests with each iproute2 version's tc).
"""

from __future__ import annotations

import os
import shutil
import subprocess
from dataclasses import dataclass
from pathlib import Path

import pytest

TOP = Path(__file__).resolve().parents[2]
EPERM = "RTNETLINK answers: Operation not permitted"
# every word of linux-aqm's sfb that Linux's lacks, with its value if any
AQM_WORDS = [
    ["levels", "4"],
    ["bins", "32"],
    ["penalty_bytes", "1mbit"],
    ["penalty_bytes_burst", "1514"],
    ["warm_all"],
    ["nowarm_all"],
    ["warm_raise"],
    ["nowarm_raise"],
    ["dec_emptied"],
    ["nodec_emptied"],
    ["red"],
    ["nored"],
    ["red_min", "5"],
    ["red_max", "10p"],
    ["red_max_p", "1/10"],
    ["red_ceil", "0.5"],
    ["red_interval", "500ms"],
    ["red_wlog", "4"],
    ["red_gentle"],
    ["nored_gentle"],
]


@dataclass(frozen=True)
class Tc:
    """A tc binary and the directory it loads q_sfb.so from."""

    binary: str
    lib_dir: str


def _find_tc() -> str | None:
    path = os.environ.get("PATH", "") + ":/usr/sbin:/sbin"
    return shutil.which("tc", path=path)


@pytest.fixture(scope="session")
def tc(tmp_path_factory: pytest.TempPathFactory) -> Tc:
    binary = os.environ.get("AQM_TEST_TC")
    lib_dir = os.environ.get("AQM_TEST_TC_LIB_DIR")
    if binary or lib_dir:
        assert binary and lib_dir, "AQM_TEST_TC and AQM_TEST_TC_LIB_DIR go together"
        return Tc(binary, lib_dir)
    found = _find_tc()
    if found is None:
        pytest.skip("no tc installed")
    src = os.environ.get("IPROUTE2_SRC")
    if not src:
        r = subprocess.run(
            [str(TOP / "scripts/tc/iproute2-src.sh")],
            capture_output=True,
            text=True,
            check=False,
        )
        if r.returncode != 0:
            pytest.skip(f"no iproute2 source for the installed tc: {r.stderr.strip()}")
        src = r.stdout.strip()
    out = tmp_path_factory.mktemp("plugins")
    subprocess.run(
        ["make", "-s", "-C", str(TOP / "tc"), f"IPROUTE2_SRC={src}", f"O={out}", f"{out}/q_sfb.so"],
        check=True,
    )
    return Tc(found, str(out))


@pytest.fixture(scope="session")
def userns() -> list[str]:
    """The prefix that runs tc without CAP_NET_ADMIN over the host's netns."""
    if shutil.which("unshare") and (
        subprocess.run(["unshare", "-r", "true"], capture_output=True, check=False).returncode == 0
    ):
        return ["unshare", "-r"]
    if os.geteuid() != 0:
        return []
    pytest.skip("root without user namespaces: a request would reach the host's kernel")


class SysRoot:
    """A fake tree of sys/module/sch_sfb and proc/sys/kernel/modprobe."""

    def __init__(self, root: Path) -> None:
        self.root = root
        self.module = root / "sys/module/sch_sfb"
        self.log = root / "modprobe.log"
        (root / "proc/sys/kernel").mkdir(parents=True)
        (root / "sys/module").mkdir(parents=True)

    def loaded(self, version: str | None) -> None:
        """sch_sfb is loaded, with this version file (None: none, as Linux's)."""
        self.module.mkdir()
        if version is not None:
            (self.module / "version").write_text(version + "\n")

    def modprobe(self, loads: str | None, status: int = 0) -> None:
        """The kernel's modprobe: logs its arguments, then loads Linux's
        sch_sfb ("linux"), ours ("ours") or nothing (None)."""
        prog = self.root / "modprobe"
        lines = ["#!/bin/sh", f'echo "$@" >>"{self.log}"']
        if loads is not None:
            lines.append(f'mkdir -p "{self.module}"')
        if loads == "ours":
            lines.append(f'echo linux-aqm >"{self.module}/version"')
        lines.append(f"exit {status}")
        prog.write_text("\n".join(lines) + "\n")
        prog.chmod(0o755)
        (self.root / "proc/sys/kernel/modprobe").write_text(f"{prog}\n")

    def modprobe_calls(self) -> list[str]:
        return self.log.read_text().splitlines() if self.log.exists() else []


@pytest.fixture
def sysroot(tmp_path: Path) -> SysRoot:
    return SysRoot(tmp_path / "root")


def run_tc(tc: Tc, userns: list[str], sysroot: SysRoot, *opts: str) -> tuple[int, str]:
    env = dict(os.environ, TC_LIB_DIR=tc.lib_dir, AQM_TEST_SYSROOT=str(sysroot.root))
    r = subprocess.run(
        [*userns, tc.binary, "qdisc", "add", "dev", "lo", "root", "sfb", *opts],
        capture_output=True,
        text=True,
        env=env,
        check=False,
        timeout=30,
    )
    return r.returncode, r.stdout + r.stderr


def refused(out: str, word: str) -> bool:
    return f'sfb: "{word}" is an option of linux-aqm\'s sfb, but' in out and EPERM not in out


def test_linux_options_only_are_sent_unchecked(tc: Tc, userns: list[str], sysroot: SysRoot) -> None:
    # even with Linux's sfb loaded: today's behaviour, no check at all
    sysroot.loaded(None)
    sysroot.modprobe("linux")
    rc, out = run_tc(tc, userns, sysroot, "limit", "1000")
    assert (rc, out.strip()) == (2, EPERM)
    rc, out = run_tc(tc, userns, sysroot, "rehash", "600000", "db", "60000", "max", "25")
    assert (rc, out.strip()) == (2, EPERM)
    assert sysroot.modprobe_calls() == []


def test_plain_sfb_does_not_load_a_module(tc: Tc, userns: list[str], sysroot: SysRoot) -> None:
    sysroot.modprobe("linux")
    rc, out = run_tc(tc, userns, sysroot, "limit", "1000")
    assert (rc, out.strip()) == (2, EPERM)
    assert sysroot.modprobe_calls() == []
    assert not sysroot.module.exists()


@pytest.mark.parametrize("word", AQM_WORDS, ids=[w[0] for w in AQM_WORDS])
def test_our_option_refused_by_linux_sfb(
    tc: Tc, userns: list[str], sysroot: SysRoot, word: list[str]
) -> None:
    sysroot.loaded(None)
    rc, out = run_tc(tc, userns, sysroot, "limit", "1000", *word)
    assert rc == 1, out
    assert refused(out, word[0]), out
    assert "is Linux's own, which would ignore it" in out
    assert "rmmod sch_sfb" in out


def test_first_of_our_options_named(tc: Tc, userns: list[str], sysroot: SysRoot) -> None:
    sysroot.loaded("4.2")  # another module's version is not ours either
    rc, out = run_tc(tc, userns, sysroot, "bins", "16", "levels", "4")
    assert rc == 1
    assert refused(out, "bins"), out


@pytest.mark.parametrize("word", AQM_WORDS, ids=[w[0] for w in AQM_WORDS])
def test_our_option_sent_to_our_sfb(
    tc: Tc, userns: list[str], sysroot: SysRoot, word: list[str]
) -> None:
    sysroot.loaded("linux-aqm")
    rc, out = run_tc(tc, userns, sysroot, *word)
    assert (rc, out.strip()) == (2, EPERM)
    assert sysroot.modprobe_calls() == []


def test_not_loaded_modprobe_loads_linux(tc: Tc, userns: list[str], sysroot: SysRoot) -> None:
    sysroot.modprobe("linux")
    rc, out = run_tc(tc, userns, sysroot, "levels", "4")
    assert rc == 1
    assert refused(out, "levels"), out
    assert "is Linux's own" in out
    assert sysroot.modprobe_calls() == ["-q -- sch_sfb"]


def test_not_loaded_modprobe_loads_ours(tc: Tc, userns: list[str], sysroot: SysRoot) -> None:
    sysroot.modprobe("ours")
    rc, out = run_tc(tc, userns, sysroot, "levels", "4", "warm_raise")
    assert (rc, out.strip()) == (2, EPERM)
    assert sysroot.modprobe_calls() == ["-q -- sch_sfb"]


@pytest.mark.parametrize("status", [0, 1])
def test_no_module_after_modprobe_cannot_be_told(
    tc: Tc, userns: list[str], sysroot: SysRoot, status: int
) -> None:
    # a built-in Linux sfb shows no /sys/module/sch_sfb; nor does none at all
    sysroot.modprobe(None, status)
    rc, out = run_tc(tc, userns, sysroot, "penalty_bytes", "1mbit")
    assert rc == 1
    assert refused(out, "penalty_bytes"), out
    assert "cannot be told" in out
    assert sysroot.modprobe_calls() == ["-q -- sch_sfb"]


@pytest.mark.parametrize("modprobe", ["\n", None], ids=["autoload-off", "no-modules"])
def test_no_autoload_cannot_be_told(
    tc: Tc, userns: list[str], sysroot: SysRoot, modprobe: str | None
) -> None:
    # an empty /proc/sys/kernel/modprobe, or none (no CONFIG_MODULES): no modprobe
    if modprobe is not None:
        (sysroot.root / "proc/sys/kernel/modprobe").write_text(modprobe)
    rc, out = run_tc(tc, userns, sysroot, "dec_emptied")
    assert rc == 1
    assert refused(out, "dec_emptied"), out
    assert "cannot be told" in out


def test_help_needs_no_module(tc: Tc, userns: list[str], sysroot: SysRoot) -> None:
    sysroot.modprobe("linux")
    rc, out = run_tc(tc, userns, sysroot, "levels", "4", "help")
    assert rc == 1
    assert "Usage: ... sfb [ rehash MS ]" in out
    assert sysroot.modprobe_calls() == []
