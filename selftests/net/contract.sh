#!/usr/bin/env bash
# The qdisc contract (../shared/qdisc-contract.md) under real traffic, for
# every qdisc of the project: it passes traffic as the root qdisc, as the
# children of mq and as the leaf of htb and tbf; qlen and backlog stay
# exact (the parents end at 0) through a lower limit, a reset (link down)
# and deletion, all under load; the kernel log stays clean (guest.sh).
# The qdiscs go through it in two dumbbells at once, half each.
#
# QDISCS: "CONFIG|CHANGE" per line, CHANGE being the options that lower
# the limit to 5 packets; add each new qdisc here.
# aqm-selftest: beside-tdc
set -euo pipefail
# shellcheck source=selftests/net/lib.sh
. "$(dirname "$0")/lib.sh"

QDISCS=(
	"pi limit 200 bytemode ecn|limit 5"
	"rem limit 200 rate 10mbit avpkt 1514 ecn|limit 5 qref 2"
	"ared limit 200 bytemode min 15000 max 45000 bandwidth 10mbit avpkt 1514 ecn ecn_gentle|limit 5"
	"riops limit 200 ecn|limit 5"
	"dcn limit 200 ecn|limit 5 qref 2"
	"afd limit 200 qref 20 ecn|limit 5 qref 2"
	"blue limit 200 threshold 100 ecn|limit 5 threshold 2"
	"sfb limit 200|limit 5"
	"sfb limit 200 red|limit 5 red_min 1 red_max 2"
)
PER_QDISC=8
tap_plan $((${#QDISCS[@]} * PER_QDISC))
tmp=$(mktemp -d)
dev=$BOTTLENECK_DEV
# snap NAME: tc -s -j of rtr1's qdiscs into $tmp/NAME.json, read at the end
# (python3 takes 1.5 s to start in the TCG VM: one reads every snapshot)
snap() { ns_rtr tc -s -j qdisc show dev "$dev" >"$tmp/$1.json"; }

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

# entry I: the contract's steps for QDISCS[I], snapshots named I-STEP
entry() {
	local i=$1 entry=${QDISCS[$1]} cfg kind n
	local -a qd lower
	cfg=${entry%%|*}
	read -r -a qd <<<"$cfg"
	read -r -a lower <<<"${entry#*|}"
	kind=${qd[0]}

	# as the root qdisc of rtr1
	set_root "${qd[@]}"
	traffic 1
	wait "$iperf"
	snap "$i-root"

	# as the children of mq, one per transmit queue
	set_root mq
	for n in 1 2 3 4; do
		ns_rtr tc qdisc replace dev "$dev" parent "1:$n" handle "$((n + 1))0:" "${qd[@]}"
	done
	snap "$i-mq-made"
	traffic 1
	wait "$iperf"
	snap "$i-mq"

	# as the child of tbf
	set_root tbf rate 10mbit burst 15k latency 200ms
	ns_rtr tc qdisc add dev "$dev" parent 1:1 handle 10: "${qd[@]}"
	traffic 1
	wait "$iperf"
	snap "$i-tbf"

	# as the leaf of the htb bottleneck: lower limit, reset and delete
	# under load, then every counter of the parents must come back to 0
	set_root htb default 1
	ns_rtr tc class add dev "$dev" parent 1: classid 1:1 htb rate 10mbit ceil 10mbit burst 15k cburst 15k
	ns_rtr tc qdisc add dev "$dev" parent 1:1 handle 10: "${qd[@]}"
	traffic 6
	sleep 1
	ns_rtr tc qdisc change dev "$dev" parent 1:1 handle 10: "$kind" "${lower[@]}"
	snap "$i-lowered"
	sleep 1
	ns_rtr ip link set "$dev" down
	ns_rtr ip link set "$dev" up
	sleep 1
	ns_rtr tc qdisc del dev "$dev" parent 1:1 handle 10:
	wait "$iperf" || true
	sleep 1
	snap "$i-deleted"
	# the qdisc itself: after the traffic its own backlog is 0
	ns_rtr tc qdisc add dev "$dev" parent 1:1 handle 10: "${qd[@]}"
	traffic 1
	wait "$iperf"
	sleep 1
	snap "$i-drained"
	ns_rtr tc qdisc del dev "$dev" root
}

# part K: the entries I with I % 2 == K, in a dumbbell of its own (its
# namespaces named by the subshell's pid): the two parts run at once,
# since nothing here depends on speed
part() {
	local i
	NS_SND="aqm-snd-$BASHPID"
	NS_RTR="aqm-rtr-$BASHPID"
	NS_RCV="aqm-rcv-$BASHPID"
	AQM_TXQUEUES=4 dumbbell_setup 20
	for ((i = $1; i < ${#QDISCS[@]}; i += 2)); do
		entry "$i"
	done
}

part 0 &
p0=$!
part 1 &
p1=$!
rc0=0 rc1=0
wait "$p0" || rc0=$?
wait "$p1" || rc1=$?
echo "# the two parts ended with status $rc0 and $rc1" >&2

# --- read every snapshot with one python3: "I FIELD VALUE" per line --------
# root FIELD: of the root qdisc; children FIELD: summed over the others;
# kind: instances of the kind under test
python3 - "$tmp" "${#QDISCS[@]}" "${QDISCS[@]}" >"$tmp/values" <<'PY'
import json
import sys

tmp, n, cfgs = sys.argv[1], int(sys.argv[2]), sys.argv[3:]


def load(name):
    with open(f"{tmp}/{name}.json") as f:
        return json.load(f)


def root(j, key):
    return [q for q in j if q.get("root")][0][key]


def children(j, key):
    return sum(q.get(key, 0) for q in j if not q.get("root"))


for i in range(n):
    kind = cfgs[i].split()[0]
    made = load(f"{i}-mq-made")
    vals = {
        "root_packets": root(load(f"{i}-root"), "packets"),
        "mq_instances": len([q for q in made if q["kind"] == kind]),
        "mq_packets": children(load(f"{i}-mq"), "packets"),
        "tbf_packets": children(load(f"{i}-tbf"), "packets"),
        "lowered_qlen": children(load(f"{i}-lowered"), "qlen"),
        "deleted_backlog": root(load(f"{i}-deleted"), "backlog"),
        "deleted_qlen": root(load(f"{i}-deleted"), "qlen"),
        "drained_backlog": children(load(f"{i}-drained"), "backlog"),
    }
    for k, v in vals.items():
        print(i, k, v)
PY
# val I FIELD: one value read above
val() { awk -v i="$1" -v k="$2" '$1 == i && $2 == k { print $3 }' "$tmp/values"; }

i=0
for entry in "${QDISCS[@]}"; do
	cfg=${entry%%|*}
	tap_cmp "$cfg: passes traffic as root (packets)" "$(val $i root_packets)" ">" 1000
	tap_cmp "$cfg: one instance per queue under mq" "$(val $i mq_instances)" "==" 4
	tap_cmp "$cfg: passes traffic under mq (packets)" "$(val $i mq_packets)" ">" 1000
	tap_cmp "$cfg: passes traffic as the child of tbf (packets)" "$(val $i tbf_packets)" ">" 300
	tap_cmp "$cfg: qlen within a lowered limit at once" "$(val $i lowered_qlen)" "<=" 5
	tap_cmp "$cfg: htb root backlog exact after change/reset/delete (bytes)" \
		"$(val $i deleted_backlog)" "==" 0
	tap_cmp "$cfg: htb root qlen exact after change/reset/delete" \
		"$(val $i deleted_qlen)" "==" 0
	tap_cmp "$cfg: own backlog 0 once drained (bytes)" "$(val $i drained_backlog)" "==" 0
	i=$((i + 1))
done
rm -rf "$tmp"
tap_exit
