"""tdc's per-case namespace, lighter: what our cases need and no more.

guest.sh copies the kernel's tc-testing directory and puts this file in
place of its plugin-lib/nsPlugin.py. tdc then gives each case that requires
"nsPlugin" a network namespace of its own, as with the kernel's plugin, but:

- the namespace holds only $DUMMY: none of our cases uses the veth pair
  ($DEV0, $DEV1) that the kernel's plugin creates for every case, one end
  in the initial namespace;
- a command that starts with $TC runs as "tc -n NS ..." instead of "ip
  netns exec NS tc ...": one exec fewer per command; others (ip, sh) keep
  the "ip netns exec" prefix.

The case files are unchanged: they run under the kernel's plugin too.
tdc imports this as plugin-lib/nsPlugin and reads SubPlugin.

With AQM_TDC_TIMES set to a file, each case appends one line to it: its
id, then the seconds its namespace took to make, its own stages (setup,
the command, verify, teardown) and the namespace's deletion, so that
guest.sh can say where tdc's time goes. Measured (tdc:afd and tdc:pi, 133
cases, -J 4 on 2 CPUs, twice): 0.41 s namespace, 1.46-1.53 s the case,
0.19-0.20 s deletion, of about 2 s of a worker's time per case: the tc
and ip processes of the case's own commands, not the namespace. A mode
without namespaces (each case's dummy in tdc's own namespace) took 0.24 s
to make it and the same 80 s in all (1.60 s the case): not kept.
"""

from __future__ import annotations

import os
import subprocess
import time
from typing import Any

from tdc_config import ENVIR, NAMES  # type: ignore[import-not-found]
from TdcPlugin import TdcPlugin  # type: ignore[import-not-found]

STAGES = ("setup", "execute", "verify", "teardown")


class SubPlugin(TdcPlugin):  # type: ignore[misc]
    def __init__(self) -> None:
        self.sub_class = "ns/SubPlugin"
        self.times: list[float] = []
        super().__init__()

    def _names(self) -> dict[str, str]:
        # tdc rewrites NAMES (NS, DUMMY) per case, in its own module
        names: dict[str, str] = self.args.NAMES
        return names

    def pre_case(self, caseinfo: dict[str, Any], test_skip: bool) -> None:
        super().pre_case(caseinfo, test_skip)
        if test_skip or "nsPlugin" not in caseinfo["plugins"]:
            return
        self.times = [time.monotonic()]
        n = self._names()
        # two ip processes: the namespace, then its dummy device, up
        # (a batch cannot switch namespaces between its lines)
        subprocess.run([n["IP"], "netns", "add", n["NS"]], check=True, env=ENVIR)
        subprocess.run(
            [n["IP"], "-n", n["NS"], "link", "add", n["DUMMY"], "up", "type", "dummy"],
            check=True,
            env=ENVIR,
        )
        for _ in range(20):
            if os.path.exists(f"/run/netns/{n['NS']}"):
                self.times.append(time.monotonic())
                return
            time.sleep(0.1)
        raise TimeoutError(f"netns {n['NS']} did not appear")

    def post_case(self) -> None:
        super().post_case()
        caseinfo = self.args.caseinfo
        if self.args.test_skip or "nsPlugin" not in caseinfo["plugins"]:
            return
        n = self._names()
        t2 = time.monotonic()
        subprocess.run([n["IP"], "netns", "del", n["NS"]], check=False, env=ENVIR)
        self._log_times(caseinfo.get("id", "?"), t2, time.monotonic())

    def _log_times(self, case: str, t2: float, t3: float) -> None:
        """One line of AQM_TDC_TIMES for the case that ends (see above)."""
        path = os.environ.get("AQM_TDC_TIMES")
        if not path or len(self.times) != 2:
            return
        t0, t1 = self.times
        line = f"{case} {t1 - t0:.3f} {t2 - t1:.3f} {t3 - t2:.3f}\n"
        # one short write in append mode: the workers' lines do not mix
        fd = os.open(path, os.O_WRONLY | os.O_APPEND | os.O_CREAT, 0o644)
        try:
            os.write(fd, line.encode())
        finally:
            os.close(fd)

    def post_suite(self, index: int) -> None:
        super().post_suite(index)
        # what a case that failed half-way left behind
        subprocess.run(
            [NAMES["IP"], "-a", "netns", "del"],
            stdout=subprocess.DEVNULL,
            stderr=subprocess.DEVNULL,
            check=False,
            env=ENVIR,
        )

    def adjust_command(self, stage: str, command: str | list[str]) -> str | list[str]:
        super().adjust_command(stage, command)
        if stage not in STAGES:
            return command
        n = self._names()
        words = command if isinstance(command, list) else command.split()
        if words and words[0] == n["TC"]:
            words = [words[0], "-n", n["NS"], *words[1:]]
        else:
            words = [n["IP"], "netns", "exec", n["NS"], *words]
        return words if isinstance(command, list) else " ".join(words)
