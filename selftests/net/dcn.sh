#!/usr/bin/env bash
# sch_dcn under real traffic through the 10 Mbit/s, 40 ms dumbbell
# ("Taming the elephants", sections 3.1-3.2):
#  - on a quiet link a flow of exactly threshold packets, closely paced,
#    enters HB, and one of threshold - 1 packets does not (Figure 3);
#  - 4 long TCP flows are notified early (early drops), while 200 short UDP
#    flows of 3 packets (below the HB threshold of 4) lose nothing and
#    never enter HB;
#  - the PI controller keeps the queue near qref: not far above it, and
#    not far below (DCN must not starve the link);
#  - once the long flows end they leave HB;
#  - a flow that slows down leaves HB while it still sends;
#  - with a time target of 10 ms (set explicitly: the default is 29 ms)
#    qref follows the measured departure rate (about 825 packets/s of
#    1514-byte frames at 10 Mbit/s, so 8 packets), and the PI controller
#    keeps the mean queue near it;
#  - qref_min 12 above those 8 packets: qref is the floor.
# The figures in the comments were measured in the TCG test VM; the bounds
# leave a margin. python3 takes 1.5 s to start there, so snapshots are
# saved and read by one python3 at the end.
# aqm-selftest: early
set -euo pipefail
# shellcheck source=selftests/net/lib.sh
. "$(dirname "$0")/lib.sh"

top=$(cd "$(dirname "$0")/../.." && pwd)
tmp=$(mktemp -d)
QREF=24
THRESHOLD=5

# snap NAME: tc -s -j of the qdisc under test into $tmp/NAME.json
snap() {
	bottleneck_stats >"$tmp/$1.json"
}

# shortflows NAMESPACE ARGS...: scripts/aqmtools/shortflows.py in NAMESPACE
shortflows() {
	local ns=$1
	shift
	ip netns exec "$ns" env PYTHONPATH="$top/scripts" python3 -m aqmtools.shortflows "$@"
}

tap_plan 24
dumbbell_setup 40
trap 'dumbbell_cleanup; rm -rf "$tmp"' EXIT

# threshold: pings are one flow (addresses and protocol; ICMP has no
# ports), 10 ms apart, within the 100 ms clearing interval. Only the echo
# requests cross the bottleneck. threshold - 1 first, then, after more
# than a clearing interval of silence (the count starts again), threshold.
dumbbell_qdisc dcn threshold "$THRESHOLD"
ns_snd ping -q -c $((THRESHOLD - 1)) -i 0.01 -W 1 "$RCV_IP" >/dev/null
snap below
sleep 0.5
ns_snd ping -q -c "$THRESHOLD" -i 0.01 -W 1 "$RCV_IP" >/dev/null
snap at
echo "# t=${SECONDS}s threshold done" >&2

dumbbell_qdisc dcn qref "$QREF"

# short flows alone: below the threshold, none enters HB
shortflows "$NS_SND" send "$RCV_IP" 7002 60 3 0.02 >/dev/null
snap short

# long flows for 30 s; short flows from 5 s to 15 s; the queue sampled
# from 15 s to 28 s, past the recovery from slow start (see the target
# phase below: pref starts at limit and the first cut overshoots). CI once
# saw a mean of 6.2 packets when 4 s were sampled from 15 s on.
iperf_run 30 4 >"$tmp/load.iperf" &
iperf=$!
sleep 4
shortflows "$NS_RCV" recv 7000 60 5 \
	>"$tmp/recv" &
recv=$!
sleep 1
sent=$(shortflows "$NS_SND" send "$RCV_IP" 7000 200 3 0.05)
leaf_sampler 13 >"$tmp/load.jl"
wait "$recv"
read -r flows got <"$tmp/recv"
wait "$iperf"
snap load
echo "# t=${SECONDS}s load done" >&2

sleep 3
snap after1
# (after1/after2 read the phase above; the target phase follows the pace
# phase below)
# anti-windup: with HB empty pref does not climb on an idle link
sleep 2
snap after2

