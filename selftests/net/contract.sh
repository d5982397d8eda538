#!/usr/bin/env bash
# The qdisc contract (../shared/qdisc-contract.md) under real traffic, for
# every qdisc of the project: it passes traffic as the root qdisc, as the
# children of mq and as the leaf of htb and tbf; qlen and backlog stay
# exact (the parents end at 0) through a lower limit, a reset (link down)
# and deletion, all under load; the kernel log stays clean (guest.sh).
#
# QDISCS: "CONFIG|CHANGE" per line, CHANGE being the options that lower
# the limit to 5 packets; add each new qdisc here.
set -euo pipefail
# shellcheck source=selftests/net/lib.sh
. "$(dirname "$0")/lib.sh"

QDISCS=(
	"pi limit 200 bytemode ecn|limit 5"
	"dcn limit 200 ecn|limit 5 qref 2"
	"afd limit 200 qref 20 ecn|limit 5 qref 2"
	"blue limit 200 threshold 100 ecn|limit 5 threshold 2"
)
PER_QDISC=8
tap_plan $((${#QDISCS[@]} * PER_QDISC))
AQM_TXQUEUES=4 dumbbell_setup 20

dev=$BOTTLENECK_DEV
qd_json() { ns_rtr tc -s -j qdisc show dev "$dev"; }

# sum_children KEY: KEY summed over the non-root qdiscs of rtr1
sum_children() {
	qd_json | json_get "sum(q.get('$1', 0) for q in j if not q.get('root'))"
}

# root_field KEY: KEY of rtr1's root qdisc
root_field() {
	qd_json | json_get "[q for q in j if q.get('root')][0]['$1']"
}

# set_root QDISC...: a new root qdisc of another kind (replace cannot)
set_root() {
	ns_rtr tc qdisc del dev "$dev" root 2>/dev/null || true
	ns_rtr tc qdisc add dev "$dev" root handle 1: "$@"
}

# traffic SECS: 4 TCP flows in the background; sets $iperf
traffic() {
	iperf_run "$1" 4 >/dev/null &
	iperf=$!
	sleep 1
}

for entry in "${QDISCS[@]}"; do
	cfg=${entry%%|*}
	read -r -a qd <<<"$cfg"
	read -r -a lower <<<"${entry#*|}"
	kind=${qd[0]}

	# as the root qdisc of rtr1
	set_root "${qd[@]}"
	traffic 2
	wait "$iperf"
	tap_cmp "$cfg: passes traffic as root (packets)" "$(root_field packets)" ">" 1000

	# as the children of mq, one per transmit queue
	set_root mq
	for i in 1 2 3 4; do
		ns_rtr tc qdisc replace dev "$dev" parent "1:$i" handle "$((i + 1))0:" "${qd[@]}"
	done
	n=$(qd_json | json_get "len([q for q in j if q['kind'] == '$kind'])")
	tap_cmp "$cfg: one instance per queue under mq" "$n" "==" 4
	traffic 2
	wait "$iperf"
	tap_cmp "$cfg: passes traffic under mq (packets)" "$(sum_children packets)" ">" 1000

	# as the child of tbf
	set_root tbf rate 10mbit burst 15k latency 200ms
	ns_rtr tc qdisc add dev "$dev" parent 1:1 handle 10: "${qd[@]}"
	traffic 2
	wait "$iperf"
	tap_cmp "$cfg: passes traffic as the child of tbf (packets)" "$(sum_children packets)" ">" 300

	# as the leaf of the htb bottleneck: lower limit, reset and delete
	# under load, then every counter of the parents must come back to 0
	set_root htb default 1
	ns_rtr tc class add dev "$dev" parent 1: classid 1:1 htb rate 10mbit ceil 10mbit burst 15k cburst 15k
	ns_rtr tc qdisc add dev "$dev" parent 1:1 handle 10: "${qd[@]}"
	traffic 6
	sleep 1
	ns_rtr tc qdisc change dev "$dev" parent 1:1 handle 10: "$kind" "${lower[@]}"
	tap_cmp "$cfg: qlen within a lowered limit at once" "$(sum_children qlen)" "<=" 5
	sleep 1
	ns_rtr ip link set "$dev" down
	ns_rtr ip link set "$dev" up
	sleep 1
	ns_rtr tc qdisc del dev "$dev" parent 1:1 handle 10:
	wait "$iperf" || true
	sleep 1
	tap_cmp "$cfg: htb root backlog exact after change/reset/delete (bytes)" \
		"$(root_field backlog)" "==" 0
	tap_cmp "$cfg: htb root qlen exact after change/reset/delete" \
		"$(root_field qlen)" "==" 0
	# the qdisc itself: after the traffic its own backlog is 0
	ns_rtr tc qdisc add dev "$dev" parent 1:1 handle 10: "${qd[@]}"
	traffic 2
	wait "$iperf"
	sleep 1
	tap_cmp "$cfg: own backlog 0 once drained (bytes)" "$(sum_children backlog)" "==" 0
	ns_rtr tc qdisc del dev "$dev" root
done
tap_exit
