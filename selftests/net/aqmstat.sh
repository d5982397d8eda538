#!/usr/bin/env bash
# aqmstat (scripts/bench) on the router of the 10 Mbit/s, 40 ms dumbbell,
# sampling the bottleneck leaf every 10 ms while 3 TCP flows cross pi, rem,
# ared, riops, dcn, afd and blue:
#  - it ends cleanly on SIGTERM, every record decodes, t strictly
#    increases and no counter ever decreases;
#  - the controller state is decoded: pi's, rem's and ared's prob, riops's
#    prob_out and blue's p_m stay in [0, 1] and rise above 0 under load
#    (riops's prob_in stays in [0, 1] too), dcn's HB and afd's flow table
#    hold flows at some point;
#  - once the link is idle, the last record's counters equal those of
#    `tc -s -j` taken after the traffic (nothing moves any more).
# The sampling rate achieved under load and the ticks missed are printed
# as comments (a figure of the machine, not a test). python3 takes 1.5 s to
# start in the TCG VM: one python3 reads every file at the end.
set -euo pipefail
# shellcheck source=selftests/net/lib.sh
. "$(dirname "$0")/lib.sh"

top=$(cd "$(dirname "$0")/../.." && pwd)
AQMSTAT=$top/scripts/bench/aqmstat
SECS=6
FLOWS=3
QDISCS=(pi rem ared riops dcn afd blue)
PER_QDISC=6

if [ ! -x "$AQMSTAT" ]; then
	tap_plan 1
	tap_result 1 "aqmstat is built: $AQMSTAT is missing (make -C scripts/bench aqmstat on the host)"
	tap_exit
fi

