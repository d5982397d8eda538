#!/usr/bin/env bash
# Copy a benchmark's results folder into docs/results/NAME for the
# repository: summary.md (with a header saying the machine, the date, the
# commits and how to rerun it), the plots, the experiment file, the
# calibration, and raw.tar.xz with raw-sSEED.tar.xz, the raw data thinned
# to what the report needs, one archive a seed (aqmtools/bench/archive.py:
# every exchange, the downstream aqmstat trace every 100 ms), from which
#   python3 -m aqmtools.bench.archive report docs/results/NAME/raw.tar.xz DIR
# recomputes the summary and the plots.
#
# Only runs on the experiment's reporting seeds are published: a folder
# holding a run on a tuning seed is refused, unless --tuning says that the
# page is a tuning record (its summary then says it is not for claims).
#
# A long experiment published part by part (--part): the page keeps its
# tables and raw data but no plots (the full comparison's one seed makes
# 72 queue plots, 6 MB); the last part is published without --part.
#
# Usage: publish.sh [--tuning] [--part] RESULTS-DIR NAME [NOTE]
#   NOTE: a sentence put under the header (what differs from a plain run)
set -euo pipefail
# shellcheck source=scripts/lib/common.sh
. "$(dirname "$0")/../lib/common.sh"

tuning=0
part=0
while [ $# -gt 0 ]; do
	case $1 in
	--tuning) tuning=1 ;;
	--part) part=1 ;;
	*) break ;;
	esac
	shift
done
[ $# -ge 2 ] || aqm_die "usage: publish.sh [--tuning] [--part] RESULTS-DIR NAME [NOTE]"
src=$(realpath "$1")
name=$2
note=${3:-}
[ -f "$src/summary.md" ] || aqm_die "no summary.md in $src (run the report first)"
[[ "$name" =~ ^[a-z0-9][a-z0-9_.-]*$ ]] || aqm_die "bad name $name"
python=$AQM_VENV/bin/python3
tuned=$(PYTHONPATH="$AQM_TOP/scripts" "$python" - "$src" <<'PY'
import json, sys
from pathlib import Path
runs = [json.loads(p.read_text()) for p in Path(sys.argv[1]).glob("*/run.json")]
print(" ".join(sorted({str(r.get("seed", "?")) for r in runs if r.get("seed_set") != "reporting"})))
PY
)
if [ -n "$tuned" ] && [ "$tuning" -eq 0 ]; then
	aqm_die "$src holds runs on seeds that are not reporting seeds ($tuned): publish --tuning, or only reporting runs"
fi
# the page is the summary the runner wrote, the archive every run in the
# folder: a run newer than the summary (the next seed of a --keep run,
# still going) would be in the archive and not on the page
newer=$(find "$src" -mindepth 2 -maxdepth 2 -name run.json -newer "$src/summary.md" | head -n 3)
[ -z "$newer" ] || aqm_die "$src has runs newer than its summary.md (a run still going?): $(echo "$newer" | xargs -n1 dirname | xargs -n1 basename | paste -sd' ' -); publish a copy of the folder without them"
dst="$AQM_TOP/docs/results/$name"
rm -rf "$dst"
mkdir -p "$dst"

exp_name=$(sed -n '/^name = /{s/^name = "\(.*\)"$/\1/p;q}' "$src/experiment.toml")
commit=$(sort -u "$src/commit" 2>/dev/null | paste -sd, - | sed 's/,/, /g')
[ -n "$commit" ] || commit="unknown (no $src/commit)"
cpu=$(awk -F': ' '/^model name/ { print $2; exit }' /proc/cpuinfo)
accel=$(grep -ho 'booting [^ ]* with [a-z]*' "$src/vm.log" 2>/dev/null | awk '{ print $NF }' | tail -n 1)
{
	echo "<!-- written by scripts/bench/publish.sh from $(basename "$src") -->"
	echo "Measured $(date -u -r "$src/summary.md" +%Y-%m-%d) on $(nproc) cores ($cpu)," \
		"$(free -g | awk '/^Mem:/ { print $2 }') GiB, test VM with ${accel:-unknown}" \
		"acceleration, commit $commit." \
		"Rerun: \`scripts/bench.sh scripts/bench/experiments/$exp_name.toml\`" \
		"(the experiment is \`experiment.toml\` here); recompute this page from the raw data:" \
		"\`PYTHONPATH=scripts python3 -m aqmtools.bench.archive report docs/results/$name/raw.tar.xz DIR\`."
	[ "$tuning" -eq 0 ] || { echo; echo "**Tuning record: runs on tuning seeds ($tuned); not for claims.**"; }
	[ -z "$note" ] || { echo; echo "$note"; }
	echo
	if [ "$part" -eq 1 ]; then
		echo "**A part: the plots come with the last part (or from the raw data, as above).**"
		echo
		grep -v '^!\[.*\](.*\.png)$' "$src/summary.md"
	else
		cat "$src/summary.md"
	fi
} >"$dst/summary.md"
[ "$part" -eq 1 ] || cp "$src"/*.png "$dst/" 2>/dev/null || true
cp "$src/experiment.toml" "$dst/"
[ ! -f "$src/calibration/calibration.json" ] || cp "$src/calibration/calibration.json" "$dst/"
PYTHONPATH="$AQM_TOP/scripts" "$python" -m aqmtools.bench.archive pack "$src" "$dst" >/dev/null
aqm_log "published $src -> $dst ($(du -sh "$dst" | cut -f1), raw data $(du -ch "$dst"/raw*.tar.xz | tail -n 1 | cut -f1): one archive a seed)"