# one UDP flow (fixed source port) of 1042-byte frames at 1000 packets/s
# asked for 10 s, four times the 2 Mbit/s the bottleneck is lowered to (the
# VM's python reaches 400-800 packets/s under load), then at 5 packets/s
# for 5 s. HB membership is sampled while the flow sends: read after it
# stops, the next enqueue (or the last Tdec of the phase) may already have
# removed it. tc -j prints one line per sample.
bottleneck_rate 2mbit
shortflows "$NS_SND" pace "$RCV_IP" 7001 40000 1000 10 >"$tmp/pace" &
pacer=$!
sleep 3
until=$((SECONDS + 5))
while [ "$SECONDS" -lt "$until" ]; do
	bottleneck_stats >>"$tmp/fast.jl"
	sleep 0.2
done
wait "$pacer"
bottleneck_rate "${AQM_RATE:-10mbit}"
fast_samples=$(wc -l <"$tmp/fast.jl")
fast_in_hb=$(grep -c '"hb_flows":1,' "$tmp/fast.jl" || true)
# its arrival rate in packets/s (the pacer prints how many it sent) against
# the 240 packets/s of 1042 bytes that 2 Mbit/s carries
fast_pps=$(($(cat "$tmp/pace") / 10))
shortflows "$NS_SND" pace "$RCV_IP" 7001 40000 5 5 >/dev/null
snap slow
echo "# t=${SECONDS}s pace done" >&2

# a time target of 10 ms, given explicitly (it was the default; the
# default is now 29 ms, 23.9 packets here), so that the checks below stay
# those of the 10 ms conversion and the figures measured with it: 4 long
# flows for 28 s, sampled from 12 s on, in the steady state. Not before:
# pref starts at limit, slow start fills the queue to 120-140 packets
# before pref reaches the flows, and the controller, which sees the queue
# a round trip and the queue's delay late, cuts pref to half the flows'
# share; the link then idles while pref climbs back at the integral's
# pace. Measured in the TCG VM (3 runs): the mean queue was 3.4-5.2
# packets from 6 s to 16 s (CI saw 1.0 once), and 7.8-8.3 from 12 s to
# 28 s.
dumbbell_qdisc dcn target 10ms
iperf_run 28 4 >/dev/null &
iperf=$!
sleep 12
leaf_sampler 14 >"$tmp/target.jl"
wait "$iperf"
echo "# t=${SECONDS}s target done" >&2

# qref_min: the same time target, 10 ms given explicitly (the default 29 ms
# is 23 packets here, above the floor), with a floor of 12 packets, above
# the 8 that 10 ms gives at 10 Mbit/s: qref is the floor once the rate is
# known
dumbbell_qdisc dcn target 10ms qref_min 12
iperf_run 6 4 >/dev/null &
iperf=$!
sleep 4
snap qmin
wait "$iperf"
echo "# t=${SECONDS}s qref_min done" >&2

# --- read every snapshot with one python3 ------------------------------------
eval "$(PYTHONPATH="$AQM_PYTHONPATH" python3 - "$tmp" <<'PY'
import json, sys
from aqmtools.tcjson import leaf_samples
d = sys.argv[1]
out = {}
for n in ("below", "at", "short", "load", "after1", "after2", "slow", "qmin"):
    with open(f"{d}/{n}.json") as f:
        for k, v in json.load(f)[0].items():
            if isinstance(v, (int, float)) and not isinstance(v, bool):
                out[f"{n}_{k}"] = v
q = [x["qlen"] for x in leaf_samples(f"{d}/load.jl")]
out["qmean"] = round(sum(q) / max(len(q), 1), 1)
out["qn"] = len(q)
with open(f"{d}/load.iperf") as f:
    out["mbits"] = round(json.load(f)["end"]["sum_received"]["bits_per_second"] / 1e6, 2)
t = leaf_samples(f"{d}/target.jl")
qt = [x["qlen"] for x in t]
out["tqmean"] = round(sum(qt) / max(len(qt), 1), 1)
out["tn"] = len(t)
# the controller's qref and the rate, as the last sample under load saw them
out["tqref"] = t[-1].get("qref", -1) if t else -1
out["trate"] = round(t[-1].get("rate", -1)) if t else -1
for k, v in out.items():
    print(f"{k}={v}")