tmp=$(mktemp -d)
tap_plan $((${#QDISCS[@]} * PER_QDISC))
dumbbell_setup 40
trap 'dumbbell_cleanup; rm -rf "$tmp"' EXIT

# trace NAME: aqmstat on the leaf while FLOWS TCP flows run for SECS, then
# a tc snapshot of the idle leaf (NAME.tc, taken at the time in NAME.tsnap)
# and a last half second of samples before SIGTERM
trace() {
	local name=$1 pid rc=0
	# directly, not through ns_rtr: $! must be aqmstat itself
	ip netns exec "$NS_RTR" "$AQMSTAT" -d "$BOTTLENECK_DEV" -H 10: -t 10 -f json \
		-o "$tmp/$name.jl" 2>"$tmp/$name.err" &
	pid=$!
	iperf_run "$SECS" "$FLOWS" >"$tmp/$name.iperf"
	# 10 Mbit/s drains even a full 300-packet queue in 0.4 s
	sleep 1
	bottleneck_stats >"$tmp/$name.tc"
	echo "$EPOCHREALTIME" >"$tmp/$name.tsnap"
	sleep 0.5
	kill -TERM "$pid"
	wait "$pid" || rc=$?
	echo "$rc" >"$tmp/$name.rc"
	echo "# t=${SECONDS}s $name done" >&2
}

dumbbell_qdisc pi limit 300 qref 24 rate 10mbit rtt 100ms flows "$FLOWS" avpkt 1500
trace pi
dumbbell_qdisc rem limit 300 qref 24
trace rem
dumbbell_qdisc ared limit 300 min 12 max 36 bandwidth 10mbit avpkt 1514
trace ared
dumbbell_qdisc riops limit 300 rate 10mbit avpkt 1514
trace riops
dumbbell_qdisc dcn limit 300 qref 24
trace dcn
dumbbell_qdisc afd limit 300 qref 24
trace afd
dumbbell_qdisc blue limit 100
trace blue

# --- read every file with one python3 -----------------------------------------
eval "$(python3 - "$tmp" "${QDISCS[@]}" <<'PY'
import json, re, sys
d, names = sys.argv[1], sys.argv[2:]
GENERIC = ["bytes", "packets", "qlen", "backlog", "drops", "requeues", "overlimits"]
COUNTERS = ["bytes", "packets", "drops", "requeues", "overlimits"]
# xstats: counters that only packets move (not the idle-time controller),
# the probability, and the state that must rise under load
KIND = {
    "pi": (["early_drops", "forced_drops", "marks", "samples"], "prob", "prob"),
    "rem": (["early_drops", "forced_drops", "marks", "samples"], "prob", "prob"),
    "ared": (["early_drops", "hard_drops", "forced_drops", "marks", "adapts"], "prob", "prob"),
    "riops": (["early_drops_in", "early_drops_out", "hard_drops", "forced_drops", "marks",
               "in_pkts", "out_pkts"], "prob_out", "prob_out"),
    "dcn": (["early_drops", "forced_drops", "marks", "promotions"], None, "hb_flows"),
    "afd": (["early_drops", "forced_drops", "marks", "sampled"], None, "flows"),
    "blue": (["early_drops", "overflow_drops", "marks", "increments"], "p_m", "p_m"),
}
IDLE_STABLE = {"pi": ["early_drops", "forced_drops", "marks"],
               "rem": ["early_drops", "forced_drops", "marks"],
               "ared": ["early_drops", "hard_drops", "forced_drops", "marks"],
               "riops": ["early_drops_in", "early_drops_out", "hard_drops", "forced_drops",
                         "marks", "in_pkts", "out_pkts"],
               "dcn": ["early_drops", "forced_drops", "marks", "promotions"],
               "afd": ["early_drops", "forced_drops", "marks", "sampled"],
               "blue": ["early_drops", "overflow_drops", "marks", "increments"]}
out = {}
for n in names:
    xcount, prob, state = KIND[n]
    recs, bad = [], 0
    with open(f"{d}/{n}.jl") as f:
        for line in f:
            try:
                r = json.loads(line)
            except ValueError:
                bad += 1
                continue
            if r.get("kind") != n or r.get("handle") != "10:" or \
                    not all(k in r for k in GENERIC + xcount + [state]):
                bad += 1
                continue
            recs.append(r)
    with open(f"{d}/{n}.err") as f:
        err = f.read()
    m = re.search(r"aqmstat: (\d+) samples, (\d+) missed ticks", err)
    out[f"{n}_rc"] = open(f"{d}/{n}.rc").read().strip()
    out[f"{n}_n"] = len(recs)
    out[f"{n}_bad"] = bad
    out[f"{n}_samples"] = m.group(1) if m else -1
    out[f"{n}_missed"] = m.group(2) if m else -1
    if not recs:
        continue
    t = [r["t"] for r in recs]
    mono = all(b > a for a, b in zip(t, t[1:]))
    for k in COUNTERS + xcount:
        v = [r[k] for r in recs]
        mono = mono and all(b >= a for a, b in zip(v, v[1:]))
    out[f"{n}_mono"] = int(mono)
    span = t[-1] - t[0]
    out[f"{n}_span"] = round(span, 2)
    out[f"{n}_rate"] = round((len(recs) - 1) / span, 1) if span > 0 else 0
    # rate while the flows ran: from the first to the last record that
    # saw packets leave
    moved = [i for i in range(1, len(recs))
             if recs[i]["packets"] != recs[i - 1]["packets"]]
    busy = t[moved[0]:moved[-1] + 1] if moved else []
    out[f"{n}_busy_span"] = round(busy[-1] - busy[0], 2) if len(busy) > 1 else 0
    out[f"{n}_busy_rate"] = round((len(busy) - 1) / (busy[-1] - busy[0]), 1) \
        if len(busy) > 1 else 0
    if prob:
        p = [r[prob] for r in recs]
        out[f"{n}_range"] = f"'{min(p)} .. {max(p)}'"
        out[f"{n}_range_ok"] = int(0 <= min(p) and max(p) <= 1)
        if n == "riops":
            # IN's probability too, though it may stay 0 under this load
            pin = [r["prob_in"] for r in recs]
            out[f"{n}_range"] = f"'prob_out {min(p)} .. {max(p)}, prob_in {min(pin)} .. {max(pin)}'"
            out[f"{n}_range_ok"] = int(0 <= min(p + pin) and max(p + pin) <= 1)
    elif n == "afd":
        fair = [r["m_fair"] for r in recs]
        over = sum(r["flows"] > r["flows_capacity"] for r in recs)
        out[f"{n}_range"] = f"'m_fair {min(fair)} .. {max(fair)}, {over} over capacity'"
        out[f"{n}_range_ok"] = int(min(fair) >= 0 and over == 0)
    else:
        pref = [r["pref"] for r in recs]
        over = sum(r["hb_flows"] > r["hb_capacity"] for r in recs)
        out[f"{n}_range"] = f"'pref {min(pref)} .. {max(pref)}, {over} over capacity'"
        out[f"{n}_range_ok"] = int(min(pref) >= 0 and over == 0)
    out[f"{n}_state_max"] = max(r[state] for r in recs)
    with open(f"{d}/{n}.tc") as f:
        tc = json.load(f)[0]
    tsnap = float(open(f"{d}/{n}.tsnap").read())
    last = recs[-1]
    out[f"{n}_after"] = round(last["wall"] - tsnap, 3)
    diff = [f"{k}:{last[k]}/{tc.get(k)}" for k in GENERIC + IDLE_STABLE[n]
            if last[k] != tc.get(k)]
    out[f"{n}_diff"] = "'" + (",".join(diff) or "none") + "'"
    out[f"{n}_end"] = "'" + " ".join(f"{k}={last[k]}" for k in
                                      ["packets", "drops"] + IDLE_STABLE[n]) + "'"
for k, v in out.items():
    print(f"{k}={v}")
PY
)"

# shellcheck disable=SC2154 # set by the eval above
for q in "${QDISCS[@]}"; do
	n=${q}_n rc=${q}_rc bad=${q}_bad samples=${q}_samples missed=${q}_missed
	mono=${q}_mono after=${q}_after diff=${q}_diff end=${q}_end smax=${q}_state_max
	rate=${q}_rate busy=${q}_busy_rate bspan=${q}_busy_span span=${q}_span range=${q}_range ok=${q}_range_ok
	echo "# $q: ${!n} records over ${!span:-0} s: ${!rate:-0}/s (${!busy:-0}/s over the ${!bspan:-0} s of traffic)," \
		"${!missed} missed ticks; at the end ${!end:-}" >&2
	sed "s/^/# $q: /" "$tmp/$q.err" >&2
	tap_strict tap_result $((${!rc} != 0 || ${!n} == 0 || ${!bad} != 0 || ${!samples} != ${!n})) \
		"$q: aqmstat ends on SIGTERM with status ${!rc}; ${!n} records decode, ${!bad} do not," \
		"one per sample (${!samples} samples)"
	tap_strict tap_result $((${!mono:-0} != 1)) "$q: t strictly increases, no counter decreases"
	if [ "$q" = dcn ]; then
		tap_result $((${!ok:-0} != 1)) "dcn: pref >= 0, hb_flows <= hb_capacity (${!range:-})"
		tap_cmp "dcn: HB holds flows at some point (max hb_flows)" "${!smax:-}" ">" 0
	elif [ "$q" = afd ]; then
		tap_result $((${!ok:-0} != 1)) "afd: m_fair >= 0, flows <= flows_capacity (${!range:-})"
		tap_cmp "afd: the flow table holds flows at some point (max flows)" "${!smax:-}" ">" 0
	else
		tap_result $((${!ok:-0} != 1)) "$q: the probability stays in [0, 1] (${!range:-})"
		tap_cmp "$q: the probability rises above 0 under load (max)" "${!smax:-}" ">" 0
	fi
	tap_cmp "$q: the last record was sampled after the idle snapshot (s)" "${!after:-}" ">" 0
	tap_result "$([ "${!diff:-x}" = none ] && echo 0 || echo 1)" \
		"$q: the last record's counters equal tc -s -j of the idle qdisc (diff: ${!diff:-})"
done
tap_exit
