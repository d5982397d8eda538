#!/usr/bin/env bash
# sch_dcn under real traffic through the 10 Mbit/s, 40 ms dumbbell
# ("Taming the elephants", sections 3.1-3.2):
#  - 4 long TCP flows are notified early (early drops), while 200 short UDP
#    flows of 3 packets (below the HB threshold of 4) lose nothing and
#    never enter HB;
#  - the PI controller keeps the queue near qref;
#  - once the long flows end they leave HB;
#  - a flow that slows down leaves HB while it still sends.
set -euo pipefail
# shellcheck source=selftests/net/lib.sh
. "$(dirname "$0")/lib.sh"

top=$(cd "$(dirname "$0")/../.." && pwd)
field() { bottleneck_stats | json_get "j[0][\"$1\"]"; }

tap_plan 13
dumbbell_setup 40
dumbbell_qdisc dcn

# short flows alone: below the threshold, none enters HB
ns_snd bash -c "PYTHONPATH='$top/scripts' python3 -m aqmtools.shortflows send $RCV_IP 7002 60 3 0.02" >/dev/null
tap_cmp "short flows alone are never promoted to HB" "$(field promotions)" "==" 0
tap_cmp "HB stays empty" "$(field hb_flows)" "==" 0

# long flows for 20 s; short flows from 5 s to 15 s
iperf_run 20 4 >/dev/null &
iperf=$!
sleep 4
ns_rcv bash -c "PYTHONPATH='$top/scripts' python3 -m aqmtools.shortflows recv 7000 60 5" \
	>"/tmp/recv.$$" &
recv=$!
sleep 1
sent=$(ns_snd bash -c "PYTHONPATH='$top/scripts' python3 -m aqmtools.shortflows send $RCV_IP 7000 200 3 0.05")
qlen_sampler 4 0.25 >"/tmp/q.$$"
wait "$recv"
read -r flows got <"/tmp/recv.$$"
wait "$iperf"
early=$(field early_drops)
forced=$(field forced_drops)
qmean=$(awk '{ s += $1; n++ } END { if (n) printf "%.1f\n", s / n }' "/tmp/q.$$")
echo "# short flows: sent $sent got $got ($flows flows); early $early forced $forced mean qlen $qmean" >&2
tap_cmp "long flows are dropped early" "$early" ">" 0
tap_cmp "short flows lose nothing (packets received of $sent)" "$got" "==" "$sent"
tap_cmp "all 200 short flows arrive" "$flows" "==" 200
tap_cmp "no packet hits the hard limit" "$forced" "==" 0
# measured in the TCG VM: mean 20-28 packets
tap_cmp "the queue stays near qref 24 (mean packets)" "$qmean" "<=" 48

sleep 3
tap_cmp "long flows leave HB once they end (hb_flows)" "$(field hb_flows)" "==" 0
tap_cmp "and are counted as removals" "$(field removals)" ">=" 4
# anti-windup: with HB empty pref does not climb on an idle link
pref_a=$(field pref)
sleep 2
tap_cmp "pref stays put on an idle link (packets per Tdec)" "$(field pref)" "==" "$pref_a"

# one UDP flow (fixed source port) of 1042-byte frames at 1000 packets/s
# asked for 10 s, four times the 2 Mbit/s the bottleneck is lowered to (the
# VM's python reaches 400-800 packets/s under load), then at 5
# packets/s for 5 s. HB membership is sampled while the
# flow sends: read after it stops, the next enqueue (or the last Tdec of the
# phase) may already have removed it.
bottleneck_rate 2mbit
ns_snd bash -c "PYTHONPATH='$top/scripts' python3 -m aqmtools.shortflows pace $RCV_IP 7001 40000 1000 10" >"/tmp/pace.$$" &
pacer=$!
sleep 3
samples=0 in_hb=0 until=$((SECONDS + 5))
while [ "$SECONDS" -lt "$until" ]; do
	samples=$((samples + 1))
	[ "$(field hb_flows)" -eq 1 ] && in_hb=$((in_hb + 1))
done
wait "$pacer"
bottleneck_rate "${AQM_RATE:-10mbit}"
ns_snd bash -c "PYTHONPATH='$top/scripts' python3 -m aqmtools.shortflows pace $RCV_IP 7001 40000 5 5" >/dev/null
# its arrival rate in packets/s (the pacer prints how many it sent) against
# the 240 packets/s of 1042 bytes that 2 Mbit/s carries
pps=$(($(cat "/tmp/pace.$$") / 10))
echo "# pace: $pps packets/s, in HB in $in_hb of $samples samples while fast, hb_flows $(field hb_flows) after the slow phase" >&2
tap_cmp "the paced flow arrives above the link rate (packets/s)" "$pps" ">" 240
tap_cmp "a flow above the link rate is in HB (samples of $samples)" "$in_hb" "==" "$samples"
tap_cmp "the same flow leaves HB after slowing down" "$(field hb_flows)" "==" 0
rm -f "/tmp/q.$$" "/tmp/recv.$$" "/tmp/pace.$$"
tap_exit
