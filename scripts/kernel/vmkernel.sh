#!/usr/bin/env bash
# Build (or reuse from the cache) the test kernel that the VM boots.
#
# Source: Debian's $AQM_KSRC_PKG tarball. Config: x86_64 defconfig +
# kernel/configs/kvm_guest.config + scripts/kernel/vm.config +
# selftests/config. The build lives in $AQM_CACHE/kernel/<pkgver>-<hash>,
# where <hash> covers the fragments and this script, so any change to them
# gives a new kernel and an unchanged tree reuses the old one.
#
# Usage: vmkernel.sh [--print-kdir]
#   --print-kdir  print the kernel build dir of the current key (built or not)
set -euo pipefail
# shellcheck source=scripts/lib/common.sh
. "$(dirname "$0")/../lib/common.sh"

frags=("$AQM_TOP/scripts/kernel/vm.config" "$AQM_TOP/selftests/config")

pkgver=$(dpkg-query -W -f '${Version}' "$AQM_KSRC_PKG" 2>/dev/null || true)
[ -n "$pkgver" ] || aqm_die "$AQM_KSRC_PKG is not installed (run: make deps)"
hash=$(cat "${frags[@]}" "$0" | sha256sum | cut -c1-12)
key="${pkgver//[^A-Za-z0-9.+-]/_}-$hash"
dir="$AQM_CACHE/kernel/$key"
kdir="$dir/linux"

if [ "${1:-}" = "--print-kdir" ]; then
	echo "$kdir"
	exit 0
fi

if [ -f "$dir/.done" ]; then
	aqm_log "reusing cached test kernel $kdir"
	exit 0
fi

tarball=$(dpkg -L "$AQM_KSRC_PKG" | grep -E '\.tar\.(xz|bz2|gz)$' | head -n 1)
[ -f "$tarball" ] || aqm_die "no source tarball in $AQM_KSRC_PKG"

rm -rf "$dir"
mkdir -p "$dir"
aqm_log "extracting $tarball"
tar -xf "$tarball" -C "$dir"
mv "$dir"/linux-source-* "$kdir"

jobs=$(($(nproc) + 1))
start=$(date +%s)
(
	cd "$kdir"
	make -s defconfig
	scripts/kconfig/merge_config.sh -m .config \
		kernel/configs/kvm_guest.config "${frags[@]}" >/dev/null
	make -s olddefconfig
	# Every option of the fragments must have survived olddefconfig.
	missing=0
	while IFS= read -r line; do
		case "$line" in
		CONFIG_*=*)
			grep -qxF -- "$line" .config || {
				aqm_log "config: $line did not stick"
				missing=1
			}
			;;
		esac
	done < <(cat "${frags[@]}")
	[ "$missing" -eq 0 ] || aqm_die "config fragment not applied"
	aqm_log "building $key with $jobs jobs"
	make -s -j"$jobs" bzImage modules
)
touch "$dir/.done"
aqm_log "test kernel built in $(($(date +%s) - start)) s: $kdir"
