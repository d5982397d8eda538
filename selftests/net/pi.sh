#!/usr/bin/env bash
# sch_pi under real TCP: 4 flows through the 10 Mbit/s, 40 ms dumbbell.
#  - PI holds the mean queue near qref, neither far above (pfifo with the
#    same limit sits near the limit) nor far below (AQM/ECN paper section
#    II: PI regulates the queue to its reference);
#  - with ecn, ECT packets are marked instead of dropped; without, dropped;
#  - switching bytemode on and off under load keeps the controller running
#    in the new unit: no collapse of the probability, samples in the unit;
#  - the probability decays to 0 once the link idles, and the controller
#    takes one sample every T also while no packet comes.
# The figures in the comments were measured in the TCG test VM; the bounds
# leave a margin. python3 takes 1.5 s to start there, so snapshots are
# saved and read by one python3 at the end.
set -euo pipefail
# shellcheck source=selftests/net/lib.sh
. "$(dirname "$0")/lib.sh"

LIMIT=300
QREF=30
SECS=14
PI=(pi limit "$LIMIT" qref "$QREF" rate 10mbit rtt 100ms flows 4 avpkt 1500)
tmp=$(mktemp -d)

# snap NAME: tc -s -j of the qdisc under test into $tmp/NAME.json
snap() {
	bottleneck_stats >"$tmp/$1.json"
}

# load NAME SECS FLOWS: TCP bulk for SECS; the qdisc sampled over the
# second half into $tmp/NAME.jl, snapshots NAME-mid and NAME-end
load() {
	local name=$1 secs=$2 flows=$3 half iperf
	half=$((secs / 2))
	iperf_run "$secs" "$flows" >"$tmp/$name.iperf" &
	iperf=$!
	sleep "$half"
	snap "$name-mid"
	leaf_sampler $((secs - half - 1)) >"$tmp/$name.jl"
	wait "$iperf"
	snap "$name-end"
}

pi_change() {
	ns_rtr tc qdisc change dev "$BOTTLENECK_DEV" parent 1:1 handle 10: pi "$@"
}

tap_plan 19
dumbbell_setup 40
trap 'dumbbell_cleanup; rm -rf "$tmp"' EXIT

dumbbell_qdisc "${PI[@]}"
load pi "$SECS" 4
dumbbell_qdisc pfifo limit "$LIMIT"
load fifo "$SECS" 4
dumbbell_qdisc "${PI[@]}" ecn
load ecn "$SECS" 4
echo "# t=${SECONDS}s pi, pfifo, pi ecn done" >&2

# bytemode on, then off, under 8 flows (p about 2 %: a collapse to 0 is far
# from the noise of p over one sampling interval). qref in the same queue
# length, 30 packets of 1500 bytes.
# Each phase is sampled on its own, after its change has returned: one
# sampler over fixed times missed the last phase in a starved VM (two tc
# changes of a second or two each pushed it past the sampler's end; make
# checks of 2026-11-28, in lanes and with two).
dumbbell_qdisc "${PI[@]}"
iperf_run 22 8 >"$tmp/toggle.iperf" &
iperf=$!
sleep 5
leaf_sampler 3 >"$tmp/toggle.jl"
pi_change bytemode qref $((QREF * 1500))
leaf_sampler 4 >>"$tmp/toggle.jl"
pi_change nobytemode qref "$QREF"
leaf_sampler 3 >>"$tmp/toggle.jl"
wait "$iperf"
echo "# t=${SECONDS}s bytemode toggle done" >&2

# a mark never bypasses the hard limit: with ecn and a limit just above
# qref the overflow is still dropped
dumbbell_qdisc pi limit 26 qref 24 a 1/1000000 b 1/2000000 tupdate 4ms ecn
iperf_run 6 4 >/dev/null
snap lim

# idle: no packet at all, the controller still winds down (lazily, from
# elapsed time, seen by the stats dump); T = 4 ms as configured above
sleep 1
t0=$EPOCHREALTIME
snap idle1
t1=$EPOCHREALTIME
sleep 3
t2=$EPOCHREALTIME
snap idle2
t3=$EPOCHREALTIME
echo "# t=${SECONDS}s idle done" >&2

