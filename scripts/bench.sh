#!/usr/bin/env bash
# make bench: build everything, boot the test VM, run one experiment of
# scripts/bench/experiments/ on the netns emulated WAN (aqmtools/bench/run.py)
# and write its results folder: raw data (webgen logs, iperf3 JSON, aqmstat
# JSON lines, tc statistics), plots and summary.md (aqmtools/bench/report.py).
#
# Usage: bench.sh [EXPERIMENT.toml] [--only QDISC-NAME]... [--run RUN-NAME]...
#   RUN-NAME: QDISC-NAME-loadL-ecnE as the results folder names it
#   (dcn-load90-ecn0)
#   default experiment: scripts/bench/experiments/short.toml
# Results: build/bench/<experiment name>/ (BENCH_OUT overrides)
set -euo pipefail
# shellcheck source=scripts/lib/common.sh
. "$(dirname "$0")/lib/common.sh"

exp=${1:-$AQM_TOP/scripts/bench/experiments/short.toml}
[ $# -gt 0 ] && shift
exp=$(realpath "$exp")
[ -f "$exp" ] || aqm_die "no experiment file $exp"

cd "$AQM_TOP"
aqm_vm_build
make -s -C scripts/bench
netperf_bin=$("$AQM_TOP/scripts/bench/netperf.sh")

name=$(PYTHONPATH="$AQM_TOP/scripts" "$AQM_VENV/bin/python3" -c \
	'import sys; from aqmtools.bench.experiment import load; print(load(open(sys.argv[1]).read()).name)' "$exp")
out=${BENCH_OUT:-$AQM_TOP/build/bench/$name}
rm -rf "$out"
mkdir -p "$out"
cp "$exp" "$out/experiment.toml"
# the code measured (publish.sh cites it); "+" marks uncommitted changes
echo "$(git rev-parse --short HEAD)$([ -z "$(git status --porcelain -- net include tc scripts)" ] || echo +)" >"$out/commit"
aqm_log "experiment $name -> $out"
extra=""
for a in "$@"; do
	extra+=" '$a'"
done
"$AQM_TOP/scripts/vm/run.sh" --timeout 86400 --rwdir "$out" -- \
	"AQM_KDIR='$AQM_VMKDIR' AQM_VENV='$AQM_VENV' AQM_NETPERF_BIN='$netperf_bin' bash '$AQM_TOP/scripts/bench/guest.sh' '$out'$extra" 2>&1 |
	tee "$out/vm.log" | grep --line-buffered -E '^\[bench\]|Error|Traceback' || true
grep -q '^\[bench\] done' "$out/vm.log" || aqm_die "the benchmark did not finish (log: $out/vm.log)"
PYTHONPATH="$AQM_TOP/scripts" "$AQM_VENV/bin/python3" -m aqmtools.bench.report "$out" >/dev/null
aqm_log "summary: $out/summary.md"
cat "$out/summary.md"
