#!/usr/bin/env bash
# sch_rem under real traffic through the 10 Mbit/s, 40 ms dumbbell, with
# REM's published parameters (gamma 0.001, alpha 0.1, phi 1.001, T 2 ms)
# unless said otherwise:
#  - 4 TCP flows into the queue form (no rate: the rate mismatch from the
#    queue's change): the price and the probability rise, and the queue
#    follows qref: near qref 30, and far higher with qref 150 in the same
#    limit (a REM whose price does not move sits at the limit either way);
#    every sample shows prob = 1 - phi^-price;
#  - when the load stops the price falls by exactly gamma alpha qref per
#    update (no packet comes: the updates are applied from elapsed time,
#    seen by the stats dump), one update per T, down to 0, and the
#    probability with it; leaf, class and root hold nothing;
#  - the same with rate 10mbit (the rate-mismatch form, eq. 2 as written):
#    the price rises under the load and, idle, falls by gamma (alpha qref +
#    c) per update, c = rate T / avpkt: with no arrival at all the rate
#    mismatch -c still counts in every update, so an idle link drives the
#    price to 0 faster than the queue term alone would;
#  - lowering the limit under the standing queue of qref 150 cuts the queue
#    at once and counts the excess as drops; leaf, class and root drain;
#  - with ecn, ECN-capable TCP (lib.sh sets tcp_ecn=1) is marked, (almost)
#    never dropped early, while the probability stays below the ceiling;
#    every mark and early drop is one overlimit;
#  - an unresponsive ECT(0) flood (ping -Q 2): with ecn_ceil 1 it sees
#    marks only, and still meets the hard limit; with the default ceiling
#    0.1 it is dropped once the probability is above it;
#  - bytemode: 100-byte and 1400-byte pings through the same queue at the
#    same time (so at the same probability): the small ones are dropped far
#    less often (p scaled by the packet's size over the mean size, eq. 3).
# The floods use phi 1.1 and the bytemode run gamma 0.01 and phi 1.1, so
# that the price reaches those probabilities within a second or two. The
# bounds on the queue and the counts were set from the dynamics (a fluid
# model of the dumbbell: a price near 10, p near 1 %, for 4 flows at qref
# 30), not yet measured in the TCG VM; the idle law is exact. python3
# takes 1.5 s to start there, so snapshots are saved and read by one
# python3 at the end. About 2 minutes and a half.
# Its qref 150 phase needs TCP to build a 150-packet queue in 14 s: with
# another selftest in a second lane it reached a mean of 57 packets (make
# check of 2026-11-26), so it runs alone (guest.sh).
# aqm-selftest: alone
set -euo pipefail
# shellcheck source=selftests/net/lib.sh
. "$(dirname "$0")/lib.sh"

LIMIT=300
QREF=30
QREF_HI=150
SECS=14
# the queue form's and the rate form's phase: after slow start the price stands far above
# its equilibrium (16.7 at 7 s in CI of 2026-11-28, where TCP's loss rate
# for a 30-packet queue asks about 6) and, with the queue empty, falls by
# at most gamma alpha qref = 0.003 per T, 1.5 a second: about 7 s more
# before the queue comes back. A 14-s phase sampled its second half inside
# that drain (mean queues of 6.7, 2.8 and 3.3 against qref 30); 24 s
# samples 12-23 s, after it
SECS_Q=24
# the wire size of a full-sized TCP segment: the rate form counts the
# link's capacity in packets of avpkt bytes
AVPKT=1514
RATE=10mbit
REM=(rem limit "$LIMIT" qref "$QREF")
tmp=$(mktemp -d)

# snap NAME: tc -s -j of the qdisc under test into $tmp/NAME.json
snap() {
	bottleneck_stats >"$tmp/$1.json"
}

# stamp NAME: snap NAME between two readings of the clock (NAME.t)
stamp() {
	local t0=$EPOCHREALTIME
	snap "$1"
	echo "$t0 $EPOCHREALTIME" >"$tmp/$1.t"
}

# left NAME: qlen + backlog of the leaf, its htb class and the htb root
left() {
	echo "$(backlog_of qdisc show dev "$BOTTLENECK_DEV" parent 1:1)" \
		"$(backlog_of class show dev "$BOTTLENECK_DEV" classid 1:1)" \
		"$(backlog_of qdisc show dev "$BOTTLENECK_DEV" root)" >"$tmp/$1.left"
}