# --- read every snapshot with one python3 ------------------------------------
eval "$(PYTHONPATH="$AQM_PYTHONPATH" python3 - "$tmp" "$LIMIT" "$t0" "$t1" "$t2" "$t3" <<'PY'
import json, statistics, sys
from aqmtools.tcjson import leaf_samples
d, limit = sys.argv[1], int(sys.argv[2])
t0, t1, t2, t3 = (float(x) for x in sys.argv[3:7])
def s(n):
    with open(f"{d}/{n}.json") as f:
        return json.load(f)[0]
def samples(n):
    """every sample of the qdisc under test in a leaf_sampler file"""
    return leaf_samples(f"{d}/{n}.jl")
out = {}
for n in ("pi", "fifo", "ecn"):
    q = [x["qlen"] for x in samples(n)]
    out[f"{n}_mean"] = round(sum(q) / max(len(q), 1), 1)
    out[f"{n}_n"] = len(q)
    for k in ("early_drops", "marks", "forced_drops"):
        if k in s(f"{n}-end"):
            out[f"{n}_{k}"] = s(f"{n}-end")[k]
out["ecn_prob_mid"] = s("ecn-mid")["prob"]
# the toggle: split the samples by the mode the dump shows
tog = samples("toggle")
def mode(x):
    return bool(x.get("options", {}).get("bytemode", False))
toggle_keys = ("tog_n", "tog_p_before_on", "tog_p_first_on", "tog_p_before_off",
               "tog_p_first_off", "tog_p_mean_on", "tog_p_mean_off", "tog_sampled_on",
               "tog_backlog_on", "tog_sampled_off_max", "tog_qlen_off")
try:
    i_on = next(i for i, x in enumerate(tog) if mode(x))
    i_off = next(i for i, x in enumerate(tog) if i > i_on and not mode(x))
    before, on, off = tog[:i_on], tog[i_on:i_off], tog[i_off:]
    out["tog_n"] = f"{len(before)}/{len(on)}/{len(off)}"
    out["tog_p_before_on"] = before[-1]["prob"]
    out["tog_p_first_on"] = on[0]["prob"]
    out["tog_p_before_off"] = on[-1]["prob"]
    out["tog_p_first_off"] = off[0]["prob"]
    out["tog_p_mean_on"] = round(statistics.mean(x["prob"] for x in on), 5)
    out["tog_p_mean_off"] = round(statistics.mean(x["prob"] for x in off), 5)
    out["tog_sampled_on"] = statistics.median(x["qlen_sampled"] for x in on)
    out["tog_backlog_on"] = statistics.median(x["backlog"] for x in on)
    out["tog_sampled_off_max"] = max(x["qlen_sampled"] for x in off)
    out["tog_qlen_off"] = round(statistics.mean(x["qlen"] for x in off), 1)
except (StopIteration, IndexError, ValueError) as e:
    # the sampler missed a phase (a starved VM): the toggle's checks fail
    # with empty values instead of the whole script stopping here
    print(f"# toggle: {len(tog)} samples, not all three phases seen ({e!r})", file=sys.stderr)
    seen = "".join("B" if mode(x) else "p" for x in tog)
    print(f"# toggle: the modes the samples show, in order (B bytemode): {seen}", file=sys.stderr)
    for k in toggle_keys:
        out[k] = ""
out["lim_forced"] = s("lim")["forced_drops"]
a, b = s("idle1"), s("idle2")
out["idle_prob"] = b["prob"]
out["idle_dsamples"] = b["samples"] - a["samples"]
# the dumps ran somewhere inside [t0, t1] and [t2, t3]
T = 0.004
out["idle_expect"] = round(((t2 + t3) - (t0 + t1)) / 2 / T)
out["idle_err"] = abs(out["idle_dsamples"] - out["idle_expect"])
out["idle_tol"] = round(((t1 - t0) + (t3 - t2)) / 2 / T) + 2
for k, v in out.items():
    print(f"{k}={v}")
