#!/usr/bin/env bash
# Soak: AQM_SOAK_SECS (default 600) of mixed traffic through each qdisc,
# the htb leaf at the 10 Mbit/s, 40 ms dumbbell: 8 TCP flows restarted in
# waves of 30 s, a UDP flow at half the link, pings of 56 to 1400 bytes,
# and a `tc qdisc change` between two configurations every 10 s. The
# kernel's slab usage (/proc/meminfo, after dropping caches) is read once
# the traffic runs and again at the end: it must not grow by more than
# 2 MB per qdisc. No splat and no kmemleak report: the guest checks those
# after this test (make check-debug).
set -euo pipefail
# shellcheck source=selftests/net/lib.sh
. "$(dirname "$0")/../net/lib.sh"

SECS=${AQM_SOAK_SECS:-600}
QDISCS=(
	"pi|limit 1000 qref 50 ecn|limit 500 qref 30"
	"dcn|limit 1000 qref 50 ecn|limit 500 qref 30"
	"afd|limit 1000 qref 50 ecn|limit 500 qref 30"
	"blue|limit 1000 threshold 200 ecn|limit 500 threshold 100"
	"sfb|limit 1000|limit 500 rehash 5000 db 2000 warm_raise"
)

tap_plan ${#QDISCS[@]}
dumbbell_setup 40
dev=$BOTTLENECK_DEV

slab_kb() {
	sync
	echo 3 >/proc/sys/vm/drop_caches
	awk '/^Slab:/ { print $2 }' /proc/meminfo
}

for entry in "${QDISCS[@]}"; do
	IFS='|' read -r kind cfg_a cfg_b <<<"$entry"
	read -r -a a <<<"$cfg_a"
	read -r -a b <<<"$cfg_b"
	dumbbell_qdisc "$kind" "${a[@]}"
	end=$((SECONDS + SECS))
	ns_rcv iperf3 -s -D -p 5301 >/dev/null
	ns_rcv iperf3 -s -D -p 5201 >/dev/null
	ns_snd iperf3 -c "$RCV_IP" -p 5301 -u -b 5mbit -l 1200 -t "$SECS" >/dev/null 2>&1 &
	ns_snd ping -q -i 0.2 -s 56 -w "$SECS" "$RCV_IP" >/dev/null 2>&1 &
	ns_snd ping -q -i 0.5 -s 1400 -w "$SECS" "$RCV_IP" >/dev/null 2>&1 &
	start_kb=""
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
		[ -n "$start_kb" ] || start_kb=$(slab_kb)
	done
	ip netns pids "$NS_SND" | xargs -r kill 2>/dev/null || true
	ip netns pids "$NS_RCV" | xargs -r kill 2>/dev/null || true
	wait || true
	sleep 2
	end_kb=$(slab_kb)
	left=$(($(backlog_of qdisc show dev "$dev" root) + $(backlog_of class show dev "$dev" classid 1:1)))
	grown=$((end_kb - start_kb))
	echo "# $kind: slab $start_kb kB after the first wave, $end_kb kB at the end" >&2
	tap_result $((grown > 2048 || left != 0)) \
		"$kind: ${SECS} s of mixed traffic, $changes changes: slab grew $grown kB (<= 2048), the htb drains ($left left)"
done
tap_exit
