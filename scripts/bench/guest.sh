#!/usr/bin/env bash
# Benchmark, inside the test VM: load the project's modules and run the
# experiment copied to OUT/experiment.toml (aqmtools/bench/run.py), its
# results written into OUT.
#
# Usage: guest.sh OUT [--only QDISC-NAME]...
set -euo pipefail
top=$(cd "$(dirname "$0")/../.." && pwd)
export PATH="/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin"
export TC_LIB_DIR="$top/tc"
out=$1
shift

for m in "$top"/net/sched/aqm_lib.ko "$top"/net/sched/sch_*.ko; do
	[ -f "$m" ] && insmod "$m"
done
# Linux's sfb, a module of the test kernel ($AQM_KDIR), has the name of
# the project's: the runner swaps the two for the runs with module =
# "linux" (aqmtools/bench/run.py, use_module); the other qdiscs of the
# comparison are built in
: "${AQM_KDIR:?}"
# netperf for flent, fetched by scripts/bench/netperf.sh
[ -z "${AQM_NETPERF_BIN:-}" ] || PATH="$PATH:$AQM_NETPERF_BIN"
echo "[bench] guest: $(uname -r), $(nproc) cpus" >&2
PYTHONPATH="$top/scripts" "${AQM_VENV:?}/bin/python3" -m aqmtools.bench.run \
	"$out/experiment.toml" "$out" "$top/scripts/bench" "$@"
