#!/usr/bin/env bash
# Boot the cached test kernel with virtme-ng and run one command inside it,
# as root, with the host root filesystem read-only and the given folders
# writable. Prints the guest's output and exits with the command's status
# (124 when it ran past the timeout).
#
# Works without a terminal (CI): vng is given a pseudo-terminal through
# script(1) only when stdin is not one... see vm_exec below.
#
# Usage: run.sh [--timeout SECONDS] [--rwdir DIR]... [--memory SIZE] -- CMD
# Environment: AQM_VM_ACCEL=kvm|tcg forces the accelerator; by default KVM
# is used when a probe boot with it works, else TCG (software emulation).
set -euo pipefail
# shellcheck source=scripts/lib/common.sh
. "$(dirname "$0")/../lib/common.sh"

timeout=900
memory=2G
rwdirs=()
while [ $# -gt 0 ]; do
	case "$1" in
	--timeout) timeout=$2; shift 2 ;;
	--rwdir) rwdirs+=(--rwdir "$2"); shift 2 ;;
	--memory) memory=$2; shift 2 ;;
	--) shift; break ;;
	*) aqm_die "unknown option $1" ;;
	esac
done
[ $# -gt 0 ] || aqm_die "no command given"

kdir=$("$AQM_TOP/scripts/kernel/vmkernel.sh" --print-kdir)
bzimage="$kdir/arch/x86/boot/bzImage"
[ -f "$bzimage" ] || aqm_die "no test kernel at $bzimage (run: make vmkernel)"
vng="$AQM_CACHE/venv/bin/vng"
[ -x "$vng" ] || aqm_die "no $vng (run: make deps)"

# vng needs udev on the host so the guest finds its virtio console ports.
command -v udevadm >/dev/null || aqm_die "udev is not installed (run: make deps)"

vm_exec() {
	local accel=$1 limit=$2
	shift 2
	local args=(--run "$bzimage" --memory "$memory" --cpus 2 "${rwdirs[@]}")
	[ "$accel" = tcg ] && args+=(--disable-kvm)
	timeout --foreground -k 10 "$limit" "$vng" "${args[@]}" --exec "$*" </dev/null
}

accel=${AQM_VM_ACCEL:-}
if [ -z "$accel" ]; then
	stamp="$AQM_CACHE/accel-$(cat /proc/sys/kernel/random/boot_id)-$(basename "$(dirname "$kdir")")"
	if [ -f "$stamp" ]; then
		accel=$(cat "$stamp")
	else
		accel=tcg
		if [ -w /dev/kvm ] &&
			vm_exec kvm 60 'echo aqm-kvm-probe-ok' 2>/dev/null | grep -q aqm-kvm-probe-ok; then
			accel=kvm
		fi
		mkdir -p "$AQM_CACHE"
		echo "$accel" >"$stamp"
	fi
fi
aqm_log "booting $(basename "$(dirname "$kdir")") with $accel"

rc=0
vm_exec "$accel" "$timeout" "$@" || rc=$?
exit "$rc"
