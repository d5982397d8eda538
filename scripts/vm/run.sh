#!/usr/bin/env bash
# Boot the cached test kernel with virtme-ng and run one command inside it,
# as root, with the host root filesystem read-only and the given folders
# writable. Prints the guest's output and exits with the command's status
# (124 when it ran past the timeout).
#
# The guest sees the host's root filesystem, but with tmpfs over /tmp,
# /var/tmp, /var/cache and a few more: the checkout ($AQM_TOP, writable)
# and the cache ($AQM_CACHE, read-only) are always shared explicitly, so
# that both may live anywhere.
#
# Works without a terminal (CI): vng is given a pseudo-terminal through
# script(1) only when stdin is not one... see vm_exec below.
#
# Usage: run.sh [--timeout SECONDS] [--rwdir DIR]... [--memory SIZE]
#               [--console] -- CMD
#   --console  also print the guest kernel's console (boot log, and the last
#              words of a panic, which no file in the guest would keep)
# Environment: AQM_VM_ACCEL=kvm|tcg forces the accelerator; by default KVM
# is used when a probe boot with it works, else TCG (software emulation).
# AQM_VM_ROOT_CACHE=MODE mounts the root as 9p with that cache mode (none,
# loose, ...); empty leaves the root to virtme-ng. AQM_VM_APPEND adds words
# to the guest kernel's command line, AQM_VM_QEMU_OPTS arguments to QEMU's
# (make bench-pps --profile: its TCG plugin).
set -euo pipefail
# shellcheck source=scripts/lib/common.sh
. "$(dirname "$0")/../lib/common.sh"

timeout=900
memory=2G
console=0
rwdirs=()
while [ $# -gt 0 ]; do
	case "$1" in
	--timeout) timeout=$2; shift 2 ;;
	--rwdir) rwdirs+=(--rwdir "$2"); shift 2 ;;
	--memory) memory=$2; shift 2 ;;
	--console) console=1; shift ;;
	--) shift; break ;;
	*) aqm_die "unknown option $1" ;;
	esac
done
[ $# -gt 0 ] || aqm_die "no command given"

kdir=$("$AQM_TOP/scripts/kernel/vmkernel.sh" --print-kdir)
bzimage="$kdir/arch/x86/boot/bzImage"
[ -f "$bzimage" ] || aqm_die "no test kernel at $bzimage (run: make vmkernel)"
# vng starts virtme-run and qemu through PATH (common.sh puts the venv's
# bin/ first); it needs udev on the host so that the guest finds its virtio
# console ports.
aqm_need vng virtme-run qemu-system-x86_64 udevadm timeout

# the checkout first: virtme mounts in order, and a folder given with
# --rwdir may lie inside it
shares=(--rwdir "$AQM_TOP")
for ((i = 1; i < ${#rwdirs[@]}; i += 2)); do
	d=$(realpath "${rwdirs[i]}")
	case "$d/" in
	"$AQM_TOP"/*) ;;
	*) shares+=(--rwdir "$d") ;;
	esac
done
[ -d "$AQM_CACHE" ] && shares+=(--rodir "$(realpath "$AQM_CACHE")")

vm_exec() {
	local accel=$1 limit=$2
	shift 2
	local args=(--run "$bzimage" --memory "$memory" --cpus 2 "${shares[@]}")
	[ "$accel" = tcg ] && args+=(--disable-kvm)
	[ "$console" = 1 ] && args+=(--verbose)
	if [ -n "${AQM_VM_ROOT_CACHE:-}" ]; then
		# the last rootflags= on the command line is the one the kernel
		# mounts with: virtme-ng's own, with the cache mode added
		args+=(--force-9p --append
			"rootflags=version=9p2000.L,trans=virtio,access=any,msize=524288,cache=$AQM_VM_ROOT_CACHE")
	fi
	local word
	for word in ${AQM_VM_APPEND:-}; do
		args+=(--append "$word")
	done
	# one word with =: vng would take a value starting with - for an option
	[ -z "${AQM_VM_QEMU_OPTS:-}" ] || args+=("--qemu-opts=$AQM_VM_QEMU_OPTS")
	# not --foreground: then timeout leads a process group of its own and
	# signals all of it, so qemu (started by vng through sh and virtme-run)
	# ends with vng. With --foreground only vng was signalled: on a host
	# whose KVM hangs the probe boot instead of refusing it, qemu kept the
	# pipe to the probe's grep open and the run waited for ever. That group
	# does not get the terminal's Ctrl-C, so pass INT and TERM on to it.
	local pid rc=0
	timeout -k 10 "$limit" vng "${args[@]}" --exec "$*" </dev/null &
	pid=$!
	# shellcheck disable=SC2064 # the pid is meant to be expanded now
	trap "kill -TERM -- -$pid 2>/dev/null; exit 130" INT TERM
	wait "$pid" || rc=$?
	trap - INT TERM
	return "$rc"
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
[ "$rc" = 0 ] || aqm_log "the VM run exited $rc$([ "$rc" = 124 ] && echo " (past the ${timeout}s timeout)")"
exit "$rc"
