#!/usr/bin/env bash
# Netlink fuzzing of every qdisc (scripts/aqmtools/nlfuzz.py): random,
# boundary and malformed options through create, replace and change,
# mixed with deletes and statistics dumps, AQM_FUZZ_N requests (default
# 10000) per qdisc and place:
# - as the root qdisc of a dummy device;
# - as the leaf of an htb class at 10 Mbit/s with a standing backlog (UDP
#   at 20 Mbit/s through it the whole time); when the traffic stops, the
#   htb root and its class drain to qlen 0 and backlog 0.
# Each request must be refused with the qdisc untouched, or accepted with a
# dump that shows what was set. The guest checks the kernel log and, on the
# debug kernel, kmemleak.
set -euo pipefail
# shellcheck source=selftests/net/lib.sh
. "$(dirname "$0")/../net/lib.sh"

top=$(cd "$(dirname "$0")/../.." && pwd)
python=${AQM_CACHE:?}/venv/bin/python3
spec=$top/Documentation/netlink/specs/tc-aqm.yaml
count=${AQM_FUZZ_N:-10000}
seed=${AQM_FUZZ_SEED:-$RANDOM}
KINDS=(pi rem ared riops dcn afd blue sfb)
ns="aqm-fuzz-$$"

tap_plan $((3 * ${#KINDS[@]}))
echo "# seed $seed, $count requests per qdisc and place" >&2

# fuzz NS DEV PARENT HANDLE KIND: one TAP result, printed by nlfuzz.py
fuzz() {
	local ns=$1 rc=0
	shift
	_tap_n=$((_tap_n + 1))
	ip netns exec "$ns" env NLFUZZ_TAP_N=$_tap_n PYTHONPATH="$top/scripts" \
		"$python" -m aqmtools.nlfuzz "$spec" "$@" "$count" "$seed" || rc=$?
	[ "$rc" -eq 0 ] || _tap_failed=$((_tap_failed + 1))
}

# 1. the root qdisc of a dummy device, no traffic
ip netns add "$ns"
trap 'ip netns del "$ns" 2>/dev/null || true; dumbbell_cleanup' EXIT
ip -n "$ns" link add dummy1 type dummy
ip -n "$ns" link set dummy1 up
for k in "${KINDS[@]}"; do
	fuzz "$ns" dummy1 root 1: "$k"
done
ip netns del "$ns"

# 2. the leaf of an htb class with a standing backlog
dumbbell_setup 20
for k in "${KINDS[@]}"; do
	dumbbell_qdisc pfifo limit 1000
	ns_rcv iperf3 -s -1 -D -p 5301 >/dev/null
	sleep 0.3
	ns_snd iperf3 -c "$RCV_IP" -p 5301 -u -b 20mbit -l 1400 -t 3600 >/dev/null 2>&1 &
	sleep 2
	fuzz "$NS_RTR" "$BOTTLENECK_DEV" 1:1 10: "$k"
	ip netns pids "$NS_SND" | xargs -r kill 2>/dev/null || true
	ip netns pids "$NS_RCV" | xargs -r kill 2>/dev/null || true
	wait || true
	sleep 2
	root=$(backlog_of qdisc show dev "$BOTTLENECK_DEV" root)
	class=$(backlog_of class show dev "$BOTTLENECK_DEV" classid 1:1)
	tap_result $((root != 0 || class != 0)) \
		"$k: after the fuzzing under load, the htb root and class 1:1 drain (qlen + backlog: root $root, class $class)"
done
tap_exit
