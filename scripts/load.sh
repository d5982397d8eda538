#!/usr/bin/env bash
# Load linux-aqm's modules from this tree with insmod, aqm_lib first: for a
# router or a VM that runs them without `make install` (`make load`).
#
#   scripts/load.sh [sch_NAME...]     default: every net/sched/sch_*.ko built
#
# Our sch_sfb has the name and the kind of the kernel's own. If the kernel's
# sch_sfb is loaded, insmod of ours fails with EEXIST before any of our code
# runs, so the kernel cannot say why (modprobe, for its part, silently keeps
# the loaded one). This script says so and fails. A module of that name is
# ours when the kernel marks it out-of-tree (taint flag O).
set -euo pipefail

top=$(cd "$(dirname "$0")/.." && pwd)
dir=$top/net/sched
rc=0

mods=("$@")
if [ ${#mods[@]} -eq 0 ]; then
	for f in "$dir"/sch_*.ko; do
		[ -f "$f" ] && mods+=("$(basename "$f" .ko)")
	done
fi
[ ${#mods[@]} -gt 0 ] || { echo "load.sh: no modules in $dir (make modules)" >&2; exit 1; }

load() {
	local m=$1
	if [ -e "/sys/module/$m" ]; then
		if grep -q O "/sys/module/$m/taint" 2>/dev/null; then
			echo "load.sh: $m is loaded already (linux-aqm's)"
			return 0
		fi
		echo "load.sh: the kernel's own $m is loaded and holds the kind" \
			"\"${m#sch_}\"; linux-aqm's cannot load beside it: delete its" \
			"qdiscs, rmmod $m, then load again" >&2
		return 1
	fi
	[ -f "$dir/$m.ko" ] || { echo "load.sh: $dir/$m.ko is not built" >&2; return 1; }
	insmod "$dir/$m.ko"
}

load aqm_lib || exit 1
for m in "${mods[@]}"; do
	m=${m##*/}
	load "${m%.ko}" || rc=1
done
exit "$rc"
