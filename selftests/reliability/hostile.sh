#!/usr/bin/env bash
# Hostile traffic into every qdisc, the htb leaf at the router's 10 Mbit/s
# bottleneck (scripts/aqmtools/hostile.py sends raw frames out of it, so
# they reach the qdisc as they are):
# - frames that are not IP, IPv4 headers that lie about their length,
#   IPv4 fragments, IPv6 with chains of up to 20 extension headers (some
#   cut short), VLAN-tagged frames, frames of 14 to 60 bytes and of the
#   maximum 1514: every frame that reached the qdisc is either sent or
#   dropped by it (packets + drops = frames, exactly), and the htb root
#   and class drain to 0;
# - 100000 distinct flows: the same exact count, and the kernel's slab
#   grows by less than 4 MB (a 64-byte allocation per flow would be 6 MB);
# - UDP from an unresponsive sender, with ecn, into the bottleneck slowed
#   to 2 Mbit/s, twice: ECT(0), then not ECN-capable. Marking does not
#   slow it, so a qdisc that marked where it should drop would let the
#   ECT(0) flood hold the queue at its limit: it must be dropped and keep
#   a queue no longer than the other flood's (scripts/aqmtools/flood.py).
#   The sender is the kernel's pktgen in the sender's namespace at four
#   times the link (iperf3 could not flood even 10 Mbit/s on the debug
#   kernel); aqmstat records the qdisc every 20 ms, and the offered load
#   is measured from the records' own times (a sender that did not
#   overload the link fails the check). Without pktgen in the kernel
#   (the test kernel has none) the check is skipped, saying so.
# The guest checks the kernel log and, on the debug kernel, kmemleak.
set -euo pipefail
# shellcheck source=selftests/net/lib.sh
. "$(dirname "$0")/../net/lib.sh"

top=$(cd "$(dirname "$0")/../.." && pwd)
python=${AQM_CACHE:?}/venv/bin/python3
COUNT=${AQM_HOSTILE_N:-3000}
FLOWS=${AQM_HOSTILE_FLOWS:-100000}
QDISCS=(
	"pi limit 1000 ecn"
	"rem limit 1000 ecn"
	"ared limit 1000 ecn"
	"riops limit 1000 ecn"
	"dcn limit 1000 ecn"
	"afd limit 1000 ecn"
	"blue limit 1000 threshold 300 ecn"
	"sfb limit 1000"
	"sfb limit 1000 red"
)

