#!/usr/bin/env bash
# GSO super-packets through every qdisc: the dumbbell with offloads on
# (AQM_OFFLOADS=1: TSO and GSO stay on on every veth, so TCP's GSO packets
# cross the router whole and reach the qdisc under test as one skb of up to
# 64 KB), a 10 ms RTT so that TCP's TSO autosizing (about 1 ms of its
# pacing rate) builds packets of several segments. For pi, rem, ared,
# riops, dcn, afd, blue and sfb as the htb leaf in turn, 4 TCP flows for
# 4 s:
#  - traffic passes at a reasonable rate;
#  - the leaf, its htb class and the htb root hold nothing afterwards (the
#    qlen and backlog of a GSO packet are added and removed as one);
#  - pi, rem and ared in bytemode see packets larger than the MTU (their
#    mean packet length): the super-packets do reach the qdisc (ared's
#    thresholds, 30000 and 90000 bytes, hold a few of them);
#  - riops classifies a GSO packet once (its segments count in its flow's
#    packets): the segments sent outnumber the packets classified, the
#    long flows' later packets are OUT, and the count of IN packets in the
#    queue returns to 0 with the queue;
#  - blue with bytelimit 3000, twice the MTU: a GSO packet larger than that
#    on an empty queue is no reason for p_m to go to 1.
# The figures in the comments were measured in the TCG test VM; the bounds
# leave a margin. python3 takes 1.5 s to start there, so snapshots are
# saved and read by one python3 at the end.
set -euo pipefail
# shellcheck source=selftests/net/lib.sh
. "$(dirname "$0")/lib.sh"

tmp=$(mktemp -d)
AQM_OFFLOADS=1

# run NAME QDISC...: the leaf, 4 flows for 4 s sampled all along, then
# 1 s of silence and the backlog of the leaf, its class and the root
run() {
	local name=$1 s
	shift
	dumbbell_qdisc "$@"
	leaf_sampler 5 >"$tmp/$name.jl" &
	s=$!
	iperf_run 4 4 >"$tmp/$name.iperf"
	wait "$s"
	sleep 1
	bottleneck_stats >"$tmp/$name.json"
	echo "$(backlog_of qdisc show dev "$BOTTLENECK_DEV" parent 1:1)" \
		"$(backlog_of class show dev "$BOTTLENECK_DEV" classid 1:1)" \
		"$(backlog_of qdisc show dev "$BOTTLENECK_DEV" root)" >"$tmp/$name.left"
	echo "# t=${SECONDS}s $name done" >&2
}

tap_plan 23
dumbbell_setup 10
trap 'dumbbell_cleanup; rm -rf "$tmp"' EXIT
ns_rtr ethtool -k "$BOTTLENECK_DEV" | grep -E '^(tcp-segmentation-offload|generic-segmentation-offload):' >&2 || true

run pi pi limit 1000 bytemode
run rem rem limit 1000 bytemode
run ared ared limit 1000 bytemode min 30000 max 90000 bandwidth 10mbit avpkt 1514
run riops riops limit 1000
run dcn dcn
run afd afd qref 24
run blue blue bytelimit 3000
run sfb sfb

# --- read every snapshot with one python3 ------------------------------------
eval "$(PYTHONPATH="$AQM_PYTHONPATH" python3 - "$tmp" <<'PY'
import json, sys
from aqmtools.tcjson import leaf_samples
d = sys.argv[1]
out = {}
for n in ("pi", "rem", "ared", "riops", "dcn", "afd", "blue", "sfb"):
    with open(f"{d}/{n}.iperf") as f:
        out[f"{n}_mbit"] = round(json.load(f)["end"]["sum_received"]["bits_per_second"] / 1e6, 2)
    with open(f"{d}/{n}.left") as f:
        out[f"{n}_left"] = "+".join(f.read().split())
    smp = leaf_samples(f"{d}/{n}.jl")
    out[f"{n}_n"] = len(smp)
    out[f"{n}_maxq"] = max((x["qlen"] for x in smp), default=0)
    if n in ("pi", "rem", "ared"):
        out[f"{n}_maxlen"] = max((x["mean_pktlen"] for x in smp), default=0)
    if n == "riops":
        with open(f"{d}/{n}.json") as f:
            j = json.load(f)[0]
        classified = j["in_pkts"] + j["out_pkts"]
        out["riops_in"] = j["in_pkts"]
        out["riops_out"] = j["out_pkts"]
        out["riops_in_qlen"] = j["in_qlen"]
        # tc's packets count a GSO packet's segments
        out["riops_segs"] = round(j["packets"] / classified, 2) if classified else 0
    if n == "blue":
        out["blue_pm_max"] = max((x["p_m"] for x in smp), default=0)
        with open(f"{d}/{n}.json") as f:
            j = json.load(f)[0]
        out["blue_overflow"] = j["overflow_drops"]
        out["blue_increments"] = j["increments"]
