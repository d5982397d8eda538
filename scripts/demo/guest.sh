#!/usr/bin/env bash
# Demo, inside the test VM: one dumbbell (10 Mbit/s, 40 ms RTT), then for
# each AQM configuration 4 TCP flows for SECONDS while ping measures the
# delay; writes one JSON per configuration into OUT.
#
# Usage: guest.sh OUT SECONDS 'NAME|QDISC ARGS' ...
set -euo pipefail
top=$(cd "$(dirname "$0")/../.." && pwd)
export PATH="/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin"
export TC_LIB_DIR="$top/tc"
out=$1
secs=$2
shift 2
# shellcheck source=selftests/net/lib.sh
. "$top/selftests/net/lib.sh"
# a command that fails ends the run: say which, and when
trap 'echo "demo: $(date +%T): line $LINENO: \"$BASH_COMMAND\" exited $?" >&2' ERR

for m in "$top"/net/sched/aqm_lib.ko "$top"/net/sched/sch_*.ko; do
	[ -f "$m" ] && insmod "$m"
done

# the kernel log as it is written, so that a run that dies leaves its last
# words in OUT
dmesg -w >"$out/dmesg.txt" 2>&1 &

dumbbell_setup 40
for cfg in "$@"; do
	name=${cfg%%|*}
	read -r -a qd <<<"${cfg#*|}"
	echo "demo: $(date +%T): $name: ${qd[*]} for $secs s" >&2
	dumbbell_qdisc "${qd[@]}"
	iperf_run "$secs" 4 >"$out/$name.iperf.json" &
	iperf=$!
	sleep 1
	ns_snd ping -i 0.2 -w "$((secs - 2))" "$RCV_IP" >"$out/$name.ping.txt" || true
	rc=0
	wait "$iperf" || rc=$?
	if [ "$rc" != 0 ] || [ ! -s "$out/$name.iperf.json" ]; then
		echo "demo: $(date +%T): $name: iperf3 exited $rc, $(wc -c <"$out/$name.iperf.json") bytes of output" >&2
		exit 1
	fi
	bottleneck_stats >"$out/$name.tc.json"
	printf '%s\n' "${qd[*]}" >"$out/$name.qdisc.txt"
done
echo "demo: $(date +%T): done" >&2
