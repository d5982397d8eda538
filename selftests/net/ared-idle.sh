#!/usr/bin/env bash
# sch_ared's idle period, when an arrival into the empty queue is dropped
# (4c79f3c). After an idle time t the average decays by exp(-t) (Floyd's
# rule, include/net/aqm_ared.h); an arrival ends the idle period. If that
# arrival is dropped, the queue is as empty as before and must count as
# idle from then on: otherwise every later arrival decays the average by
# w = 1/C only (C = 1250 packets/s at 10 Mbit/s of 1000-byte packets), and
# with the average above max_th every one of them is dropped into the
# empty queue. Under htb nothing else restarts the idle period: htb does
# not ask an empty class for packets (a parent that peeks, as tbf does,
# calls the leaf's dequeue, which would). TCP backing off one
# retransmission a second waits ln(avg / max_th) C seconds: 4 TCP flows
# stalled so for minutes once in check-distro on Debian 12.
#  - a flood into an htb class of 1 Mbit/s (about 120 of its packets a
#    second) drives the average far above max_th (nogentle: every arrival
#    above it is dropped) and the queue drains in about a second;
#  - then a ping a second: the first are dropped while the average decays
#    by exp(-1) a second, then they pass (about 8 of 12 expected; before
#    4c79f3c none did, the average stuck where the first drop left it).
# Timing is in seconds, so the bounds hold on a busy VM.
# aqm-selftest: beside-tdc
set -euo pipefail
# shellcheck source=selftests/net/lib.sh
. "$(dirname "$0")/lib.sh"

ns="aqm-aredidle-$$"
PROBES=12
tap_plan 3
trap 'ip netns del "$ns" 2>/dev/null || true' EXIT
dummy_leaf_setup "$ns" htb 1mbit
tc -n "$ns" qdisc add dev dummy1 parent 1:1 handle 10: ared limit 100 min 2 max 4 \
	nogentle noadaptive bandwidth 10mbit avpkt 1000

# leaf: "QAVG SENT QLEN" of the ared qdisc, from tc's text (no python3:
# it takes a second and more to start in the VM, and the idle time counts)
leaf() {
	tc -n "$ns" -s qdisc show dev dummy1 parent 1:1 | awk '
		/ Sent / { sent = $4 }
		/ backlog / { q = $3; sub(/p$/, "", q) }
		/ qavg / { for (i = 1; i < NF; i++) if ($i == "qavg") a = $(i + 1) }
		END { print a + 0, sent + 0, q + 0 }'
}

# 3000 datagrams, far faster than the class: the queue fills in the first
# hundred, and the average follows it by w per arrival. (The queue holds
# its datagrams' memory: a send buffer above it, SO_SNDBUFFORCE = 32, and
# MSG_DONTWAIT, so that sendto cannot block.)
ip netns exec "$ns" python3 -c '
import socket
s = socket.socket(socket.AF_INET, socket.SOCK_DGRAM)
s.setsockopt(socket.SOL_SOCKET, 32, 1 << 25)
for _ in range(3000):
    try:
        s.sendto(b"x" * 1000, socket.MSG_DONTWAIT, ("10.99.0.2", 9))
    except BlockingIOError:
        pass
'
read -r qavg _ qlen <<<"$(leaf)"
echo "# after the flood: qavg $qavg, queue $qlen packets" >&2
tap_cmp "the flood drives the average above 2 max_th (packets)" "$qavg" ">=" 8

# the queue drains at the class's rate (under a second); then it is idle,
# its average high: the first probe must come while exp(-t) of it is
# still above max_th (t < ln(qavg / 4), 3 s for 86)
sleep 1
read -r _ sent0 qlen <<<"$(leaf)"
ip netns exec "$ns" ping -q -c "$PROBES" -i 1 -W 0.1 10.99.0.2 >/dev/null 2>&1 || true
read -r qavg sent1 _ <<<"$(leaf)"
passed=$((sent1 - sent0 - qlen))
echo "# probes passed $passed of $PROBES (queue $qlen before them), qavg at the end $qavg" >&2
tap_cmp "probes pass once the average has decayed over the idle time (of $PROBES)" \
	"$passed" ">=" 5
tap_cmp "the average decayed below min_th (packets)" "$qavg" "<" 2
tap_exit
