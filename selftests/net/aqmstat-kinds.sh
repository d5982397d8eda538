#!/usr/bin/env bash
# aqmstat's decoders of Linux's own qdiscs (red, pie, codel, fq_codel, sfb,
# hhf) against `tc -s -j`: scripts/tests/test_aqmstat.py, which skips on a
# host kernel without them, run in the test VM where every kind must be
# there (AQMSTAT_ALL_KINDS). The project's sch_sfb, which guest.sh loads,
# holds the kind and the module name "sfb": then it is the one decoded
# (Linux's xstats, then its own). Without it, Linux's sfb, a module of the
# test kernel, is loaded for the test and unloaded after it.
# aqm-selftest: beside-tdc
set -euo pipefail
# shellcheck source=selftests/net/lib.sh
. "$(dirname "$0")/lib.sh"

top=$(cd "$(dirname "$0")/../.." && pwd)
tap_plan 1
loaded=0
if [ ! -d /sys/module/sch_sfb ] && [ -f "${AQM_KDIR:-}/net/sched/sch_sfb.ko" ]; then
	insmod "$AQM_KDIR/net/sched/sch_sfb.ko" && loaded=1
fi
rc=0
# only the test that needs the VM's kinds: the others ran on the host
AQMSTAT_ALL_KINDS=1 PYTHONPATH="$AQM_PYTHONPATH" "${AQM_CACHE:?}/venv/bin/pytest" -q \
	-p no:cacheprovider -rs -k test_json_matches_tc_when_idle \
	"$top/scripts/tests/test_aqmstat.py" >&2 || rc=$?
[ "$loaded" -eq 0 ] || rmmod sch_sfb || true
tap_result "$rc" "aqmstat decodes every kind it knows like tc -s -j (pytest in the VM)"
tap_exit
