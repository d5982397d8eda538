"""A start line for a run's processes: spawned one by one, they start
together.

Spawning a run's iperf3 and webgen processes one after the other takes
time in the test VM: with 32 UDP floods already sending, the 40 TCP
flows of unresponsive-10mbit were spawned 15 to 80 s after the run's
start (every run published before 2026-11-29; the measured window opened
at 10 s, so its first part saw the UDP flows alone). A process wrapped by
Gate.wrap() is spawned as before but waits at the line: it says so with a
byte, then blocks reading its standard input, one end of a socket pair
that every held process shares. release() closes the other end, and every
process reads end-of-file at once, sleeps its own offset (its seeded start
and its step) and execs its program. wait_ready() waits until all the
held processes are at the line, so that the release, not the spawning,
decides when they start.

The wrapper is POSIX sh (dash in the guest): "printf x >&0" writes the
byte to the shared socket, "read" blocks on it. Used as the spawned
process's stdin (Gate.fileno()); the program then runs with /dev/null.
"""

from __future__ import annotations

import select
import socket
import time

from aqmtools.bench.testbed import Cmd


def delayed(cmd: Cmd, delay: float, before: str = "") -> Cmd:
    """CMD run by sh after BEFORE (sh commands, each ending in "; ") and
    DELAY seconds; CMD itself without either."""
    wait = f"sleep {delay:g}; " if delay > 0 else ""
    if not before and not wait:
        return cmd
    return ["sh", "-c", f'{before}{wait}exec "$@"', "sh", *cmd]


class Gate:
    """Processes held at a start line until release()."""

    def __init__(self) -> None:
        self._ours, self._theirs = socket.socketpair()
        self.held = 0
        self.ready = 0
        self._open = True

    def fileno(self) -> int:
        """The descriptor a held process takes as its standard input."""
        return self._theirs.fileno()

    def wrap(self, cmd: Cmd, delay: float = 0.0) -> Cmd:
        """CMD held at the line, then started DELAY seconds after the
        release; spawned with fileno() as its standard input."""
        self.held += 1
        return delayed(cmd, delay, "printf x >&0; read _; exec </dev/null; ")

    def wait_ready(self, timeout: float) -> int:
        """Wait until every held process is at the line, at most TIMEOUT
        seconds; how many are. Nothing more may be spawned on the gate."""
        self._close_theirs()
        end = time.monotonic() + timeout
        while self.ready < self.held:
            left = end - time.monotonic()
            if left <= 0 or not select.select([self._ours], [], [], left)[0]:
                break
            got = self._ours.recv(4096)
            if not got:
                break
            self.ready += len(got)
        return self.ready

    def release(self) -> None:
        """Let every held process go (those not yet at the line pass it
        when they reach it)."""
        self._close_theirs()
        self._ours.close()

    def _close_theirs(self) -> None:
        # the held processes have their copies; ours would keep the
        # socket pair's other end from seeing them all gone
        if self._open:
            self._theirs.close()
            self._open = False
