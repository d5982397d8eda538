# shellcheck shell=bash
# Helpers for the linux-aqm netns selftests: TAP output and a dumbbell
# topology. Sourced by selftests/net/*.sh and scripts/demo-guest.sh; runs in
# the test VM as root.
#
#   snd ---- rtr ---- rcv        namespaces aqm-snd-$$, aqm-rtr-$$, aqm-rcv-$$
#      snd0  rtr0 rtr1  rcv0      veth pairs; 198.18.1.0/24 and 198.18.2.0/24
#                                 (RFC 2544 benchmarking range) and
#                                 2001:db8:1::/64, 2001:db8:2::/64
#
# AQM_TXQUEUES (default 1) gives rtr1 that many transmit queues, for mq.
# The bottleneck is rtr1's egress: htb rate $AQM_RATE with the qdisc under
# test as the leaf of class 1:1 (handle 10:). netem adds half the RTT on
# snd0 (data) and half on rcv0 (ACKs). Offloads are off on every veth so
# that the qdisc sees wire-sized packets, unless AQM_OFFLOADS=1 (default 0)
# leaves the veth defaults (TSO, GSO on): then TCP's GSO super-packets
# cross the router whole and reach the qdisc under test.

set -euo pipefail

# the project's Python helpers (scripts/aqmtools), for the selftests'
# python3 snippets
# shellcheck disable=SC2034 # used by the scripts that source this file
AQM_PYTHONPATH=$(cd "$(dirname "${BASH_SOURCE[0]}")/../../scripts" && pwd)

# what in a kernel log is a report, not a notice (the taint of our
# unsigned, out-of-tree modules is a notice), on a kernel without the
# debug options (guest.sh adds the lock and leak reports for those)
# shellcheck disable=SC2034 # used by the scripts that source this file
KERNEL_SPLAT_RE='BUG:|WARNING:|Oops|general protection|UBSAN|KASAN|list_del corruption|RCU stall|INFO: task|INFO: rcu|soft lockup'

NS_SND="aqm-snd-$$"
NS_RTR="aqm-rtr-$$"
NS_RCV="aqm-rcv-$$"
RCV_IP=198.18.2.2
RCV_IP6=2001:db8:2::2
BOTTLENECK_DEV=rtr1

# --- TAP ------------------------------------------------------------------
# KSFT_MACHINE_SLOW=yes, as in the kernel's own net selftests: the machine
# is slower than the one the bounds were set on. Here that is the debug
# kernel of make check-debug, where KASAN and lockdep make every packet
# several times dearer; guest.sh sets it there for the selftests that
# measure (those not marked beside-tdc). A check of such a selftest that
# misses its bound is then reported as expected to fail (a TAP TODO, which
# does not fail the run); make check holds the same bound on the test
# kernel. What must hold at any speed (qlen and backlog accounting,
# counters that must agree) goes through tap_strict.
_tap_n=0
_tap_failed=0
_tap_strict=0

tap_plan() {
	echo "1..$1"
}

tap_result() {
	local ok=$1
	shift
	_tap_n=$((_tap_n + 1))
	if [ "$ok" -eq 0 ]; then
		echo "ok $_tap_n $*"
	elif [ "${KSFT_MACHINE_SLOW:-no}" = yes ] && [ "$_tap_strict" -eq 0 ]; then
		echo "not ok $_tap_n $* # TODO bound missed on a slow machine (KSFT_MACHINE_SLOW)"
	else
		echo "not ok $_tap_n $*"
		_tap_failed=$((_tap_failed + 1))
	fi
}

# tap_skip REASON: one check that this machine cannot make, and why
tap_skip() {
	_tap_n=$((_tap_n + 1))
	echo "ok $_tap_n # SKIP $*"
}

# tap_strict TAP_FUNCTION ARGS...: one check that holds at any speed, so
# that it fails on a slow machine too
tap_strict() {
	_tap_strict=1
	"$@"
	_tap_strict=0
}

# tap_cmd DESC CMD...: passes when CMD exits 0
tap_cmd() {
	local desc=$1 rc=0
	shift
	"$@" >&2 || rc=$?
	tap_result "$rc" "$desc"
}

# tap_cmp DESC A OP B: numeric comparison with awk (floats allowed),
# OP one of < <= > >= ==; prints the values into the description
tap_cmp() {
	local desc=$1 a=$2 op=$3 b=$4 rc=1
	awk -v a="$a" -v b="$b" -v op="$op" 'BEGIN {
		if (a == "" || b == "") exit 1
		if (op == "<") exit !(a + 0 < b + 0)
		if (op == "<=") exit !(a + 0 <= b + 0)
		if (op == ">") exit !(a + 0 > b + 0)
		if (op == ">=") exit !(a + 0 >= b + 0)
		if (op == "==") exit !(a + 0 == b + 0)
		exit 1
	}' && rc=0
	tap_result "$rc" "$desc ($a $op $b)"
}

