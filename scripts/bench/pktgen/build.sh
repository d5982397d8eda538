#!/usr/bin/env bash
# Build the kernel tree's pktgen (net/core/pktgen.c) as a module against
# that tree: the test kernel has no pktgen (CONFIG_NET_PKTGEN is not set),
# and make bench-pps loads this one in the test VM with insmod. The source
# and this folder's Kbuild are copied into build/pktgen/ (an unchanged copy
# is left as it was, so an unchanged tree is not rebuilt); nothing of it
# is committed.
#
# The copy is the tree's source with one line added after its #includes,
# "#undef CONFIG_XFRM": pktgen's IPsec option (flag IPSEC) calls
# pktgen_xfrm_outer_mode_output(), which the kernel builds and exports only
# when it is configured with pktgen, so a module built beside such a kernel
# would not load. Only pktgen's own code loses the option; the headers
# before the line are compiled as the kernel's, so the structures pktgen
# shares with the kernel are the kernel's. The benchmark does not use
# IPsec.
#
# Usage: build.sh [KDIR]
#   KDIR: the kernel's build tree (default: the test kernel's,
#   scripts/kernel/vmkernel.sh --print-kdir)
# Output: build/pktgen/pktgen.ko (its path printed on stdout)
set -euo pipefail
# shellcheck source=scripts/lib/common.sh
. "$(dirname "$0")/../../lib/common.sh"

kdir=${1:-$("$AQM_TOP/scripts/kernel/vmkernel.sh" --print-kdir)}
src=$kdir/net/core/pktgen.c
[ -f "$src" ] || aqm_die "no $src: KDIR must be a kernel source tree"
out=$AQM_TOP/build/pktgen
mkdir -p "$out"

# install_if_changed NEW DEST: NEW replaces DEST only when they differ
install_if_changed() {
	if cmp -s "$1" "$2"; then
		rm -f "$1"
	else
		mv "$1" "$2"
	fi
}

last=$(grep -n '^#include' "$src" | tail -n 1 | cut -d: -f1)
[ -n "$last" ] || aqm_die "$src has no #include line"
# (F_IPSEC, the IPsec flag's bit, is then used nowhere: one reference at
# the end keeps W=1's unused-const-variable quiet)
awk -v last="$last" '{ print } NR == last {
	print ""
	print "/* scripts/bench/pktgen/build.sh: IPsec compiled out, as the kernel"
	print " * exports pktgen_xfrm_outer_mode_output() only when configured with"
	print " * CONFIG_NET_PKTGEN */"
	print "#undef CONFIG_XFRM"
} END {
	print ""
	print "/* scripts/bench/pktgen/build.sh: F_IPSEC served the IPsec code only */"
	print "static const __u32 *const pktgen_bench_ipsec_flag __maybe_unused = &F_IPSEC;"
}' "$src" >"$out/pktgen.c.new"
install_if_changed "$out/pktgen.c.new" "$out/pktgen.c"
cp "$AQM_TOP/scripts/bench/pktgen/Kbuild" "$out/Kbuild.new"
install_if_changed "$out/Kbuild.new" "$out/Kbuild"
make -s -C "$kdir" M="$out" modules >&2
[ -f "$out/pktgen.ko" ] || aqm_die "the build left no $out/pktgen.ko"
echo "$out/pktgen.ko"
