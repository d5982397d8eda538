#!/usr/bin/env bash
# Runs inside a VM booted from a kernel installed in a deb-check root
# (scripts/deb-check.sh, step "boot"), as root: the packages as an operator
# meets them after a reboot. The kernel is the root's, its modules tree the
# root's (virtme-ng takes the tree beside the image), with DKMS's builds of
# ours in updates/dkms; the tc is the root's own with the plugins
# linux-aqm-tc put there, run in a chroot of the root. Nothing of ours is
# loaded by hand: for each of dcn, pi, rem, ared, riops, afd and blue,
#  - no sch_KIND is loaded before;
#  - `tc qdisc add dev lo root KIND` succeeds: the kernel asks modprobe for
#    the module (net-sch-KIND from 6.9 on, sch_KIND before) and modprobe
#    finds ours in updates/dkms, aqm_lib first;
#  - the module loaded is the file DKMS installed: the tree's only
#    sch_KIND is in updates/dkms, the loaded one carries the out-of-tree
#    taint (O), and aqm_lib came with it;
#  - tc -s shows the qdisc through our plugin (its options, not "Unknown
#    qdisc") and deletes it;
# then sfb is Linux's: linux-aqm-sfb-dkms is not installed, so the module
# tc's sfb loads is the kernel's own (no out-of-tree taint), not ours (no
# version "linux-aqm"); and the kernel log has no warning or oops.
# TAP on stdout, the kernel log and the module messages in OUT.
#
# Usage: deb-guest.sh ROOT KVER OUT
set -euo pipefail
# shellcheck source=selftests/net/lib.sh
. "$(dirname "$0")/../net/lib.sh"

root=$1 kver=$2 out=$3
kinds=(dcn pi rem ared riops afd blue)
tap_plan $((${#kinds[@]} * 4 + 3))
echo "deb-guest: $(uname -r), root $root" >&2
tap_strict tap_result "$([ "$(uname -r)" = "$kver" ] && echo 0 || echo 1)" \
	"booted the root's kernel $kver (running $(uname -r))"

# the root's proc and dev, for its tc in a chroot
mount -t proc proc "$root/proc"
mount --bind /dev "$root/dev"
mount -t sysfs sysfs "$root/sys"
trap 'umount "$root/sys" "$root/dev" "$root/proc" 2>/dev/null || true' EXIT

# in_root_netns CMD: the shell command CMD in a chroot of the root, in a
# network namespace of its own whose lo is up
in_root_netns() {
	unshare -n chroot "$root" /usr/bin/env -i \
		PATH=/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin \
		/bin/sh -c "ip link set lo up && $1"
}

# indent WHAT: stdin to stderr, each line under WHAT
indent() {
	local line
	while IFS= read -r line; do
		printf '  %s: %s\n' "$1" "$line" >&2
	done
}

moddir=$root/lib/modules/$kver
dmesg -C
for k in "${kinds[@]}"; do
	rc=0
	[ ! -d "/sys/module/sch_$k" ] || rc=1
	tap_strict tap_result "$rc" "$k: no sch_$k loaded before tc asks for it"
	rc=0
	show=$(in_root_netns "tc qdisc add dev lo root $k && tc -s qdisc show dev lo && tc qdisc del dev lo root" 2>&1) || rc=$?
	indent "$k" <<<"$show"
	tap_strict tap_result "$rc" "$k: the root's tc adds it on lo: the kernel loaded the module on demand"
	rc=0
	files=$(find "$moddir" -name "sch_$k.ko*" | sed "s|^$moddir/||" | tr '\n' ' ')
	if [[ "$files" != "updates/dkms/sch_$k.ko"*" " ]] || [[ "$files" == *" "*" "* ]] ||
		! grep -q O "/sys/module/sch_$k/taint" 2>/dev/null || [ ! -d /sys/module/aqm_lib ]; then
		rc=1
	fi
	echo "  $k: files in the tree: ${files:-none}; loaded: taint $(cat "/sys/module/sch_$k/taint" 2>/dev/null || echo '(not loaded)'), aqm_lib $( [ -d /sys/module/aqm_lib ] && echo loaded || echo missing)" >&2
	tap_strict tap_result "$rc" "$k: the module loaded is DKMS's (the tree's only sch_$k, in updates/dkms; out-of-tree taint), with aqm_lib"
	rc=0
	if ! grep -q "qdisc $k .*limit" <<<"$show" || grep -q "Unknown qdisc" <<<"$show"; then
		rc=1
	fi
	tap_strict tap_result "$rc" "$k: tc -s shows it through our plugin (its options)"
done

# sfb: the kernel's own, since linux-aqm-sfb-dkms is not installed
rc=0
show=$(in_root_netns "tc qdisc add dev lo root sfb && tc -s qdisc show dev lo && tc qdisc del dev lo root" 2>&1) || rc=$?
indent sfb <<<"$show"
files=$(find "$moddir" -name 'sch_sfb.ko*' | sed "s|^$moddir/||" | tr '\n' ' ')
echo "  sfb: files in the tree: $files; loaded: taint '$(cat /sys/module/sch_sfb/taint 2>/dev/null)', version '$(cat /sys/module/sch_sfb/version 2>/dev/null)'" >&2
if [ "$rc" -ne 0 ] || [ ! -d /sys/module/sch_sfb ] || grep -q O /sys/module/sch_sfb/taint ||
	[ "$(cat /sys/module/sch_sfb/version 2>/dev/null)" = linux-aqm ]; then
	rc=1
fi
tap_strict tap_result "$rc" "sfb: tc's sfb loads the kernel's own sch_sfb (no out-of-tree taint, not version linux-aqm), not ours"

dmesg >"$out/dmesg-$kver.txt"
grep -E 'aqm|sch_(dcn|pi|rem|ared|riops|afd|blue)|taint|verification' "$out/dmesg-$kver.txt" | sed 's/^/  kernel: /' >&2 || true
rc=0
if grep -qE "$KERNEL_SPLAT_RE" "$out/dmesg-$kver.txt"; then
	rc=1
fi
tap_strict tap_result "$rc" "the kernel log has no warning, oops or call trace (dmesg-$kver.txt)"
echo "  tainted: $(cat /proc/sys/kernel/tainted) (out-of-tree modules taint the kernel, O; unsigned ones E where the kernel checks signatures)" >&2
echo "deb-guest: done" >&2
tap_exit
