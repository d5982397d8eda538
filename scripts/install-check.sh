#!/usr/bin/env bash
# make install, into a scratch root beside the kernel's own modules: depmod
# must rank the project's sch_sfb above the kernel's (the override in
# scripts/install/depmod-linux-aqm.conf), so that `modprobe sch_sfb` loads
# ours; without the override it would be the kernel's. Checked with
# modprobe's dry run, no kernel needed.
#
# Usage: install-check.sh KDIR   (a built kernel tree with sch_sfb.ko, and
#        this tree's modules built against it)
set -euo pipefail
# shellcheck source=scripts/lib/common.sh
. "$(dirname "$0")/lib/common.sh"

aqm_need depmod modprobe install
kdir=$1
kver=$(cat "$kdir/include/config/kernel.release")
base=$(mktemp -d)
trap 'rm -rf "$base"' EXIT
mods=$base/lib/modules/$kver

# the kernel's sch_sfb where a distribution installs it
install -D -m 0644 "$kdir/net/sched/sch_sfb.ko" "$mods/kernel/net/sched/sch_sfb.ko"
touch "$mods/modules.order" "$mods/modules.builtin" "$mods/modules.builtin.modinfo"
# W=1 as check.sh's own build: the same flags, so the modules the VM loads
# are not built again
make -s -C "$AQM_TOP" install KDIR="$kdir" KVER="$kver" DESTDIR="$base" W=1 \
	TC_LIB_DIR=/usr/lib/tc >/dev/null

# which sch_sfb.ko `modprobe sch_sfb` would load, with depmod's config DIR
which_sfb() {
	depmod -b "$base" -C "$1" "$kver"
	modprobe -d "$base" -S "$kver" -n -v sch_sfb | awk '/^insmod/ { print $2 }'
}

got=$(which_sfb "$base/etc/depmod.d")
echo "with the override: $got"
[ "$got" = "$mods/linux-aqm/net/sched/sch_sfb.ko" ] ||
	aqm_die "modprobe sch_sfb would load $got, not ours"
empty=$(mktemp -d "$base/nodepmod.XXXX")
got=$(which_sfb "$empty")
echo "without it: $got"
# the check above can fail: without the override the kernel's is found
[ "$got" = "$mods/kernel/net/sched/sch_sfb.ko" ] ||
	aqm_die "without the override modprobe would load $got, not the kernel's"
echo "ok: depmod ranks linux-aqm's sch_sfb above the kernel's"