tap_plan $((${#QDISCS[@]} * 3))
dumbbell_setup 20
tmp_dir=$(mktemp -d)
trap 'dumbbell_cleanup; rm -rf "$tmp_dir"' EXIT

dev=$BOTTLENECK_DEV

# frames KIND N: send them out of the bottleneck; prints how many reached
# the qdisc
frames() {
	ns_rtr env PYTHONPATH="$top/scripts" "$python" -m aqmtools.hostile "$dev" "$1" "$2" |
		awk '/^sent/ { print $2 }'
}

# counted: packets + drops of the leaf
counted() {
	bottleneck_stats | json_get 'j[0]["packets"] + j[0]["drops"]'
}

slab_kb() { awk '/^Slab:/ { print $2 }' /proc/meminfo; }

# pg FILE CMD: one pktgen command, in the sender's namespace
pg() {
	# shellcheck disable=SC2016 # expanded by the inner sh
	ns_snd sh -c 'echo "$2" >"/proc/net/pktgen/$1"' sh "$1" "$2"
}

FLOOD_RATE=2mbit
# ECT(0) datagrams of 1400 bytes a second, four times FLOOD_RATE
FLOOD_PPS=714
FLOOD_LIMIT=1000

# flood_start TOS: pktgen sends UDP datagrams of 1400 bytes with TOS
# (02: ECT(0)) at FLOOD_PPS out of snd0 to the receiver, until flood_stop
flood_start() {
	local mac
	mac=$(ip -n "$NS_RTR" -j link show rtr0 | json_get 'j[0]["address"]')
	pg kpktgend_0 rem_device_all
	pg kpktgend_0 "add_device snd0"
	pg snd0 "count 0"
	pg snd0 "pkt_size 1400"
	pg snd0 "ratep $FLOOD_PPS"
	pg snd0 "dst $RCV_IP"
	pg snd0 "dst_mac $mac"
	pg snd0 "udp_dst_min 5301"
	pg snd0 "udp_dst_max 5301"
	pg snd0 "tos $1"
	# the write of start returns when the run stops
	pg pgctrl start &
	flood_pid=$!
}

flood_stop() {
	pg pgctrl stop
	wait "$flood_pid" || true
	pg kpktgend_0 rem_device_all
}

# flood NAME TOS CFG...: a flood with TOS into a new qdisc CFG, recorded
# by aqmstat for 9 s from its start into NAME.jl
flood() {
	local name=$1 tos=$2
	shift 2
	dumbbell_qdisc "$@"
	bottleneck_rate "$FLOOD_RATE"
	flood_start "$tos"
	ns_rtr "$AQMSTAT" -d "$dev" -H 10: -t 20 -D 9 -f json -o "$tmp_dir/$name.jl" \
		2>"$tmp_dir/$name.err" || echo "# aqmstat: $(cat "$tmp_dir/$name.err")" >&2
	flood_stop
	bottleneck_rate "${AQM_RATE:-10mbit}"
}

# ect_flood CFG...: the ECT(0) and the not-ECT flood into CFG; prints
# flood.py's verdict on their last 6 s
ect_flood() {
	flood ect 02 "$@"
	flood plain 00 "$@"
	PYTHONPATH="$top/scripts" "$python" -m aqmtools.flood "$tmp_dir/ect.jl" "$tmp_dir/plain.jl" \
		"$FLOOD_LIMIT" 3
}

AQMSTAT=$top/scripts/bench/aqmstat
pktgen=1
modprobe -q pktgen 2>/dev/null || true
[ -d /proc/net/pktgen ] || pktgen=0

for cfg in "${QDISCS[@]}"; do
	read -r -a qd <<<"$cfg"
	kind=${qd[0]}

	# 1. every kind of hostile frame, in turn
	dumbbell_qdisc "${qd[@]}"
	total=0
	for k in nonip trunc4 frag4 ext6 vlan tiny max; do
		n=$(frames "$k" "$COUNT")
		total=$((total + n))
	done
	sleep 2
	got=$(counted)
	left=$(($(backlog_of qdisc show dev "$dev" root) + $(backlog_of class show dev "$dev" classid 1:1)))
	tap_result $((got != total || left != 0)) \
		"$kind: $total hostile frames, each sent or dropped ($got), the htb root and class drain ($left left)"

	# 2. many flows
	dumbbell_qdisc "${qd[@]}"
	sync
	echo 3 >/proc/sys/vm/drop_caches
	before=$(slab_kb)
	n=$(frames flows "$FLOWS")
	sleep 2
	got=$(counted)
	echo 3 >/proc/sys/vm/drop_caches
	grown=$(($(slab_kb) - before))
	tap_result $((got != n || grown >= 4096)) \
		"$kind: $n frames of distinct flows, each sent or dropped ($got); slab grew $grown kB (< 4096)"

	# 3. ECT(0) from an unresponsive sender: marking cannot hold it, so
	# the qdisc must drop it as it drops the same flood not ECN-capable
	if [ "$pktgen" -eq 0 ]; then
		tap_skip "$kind: an unresponsive ECT(0) flood: this kernel has no pktgen (CONFIG_NET_PKTGEN)"
	elif [ ! -x "$AQMSTAT" ]; then
		tap_result 1 "$kind: an unresponsive ECT(0) flood: $AQMSTAT is not built (make -C scripts/bench aqmstat)"
	else
		rc=1 verdict="flood.py gave no verdict"
		read -r rc verdict < <(ect_flood "${qd[@]}") || true
		tap_result "$rc" \
			"$kind: an unresponsive flood at $FLOOD_PPS datagrams/s into $FLOOD_RATE: ECT(0) is dropped and keeps no longer a queue than not-ECT ($verdict)"
	fi
	echo "# t=${SECONDS}s $kind done" >&2
done
tap_exit
