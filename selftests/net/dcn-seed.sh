#!/usr/bin/env bash
# sch_dcn's first pref where the link sends more than limit packets per
# Tdec (issue 34, link rates): at 1 Gbit/s the defaults' limit of 1000
# packets is 1.5% of the 66,050 packets the link sends in a Tdec of 800
# ms, and pref, which starts at limit, would hold a lone elephant to that
# (drops with probability 1 - pref/pktcount) until the controller raised
# it, computed at about 47 s. Nothing here runs at 1 Gbit/s, so the same
# ratio is made at 10 Mbit/s with "limit 200": the link sends about 660
# full-size frames per Tdec, 3.3 times limit.
#  - one TCP flow alone through dcn limit 200 gets the link from its
#    second second on: at least 80% of what the same flow gets through
#    dcn limit 1000, where limit is above the link's Tdec (seconds 2-8);
#  - pref was seeded from the measured rate: at the end it is at least 60%
#    of the pref that limit 1000 ended with (the same controller from a
#    start above the link's Tdec).
# Without the seed (pref from limit alone) the flow was held to about
# pref per Tdec: see the figures printed. About 30 s.
set -euo pipefail
# shellcheck source=selftests/net/lib.sh
. "$(dirname "$0")/lib.sh"

tmp=$(mktemp -d)
SECS=8

tap_plan 3
dumbbell_setup 40
trap 'dumbbell_cleanup; rm -rf "$tmp"' EXIT

# phase NAME LIMIT: one TCP flow for SECS seconds through dcn limit LIMIT
phase() {
	dumbbell_qdisc dcn limit "$2"
	iperf_run "$SECS" 1 >"$tmp/$1.json"
	bottleneck_stats >"$tmp/$1-tc.json"
	echo "# t=${SECONDS}s $1 done" >&2
}

phase wide 1000
phase narrow 200

eval "$(python3 - "$tmp" <<'PY'
import json, sys
d = sys.argv[1]
for name in ("wide", "narrow"):
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
	echo "# limit 1000: $wide_rate bit/s, pref $wide_pref, early drops $wide_early" >&2
	echo "# limit 200: $narrow_rate bit/s, pref $narrow_pref, early drops $narrow_early" >&2
	tap_cmp "limit 1000: the lone flow fills the link (bit/s)" "$wide_rate" ">=" 7000000
	tap_cmp "limit 200: the lone flow gets 80% of that (bit/s)" "$narrow_rate" ">=" \
		"$(awk -v w="$wide_rate" 'BEGIN { print 0.8 * w }')"
	tap_cmp "limit 200: pref was seeded: 60% of limit 1000's at the end (packets)" \
		"$narrow_pref" ">=" "$(awk -v w="$wide_pref" 'BEGIN { print 0.6 * w }')"
}
tap_exit
