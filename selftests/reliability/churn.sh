#!/usr/bin/env bash
# Change and delete under load, for every qdisc, grafted under htb, tbf
# and mq (4 transmit queues) on the router's bottleneck: with 4 TCP flows
# and a 15 Mbit/s UDP flow through it, `tc qdisc change` every 100 ms
# between two configurations (the second lowers the limit under the
# standing queue) for 5 s, then delete and re-add every 0.5 s for 3 s.
# When the traffic stops the parents drain: root and class qlen and
# backlog back to 0 (never negative, never stuck). After the last delete
# the module unloads (rmmod) and loads again.
set -euo pipefail
# shellcheck source=selftests/net/lib.sh
. "$(dirname "$0")/../net/lib.sh"

top=$(cd "$(dirname "$0")/../.." && pwd)
# KIND|CONFIG A|CONFIG B (B lowers the limit)
QDISCS=(
	"pi|limit 400 qref 50|limit 20 qref 5 ecn"
	"rem|limit 400 qref 50|limit 20 qref 5 ecn"
	"ared|limit 400 min 20 max 60 nobytemode|limit 20 bytemode min 5000 max 15000 ecn"
	"riops|limit 400 flows 1024 in_min 40 in_max 70 out_min 10 out_max 30|limit 20 short 5 flows 64 in_min 8 in_max 16 out_min 2 out_max 6 ecn"
	"dcn|limit 400 qref 50|limit 20 qref 5 ecn"
	"afd|limit 400 qref 50|limit 20 qref 5 ecn"
	"blue|limit 400 threshold 100|limit 20 threshold 5 ecn"
	"sfb|limit 400|limit 20 max 10 target 5"
	"sfb|limit 400 red|limit 20 max 10 target 5 red_min 2 red_max 4"
)
PARENTS=(htb tbf mq)

tap_plan $((${#QDISCS[@]} * (${#PARENTS[@]} + 1)))
tmp_err=$(mktemp)
AQM_TXQUEUES=4 dumbbell_setup 20
dev=$BOTTLENECK_DEV

# leaves PARENT: PARENT,HANDLE of each qdisc under test, one per word
leaves() {
	case $1 in
	htb | tbf) echo "1:1,10:" ;;
	mq) echo "1:1,11: 1:2,12: 1:3,13: 1:4,14:" ;;
	esac
}

# graft_batch PARENT KIND OPTS: tc batch lines that delete the root and
# put PARENT there with KIND on each of its leaves
graft_batch() {
	local parent=$1 kind=$2 l
	shift 2
	echo "qdisc del dev $dev root"
	case $parent in
	htb)
		echo "qdisc add dev $dev root handle 1: htb default 1"
		echo "class add dev $dev parent 1: classid 1:1 htb rate 10mbit ceil 10mbit burst 15k cburst 15k"
		;;
	tbf) echo "qdisc add dev $dev root handle 1: tbf rate 10mbit burst 15k latency 100ms" ;;
	mq) echo "qdisc add dev $dev root handle 1: mq" ;;
	esac
	for l in $(leaves "$parent"); do
		echo "qdisc add dev $dev parent ${l%%,*} handle ${l##*,} $kind $*"
	done
}

# change_batch PARENT KIND OPTS: tc batch lines that change every leaf
change_batch() {
	local parent=$1 kind=$2 l
	shift 2
	for l in $(leaves "$parent"); do
		echo "qdisc change dev $dev parent ${l%%,*} handle ${l##*,} $kind $*"
	done
}

# graft PARENT KIND OPTS: graft_batch's lines through one tc
graft() {
	graft_batch "$@" | ns_rtr tc -force -batch - 2>/dev/null || true
}

# A fifo nothing writes to: `read -t` on it sleeps without a process (a
# fork and exec take a large part of 100 ms on the debug kernel in the
# emulated VM, so the loops below start none).
never=$(mktemp -u)
mkfifo "$never"
exec 4<>"$never"
rm -f "$never"
nap() {
	read -r -t "$1" -u 4 _ || true
}

# queued: qlen + backlog of the root qdisc and every class, and the
# largest single value (a negative count shows as 2^32 - n)
queued() {
	{
		ns_rtr tc -s qdisc show dev "$dev"
		ns_rtr tc -s class show dev "$dev"
	} | awk '/ backlog / { b = $2 + 0; q = $3 + 0; s += b + q; if (b > m) m = b; if (q > m) m = q }
		END { print s + 0, m + 0 }'
}

for entry in "${QDISCS[@]}"; do
	IFS='|' read -r kind cfg_a cfg_b <<<"$entry"
	read -r -a a <<<"$cfg_a"
	read -r -a b <<<"$cfg_b"
	for parent in "${PARENTS[@]}"; do
		graft "$parent" "$kind" "${a[@]}"
		ns_rcv iperf3 -s -1 -D -p 5201 >/dev/null
		ns_rcv iperf3 -s -1 -D -p 5301 >/dev/null
		sleep 0.3
		ns_snd iperf3 -c "$RCV_IP" -p 5201 -P 4 -t 30 >/dev/null 2>&1 &
		ns_snd iperf3 -c "$RCV_IP" -p 5301 -u -b 15mbit -l 1400 -t 30 >/dev/null 2>&1 &
		sleep 1.5
		# one tc reads every change and re-add from a pipe: a tc
		# process per change takes over 100 ms on the debug kernel
		to_b=$(change_batch "$parent" "$kind" "${b[@]}")
		to_a=$(change_batch "$parent" "$kind" "${a[@]}")
		readd=$(graft_batch "$parent" "$kind" "${a[@]}")
		counts=$(
			exec 3> >(ns_rtr tc -force -batch - >/dev/null 2>"$tmp_err")
			tc_pid=$!
			n=0 r=0
			end=$((SECONDS + 5))
			while [ "$SECONDS" -lt "$end" ]; do
				echo "$to_b" >&3
				nap 0.1
				echo "$to_a" >&3
				nap 0.1
				n=$((n + 2))
			done
			end=$((SECONDS + 3))
			while [ "$SECONDS" -lt "$end" ]; do
				echo "$readd" >&3
				nap 0.5
				r=$((r + 1))
			done
			# tc has done all of them before the traffic stops
			exec 3>&-
			wait "$tc_pid" || true
			echo "$n $r"
		)
		read -r changes readds <<<"$counts"
		# errors other than the del of a root already gone
		grep -v "Cannot delete qdisc with handle of zero\|Command failed -:" "$tmp_err" |
			sort -u | head -3 | sed 's/^/# tc batch: /' >&2 || true
		ip netns pids "$NS_SND" | xargs -r kill 2>/dev/null || true
		ip netns pids "$NS_RCV" | xargs -r kill 2>/dev/null || true
		wait || true
		sleep 2
		read -r left biggest < <(queued)
		tap_result $((left != 0 || biggest >= 2147483648)) \
			"$kind under $parent: $changes changes and $readds re-adds under load, then every qdisc and class drains (qlen + backlog left $left, largest $biggest)"
	done
	ns_rtr tc qdisc del dev "$dev" root 2>/dev/null || true
	rc=0
	rmmod "sch_$kind" || rc=$?
	tap_result "$rc" "$kind: rmmod sch_$kind after the last delete"
	insmod "$top/net/sched/sch_$kind.ko" || true
done
# the bottleneck as lib.sh's helpers expect it
ns_rtr tc qdisc del dev "$dev" root 2>/dev/null || true
tap_exit
