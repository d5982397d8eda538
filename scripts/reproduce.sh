#!/usr/bin/env bash
# make reproduce PAPER=NAME: reproduce a paper (issue 33). Runs the paper's
# experiment files (aqmtools/repro/plan.py lists them) one reporting seed
# at a time, each seed one part (scripts/bench.sh FILE --keep --seed N, a
# boot of the test VM), then publishes each file's results folder into
# docs/results/<experiment name> (scripts/bench/publish.sh) and writes the
# paper's page, docs/reproduction/<paper>.md (aqmtools/repro/page.py).
#
# It resumes: a seed whose runs are all in the results folder
# (build/bench/<experiment name>) is skipped, and a seed with some missing
# (an interrupted part) runs again whole. So after a stop, the same
# command goes on where the reproduction stopped. A folder that holds
# another version of the experiment file is refused before anything runs.
# Each seed is published as soon as it is done, with --part while some of
# the file's reporting seeds are still missing, so that a stop (or a lost
# machine) loses at most the seed that was running.
#
# Usage: reproduce.sh [--dry-run] [--from-published] [--extras] [--only NAME]...
#                     [--seed N]... PAPER
#   --dry-run: print the plan (files, seeds, runs, time) and run nothing
#   --from-published: a file whose results folder does not exist starts
#     from its published runs (docs/results/<name>/raw.tar.xz unpacked
#     there, the same bytes a publish would write back), so that only the
#     seeds not published run; with --dry-run too (the unpacking runs
#     nothing)
#   --extras: after the paper's files, the experiments its page reads
#     besides them (plan.PAGE_EXTRAS: tests of why ours differs from the
#     paper, such as dcn-pktcount-paper.toml), run and published the same way
#   --only: only these experiments of the plan (by name, such as
#     dcn-pktcount-paper with --extras); the page is written from all
#   --seed: only these reporting seeds this time (the others later)
#   AQM_BENCH_DIR: where the results folders are (default build/bench)
# Papers: dcn (Le et al., "Differential congestion notification: taming
# the elephants"; scripts/bench/experiments/repro-dcn-*.toml); aqmecn (Le
# et al., "The effects of active queue management and explicit congestion
# notification on Web performance"; repro-aqmecn-*.toml); blue (Feng et
# al., "The BLUE active queue management algorithms"; repro-blue-*.toml and
# repro-sfb-*.toml); queuelaw (Chung and Claypool, "Analysis of RED-Family
# Active Queue Management"; repro-queuelaw-*.toml)
set -euo pipefail
# shellcheck source=scripts/lib/common.sh
. "$(dirname "$0")/lib/common.sh"

usage="usage: reproduce.sh [--dry-run] [--from-published] [--extras] [--only NAME]... [--seed N]... PAPER"
dry=0
published=0
extras=()
only=()
seeds=()
paper=""
while [ $# -gt 0 ]; do
	case $1 in
	--dry-run) dry=1 ;;
	--from-published) published=1 ;;
	--extras) extras=(--extras) ;;
	--only)
		[ -n "${2:-}" ] || aqm_die "--only needs an experiment name ($usage)"
		only+=("$2")
		shift
		;;
	--seed)
		[[ "${2:-}" =~ ^[0-9]+$ ]] || aqm_die "--seed needs a seed number ($usage)"
		seeds+=(--seed "$2")
		shift
		;;
	-*) aqm_die "unknown option $1 ($usage)" ;;
	*)
		[ -z "$paper" ] || aqm_die "one paper at a time ($usage)"
		paper=$1
		;;
	esac
	shift
done
bench_dir=${AQM_BENCH_DIR:-$AQM_TOP/build/bench}

# the plan's helper, on the venv's python3 when there is one (common.sh
# puts it first on PATH), else the system's: it needs nothing else
plan() {
	PYTHONPATH="$AQM_TOP/scripts" python3 -m aqmtools.repro.plan "$@"
}

