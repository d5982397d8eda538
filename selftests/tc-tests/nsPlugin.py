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

- the namespace and its dummy are made and deleted in tdc's own process
  (a fork that unshares its network namespace, binds it to
  /run/netns/NS as "ip netns add" does, and asks for the dummy over
  rtnetlink), not by two ip processes and a third to delete: measured in
  the TCG VM at 0.41-0.46 s a case to make and 0.19-0.21 s to delete, a
  third of tdc's time (make check of 2026-11-27: 302 and 138 of 1474 s
  of the workers' time); on the host the fork takes 3 ms.

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

import contextlib
import ctypes
import os
import socket
import struct
import subprocess
import time
from typing import Any

from tdc_config import ENVIR, NAMES  # type: ignore[import-not-found]
from TdcPlugin import TdcPlugin  # type: ignore[import-not-found]

STAGES = ("setup", "execute", "verify", "teardown")

CLONE_NEWNET = 0x40000000
MS_BIND = 0x1000
MNT_DETACH = 2
RTM_NEWLINK = 16
NLMSG_ERROR = 2
NLM_F_REQUEST, NLM_F_ACK, NLM_F_EXCL, NLM_F_CREATE = 0x1, 0x4, 0x200, 0x400
IFF_UP = 0x1
IFLA_IFNAME, IFLA_LINKINFO, IFLA_INFO_KIND = 3, 18, 1
NLA_F_NESTED = 0x8000

_libc = ctypes.CDLL(None, use_errno=True)


def _nla(atype: int, payload: bytes) -> bytes:
    """One netlink attribute, padded to 4 bytes."""
    n = 4 + len(payload)
    return struct.pack("=HH", n, atype) + payload + b"\0" * (-n % 4)


def newlink_dummy(name: str) -> bytes:
    """The RTM_NEWLINK of "ip link add NAME up type dummy"."""
    body = struct.pack("=BxHiII", socket.AF_UNSPEC, 0, 0, IFF_UP, IFF_UP)
    body += _nla(IFLA_IFNAME, name.encode() + b"\0")
    body += _nla(IFLA_LINKINFO | NLA_F_NESTED, _nla(IFLA_INFO_KIND, b"dummy\0"))
    flags = NLM_F_REQUEST | NLM_F_ACK | NLM_F_CREATE | NLM_F_EXCL
    return struct.pack("=IHHII", 16 + len(body), RTM_NEWLINK, flags, 1, 0) + body


def ack_errno(ack: bytes) -> int:
    """The errno of the kernel's acknowledgement (0: done)."""
    mtype = struct.unpack_from("=IH", ack)[1]
    if mtype != NLMSG_ERROR:
        raise OSError(f"rtnetlink: message type {mtype} where an ack was due")
    return -int(struct.unpack_from("=i", ack, 16)[0])


def _add_dummy(name: str) -> None:
    """What "ip link add NAME up type dummy" does, in the caller's namespace."""
    with socket.socket(socket.AF_NETLINK, socket.SOCK_RAW, socket.NETLINK_ROUTE) as s:
        s.send(newlink_dummy(name))
        err = ack_errno(s.recv(65536))
    if err:
        raise OSError(err, f"dummy {name}: {os.strerror(err)}")


def netns_add(ns: str, dummy: str) -> None:
    """A namespace /run/netns/NS holding DUMMY, up, as two ip commands make.

    A forked child unshares its network namespace, bind-mounts it on the
    file (what keeps the namespace once the child exits, as for "ip netns
    add") and creates the dummy in it.
    """
    path = f"/run/netns/{ns}"
    os.makedirs("/run/netns", exist_ok=True)
    os.close(os.open(path, os.O_RDONLY | os.O_CREAT | os.O_EXCL, 0))
    pid = os.fork()
    if pid == 0:
        code = 1
        try:
            if _libc.unshare(CLONE_NEWNET) != 0:
                raise OSError(ctypes.get_errno(), "unshare")
            if _libc.mount(b"/proc/self/ns/net", path.encode(), None, MS_BIND, None) != 0:
                raise OSError(ctypes.get_errno(), "mount")
            _add_dummy(dummy)
            code = 0
        except OSError as e:
            os.write(2, f"nsPlugin: netns {ns}: {e}\n".encode())
        finally:
            os._exit(code)
    _, status = os.waitpid(pid, 0)
    if os.waitstatus_to_exitcode(status) != 0:
        netns_del(ns)
        raise RuntimeError(f"netns {ns} could not be made")


def netns_del(ns: str) -> None:
    """What "ip netns del NS" does: detach the namespace's mount, remove the file."""
    path = f"/run/netns/{ns}"
    _libc.umount2(path.encode(), MNT_DETACH)
    with contextlib.suppress(FileNotFoundError):
        os.unlink(path)


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
        netns_add(n["NS"], n["DUMMY"])
        self.times.append(time.monotonic())

    def post_case(self) -> None:
        super().post_case()
        caseinfo = self.args.caseinfo
        if self.args.test_skip or "nsPlugin" not in caseinfo["plugins"]:
            return
        n = self._names()
        t2 = time.monotonic()
        netns_del(n["NS"])
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
