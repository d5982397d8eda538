#!/usr/bin/env bash
# make demo: build everything, boot the test VM, run 4 TCP flows through a
# 10 Mbit/s, 40 ms RTT netns dumbbell for DEMO_SECONDS (default 60) per
# configuration, and print a summary table: goodput, delay under load,
# drops and ECN marks per queue discipline.
set -euo pipefail
# shellcheck source=scripts/lib/common.sh
. "$(dirname "$0")/lib/common.sh"

secs=${DEMO_SECONDS:-60}
# NAME|QDISC ARGS: the leaf qdisc at the bottleneck (10 Mbit/s = 833 pkt/s)
configs=(
	"pfifo|pfifo limit 1000"
	"red|red limit 1500000 min 15000 max 45000 avpkt 1500 burst 20 bandwidth 10mbit probability 0.1 adaptive"
	"pi|pi limit 1000 qref 24 rate 10mbit rtt 100ms flows 4 avpkt 1500"
	"pi-ecn|pi limit 1000 qref 24 rate 10mbit rtt 100ms flows 4 avpkt 1500 ecn"
	"dcn|dcn limit 1000 qref 24"
	"afd|afd limit 1000 qref 24"
	"blue|blue limit 300 threshold 100 ecn"
	"sfb|sfb"
)

cd "$AQM_TOP"
aqm_vm_build

out="$AQM_TOP/build/demo"
rm -rf "$out"
mkdir -p "$out"
names=()
for c in "${configs[@]}"; do
	names+=("${c%%|*}")
done
aqm_log "running ${#configs[@]} configurations for $secs s each"
"$AQM_TOP/scripts/vm/run.sh" --timeout $((300 + 2 * secs * ${#configs[@]})) --console \
	--rwdir "$out" -- \
	"bash '$AQM_TOP/scripts/demo/guest.sh' '$out' '$secs' $(printf "'%s' " "${configs[@]}")" \
	>"$out/vm.log" 2>&1 || {
	tail -n 30 "$out/vm.log" >&2
	aqm_die "demo VM run failed (log: $out/vm.log)"
}
echo
echo "4 TCP flows, 10 Mbit/s bottleneck, 40 ms base RTT, $secs s per row:"
PYTHONPATH="$AQM_TOP/scripts" "$AQM_VENV/bin/python3" -m aqmtools.demo_report "$out" "${names[@]}"