[ -n "$paper" ] || aqm_die "which paper? ($usage; papers: $(plan papers))"
# dies naming the papers there are when PAPER is not one of them
listing=$(plan files "$paper" "${extras[@]}") || exit 1
mapfile -t entries <<<"$listing"
if [ ${#only[@]} -gt 0 ]; then
	kept=()
	for name in "${only[@]}"; do
		found=""
		for entry in "${entries[@]}"; do
			[ "${entry##* }" != "$name" ] || { kept+=("$entry") && found=1; }
		done
		[ -n "$found" ] || aqm_die "--only $name: not among $paper's experiments ($(printf '%s\n' "${entries[@]}" | sed 's/.* //' | paste -sd' '))"
	done
	entries=("${kept[@]}")
fi
# the paper's own files (the others are its page's extras)
declare -A own=()
while read -r entry; do
	own[${entry##* }]=1
done < <(plan files "$paper")
# the results folders started from published runs (their page says so)
declare -A from_published=()
if [ "$published" -eq 1 ]; then
	for entry in "${entries[@]}"; do
		name=${entry##* }
		raw=$AQM_TOP/docs/results/$name/raw.tar.xz
		if [ ! -e "$bench_dir/$name" ] && [ -f "$raw" ]; then
			PYTHONPATH="$AQM_TOP/scripts" python3 -m aqmtools.bench.archive unpack \
				"$raw" "$bench_dir/$name"
			aqm_log "$name: started from its published runs (${raw#"$AQM_TOP/"})"
			from_published[$name]=$(sed -n 's/^Measured \([^ ]*\) on \(.*\), test VM.*/\1 on \2/p' \
				"$AQM_TOP/docs/results/$name/summary.md" 2>/dev/null | head -n 1)
		fi
	done
fi
if [ "$dry" -eq 1 ]; then
	only_args=()
	for name in "${only[@]}"; do
		only_args+=(--only "$name")
	done
	plan describe "$paper" "$bench_dir" "${seeds[@]}" "${extras[@]}" "${only_args[@]}"
	exit 0
fi
# the page is the last step: a paper without its generator is refused now,
# not after hours of runs
if ! (cd "$AQM_TOP" && PYTHONPATH=scripts python3 -c \
	'import sys; from aqmtools.repro.page import PAGES; sys.exit(sys.argv[1] not in PAGES)' "$paper"); then
	aqm_die "$paper: aqmtools/repro/page.py has no page generator for it yet; its parts run one at a time with scripts/bench.sh FILE --keep --seed N (FILE: $(plan files "$paper" | cut -d' ' -f1 | xargs -n1 basename | paste -sd' '))"
fi
# every file's seeds are checked (and a stale folder refused) before the
# first part starts, not hours later
for entry in "${entries[@]}"; do
	plan todo "${entry% *}" "$bench_dir/${entry##* }" "${seeds[@]}" >/dev/null
done

start=$(date +%s)
for entry in "${entries[@]}"; do
	file=${entry% *}
	name=${entry##* }
	out=$bench_dir/$name
	todo=$(plan todo "$file" "$out" "${seeds[@]}")
	aqm_log "$name: seeds to run: ${todo:-none}"
	# each seed published once it is done; a file with no seed to run is
	# published once (its page again, as before)
	for seed in ${todo:-none}; do
		if [ "$seed" != none ]; then
			BENCH_OUT=$out "$AQM_TOP/scripts/bench.sh" "$file" --keep --seed "$seed"
		fi
		[ -f "$out/summary.md" ] || { aqm_log "$name: no results in $out, nothing to publish"; continue; }
		missing=$(plan missing "$file" "$out")
		part=()
		note="A reproduction of the paper (issue 33), run by \`make reproduce PAPER=$paper\`;"
		note+=" how the paper's settings were scaled is in the header of \`experiment.toml\`."
		if [ -z "${own[$name]+set}" ]; then
			note="A test of why the reproduction of the paper differs from it (issue 33), not"
			note+=" a reproduction, run by \`make reproduce PAPER=$paper EXTRAS=1\`; its"
			note+=" question and settings are in the header of \`experiment.toml\`."
		fi
		if [ -n "${from_published[$name]+set}" ]; then
			note+=" The seeds published before this call are that publication's runs"
			note+=" (measured ${from_published[$name]:-as its page said}); only the seeds run since"
			note+=" ran on the machine named above."
		fi
		if [ -n "$missing" ]; then
			part=(--part)
			note+=" Seeds still to run: $missing."
		fi
		"$AQM_TOP/scripts/bench/publish.sh" "${part[@]}" "$out" "$name" "$note"
	done
done
# the paper's page, from what there is so far (a claim whose data is
# missing says "not attempted"): aqmtools/repro/page.py, from the folders
# plan.page_folders gives (the files', then any the page reads besides,
# run by hand); paths relative to the top when they are under it, since
# the page names them
dirs=()
while read -r name; do
	dir=$bench_dir/$name
	dirs+=("${dir#"$AQM_TOP/"}")
done < <(plan folders "$paper")
mkdir -p "$AQM_TOP/docs/reproduction"
(cd "$AQM_TOP" && PYTHONPATH=scripts python3 -m aqmtools.repro.page "$paper" \
	"docs/reproduction/$paper.md" "${dirs[@]}")
aqm_log "reproduce $paper: done in $(($(date +%s) - start)) s"