tap_exit() {
	exit $((_tap_failed > 0))
}

# --- topology -------------------------------------------------------------
ns_snd() { ip netns exec "$NS_SND" "$@"; }
ns_rtr() { ip netns exec "$NS_RTR" "$@"; }
ns_rcv() { ip netns exec "$NS_RCV" "$@"; }

dumbbell_cleanup() {
	local ns
	for ns in "$NS_SND" "$NS_RTR" "$NS_RCV"; do
		ip netns pids "$ns" 2>/dev/null | xargs -r kill 2>/dev/null || true
	done
	printf 'netns del %s\n' "$NS_SND" "$NS_RTR" "$NS_RCV" | ip -force -batch - 2>/dev/null || true
}

_offloads_off() {
	local ns=$1 dev=$2
	ip netns exec "$ns" ethtool -K "$dev" tso off gso off gro off >/dev/null 2>&1 || true
}

# dumbbell_setup RTT_MS: build the topology with a pfifo leaf at the
# bottleneck; dumbbell_qdisc replaces it. (ip and tc work in batches and
# with -n: every process costs tens of milliseconds in the emulated VM.)
dumbbell_setup() {
	local rtt=${1:-40} half ns rate=${AQM_RATE:-10mbit}
	half=$(awk -v r="$rtt" 'BEGIN { printf "%.3fms", r / 2 }')
	trap dumbbell_cleanup EXIT
	ip -batch - <<-EOF
		netns add $NS_SND
		netns add $NS_RTR
		netns add $NS_RCV
		link add snd0 netns $NS_SND type veth peer name rtr0 netns $NS_RTR
		link add rtr1 netns $NS_RTR numtxqueues ${AQM_TXQUEUES:-1} type veth peer name rcv0 netns $NS_RCV numrxqueues ${AQM_TXQUEUES:-1}
	EOF
	ip -n "$NS_SND" -batch - <<-EOF
		addr add 198.18.1.2/24 dev snd0
		addr add 2001:db8:1::2/64 dev snd0 nodad
		link set lo up
		link set snd0 up
		route add default via 198.18.1.1
		route add default via 2001:db8:1::1
	EOF
	ip -n "$NS_RTR" -batch - <<-EOF
		addr add 198.18.1.1/24 dev rtr0
		addr add 2001:db8:1::1/64 dev rtr0 nodad
		addr add 198.18.2.1/24 dev rtr1
		addr add 2001:db8:2::1/64 dev rtr1 nodad
		link set lo up
		link set rtr0 up
		link set rtr1 up
	EOF
	ip -n "$NS_RCV" -batch - <<-EOF
		addr add $RCV_IP/24 dev rcv0
		addr add $RCV_IP6/64 dev rcv0 nodad
		link set lo up
		link set rcv0 up
		route add default via 198.18.2.1
		route add default via 2001:db8:2::1
	EOF
	for ns in "$NS_SND" "$NS_RCV"; do
		ip netns exec "$ns" sysctl -qw net.ipv4.tcp_ecn=1
	done
	ns_rtr sysctl -qw net.ipv4.tcp_ecn=1 net.ipv4.ip_forward=1 \
		net.ipv6.conf.all.forwarding=1

	if [ "${AQM_OFFLOADS:-0}" != 1 ]; then
		_offloads_off "$NS_SND" snd0
		_offloads_off "$NS_RTR" rtr0
		_offloads_off "$NS_RTR" rtr1
		_offloads_off "$NS_RCV" rcv0
	fi

	tc -n "$NS_SND" qdisc add dev snd0 root netem delay "$half" limit 100000
	tc -n "$NS_RCV" qdisc add dev rcv0 root netem delay "$half" limit 100000
	tc -n "$NS_RTR" qdisc add dev rtr1 root handle 1: htb default 1
	tc -n "$NS_RTR" class add dev rtr1 parent 1: classid 1:1 htb \
		rate "$rate" ceil "$rate" burst 15k cburst 15k
	tc -n "$NS_RTR" qdisc add dev rtr1 parent 1:1 handle 10: pfifo limit 1000
}