# price_of NAME: the price in snapshot NAME (read without python3)
price_of() {
	grep -o '"price":[^,}]*' "$tmp/$1.json" | head -n 1 | cut -d: -f2
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

# idle NAME PER_S: after the load, two stamped snapshots 1 s apart
# (NAME-idle1, NAME-idle2), then one (NAME-idle3) once the price, falling
# by PER_S a second, should be 0 (at most 15 s later), and what the leaf,
# its class and the root hold then (NAME.left)
idle() {
	local name=$1 per_s=$2 secs
	# no wait: iperf3 has ended (its data acknowledged, the queue empty)
	# and the end snapshot took its time; half a second more let the price
	# (2.84 once at the end of the queue form's load, falling 1.5 a
	# second) reach 0 before this snapshot in a make check of 2026-11-28
	stamp "$name-idle1"
	sleep 1
	stamp "$name-idle2"
	secs=$(awk -v p="$(price_of "$name-idle2")" -v r="$per_s" \
		'BEGIN { w = p / r + 1; if (w > 15) w = 15; printf "%.1f", w }')
	sleep "$secs"
	snap "$name-idle3"
	left "$name"
	echo "# t=${SECONDS}s $name idle done (waited $secs s for price 0)" >&2
}

# flood NAME QDISC...: ECT(0) pings of 1400 bytes, asked for at 200 a
# second for 6 s (the emulated VM sends about 90), into QDISC at the
# bottleneck (set to 500 kbit/s: 44 such packets a second), sampled all
# along
flood() {
	local name=$1 s p
	shift
	dumbbell_qdisc "$@"
	leaf_sampler 6 >"$tmp/$name.jl" &
	s=$!
	ns_snd ping -q -Q 2 -i 0.005 -s 1400 -w 6 "$RCV_IP" >"$tmp/$name.ping" 2>&1 &
	p=$!
	wait "$p" || true
	wait "$s"
	snap "$name-end"
	echo "# t=${SECONDS}s $name done: $(grep -E 'transmitted|error|denied' "$tmp/$name.ping" | head -n 2 | tr '\n' ' ')" >&2
	ns_rtr tc -s class show dev "$BOTTLENECK_DEV" classid 1:1 | head -n 3 | sed 's/^/#   /' >&2
}

tap_plan 43
dumbbell_setup 40
trap 'dumbbell_cleanup; rm -rf "$tmp"' EXIT
# the router's neighbour entry for the receiver is permanent, as in
# ared.sh: in a VM run (2026-11-26) the ECT floods built no queue at all
# (no drop, no mark), and an ARP entry gone stale is the suspected cause
mac=$(ip -n "$NS_RCV" link show rcv0 | awk '/link\/ether/ { print $2 }')
ns_rtr ip neigh replace "$RCV_IP" lladdr "$mac" dev "$BOTTLENECK_DEV" nud permanent

# --- the queue form: 4 TCP flows, then idle -------------------------------
# idle, the price falls by gamma alpha qref per T: 0.001 * 0.1 * 30 / 2 ms
dumbbell_qdisc "${REM[@]}"
load q "$SECS_Q" 4
idle q "$(awk -v q="$QREF" 'BEGIN { print 0.001 * 0.1 * q / 0.002 }')"
echo "# t=${SECONDS}s queue form done" >&2

# --- qref 150 in the same limit; then the limit lowered under load -------
# 24 s, sampled over 12-23 s: with 14 s the queue was still climbing
# toward 150 when the phase ended (means of 57-98 packets). The limit is
# lowered once a snapshot finds 50 packets queued (at most 3 s more,
# TCP still sending): a snapshot at a fixed time found 21 once, in a
# loss event's trough
dumbbell_qdisc rem limit "$LIMIT" qref "$QREF_HI"
iperf_run $((SECS_Q + 4)) 4 >"$tmp/hi.iperf" &
iperf=$!
sleep $((SECS_Q / 2))
snap hi-mid
leaf_sampler $((SECS_Q - SECS_Q / 2 - 1)) >"$tmp/hi.jl"
deadline=$((SECONDS + 3))
while :; do
	snap trim1
	qlen=$(grep -o '"qlen":[0-9]*' "$tmp/trim1.json" | head -n 1 | cut -d: -f2)
	[ "${qlen:-0}" -ge 50 ] || [ "$SECONDS" -ge "$deadline" ] && break
	sleep 0.1
done
ns_rtr tc qdisc change dev "$BOTTLENECK_DEV" parent 1:1 handle 10: rem limit 10 qref 5
snap trim2
wait "$iperf"
sleep 1
snap trim3
left trim
echo "# t=${SECONDS}s qref $QREF_HI and the trim done" >&2

# --- the rate form: rate = the bottleneck's ---------------------------------
# idle, the price falls by gamma (alpha qref + rate T / avpkt) per T
# SECS_Q, as the queue form (see there): with 14 s the sampled half was
# still in the overshoot's drain (price 16.2 at mid-load, CI of stop 51)
dumbbell_qdisc "${REM[@]}" rate "$RATE" avpkt "$AVPKT"
load r "$SECS_Q" 4
idle r "$(awk -v q="$QREF" -v a="$AVPKT" 'BEGIN { print 0.001 * (0.1 * q / 0.002 + 1250000 / a) }')"
echo "# t=${SECONDS}s rate form done" >&2

# --- ecn, ECN-capable TCP ------------------------------------------------------
dumbbell_qdisc "${REM[@]}" ecn
load ecn "$SECS" 4
echo "# t=${SECONDS}s ecn done" >&2

# --- an unresponsive ECT(0) flood: ecn_ceil 1, then the default 0.1 -----------
# phi 1.1: the price climbs 2 a second at the limit (gamma alpha (50 - 10)
# per 2 ms), so m passes 0.1 (price 1.1) within about a second. The link
# is 500 kbit/s: at 1 Mbit/s the VM's ping (about 90 a second, 539 in 6 s
# on 2026-11-26) only matched the link and no queue formed.
bottleneck_rate 500kbit
flood ceil1 rem limit 50 qref 10 phi 1.1 ecn ecn_ceil 1
flood ceil rem limit 50 qref 10 phi 1.1 ecn

# --- bytemode: small and large packets at the same probability --------------
# a flood of 1400-byte pings (200/s, 2.3 Mbit/s) into 1 Mbit/s holds the
# probability up; from 2 s on, two probes of 300 pings each, 1400 and 100
# bytes, 50/s each, cross the same queue at the same time. gamma 0.01 and
# phi 1.1: the price settles within a second, before the queue is long.
dumbbell_qdisc rem limit 1000 qref 30000 bytemode avpkt 1500 gamma 0.01 phi 1.1
ns_snd ping -q -i 0.005 -s 1400 -w 10 "$RCV_IP" >/dev/null 2>&1 &
flood_pid=$!
sleep 2
ns_snd ping -q -c 300 -i 0.02 -W 1 -s 1400 "$RCV_IP" >"$tmp/big.ping" 2>&1 &
big=$!
ns_snd ping -q -c 300 -i 0.02 -W 1 -s 100 "$RCV_IP" >"$tmp/small.ping" 2>&1 || true
wait "$big" || true
snap bytes-end
wait "$flood_pid" || true
bottleneck_rate "${AQM_RATE:-10mbit}"
echo "# t=${SECONDS}s bytemode done" >&2

# --- read every snapshot with one python3 ------------------------------------
eval "$(PYTHONPATH="$AQM_PYTHONPATH" python3 - "$tmp" <<'PY'
import json, re, sys
from aqmtools.tcjson import leaf_samples
d = sys.argv[1]
def s(n):
    with open(f"{d}/{n}.json") as f:
        return json.load(f)[0]
def samples(n):
    """every sample of the qdisc under test in a leaf_sampler file"""
    return leaf_samples(f"{d}/{n}.jl")
def mid(n):
    """the middle of the time a stamped snapshot was taken in"""
    with open(f"{d}/{n}.t") as f:
        a, b = (float(x) for x in f.read().split())
    return (a + b) / 2, (b - a) / 2
def law(x):
    """|prob - (1 - phi^-price)| over its tolerance: <= 1 holds"""
    m = 1 - x["options"]["phi"] ** -x["price"]
    return abs(x["prob"] - m) / (1e-6 + 1e-3 * m)
def decrement(o):
    """what an idle update takes off the price: gamma (alpha qref + c),
    c the capacity of one period (rate form only), in the queue's unit"""
    unit = o["avpkt"] if o["bytemode"] else 1
    cap = 0.0
    if o["rate"]:
        per = 1 if o["bytemode"] else o["avpkt"]
        cap = (o["rate"] * 256 * o["tupdate"] * 1000) // (10**9 * per) / 256
    return o["gamma"] * (o["alpha"] * o["qref"] + cap) / unit
def ping_loss(n):
    with open(f"{d}/{n}.ping") as f:
        m = re.search(r"(\d+) packets transmitted, (\d+) received", f.read())
    if not m or not int(m.group(1)):
        return ""
    return round(100 * (1 - int(m.group(2)) / int(m.group(1))), 1)
out = {}
for n in ("q", "hi", "r", "ecn"):
    smp = samples(n)
    out[f"{n}_n"] = len(smp)
    out[f"{n}_mean"] = round(sum(x["qlen"] for x in smp) / len(smp), 1) if smp else ""
    out[f"{n}_law"] = round(max((law(x) for x in smp), default=99), 3)
    out[f"{n}_pmax"] = max((x["prob"] for x in smp), default="")
for n in ("q", "r", "ecn"):
    m, e = s(f"{n}-mid"), s(f"{n}-end")
    out[f"{n}_price_mid"] = m["price"]
    out[f"{n}_prob_mid"] = m["prob"]
    out[f"{n}_price_end"] = e["price"]
    for k in ("drops", "overlimits", "early_drops", "forced_drops", "marks"):
        out[f"{n}_{k}"] = e[k]
for n in ("q", "r"):
    a, b, c = s(f"{n}-idle1"), s(f"{n}-idle2"), s(f"{n}-idle3")
    dec = decrement(a["options"])
    ds = b["samples"] - a["samples"]
    want = max(0.0, a["price"] - dec * ds)
    out[f"{n}_dec"] = round(dec, 6)
    out[f"{n}_ds"] = ds
    out[f"{n}_p1"] = a["price"]
    out[f"{n}_p2"] = b["price"]
    out[f"{n}_want"] = round(want, 4)
    out[f"{n}_idle_err"] = round(abs(b["price"] - want), 4)
    out[f"{n}_idle_tol"] = round(0.01 + 0.01 * dec * ds, 4)
    out[f"{n}_p3"] = c["price"]
    out[f"{n}_prob3"] = c["prob"]
    (t1, h1), (t2, h2) = mid(f"{n}-idle1"), mid(f"{n}-idle2")
    T = a["options"]["tupdate"] / 1e6
    out[f"{n}_ds_expect"] = round((t2 - t1) / T)
    out[f"{n}_ds_err"] = abs(ds - round((t2 - t1) / T))
    out[f"{n}_ds_tol"] = round((h1 + h2) / T) + 2
    with open(f"{d}/{n}.left") as f:
        out[f"{n}_left"] = "+".join(f.read().split())
t1, t2, t3 = s("trim1"), s("trim2"), s("trim3")
out["trim_q1"] = t1["qlen"]
out["trim_q2"] = t2["qlen"]
out["trim_b2"] = t2["backlog"]
out["trim_dropped"] = t2["drops"] - t1["drops"]
out["trim_limit"] = t2["options"]["limit"]
with open(f"{d}/trim.left") as f:
    out["trim_left"] = "+".join(f.read().split())
for n in ("ceil1", "ceil"):
    e = s(f"{n}-end")
    out[f"{n}_pmax"] = max((x["prob"] for x in samples(n)), default=e["prob"])
    for k in ("drops", "overlimits", "early_drops", "forced_drops", "marks"):
        out[f"{n}_{k}"] = e[k]
e = s("bytes-end")
for k in ("early_drops", "forced_drops", "mean_pktlen", "prob"):
    out[f"bytes_{k}"] = e[k]
out["big_loss"] = ping_loss("big")
out["small_loss"] = ping_loss("small")
for k, v in out.items():
    print(f"{k}={v}")
PY
)"
# shellcheck disable=SC2154 # set by the eval above
{
	echo "# queue form: mean qlen $q_mean ($q_n samples), price $q_price_mid at mid-load," \
		"$q_price_end at the end, prob $q_prob_mid at mid-load (max $q_pmax); early" \
		"$q_early_drops forced $q_forced_drops marks $q_marks drops $q_drops"
	echo "# queue form idle: price $q_p1 -> $q_p2 over $q_ds updates (expected $q_ds_expect" \
		"+- $q_ds_tol) of -$q_dec: expected $q_want (error $q_idle_err, tolerance" \
		"$q_idle_tol); then $q_p3 (prob $q_prob3), left $q_left"
	echo "# qref $QREF_HI: mean qlen $hi_mean ($hi_n samples); trim: qlen $trim_q1 ->" \
		"limit $trim_limit: $trim_q2 ($trim_b2 b), $trim_dropped dropped; left $trim_left"
	echo "# rate form: mean qlen $r_mean ($r_n samples), price $r_price_mid at mid-load," \
		"$r_price_end at the end; early $r_early_drops forced $r_forced_drops"
	echo "# rate form idle: price $r_p1 -> $r_p2 over $r_ds updates of -$r_dec: expected" \
		"$r_want (error $r_idle_err, tolerance $r_idle_tol); then $r_p3 (prob $r_prob3)," \
		"left $r_left"
	echo "# ecn: mean qlen $ecn_mean, prob max $ecn_pmax, marks $ecn_marks early" \
		"$ecn_early_drops forced $ecn_forced_drops overlimits $ecn_overlimits"
	echo "# ECT(0) flood, ecn_ceil 1: prob max $ceil1_pmax, marks $ceil1_marks early" \
		"$ceil1_early_drops forced $ceil1_forced_drops overlimits $ceil1_overlimits"
	echo "# ECT(0) flood, ecn_ceil 0.1: prob max $ceil_pmax, marks $ceil_marks early" \
		"$ceil_early_drops forced $ceil_forced_drops overlimits $ceil_overlimits"
	echo "# bytemode: 1400-byte pings lost $big_loss %, 100-byte pings $small_loss %;" \
		"early $bytes_early_drops forced $bytes_forced_drops, mean_pktlen" \
		"$bytes_mean_pktlen, prob $bytes_prob at the end"
} >&2