for k, v in out.items():
    print(f"{k}={v}")
PY
)"
# shellcheck disable=SC2154 # set by the eval above
{
	echo "# pi bytemode: $pi_mbit Mbit/s, largest mean packet length $pi_maxlen b," \
		"max qlen $pi_maxq ($pi_n samples), left $pi_left"
	echo "# rem bytemode: $rem_mbit Mbit/s, largest mean packet length $rem_maxlen b," \
		"max qlen $rem_maxq ($rem_n samples), left $rem_left"
	echo "# ared bytemode: $ared_mbit Mbit/s, largest mean packet length $ared_maxlen b," \
		"max qlen $ared_maxq ($ared_n samples), left $ared_left"
	echo "# riops: $riops_mbit Mbit/s, $riops_in IN and $riops_out OUT packets," \
		"$riops_segs segments sent per packet, in_qlen $riops_in_qlen, max qlen $riops_maxq, left $riops_left"
	echo "# dcn: $dcn_mbit Mbit/s, max qlen $dcn_maxq, left $dcn_left"
	echo "# afd: $afd_mbit Mbit/s, max qlen $afd_maxq, left $afd_left"
	echo "# blue bytelimit 3000: $blue_mbit Mbit/s, p_m max $blue_pm_max, overflow" \
		"$blue_overflow, increments $blue_increments, max qlen $blue_maxq, left $blue_left"
	echo "# sfb: $sfb_mbit Mbit/s, max qlen $sfb_maxq, left $sfb_left"
} >&2

# shellcheck disable=SC2154
{
	tap_cmp "pi: GSO packets reach the qdisc (mean packet length above the MTU, bytes)" \
		"$pi_maxlen" ">" 1514
	tap_cmp "pi: TCP passes (Mbit/s)" "$pi_mbit" ">=" 5
	tap_cmp "pi: leaf, class and root hold nothing afterwards (packets + bytes)" \
		"$((pi_left))" "==" 0
	tap_cmp "rem: GSO packets reach the qdisc (mean packet length above the MTU, bytes)" \
		"$rem_maxlen" ">" 1514
	tap_cmp "rem: TCP passes (Mbit/s)" "$rem_mbit" ">=" 5
	tap_cmp "rem: leaf, class and root hold nothing afterwards (packets + bytes)" \
		"$((rem_left))" "==" 0
	tap_cmp "ared: GSO packets reach the qdisc (mean packet length above the MTU, bytes)" \
		"$ared_maxlen" ">" 1514
	tap_cmp "ared: TCP passes (Mbit/s)" "$ared_mbit" ">=" 5
	tap_cmp "ared: leaf, class and root hold nothing afterwards (packets + bytes)" \
		"$((ared_left))" "==" 0
	tap_cmp "riops: TCP passes (Mbit/s)" "$riops_mbit" ">=" 5
	tap_cmp "riops: leaf, class and root hold nothing afterwards (packets + bytes)" \
		"$((riops_left))" "==" 0
	tap_cmp "riops: GSO packets are classified once (segments sent per packet classified)" \
		"$riops_segs" ">" 1
	tap_cmp "riops: the long flows' later packets are OUT (OUT packets, IN packets)" \
		"$riops_out" ">" "$riops_in"
	tap_cmp "riops: no IN packet is left counted in the empty queue (in_qlen)" \
		"$riops_in_qlen" "==" 0
	tap_cmp "dcn: TCP passes (Mbit/s)" "$dcn_mbit" ">=" 5
	tap_cmp "dcn: leaf, class and root hold nothing afterwards (packets + bytes)" \
		"$((dcn_left))" "==" 0
	tap_cmp "afd: TCP passes (Mbit/s)" "$afd_mbit" ">=" 5
	tap_cmp "afd: leaf, class and root hold nothing afterwards (packets + bytes)" \
		"$((afd_left))" "==" 0
	tap_cmp "blue: TCP passes (Mbit/s)" "$blue_mbit" ">=" 2
	tap_cmp "blue: leaf, class and root hold nothing afterwards (packets + bytes)" \
		"$((blue_left))" "==" 0
	tap_cmp "blue bytelimit 3000: p_m does not go to 1 (max sampled)" "$blue_pm_max" "<" 0.5
	tap_cmp "sfb: TCP passes (Mbit/s)" "$sfb_mbit" ">=" 5
	tap_cmp "sfb: leaf, class and root hold nothing afterwards (packets + bytes)" \
		"$((sfb_left))" "==" 0
}
tap_exit