# dumbbell_qdisc KIND [OPTIONS...]: the qdisc under test at the bottleneck
# (the previous one is deleted first: replace cannot change the kind)
dumbbell_qdisc() {
	ns_rtr tc qdisc del dev "$BOTTLENECK_DEV" parent 1:1 handle 10: 2>/dev/null || true
	ns_rtr tc qdisc add dev "$BOTTLENECK_DEV" parent 1:1 handle 10: "$@"
}

# bottleneck_rate RATE: the htb bottleneck's rate and ceil (AQM_RATE, by
# default 10mbit, is what dumbbell_setup sets)
bottleneck_rate() {
	ns_rtr tc class change dev "$BOTTLENECK_DEV" parent 1: classid 1:1 htb \
		rate "$1" ceil "$1" burst 15k cburst 15k
}

# bottleneck_stats: tc -s -j of the qdisc under test (JSON object)
bottleneck_stats() {
	ns_rtr tc -s -j qdisc show dev "$BOTTLENECK_DEV" parent 1:1
}

# iperf_run SECONDS FLOWS [EXTRA...]: TCP bulk from snd to rcv, iperf3
# JSON on stdout
iperf_run() {
	local secs=$1 flows=$2
	shift 2
	ns_rcv iperf3 -s -1 -D -p 5201 >/dev/null
	sleep 0.5
	ns_snd iperf3 -c "$RCV_IP" -p 5201 -t "$secs" -P "$flows" -J "$@"
}

# dummy_leaf_setup NS PARENT [RATE]: namespace NS with a dummy device
# dummy1 (10.99.0.1/24, a permanent neighbour 10.99.0.2, so that every
# datagram to it is sent) whose root is PARENT, htb or tbf, at RATE
# (default 100 bit/s: after its burst's first packet, one 1 KB packet
# leaves every 80 s, so a leaf qdisc under test at parent 1:1 keeps a
# standing queue that does not move while a test reads it and changes
# it). PARENT none: no root set (the qdisc under test goes there, and
# every packet leaves at once).
dummy_leaf_setup() {
	local ns=$1 parent=$2 rate=${3:-100bit}
	ip netns add "$ns"
	ip -n "$ns" link add dummy1 type dummy
	# no IPv6: its own packets (MLD, router solicitations) would join the
	# queue under test between a read and a change
	ip netns exec "$ns" sysctl -qw net.ipv6.conf.dummy1.disable_ipv6=1 2>/dev/null || true
	ip -n "$ns" link set dummy1 up
	ip -n "$ns" addr add 10.99.0.1/24 dev dummy1
	ip -n "$ns" neigh add 10.99.0.2 lladdr 02:00:00:00:00:02 dev dummy1 nud permanent
	case $parent in
	htb)
		tc -n "$ns" qdisc add dev dummy1 root handle 1: htb default 1
		tc -n "$ns" class add dev dummy1 parent 1: classid 1:1 htb rate "$rate" burst 1600
		;;
	tbf)
		tc -n "$ns" qdisc add dev dummy1 root handle 1: tbf rate "$rate" burst 1600 \
			limit 1000000
		;;
	none) ;;
	*) return 1 ;;
	esac
}

# backlog_of TC-ARGS...: "qlen + backlog bytes" of a qdisc or class in
# the router (tc class has no JSON output in iproute2 6.1)
backlog_of() {
	ns_rtr tc -s "$@" | awk '/ backlog / { b = $2; q = $3 } END { print q + b }'
}

# json_get EXPR: evaluate a Python expression on the JSON of stdin (bound
# to j); prints the result
json_get() {
	python3 -c "import json, sys; j = json.load(sys.stdin); print($1)"
}

# leaf_sampler SECONDS: tc -s -j of the bottleneck's qdiscs about every
# 0.05 s (one JSON array per command, the htb root and the qdisc under test
# with handle 10:), from one tc reading its commands from a pipe: no
# process per sample, and python3 reads them all at the end. (tc 6.1 keeps
# "parent" from one batch command to the next and then refuses it.)
leaf_sampler() {
	local end=$((SECONDS + $1))
	while [ "$SECONDS" -lt "$end" ]; do
		echo "qdisc show dev $BOTTLENECK_DEV"
		sleep 0.05
	done | ns_rtr tc -s -j -batch -
}

# qlen_sampler SECONDS INTERVAL: print the bottleneck backlog in packets
# every INTERVAL seconds
qlen_sampler() {
	local end=$(($(date +%s) + $1))
	while [ "$(date +%s)" -lt "$end" ]; do
		bottleneck_stats | json_get 'j[0]["qlen"]' || true
		sleep "$2"
	done
}
