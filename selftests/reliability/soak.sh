#!/usr/bin/env bash
# Soak: AQM_SOAK_SECS (default 600) of mixed traffic through each qdisc,
# the htb leaf at the 10 Mbit/s, 40 ms dumbbell: 8 TCP flows restarted in
# waves of 30 s, a UDP flow at half the link, pings of 56 to 1400 bytes,
# and a `tc qdisc change` between two configurations every 10 s. The
# kernel's slab usage is read before and after, each time with the stack
# at rest (a short first run of each kind of traffic before, so that what
# is allocated once is there; the senders stopped and their sockets
# drained after): it must not grow by more than 2 MB per qdisc. Before
# each reading the page caches are dropped and every slab cache is
# shrunk, which also empties KASAN's quarantine of freed objects
# (kmem_cache_shrink()): on the debug kernel that quarantine holds
# megabytes of freed memory that /proc/meminfo still counts as slab. (Read
# without either, once during the traffic and once 2 s after it, the
# growth was -1,352 to +4,664 kB, and kmemleak found nothing.) The caches
# that grew most are printed beside each result. No splat and no
# kmemleak report: the guest checks those after this test (make
# check-debug).
set -euo pipefail
# shellcheck source=selftests/net/lib.sh
. "$(dirname "$0")/../net/lib.sh"

SECS=${AQM_SOAK_SECS:-600}
QDISCS=(
	"pi|limit 1000 qref 50 ecn|limit 500 qref 30"
	"rem|limit 1000 qref 50 ecn|limit 500 qref 30"
	"ared|limit 1000 min 25 max 75 nobytemode ecn|limit 500 bytemode min 30000 max 90000"
	"riops|limit 1000 short 20 flows 4096 ecn|limit 500 short 10 flows 1024 timeout 500ms"
	"dcn|limit 1000 qref 50 ecn|limit 500 qref 30"
	"afd|limit 1000 qref 50 ecn|limit 500 qref 30"
	"blue|limit 1000 threshold 200 ecn|limit 500 threshold 100"
	"sfb|limit 1000|limit 500 rehash 5000 db 2000 warm_raise"
	"sfb|limit 1000 red|limit 500 rehash 5000 db 2000 nored"
)

tap_plan ${#QDISCS[@]}
dumbbell_setup 40
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"; dumbbell_cleanup' EXIT
dev=$BOTTLENECK_DEV

# slab_settle: drop the page caches, then shrink every slab cache (which
# frees the objects KASAN's quarantine holds back, and the empty slabs)
slab_settle() {
	local c
	sync
	echo 3 >/proc/sys/vm/drop_caches
	for c in /sys/kernel/slab/*/shrink; do
		echo 1 >"$c" 2>/dev/null || true
	done
}

# slab_snapshot FILE: settle, write each cache's bytes in use to FILE
# (name bytes) and print the kernel's slab usage, kB
slab_snapshot() {
	slab_settle
	awk 'NR > 2 { print $1, $2 * $4 }' /proc/slabinfo >"$1"
	awk '/^Slab:/ { print $2 }' /proc/meminfo
}

# slab_top BEFORE AFTER: the three caches that grew most, kB, one line
slab_top() {
	awk 'NR == FNR { b[$1] = $2; next }
	     { printf "%s %d\n", $1, ($2 - b[$1]) / 1024 }' "$1" "$2" |
		sort -k2,2nr | head -3 | awk '{ printf "%s%s %+d kB", s, $1, $2; s = ", " }'
}

# quiesce: wait (at most 30 s) until the sender has no TCP or UDP socket
# left, no closed TCP socket is still draining (orphan, /proc/net/sockstat)
# and the htb holds no packet, so that the readings before and after the
# soak see the stack in the same state. (sockstat's mem is no test: each
# CPU may hold back up to net.core.mem_pcpu_rsv pages of it.)
quiesce() {
	local snd=0 orphans=0
	for _ in $(seq 30); do
		snd=$(ns_snd cat /proc/net/sockstat | awk '/^(TCP|UDP):/ { n += $3 } END { print n + 0 }')
		orphans=$(awk '/^TCP:/ { print $5 }' /proc/net/sockstat)
		[ "$snd" -eq 0 ] && [ "$orphans" -eq 0 ] &&
			[ "$(backlog_of class show dev "$dev" classid 1:1)" -eq 0 ] && return 0
		sleep 1
	done
	echo "# not at rest after 30 s: $snd sockets in the sender, $orphans orphans"
}

for entry in "${QDISCS[@]}"; do
	IFS='|' read -r kind cfg_a cfg_b <<<"$entry"
	read -r -a a <<<"$cfg_a"
	read -r -a b <<<"$cfg_b"
	dumbbell_qdisc "$kind" "${a[@]}"
	ns_rcv iperf3 -s -D -p 5301 >/dev/null
	ns_rcv iperf3 -s -D -p 5201 >/dev/null
	# a first short run of every kind of traffic, so that what the stack
	# allocates once (routes, neighbours, socket caches) is there before
	# the first reading; then the stack at rest
	sleep 0.5
	ns_snd iperf3 -c "$RCV_IP" -p 5301 -u -b 5mbit -l 1200 -t 3 >/dev/null 2>&1 || true
	ns_snd iperf3 -c "$RCV_IP" -p 5201 -P 8 -t 3 >/dev/null 2>&1 || true
	ns_snd ping -q -c 2 -s 1400 "$RCV_IP" >/dev/null 2>&1 || true
	quiesce
	start_kb=$(slab_snapshot "$tmp/caches.start")
	end=$((SECONDS + SECS))
	ns_snd iperf3 -c "$RCV_IP" -p 5301 -u -b 5mbit -l 1200 -t "$SECS" >/dev/null 2>&1 &
	ns_snd ping -q -i 0.2 -s 56 -w "$SECS" "$RCV_IP" >/dev/null 2>&1 &
	ns_snd ping -q -i 0.5 -s 1400 -w "$SECS" "$RCV_IP" >/dev/null 2>&1 &
	changes=0
	while [ "$SECONDS" -lt "$end" ]; do
		ns_snd iperf3 -c "$RCV_IP" -p 5201 -P 8 -t 28 >/dev/null 2>&1 &
		wave=$!
		for _ in 1 2 3; do
			sleep 5
			ns_rtr tc qdisc change dev "$dev" parent 1:1 handle 10: "$kind" "${b[@]}"
			sleep 5
			ns_rtr tc qdisc change dev "$dev" parent 1:1 handle 10: "$kind" "${a[@]}"
			changes=$((changes + 2))
		done
		wait "$wave" || true
	done
	# the senders stop; the receivers' servers stay, as at the start
	ip netns pids "$NS_SND" | xargs -r kill 2>/dev/null || true
	wait || true
	quiesce
	end_kb=$(slab_snapshot "$tmp/caches.end")
	ip netns pids "$NS_RCV" | xargs -r kill 2>/dev/null || true
	left=$(($(backlog_of qdisc show dev "$dev" root) + $(backlog_of class show dev "$dev" classid 1:1)))
	grown=$((end_kb - start_kb))
	echo "# $kind: slab $start_kb kB before, $end_kb kB after;" \
		"grew most: $(slab_top "$tmp/caches.start" "$tmp/caches.end")"
	tap_result $((grown > 2048 || left != 0)) \
		"$kind: ${SECS} s of mixed traffic, $changes changes: slab grew $grown kB (<= 2048), the htb drains ($left left)"
done
tap_exit
