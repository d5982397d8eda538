#!/usr/bin/env bash
# Copy a make bench-pps results folder into docs/results/NAME for the
# repository: summary.md, with a header saying the machine, the date, the
# commit measured and how to rerun it, and raw.jsonl.xz, every measurement
# with pktgen's own result text, from which
#   PYTHONPATH=scripts python3 -m aqmtools.bench.pps report docs/results/NAME/raw.jsonl.xz -o -
# prints the summary again (scripts/bench/publish.sh is make bench's).
#
# Usage: publish-pps.sh RESULTS-DIR [NAME [NOTE]]
#   NAME: default pps-DATE, the date the summary was written (UTC)
#   NOTE: a sentence put under the header (what differs from a plain run)
set -euo pipefail
# shellcheck source=scripts/lib/common.sh
. "$(dirname "$0")/../lib/common.sh"

[ $# -ge 1 ] || aqm_die "usage: publish-pps.sh RESULTS-DIR [NAME [NOTE]]"
src=$(realpath "$1")
[ -f "$src/summary.md" ] || aqm_die "no summary.md in $src (run make bench-pps, or pps.py report, first)"
[ -f "$src/raw.jsonl" ] || aqm_die "no raw.jsonl in $src"
name=${2:-pps-$(date -u -r "$src/summary.md" +%Y-%m-%d)}
note=${3:-}
[[ "$name" =~ ^[a-z0-9][a-z0-9_.-]*$ ]] || aqm_die "bad name $name"
grep -qE '"type": ?"done"' "$src/raw.jsonl" ||
	aqm_die "$src/raw.jsonl has no end: the run did not finish"

dst="$AQM_TOP/docs/results/$name"
rm -rf "$dst"
mkdir -p "$dst"
commit=$(sort -u "$src/commit" 2>/dev/null | paste -sd, - | sed 's/,/, /g') || true
[ -n "$commit" ] || commit="unknown (no $src/commit)"
rerun=$(cat "$src/command" 2>/dev/null || echo "make bench-pps")
cpu=$(awk -F': ' '/^model name/ { print $2; exit }' /proc/cpuinfo)
accel=$(grep -ho 'booting [^ ]* with [a-z]*' "$src/vm.log" 2>/dev/null | awk '{ print $NF }' | tail -n 1) || true
{
	echo "<!-- written by scripts/bench/publish-pps.sh from $(basename "$src") -->"
	echo "Measured $(date -u -r "$src/summary.md" +%Y-%m-%d) on $(nproc) cores ($cpu)," \
		"$(free -g | awk '/^Mem:/ { print $2 }') GiB, test VM with ${accel:-unknown}" \
		"acceleration, commit $commit." \
		"Rerun: \`$rerun\`; recompute this page's tables from the raw data:" \
		"\`PYTHONPATH=scripts python3 -m aqmtools.bench.pps report docs/results/$name/raw.jsonl.xz -o -\`."
	[ -z "$note" ] || { echo; echo "$note"; }
	echo
	cat "$src/summary.md"
} >"$dst/summary.md"
xz -9 -c "$src/raw.jsonl" >"$dst/raw.jsonl.xz"
aqm_log "published $src -> $dst ($(du -sh "$dst" | cut -f1))"
