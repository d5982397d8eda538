#!/usr/bin/env bash
# A change that lowers the limit tells the parents what it dropped, and a
# change that drops nothing tells them nothing: qdisc_tree_reduce_backlog()
# counted by a kprobe event, for each qdisc that trims through
# aqm_qdisc_trim_to() (include/net/aqm_qdisc.h), as the leaf of a slow htb
# class on a dummy device. Telling a parent that an empty child emptied
# would deactivate its class again, which a parent whose qlen_notify is not
# idempotent (some, before 2025) does not survive; sch_sfb's own trim has
# always held back. Only this script's processes are traced
# (set_event_pid with event-fork), so tdc beside it does not count.
# aqm-selftest: beside-tdc
set -euo pipefail
# shellcheck source=selftests/net/lib.sh
. "$(dirname "$0")/lib.sh"

# "CONFIG|LOWER|LOWEST": the leaf, a change to a lower limit than its
# queue, one below the queue (5 packets), as contract.sh sets them
QDISCS=(
	"pi limit 100 qref 20|limit 50|limit 5 qref 2"
	"rem limit 100 rate 10mbit qref 20|limit 50|limit 5 qref 2"
	"ared limit 100 min 2 max 4|limit 50|limit 5"
	"riops limit 100|limit 50|limit 5"
	"dcn limit 100 qref 20|limit 50|limit 5 qref 2"
	"afd limit 100 qref 20|limit 50|limit 5 qref 2"
	"blue limit 100 threshold 40|limit 50|limit 5 threshold 2"
)
tap_plan $((${#QDISCS[@]} * 3))

ns="aqm-notify-$$"
tr=/sys/kernel/tracing
ev=aqm_notify/reduce

# shellcheck disable=SC2317  # called by the trap
cleanup() {
	if [ -d "$tr/events/aqm_notify" ]; then
		echo 0 >"$tr/events/$ev/enable" 2>/dev/null || true
		echo "-:$ev" >>"$tr/kprobe_events" 2>/dev/null || true
	fi
	[ ! -w "$tr/set_event_pid" ] || : >"$tr/set_event_pid"
	[ ! -w "$tr/options/event-fork" ] || echo 0 >"$tr/options/event-fork"
	ip netns del "$ns" 2>/dev/null || true
}
trap cleanup EXIT

[ -d "$tr/events" ] || mount -t tracefs nodev "$tr" 2>/dev/null || true
# x86-64: the first three arguments in rdi, rsi, rdx
if [ "$(uname -m)" != x86_64 ] || [ ! -w "$tr/kprobe_events" ] ||
	! echo "p:$ev qdisc_tree_reduce_backlog n=%si:s32 len=%dx:s32" >>"$tr/kprobe_events" 2>/dev/null; then
	for q in "${QDISCS[@]}"; do
		for _ in 1 2 3; do
			tap_skip "${q%% *}: no kprobe events on this kernel or machine"
		done
	done
	exit 0
fi
echo $$ >"$tr/set_event_pid"
echo 1 >"$tr/options/event-fork"
echo 1 >"$tr/events/$ev/enable"

# 100 bit/s: nothing leaves while a case runs, so the queue stands still
# between reading it and changing the limit. (At 8 kbit/s one packet left
# a second, and CI, slower, counted 26 -> 4 and n=21 for 22.)
dummy_leaf_setup "$ns" htb

# calls: "COUNT N" of the traced calls since the last clear, N the
# packets the last one reported (-1: none)
calls() {
	awk '/ reduce: / { c++; for (i = 1; i <= NF; i++) if ($i ~ /^n=/) n = substr($i, 3) }
		END { print c + 0, (c ? n : -1) }' "$tr/trace"
}

leaf_qlen() {
	tc -n "$ns" -s -j qdisc show dev dummy1 parent 1:1 |
		sed -n 's/.*"qlen":\([0-9]*\).*/\1/p'
}

for entry in "${QDISCS[@]}"; do
	IFS='|' read -r cfg mid low <<<"$entry"
	read -r -a qd <<<"$cfg"
	read -r -a mid <<<"$mid"
	read -r -a low <<<"$low"
	kind=${qd[0]}
	tc -n "$ns" qdisc replace dev dummy1 parent 1:1 handle 10: "${qd[@]}"

	# an empty queue, a lower limit: nothing dropped, nobody told
	: >"$tr/trace"
	tc -n "$ns" qdisc change dev dummy1 parent 1:1 handle 10: "$kind" "${mid[@]}"
	read -r c n <<<"$(calls)"
	tap_strict tap_cmp "$kind: calls of qdisc_tree_reduce_backlog() by a change that drops nothing" \
		"$c" == 0

	# a standing queue, the limit below it: one call with what went
	# 30 UDP datagrams of 1000 bytes at once (ping paces itself when no
	# reply comes: it left 5 packets at most)
	ip netns exec "$ns" bash -c \
		'for i in {1..30}; do head -c 1000 /dev/zero >/dev/udp/10.99.0.2/9; done' 2>/dev/null || true
	before=$(leaf_qlen)
	: >"$tr/trace"
	tc -n "$ns" qdisc change dev dummy1 parent 1:1 handle 10: "$kind" "${low[@]}"
	read -r c n <<<"$(calls)"
	after=$(leaf_qlen)
	tap_strict tap_result "$([ "$c" -eq 1 ] && [ "$n" -eq $((before - after)) ] && echo 0 || echo 1)" \
		"$kind: a change that drops $((before - after)) packets calls it once with them ($c calls, n=$n)"
	tap_strict tap_result "$([ "$before" -gt 5 ] && [ "$after" -eq 5 ] && echo 0 || echo 1)" \
		"$kind: the queue held more than the new limit and was trimmed to it ($before -> $after)"
	tc -n "$ns" qdisc del dev dummy1 parent 1:1 handle 10:
done
tap_exit