PY
)"
# shellcheck disable=SC2154 # set by the eval above
{
	echo "# pi: mean qlen $pi_mean ($pi_n samples), early $pi_early_drops" \
		"forced $pi_forced_drops marks $pi_marks"
	echo "# pfifo: mean qlen $fifo_mean ($fifo_n samples)"
	echo "# pi ecn: mean qlen $ecn_mean ($ecn_n samples), early $ecn_early_drops" \
		"marks $ecn_marks, mid-load prob $ecn_prob_mid"
	echo "# toggle ($tog_n samples): p $tog_p_before_on -> bytemode -> $tog_p_first_on" \
		"(mean $tog_p_mean_on, qlen_sampled median $tog_sampled_on, backlog median" \
		"$tog_backlog_on) $tog_p_before_off -> nobytemode -> $tog_p_first_off (mean" \
		"$tog_p_mean_off, qlen_sampled max $tog_sampled_off_max, mean qlen $tog_qlen_off)"
	echo "# idle: prob $idle_prob, $idle_dsamples samples in 3 s, expected" \
		"$idle_expect +- $idle_tol"
} >&2

# shellcheck disable=SC2154
{
	# measured in the TCG VM: 31.0 packets (ecn: 22.7)
	tap_cmp "pi holds the mean queue near qref $QREF: not far above (packets)" \
		"$pi_mean" "<=" $((QREF * 3 / 2))
	tap_cmp "pi holds the mean queue near qref $QREF: not far below (packets)" \
		"$pi_mean" ">=" $((QREF / 2))
	tap_cmp "pi without ecn drops early" "$pi_early_drops" ">" 0
	tap_cmp "pi without ecn marks nothing" "$pi_marks" "==" 0
	tap_cmp "pfifo with the same limit sits near it (packets)" "$fifo_mean" ">=" $((LIMIT / 2))
	tap_cmp "pi queue is a fraction of pfifo's" "$pi_mean" "<" \
		"$(awk -v f="$fifo_mean" 'BEGIN { print f / 3 }')"

	tap_cmp "pi with ecn holds the queue near qref: not far above (packets)" \
		"$ecn_mean" "<=" $((QREF * 3 / 2))
	tap_cmp "pi with ecn holds the queue near qref: not far below (packets)" \
		"$ecn_mean" ">=" $((QREF / 2))
	tap_cmp "pi with ecn marks ECT packets" "$ecn_marks" ">" 0
	tap_cmp "pi with ecn drops (almost) none early" "$ecn_early_drops" "<=" $((ecn_marks / 20))
	tap_cmp "probability is above 0 in the middle of the load" "$ecn_prob_mid" ">" 0

	# the probability moves by b (q(k) - q(k-1)), about 1e-4 per packet
	# of change, between two samples: a switch that keeps the controller
	# going finds about the same p right after it
	tap_cmp "bytemode on: qlen_sampled is in bytes (median, above any packet count)" \
		"$tog_sampled_on" ">" "$LIMIT"
	tap_cmp "bytemode on: p does not collapse at the switch (vs 0.4 x before)" \
		"$tog_p_first_on" ">=" "$(awk -v p="$tog_p_before_on" 'BEGIN { print 0.4 * p }')"
	tap_cmp "bytemode on: p is well above 0 before switching back" \
		"$tog_p_before_off" ">=" 0.005
	tap_cmp "bytemode off: p does not collapse at the switch (vs 0.4 x before)" \
		"$tog_p_first_off" ">=" "$(awk -v p="$tog_p_before_off" 'BEGIN { print 0.4 * p }')"
	tap_cmp "bytemode off: qlen_sampled is in packets again (max)" \
		"$tog_sampled_off_max" "<=" "$LIMIT"

	tap_cmp "ecn: packets over the limit are still dropped" "$lim_forced" ">" 0

	tap_cmp "probability decays to 0 on an idle link" "$idle_prob" "==" 0
	tap_cmp "one sample per T = 4 ms while idle: |samples - elapsed/T| (3 s sleep)" \
		"$idle_err" "<=" "$idle_tol"
}
tap_exit
