#!/usr/bin/env bash
# Copy a benchmark's results folder into docs/results/NAME for the
# repository: summary.md (with a header saying the machine, the date, the
# commit and how to rerun it), the plots, the experiment file and the
# calibration. The raw data (webgen logs, aqmstat records: tens of MB) stay
# in the results folder.
#
# Usage: publish.sh RESULTS-DIR NAME [NOTE]
#   NOTE: a sentence put under the header (what differs from a plain run)
set -euo pipefail
# shellcheck source=scripts/lib/common.sh
. "$(dirname "$0")/../lib/common.sh"

[ $# -ge 2 ] || aqm_die "usage: publish.sh RESULTS-DIR NAME [NOTE]"
src=$(realpath "$1")
name=$2
note=${3:-}
[ -f "$src/summary.md" ] || aqm_die "no summary.md in $src (run the report first)"
[[ "$name" =~ ^[a-z0-9][a-z0-9_.-]*$ ]] || aqm_die "bad name $name"
dst="$AQM_TOP/docs/results/$name"
rm -rf "$dst"
mkdir -p "$dst"

exp_name=$(sed -n '/^name = /{s/^name = "\(.*\)"$/\1/p;q}' "$src/experiment.toml")
commit=$(cat "$src/commit" 2>/dev/null || echo "unknown (no $src/commit)")
cpu=$(awk -F': ' '/^model name/ { print $2; exit }' /proc/cpuinfo)
accel=$(grep -ho 'booting [^ ]* with [a-z]*' "$src/vm.log" 2>/dev/null | awk '{ print $NF }' | tail -n 1)
{
	echo "<!-- written by scripts/bench/publish.sh from $(basename "$src") -->"
	echo "Measured $(date -u -r "$src/summary.md" +%Y-%m-%d) on $(nproc) cores ($cpu)," \
		"$(free -g | awk '/^Mem:/ { print $2 }') GiB, test VM with ${accel:-unknown}" \
		"acceleration, commit $commit." \
		"Rerun: \`scripts/bench.sh scripts/bench/experiments/$exp_name.toml\`" \
		"(the experiment is \`experiment.toml\` here)."
	[ -z "$note" ] || { echo; echo "$note"; }
	echo
	cat "$src/summary.md"
} >"$dst/summary.md"
cp "$src"/*.png "$dst/" 2>/dev/null || true
cp "$src/experiment.toml" "$dst/"
[ ! -f "$src/calibration/calibration.json" ] || cp "$src/calibration/calibration.json" "$dst/"
aqm_log "published $src -> $dst ($(du -sh "$dst" | cut -f1))"