PY
)"
# shellcheck disable=SC2154 # set by the eval above
{
	echo "# threshold $THRESHOLD: promotions $below_promotions after $((THRESHOLD - 1))" \
		"packets, $at_promotions after $THRESHOLD more"
	echo "# short flows alone: promotions $short_promotions, sb_overwrites" \
		"$short_sb_overwrites, hb_flows $short_hb_flows"
	echo "# short flows: sent $sent got $got ($flows flows); early $load_early_drops" \
		"forced $load_forced_drops mean qlen $qmean ($qn samples), long flows $mbits Mbit/s"
	echo "# after: hb_flows $after1_hb_flows removals $after1_removals pref $after1_pref" \
		"-> $after2_pref; pace: $fast_pps packets/s, in HB in $fast_in_hb of" \
		"$fast_samples samples while fast, hb_flows $slow_hb_flows after the slow phase"
	echo "# target 10ms: qref $tqref packets at $trate packets/s, mean qlen $tqmean" \
		"($tn samples)"
	echo "# qref_min 12: qref $qmin_qref packets at $qmin_rate packets/s"
} >&2

# shellcheck disable=SC2154
{
	tap_cmp "a flow of threshold - 1 = $((THRESHOLD - 1)) packets is not promoted to HB" \
		"$below_promotions" "==" 0
	tap_cmp "a flow of threshold = $THRESHOLD packets is promoted to HB" \
		"$at_promotions" "==" 1

	tap_cmp "short flows alone are never promoted to HB" "$short_promotions" "==" 0
	tap_cmp "HB stays empty" "$short_hb_flows" "==" 0

	tap_cmp "long flows are dropped early" "$load_early_drops" ">" 0
	tap_cmp "short flows lose nothing (packets received of $sent)" "$got" "==" "$sent"
	tap_cmp "all 200 short flows arrive" "$flows" "==" 200
	tap_cmp "no packet hits the hard limit" "$load_forced_drops" "==" 0
	# measured in the TCG VM: mean 20-28 packets from 15 s to 19 s, 24.7 from
	# 15 s to 28 s
	tap_cmp "the queue stays near qref $QREF: not far above (mean packets)" \
		"$qmean" "<=" $((QREF * 2))
	tap_cmp "the queue stays near qref $QREF: not far below (mean packets)" \
		"$qmean" ">=" $((QREF / 3))

	tap_cmp "long flows leave HB once they end (hb_flows)" "$after1_hb_flows" "==" 0
	tap_cmp "and are counted as removals" "$after1_removals" ">=" 4
	tap_cmp "pref stays put on an idle link (packets per Tdec)" "$after2_pref" "==" "$after1_pref"

	tap_cmp "the paced flow arrives above the link rate (packets/s)" "$fast_pps" ">" 240
	tap_cmp "a flow above the link rate is in HB (samples of $fast_samples)" \
		"$fast_in_hb" "==" "$fast_samples"
	tap_cmp "the same flow leaves HB after slowing down" "$slow_hb_flows" "==" 0

	# 10 Mbit/s of 1514-byte frames: 825 packets/s
	tap_cmp "target: the measured departure rate is the link's, not below (packets/s)" \
		"$trate" ">=" 700
	tap_cmp "target: the measured departure rate is the link's, not above (packets/s)" \
		"$trate" "<=" 950
	tap_cmp "target: qref = 10 ms x the rate (packets), not below" "$tqref" ">=" 7
	tap_cmp "target: qref = 10 ms x the rate (packets), not above" "$tqref" "<=" 9
	tap_cmp "target: the mean queue is held near qref, not far above (packets)" \
		"$tqmean" "<=" 20
	tap_cmp "target: the mean queue is held near qref, not far below (packets)" \
		"$tqmean" ">=" 4
	# 10 ms x 700 packets/s or more is 7 or more: the floor must be what holds
	tap_cmp "qref_min: the rate is measured, and 10 ms of it is below 12 packets (packets/s)" \
		"$qmin_rate" ">=" 700
	tap_cmp "qref_min 12: qref is the floor, not 10 ms x the rate (packets)" \
		"$qmin_qref" "==" 12
}
tap_exit
