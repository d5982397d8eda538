#!/usr/bin/env bash
# make bench: build everything, boot the test VM, run one experiment of
# scripts/bench/experiments/ on the netns emulated WAN (aqmtools/bench/run.py)
# and write its results folder: raw data (webgen logs, iperf3 JSON, aqmstat
# JSON lines, tc statistics), plots and summary.md (aqmtools/bench/report.py).
#
# Usage: bench.sh [EXPERIMENT.toml] [--keep] [--only QDISC-NAME]... [--run RUN-NAME]...
#                 [--seeds tuning|reporting|all] [--seed N]...
#   RUN-NAME: QDISC-NAME-loadL-ecnE-sSEED as the results folder names it
#   (dcn-load90-ecn0-s101)
#   --seeds: the experiment's seed set to run (default its reporting seeds,
#   or its tuning seeds when it has none); --seed: only these seeds
#   --keep: add the runs to the results folder instead of starting it anew
#   (an experiment run in parts: its calibration is kept and reused)
#   default experiment: scripts/bench/experiments/short.toml
# Results: build/bench/<experiment name>/ (BENCH_OUT overrides)
set -euo pipefail
# shellcheck source=scripts/lib/common.sh
. "$(dirname "$0")/lib/common.sh"

exp=$AQM_TOP/scripts/bench/experiments/short.toml
if [ $# -gt 0 ] && [ "${1#--}" = "$1" ]; then
	exp=$1
	shift
fi
keep=0
args=()
for a in "$@"; do
	if [ "$a" = --keep ]; then
		keep=1
	else
		args+=("$a")
	fi
done
exp=$(realpath "$exp")
[ -f "$exp" ] || aqm_die "no experiment file $exp"

cd "$AQM_TOP"
aqm_vm_build
make -s -C scripts/bench
netperf_bin=$("$AQM_TOP/scripts/bench/netperf.sh")

name=$(PYTHONPATH="$AQM_TOP/scripts" "$AQM_VENV/bin/python3" -c \
	'import sys; from aqmtools.bench.experiment import load; print(load(open(sys.argv[1]).read()).name)' "$exp")
out=${BENCH_OUT:-$AQM_TOP/build/bench/$name}
commit=$(aqm_commit_stamp)
if [ "$keep" -eq 1 ] && [ -f "$out/experiment.toml" ]; then
	cmp -s "$exp" "$out/experiment.toml" ||
		aqm_die "--keep: $out holds another version of the experiment"
	[ "$(tail -n 1 "$out/commit")" = "$commit" ] ||
		aqm_log "--keep: the runs in $out were measured on $(tail -n 1 "$out/commit"), these on $commit"
else
	rm -rf "$out"
	mkdir -p "$out"
	cp "$exp" "$out/experiment.toml"
fi
# the code measured (publish.sh cites it, one line per part); "+" marks
# uncommitted changes
echo "$commit" >>"$out/commit"
aqm_log "experiment $name -> $out"
extra=""
for a in "${args[@]}"; do
	extra+=" '$a'"
done
aqm_vm_bench "$out" bench 86400 \
	"AQM_KDIR='$AQM_VMKDIR' AQM_VENV='$AQM_VENV' AQM_NETPERF_BIN='$netperf_bin' bash '$AQM_TOP/scripts/bench/guest.sh' '$out'$extra"
PYTHONPATH="$AQM_TOP/scripts" "$AQM_VENV/bin/python3" -m aqmtools.bench.report "$out" >/dev/null
aqm_log "summary: $out/summary.md"
cat "$out/summary.md"
