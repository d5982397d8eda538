#!/usr/bin/env bash
# sch_dcn's first pref where the link sends more than limit packets per
# Tdec (issue 34, link rates): at 1 Gbit/s the defaults' limit of 1000
# packets is 1.5% of the 66,050 packets the link sends in a Tdec of 800
# ms, and pref, which starts at limit, would hold a lone elephant to that
# (drops with probability 1 - pref/pktcount) until the controller raised
# it, computed at about 47 s with a 10 ms target (16 s with 29 ms).
# Nothing here runs at 1 Gbit/s, so the same ratio is made at 10 Mbit/s
# with "limit 200": the link sends about 660 full-size frames per Tdec,
# 3.3 times limit.
#  - with one TCP flow for 8 s through dcn limit 200, pref was seeded from
#    the measured rate: it ends at 550 packets per Tdec or more (the link
#    sends about 660). Unseeded it starts at 200 and the relative law
#    raises it by about 9% a second (e^(0.09 x 8) x 200 = 411): it ended
#    at 396 with the modules of f713b54, and at 684, 696 with the seed.
# The flow's goodput is printed, not judged: one Reno-like flow with a
# 10-ms queue target and a 40-ms RTT does not fill the link after a loss
# whatever pref is (seeded: 9.01 and 5.90 Mbit/s in two runs; unseeded
# 4.02). The target is set to 10 ms explicitly: it was the default, with
# which these figures were measured, and on an empty queue the relative
# law raises pref by 9% a second at 10 ms but by 30% at the default 29 ms
# (e^(0.26 x 8) x 200 = 1609), where an unseeded pref would pass the
# bound too and the check would no longer tell the seed. About 20 s.
set -euo pipefail
# shellcheck source=selftests/net/lib.sh
. "$(dirname "$0")/lib.sh"

tmp=$(mktemp -d)
SECS=8

tap_plan 1
dumbbell_setup 40
trap 'dumbbell_cleanup; rm -rf "$tmp"' EXIT

# phase NAME LIMIT: one TCP flow for SECS seconds through dcn limit LIMIT
# target 10ms
phase() {
	dumbbell_qdisc dcn limit "$2" target 10ms
	iperf_run "$SECS" 1 >"$tmp/$1.json"
	bottleneck_stats >"$tmp/$1-tc.json"
	echo "# t=${SECONDS}s $1 done" >&2
}

phase narrow 200

eval "$(python3 - "$tmp" <<'PY'
import json, sys
d = sys.argv[1]
for name in ("narrow",):
    with open(f"{d}/{name}.json") as f:
        j = json.load(f)
    # the receiver's bytes per one-second interval, from the second on
    rates = [i["sum"]["bits_per_second"] for i in j["intervals"][1:]]
    print(f"{name}_rate={sum(rates) / max(len(rates), 1):.0f}")
    with open(f"{d}/{name}-tc.json") as f:
        q = json.load(f)[0]
    print(f"{name}_pref={q.get('pref', -1)}")
    print(f"{name}_early={q.get('early_drops', -1)}")
PY
)"

# shellcheck disable=SC2154 # set by the eval above
{
	echo "# limit 200: $narrow_rate bit/s, pref $narrow_pref, early drops $narrow_early" >&2
	tap_cmp "limit 200: pref was seeded from the link's packets per Tdec (packets)" \
		"$narrow_pref" ">=" 550
}
tap_exit
