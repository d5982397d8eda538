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
        super().__init__()

    def _names(self) -> dict[str, str]:
        # tdc rewrites NAMES (NS, DUMMY) per case, in its own module
        names: dict[str, str] = self.args.NAMES
        return names

    def pre_case(self, caseinfo: dict[str, Any], test_skip: bool) -> None:
        super().pre_case(caseinfo, test_skip)
        if test_skip or "nsPlugin" not in caseinfo["plugins"]:
            return
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
                return
            time.sleep(0.1)
        raise TimeoutError(f"netns {n['NS']} did not appear")

    def post_case(self) -> None:
        super().post_case()
        caseinfo = self.args.caseinfo
        if self.args.test_skip or "nsPlugin" not in caseinfo["plugins"]:
            return
        n = self._names()
        subprocess.run([n["IP"], "netns", "del", n["NS"]], check=False, env=ENVIR)

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
