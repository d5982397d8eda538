#!/usr/bin/env bash
# Allocation failure (scripts/aqmtools/failnth.py): for every qdisc, a
# create and a change are run again and again, the n-th allocation of the
# request failing each time (fail-nth, through failslab and
# fail_page_alloc), until none is left to fail. Each failure must leave
# the qdisc as it was (or absent) or, where the code does without the
# allocation, as asked; then the qdisc that the last request configured
# must pass traffic. Leaks on the error paths are kmemleak's (guest.sh
# scans after this test on the debug kernel). Needs fault injection: on
# a kernel without it every result is a skip.
set -euo pipefail
# shellcheck source=selftests/net/lib.sh
. "$(dirname "$0")/../net/lib.sh"

top=$(cd "$(dirname "$0")/../.." && pwd)
python=${AQM_CACHE:?}/venv/bin/python3
spec=$top/Documentation/netlink/specs/tc-aqm.yaml
KINDS=(pi rem ared riops dcn afd blue sfb)
ns="aqm-failnth-$$"

tap_plan $((3 * ${#KINDS[@]}))
if [ ! -e /proc/thread-self/fail-nth ]; then
	for ((i = 1; i <= 3 * ${#KINDS[@]}; i++)); do
		tap_skip "the kernel has no fault injection (make check-debug)"
	done
	exit 0
fi

# fail sleeping and order-0 allocations too (the defaults spare them),
# quietly; here, since debugfs is not mounted under `ip netns exec`
dbg=/sys/kernel/debug
echo N >"$dbg/failslab/ignore-gfp-wait"
echo N >"$dbg/fail_page_alloc/ignore-gfp-wait"
echo N >"$dbg/fail_page_alloc/ignore-gfp-highmem"
echo 0 >"$dbg/fail_page_alloc/min-order"
echo 0 >"$dbg/failslab/verbose"
echo 0 >"$dbg/fail_page_alloc/verbose"

ip netns add "$ns"
trap 'ip netns del "$ns" 2>/dev/null || true' EXIT
ip -n "$ns" link add dummy1 type dummy
ip -n "$ns" link set dummy1 up
ip -n "$ns" addr add 198.51.100.1/24 dev dummy1

for k in "${KINDS[@]}"; do
	for mode in create change; do
		_tap_n=$((_tap_n + 1))
		rc=0
		ip netns exec "$ns" env FAILNTH_TAP_N=$_tap_n PYTHONPATH="$top/scripts" \
			"$python" -m aqmtools.failnth "$spec" dummy1 "$k" "$mode" || rc=$?
		[ "$rc" -eq 0 ] || _tap_failed=$((_tap_failed + 1))
	done
	# the qdisc left by the last change passes traffic (the dummy device
	# drops what it transmits, after the qdisc has sent it)
	ip netns exec "$ns" ping -c 5 -i 0.2 -W 1 198.51.100.2 >/dev/null 2>&1 || true
	sent=$(ip netns exec "$ns" tc -s -j qdisc show dev dummy1 |
		json_get "sum(q['packets'] for q in j if q['kind'] == '$k')")
	tap_cmp "$k: after the failures, its last configuration passes traffic (packets sent)" \
		"$sent" ">=" 5
	ip netns exec "$ns" tc qdisc del dev dummy1 root 2>/dev/null || true
done
tap_exit
