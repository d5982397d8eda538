#!/usr/bin/env bash
# sch_sfb (Stochastic Fair BLUE, section IV of Feng et al.) under real
# traffic through the 10 Mbit/s, 40 ms dumbbell.
set -euo pipefail
# shellcheck source=selftests/net/lib.sh
. "$(dirname "$0")/lib.sh"

tmp=${SFB_OUT:-$(mktemp -d)}
mkdir -p "$tmp"
UDP_LEN=1472

tap_plan 1
dumbbell_setup 40
trap 'dumbbell_cleanup' EXIT

# flood NAME SECS TCP UDP_FLOWS UDP_BPS_EACH TCP_BPS QDISC...: TCP streams
# (TCP_BPS each, 0 = bulk) and UDP flows at UDP_BPS_EACH for SECS, the leaf
# sampled every 0.05 s; iperf3 intervals of 0.5 s
flood() {
	local name=$1 secs=$2 tcp=$3 nudp=$4 ubps=$5 tbps=$6 pids=() i
	shift 6
	dumbbell_qdisc "$@"
	for ((i = 0; i < nudp; i++)); do
		ns_rcv iperf3 -s -1 -D -p $((5301 + i)) >/dev/null
	done
	sleep 0.3
	if [ "$tbps" = 0 ]; then
		iperf_run "$secs" "$tcp" -i 0.5 >"$tmp/$name-tcp.json" &
	else
		iperf_run "$secs" "$tcp" -b "$tbps" -i 0.5 >"$tmp/$name-tcp.json" &
	fi
	pids+=($!)
	for ((i = 0; i < nudp; i++)); do
		ns_snd iperf3 -c "$RCV_IP" -p $((5301 + i)) -u -b "$ubps" -l "$UDP_LEN" \
			-t "$secs" -i 0.5 -J >"$tmp/$name-udp$i.json" &
		pids+=($!)
	done
	leaf_sampler "$secs" >"$tmp/$name.jl"
	wait "${pids[@]}" || true
	bottleneck_stats >"$tmp/$name-end.json"
	echo "# t=${SECONDS}s $name done" >&2
}

phase=${SFB_PHASE:-all}
if [ "$phase" = all ] || [ "$phase" = flood ]; then
	flood sfb 12 8 1 20mbit 0 sfb
	flood sfbde 12 8 1 20mbit 0 sfb dec_emptied
	flood fifo 12 8 1 20mbit 0 pfifo limit 1000
fi
if [ "$phase" = all ] || [ "$phase" = eq1 ]; then
	for m in 2 4 8; do
		for d in 1 2 3; do
			flood "eq1-m$m-d$d" 6 32 "$m" "$((20 / m))mbit" 100k \
				sfb levels 2 bins 8 increment 0.005 decrement 0.0001 penalty_rate 100000 penalty_burst 1000
		done
	done
fi
if [ "$phase" = all ] || [ "$phase" = rehash ]; then
	flood nodb 20 4 1 20mbit 0 sfb rehash 5000 db 0
	flood db 20 4 1 20mbit 0 sfb rehash 5000 db 2500
	flood dball 20 4 1 20mbit 0 sfb rehash 5000 db 2500 warm_all
fi
tap_result 0 "exploration done"
tap_exit