# shellcheck disable=SC2154
{
	tap_cmp "queue form: the price rises under the load (mid-load)" "$q_price_mid" ">" 0
	tap_cmp "queue form: and the probability with it (mid-load)" "$q_prob_mid" ">" 0
	tap_cmp "queue form: every sample has prob = 1 - phi^-price (largest error / tolerance)" \
		"$q_law" "<=" 1
	tap_cmp "queue form: the mean queue is held near qref $QREF: not far above (packets)" \
		"$q_mean" "<=" $((QREF * 2))
	# with a 14-s phase 2.8 (host busy), 6.7 (idle) and 3.3 (alone, CI of
	# 2026-11-28): the overshoot's price was still draining (SECS_Q)
	tap_cmp "queue form: not far below (packets)" "$q_mean" ">=" $((QREF / 6))
	tap_cmp "queue form: without ecn packets are dropped early" "$q_early_drops" ">" 0
	tap_cmp "queue form: without ecn nothing is marked" "$q_marks" "==" 0
	tap_strict tap_cmp "queue form: drops = early_drops + forced_drops" "$q_drops" "==" \
		$((q_early_drops + q_forced_drops))
	tap_cmp "queue form idle: the price is still above 0 just after the load" \
		"$q_p1" ">" 0
	tap_cmp "queue form idle: the price falls by gamma alpha qref per update (error)" \
		"$q_idle_err" "<=" "$q_idle_tol"
	tap_cmp "queue form idle: one update per T = 2 ms while idle: |updates - elapsed/T|" \
		"$q_ds_err" "<=" "$q_ds_tol"
	tap_cmp "queue form idle: the price falls back to 0" "$q_p3" "==" 0
	tap_cmp "queue form idle: and the probability" "$q_prob3" "==" 0
	tap_strict tap_cmp "queue form idle: leaf, class and root hold nothing (packets + bytes)" \
		"$((q_left))" "==" 0

	# a third of qref: with a 14-s phase TCP was still climbing when it
	# ended, measured 57 (another selftest in a second lane), 67.4 and 68.4
	# (alone, CI of 2026-11-27: qref/2 failed), 79.6 (CI of 2026-11-28);
	# 135.8 with 24 s in a lane (make check of 2026-11-27)
	tap_cmp "qref $QREF_HI: the mean queue follows qref up (packets)" "$hi_mean" ">=" \
		$((QREF_HI / 3))
	tap_cmp "qref $QREF_HI: and stays well below the limit $LIMIT (packets)" "$hi_mean" "<=" \
		$((LIMIT * 4 / 5))
	# a third of the qrefs' difference (58.6 packets apart with 14-s
	# phases, another selftest in a second lane, make check of
	# 2026-11-26); a rem that ignored qref would put them about 0 apart
	tap_cmp "qref $QREF_HI against qref $QREF: the mean queues differ by a third of the qrefs' (packets)" \
		"$(awk -v a="$hi_mean" -v b="$q_mean" 'BEGIN { print a - b }')" ">=" \
		$(((QREF_HI - QREF) / 3))
	tap_cmp "trim: the queue was long when the limit was lowered (packets)" "$trim_q1" ">=" 50
	tap_strict tap_cmp "trim: limit 10 cut the queue at once (packets)" "$trim_q2" "<=" 10
	tap_strict tap_cmp "trim: and its backlog (bytes)" "$trim_b2" "<=" $((10 * 1514))
	tap_strict tap_cmp "trim: the excess is counted as drops" "$trim_dropped" ">=" \
		$(((trim_q1 - 10) / 2))
	tap_strict tap_cmp "trim: leaf, class and root hold nothing after the traffic (packets + bytes)" \
		"$((trim_left))" "==" 0

	tap_cmp "rate form: the price rises under the load (mid-load)" "$r_price_mid" ">" 0
	tap_cmp "rate form: every sample has prob = 1 - phi^-price (largest error / tolerance)" \
		"$r_law" "<=" 1
	tap_cmp "rate form: the mean queue is held near qref $QREF: not far above (packets)" \
		"$r_mean" "<=" $((QREF * 2))
	# the rate mismatch pulls the queue below qref while TCP offers less
	# than the rate: mean queues of 10.2, 14.9 and 6.7 in three VM runs
	# of 14 s and 4.9 in a fourth (CI of stop 51); 28.3 and 25.2 with 24 s
	tap_cmp "rate form: not far below (packets, est.)" "$r_mean" ">=" $((QREF / 6))
	tap_cmp "rate form idle: the price is still above 0 just after the load" \
		"$r_p1" ">" 0
	tap_cmp "rate form idle: the price falls by gamma (alpha qref + rate T / avpkt) per update (error)" \
		"$r_idle_err" "<=" "$r_idle_tol"
	tap_cmp "rate form idle: the price falls back to 0 on the idle link" "$r_p3" "==" 0
	tap_strict tap_cmp "rate form idle: leaf, class and root hold nothing (packets + bytes)" \
		"$((r_left))" "==" 0

	tap_cmp "ecn: ECT packets are marked" "$ecn_marks" ">" 0
	tap_cmp "ecn: (almost) none dropped early" "$ecn_early_drops" "<=" $((ecn_marks / 20))
	tap_cmp "ecn: the probability stays below the ceiling 0.1 (max sampled)" "$ecn_pmax" "<=" 0.1
	tap_cmp "ecn: the mean queue is held near qref $QREF (packets)" "$ecn_mean" "<=" $((QREF * 2))
	tap_strict tap_cmp "ecn: overlimits = early_drops + marks" "$ecn_overlimits" "==" \
		$((ecn_early_drops + ecn_marks))

	tap_cmp "ECT(0) flood, ecn_ceil 1: the probability rises above 0.1 (max sampled)" \
		"$ceil1_pmax" ">" 0.1
	tap_cmp "ECT(0) flood, ecn_ceil 1: it is marked" "$ceil1_marks" ">=" 50
	tap_cmp "ECT(0) flood, ecn_ceil 1: and not dropped early (a few stray non-ECT packets)" \
		"$ceil1_early_drops" "<=" 5
	tap_cmp "ECT(0) flood, ecn_ceil 1: marks do not bypass the limit (forced drops)" \
		"$ceil1_forced_drops" ">" 0
	tap_cmp "ECT(0) flood, ecn_ceil 0.1: the probability rises above the ceiling (max sampled)" \
		"$ceil_pmax" ">" 0.1
	tap_cmp "ECT(0) flood, ecn_ceil 0.1: above it ECT packets are dropped, not marked (early drops vs marks)" \
		"$ceil_early_drops" ">" "$ceil_marks"

	tap_cmp "bytemode: the 1400-byte probe loses packets to REM (%)" "$big_loss" ">=" 10
	tap_cmp "bytemode: the 100-byte probe loses far fewer at the same probability (%, vs a third)" \
		"$small_loss" "<=" "$(awk -v l="$big_loss" 'BEGIN { print l / 3 }')"
}
tap_exit
