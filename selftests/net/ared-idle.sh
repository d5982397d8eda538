#!/usr/bin/env bash
# sch_ared's idle period, when an arrival into the empty queue is dropped
# (4c79f3c). After an idle time t the average decays by exp(-t) (Floyd's
# rule, include/net/aqm_ared.h); an arrival ends the idle period. If that
# arrival is dropped, the queue is as empty as before and must count as
# idle from then on: otherwise every later arrival decays the average by
# w = 1/C only (C = 1250 packets/s at 10 Mbit/s of 1000-byte packets), and
# with the average above max_th every one of them is dropped into the
# empty queue. TCP backing off one retransmission a second would wait
# ln(avg / max_th) C seconds: 4 TCP flows stalled so for minutes once in
# check-distro on Debian 12.
#  - a flood into a standing queue (a tbf parent at 100 bit/s) drives the
#    average far above max_th (nogentle: every arrival above it dropped);
#  - the parent is opened (tbf change refills its bucket) and the first
#    probe lets the queue drain: the queue is idle, the average high;
#  - a ping a second: the first few are dropped while the average decays
#    by exp(-1) a second, then they pass (about 8 of 12; before 4c79f3c
#    none passed, the average stuck near exp(-1) of the flood's).
# Timing is in seconds, so the bounds hold on a busy VM.
# aqm-selftest: beside-tdc
set -euo pipefail
# shellcheck source=selftests/net/lib.sh
. "$(dirname "$0")/lib.sh"

ns="aqm-aredidle-$$"
PROBES=12
tap_plan 3
trap 'ip netns del "$ns" 2>/dev/null || true' EXIT
dummy_leaf_setup "$ns" tbf
tc -n "$ns" qdisc add dev dummy1 parent 1:1 handle 10: ared limit 100 min 2 max 4 \
	nogentle noadaptive bandwidth 10mbit avpkt 1000

# leaf: "QAVG SENT QLEN" of the ared qdisc
leaf() {
	tc -n "$ns" -s -j qdisc show dev dummy1 parent 1:1 |
		python3 -c 'import json, sys; q = json.load(sys.stdin)[0]; print(q["qavg"], q["packets"], q["qlen"])'
}

# 3000 datagrams: the queue fills in the first hundred (until the average
# passes max_th), and the average follows it by w per arrival
# (the standing queue holds its datagrams' memory: a send buffer larger
# than 100 of them, SO_SNDBUFFORCE = 32, or sendto would block for good;
# and MSG_DONTWAIT, so that nothing can)
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
read -r qavg _ qlen0 <<<"$(leaf)"
echo "# after the flood: qavg $qavg, queue $qlen0 packets" >&2
tap_cmp "the flood drives the average above 2 max_th (packets)" "$qavg" ">=" 8

tc -n "$ns" qdisc change dev dummy1 root handle 1: tbf rate 1gbit burst 200000 limit 1000000
read -r _ sent0 _ <<<"$(leaf)"
ip netns exec "$ns" ping -q -c "$PROBES" -i 1 -W 0.1 10.99.0.2 >/dev/null 2>&1 || true
read -r qavg sent1 _ <<<"$(leaf)"
# the first probe drains the queued packets; the rest sent are probes
passed=$((sent1 - sent0 - qlen0))
echo "# probes passed $passed of $PROBES, qavg at the end $qavg" >&2
tap_cmp "probes pass once the average has decayed over the idle time (of $PROBES)" \
	"$passed" ">=" 5
tap_cmp "the average decayed below min_th (packets)" "$qavg" "<" 2
tap_exit
