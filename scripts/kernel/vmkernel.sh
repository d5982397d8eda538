#!/usr/bin/env bash
# Build (or reuse from the cache) the test kernel that the VM boots.
#
# Source: Debian's $AQM_KSRC_PKG tarball. Config: x86_64 defconfig +
# kernel/configs/kvm_guest.config + scripts/kernel/vm.config +
# selftests/config. The build lives in $AQM_CACHE/kernel/<pkgver>-<hash>,
# where <hash> covers the fragments and this script, so any change to them
# gives a new kernel and an unchanged tree reuses the old one.
#
# AQM_KVARIANT=debug selects the debug variant (make check-debug): the
# same fragments plus scripts/kernel/debug.config (KASAN, lockdep, kmemleak,
# UBSAN, fault injection), cached beside the normal one under its own key.
#
# Usage: vmkernel.sh [--print-kdir]
#   --print-kdir  print the kernel build dir of the current key (built or not)
set -euo pipefail
# shellcheck source=scripts/lib/common.sh
. "$(dirname "$0")/../lib/common.sh"

frags=("$AQM_TOP/scripts/kernel/vm.config" "$AQM_TOP/selftests/config")
variant=${AQM_KVARIANT:-}
case $variant in
"") ;;
debug) frags+=("$AQM_TOP/scripts/kernel/debug.config") ;;
*) aqm_die "AQM_KVARIANT=$variant: no such kernel variant (debug)" ;;
esac

pkgver=$(dpkg-query -W -f '${Version}' "$AQM_KSRC_PKG" 2>/dev/null || true)
[ -n "$pkgver" ] || aqm_die "$AQM_KSRC_PKG is not installed (run: make deps)"
hash=$(cat "${frags[@]}" "$0" | sha256sum | cut -c1-12)
key="${pkgver//[^A-Za-z0-9.+-]/_}${variant:+-$variant}-$hash"
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
	# Every option of the fragments must have survived olddefconfig (the
	# last fragment that sets an option wins, as in merge_config.sh).
	declare -A want=()
	while IFS= read -r line; do
		case "$line" in
		CONFIG_*=*) want[${line%%=*}]=$line ;;
		"# CONFIG_"*" is not set")
			opt=${line#\# }
			want[${opt%% *}]=$line
			;;
		esac
	done < <(cat "${frags[@]}")
	missing=0
	for opt in "${!want[@]}"; do
		# an option the fragments turn off must not be set (a select
		# may turn it back on)
		case "${want[$opt]}" in
		"# "*) ! grep -q -- "^$opt=" .config ;;
		*) grep -qxF -- "${want[$opt]}" .config ;;
		esac || {
			aqm_log "config: ${want[$opt]} did not stick"
			missing=1
		}
	done
	[ "$missing" -eq 0 ] || aqm_die "config fragment not applied"
	aqm_log "building $key with $jobs jobs"
	make -s -j"$jobs" bzImage modules
)
touch "$dir/.done"
aqm_log "test kernel built in $(($(date +%s) - start)) s: $kdir"
