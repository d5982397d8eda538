#!/usr/bin/env bash
# sch_dcn's penalty for unresponsive flows is bounded (the floor, see
# tc-dcn(8)): 4 long TCP flows share the 10 Mbit/s, 40 ms dumbbell with 2
# UDP flows that each send twice the fair share (a sixth of the link).
#  - with "floor 0" (every arrival counts in pktcount, the paper's
#    section 3.2 wording, and dcn's only behaviour before the floor) each
#    UDP flow is cut off: it keeps under a quarter of its share;
#  - with the default floor (1: an HB flow keeps pref per Tdec) each UDP
#    flow keeps its share within 30% either way: more than it would be
#    cut to, less than the twice it sends;
#  - the TCP flows are not harmed by the floor: together they keep at least
#    80% of what is left to them (four sixths of the link), and Jain's
#    index among them stays within 0.1 of that under floor 0.
# The default floor is what makes this test pass: run with "floor 0" as
# the default it fails the floor's checks.
set -euo pipefail
# shellcheck source=selftests/net/lib.sh
. "$(dirname "$0")/lib.sh"

tmp=$(mktemp -d)
SECS=20
OMIT=4
TCP_FLOWS=4
UDP_FLOWS=2

tap_plan 8
dumbbell_setup 40
trap 'dumbbell_cleanup; rm -rf "$tmp"' EXIT

# the link's goodput with TCP alone, the unit of the shares
dumbbell_qdisc pfifo limit 1000
iperf_run 8 "$TCP_FLOWS" -O 2 >"$tmp/alone.json"
link=$(json_get 'j["end"]["sum_received"]["bits_per_second"]' <"$tmp/alone.json")
share=$(awk -v l="$link" -v n=$((TCP_FLOWS + UDP_FLOWS)) 'BEGIN { printf "%.0f", l / n }')
echo "# link goodput $link bit/s, fair share $share bit/s" >&2

# phase NAME DCN-OPTIONS...: TCP and UDP together under dcn
phase() {
	local name=$1 i
	shift
	dumbbell_qdisc dcn "$@"
	for i in $(seq 1 "$UDP_FLOWS"); do
		ns_rcv iperf3 -s -1 -D -p $((5300 + i)) >/dev/null
	done
	iperf_run $((SECS + OMIT)) "$TCP_FLOWS" -O "$OMIT" >"$tmp/$name-tcp.json" &
	local pids=($!)
	for i in $(seq 1 "$UDP_FLOWS"); do
		ns_snd iperf3 -c "$RCV_IP" -p $((5300 + i)) -u -b $((share * 2)) -l 1400 \
			-t $((SECS + OMIT)) -O "$OMIT" -J >"$tmp/$name-udp$i.json" &
		pids+=($!)
	done
	wait "${pids[@]}"
	bottleneck_stats >"$tmp/$name-tc.json"
	echo "# t=${SECONDS}s $name done" >&2
}

phase paper floor 0
phase default

eval "$(PYTHONPATH="$AQM_PYTHONPATH" python3 - "$tmp" "$UDP_FLOWS" <<'PY'
import json, sys
from aqmtools.bench.stats import jain
from aqmtools.iperf import tcp_rates, udp_goodput
d, n_udp = sys.argv[1], int(sys.argv[2])
for name in ("paper", "default"):
    rates = tcp_rates(f"{d}/{name}-tcp.json")
    print(f"{name}_tcp={sum(rates):.0f}")
    print(f"{name}_jain={jain(rates):.3f}")
    udp = [udp_goodput(f"{d}/{name}-udp{i}.json")[0] for i in range(1, n_udp + 1)]
    print(f"{name}_udp_min={min(udp):.0f}")
    print(f"{name}_udp_max={max(udp):.0f}")
    with open(f"{d}/{name}-tc.json") as f:
        q = json.load(f)[0]
    for k in ("early_drops", "penalty_drops", "over_pref", "pref"):
        print(f"{name}_{k}={q.get(k, '')}")
PY
)"

# shellcheck disable=SC2154 # set by the eval above
{
	for p in paper default; do
		v() { eval "echo \$${p}_$1"; }
		echo "# $p: tcp $(v tcp) bit/s jain $(v jain), udp $(v udp_min)-$(v udp_max)" \
			"bit/s (share $share), early drops $(v early_drops)," \
			"penalty drops $(v penalty_drops), pref $(v pref)"
	done
} >&2

# shellcheck disable=SC2154
{
	tap_cmp "floor 0: each UDP flow is cut off (under 1/4 of its share, bit/s)" \
		"$paper_udp_max" "<" "$(awk -v s="$share" 'BEGIN { print s / 4 }')"
	tap_cmp "floor 0: its drops are penalty drops (of early drops $paper_early_drops)" \
		"$paper_penalty_drops" ">" "$(awk -v e="$paper_early_drops" 'BEGIN { print e / 2 }')"
	tap_cmp "default floor: each UDP flow keeps its share (at least 0.7 x, bit/s)" \
		"$default_udp_min" ">=" "$(awk -v s="$share" 'BEGIN { print s * 0.7 }')"
	tap_cmp "default floor: and no more than 1.3 x its share (it sends 2 x)" \
		"$default_udp_max" "<=" "$(awk -v s="$share" 'BEGIN { print s * 1.3 }')"
	tap_cmp "default floor: the UDP flows are still dropped early" \
		"$default_early_drops" ">" 0
	tap_cmp "default floor: TCP keeps 80% of its four sixths of the link (bit/s)" \
		"$default_tcp" ">=" "$(awk -v s="$share" -v n="$TCP_FLOWS" 'BEGIN { print 0.8 * n * s }')"
	tap_cmp "default floor: Jain's index among TCP flows within 0.1 of floor 0's ($paper_jain)" \
		"$default_jain" ">=" "$(awk -v j="$paper_jain" 'BEGIN { print j - 0.1 }')"
	tap_cmp "floor 0 gives TCP the link the UDP flows lose (bit/s)" \
		"$paper_tcp" ">" "$default_tcp"
}
tap_exit
