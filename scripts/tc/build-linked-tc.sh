#!/usr/bin/env bash
# Build tc from the iproute2 source of the installed version with the
# project's plugins linked into the binary (tc finds <kind>_qdisc_util in
# itself before looking for q_<kind>.so), then check that it knows every
# qdisc of tc/q_*.c without any plugin directory.
#
# Output: $AQM_CACHE/iproute2-linked/<version>/tc/tc; the iproute2 build log
# is in the same tree (build.log), since its own warnings are not ours.
set -euo pipefail
# shellcheck source=scripts/lib/common.sh
. "$(dirname "$0")/../lib/common.sh"

src=$("$AQM_TOP/scripts/tc/iproute2-src.sh")
work="$AQM_CACHE/iproute2-linked/$(basename "$(dirname "$src")")"
if [ ! -f "$work/.configured" ]; then
	rm -rf "$work"
	mkdir -p "$(dirname "$work")"
	cp -a "$src" "$work"
	sed -i 's/^TCMODULES :=$/TCMODULES :=\n-include linux-aqm.mk/' "$work/tc/Makefile"
	(cd "$work" && ./configure >"$work/build.log" 2>&1)
	touch "$work/.configured"
fi

# A plugin of a kind iproute2 also builds in (sfb) replaces iproute2's
# source file of the same name: q_sfb.o is then ours, in TCMODULES twice,
# which the link ($^) takes once, so that sfb_qdisc_util is defined once,
# by ours (linking both would be a duplicate symbol). The tree is cached
# across branches: first every iproute2 q_*.c is put back as it was, so
# that a branch without that plugin links iproute2's own again.
for f in "$src"/tc/q_*.c; do
	cmp -s "$f" "$work/tc/${f##*/}" || cp "$f" "$work/tc/"
done
kinds=()
objs=(aqm_util.o)
for f in "$AQM_TOP"/tc/q_*.c; do
	k=$(basename "$f" .c)
	kinds+=("${k#q_}")
	objs+=("$k.o")
done
cp "$AQM_TOP"/tc/q_*.c "$AQM_TOP"/tc/aqm_util.[ch] "$AQM_TOP/tc/aqm_tc_compat.h" "$work/tc/"
cp "$AQM_TOP/include/uapi/linux/pkt_aqm.h" "$work/include/uapi/linux/"
# what aqm_tc_compat.h needs, from tc/Makefile's probe of this source
compat=$(make -s -C "$AQM_TOP/tc" IPROUTE2_SRC="$work" compat-flags)
printf 'TCMODULES += %s\nCFLAGS += %s\n' "${objs[*]}" "$compat" >"$work/tc/linux-aqm.mk"

make -C "$work" SUBDIRS="lib tc" >>"$work/build.log" 2>&1 ||
	aqm_die "iproute2 build failed (see $work/build.log)"

for k in "${kinds[@]}"; do
	# "help" exits 1 after printing the usage; its first line must be the
	# one of our q_<kind>.c, not of a kind built into iproute2 (sfb)
	out=$(TC_LIB_DIR=/nonexistent "$work/tc/tc" qdisc add dev lo root "$k" help 2>&1 || true)
	usage=$(grep -o -m1 "Usage: \.\.\. $k [^\\\"]*" "$AQM_TOP/tc/q_$k.c") ||
		aqm_die "tc/q_$k.c has no \"Usage: ... $k\" line"
	grep -qF -- "$usage" <<<"$out" ||
		aqm_die "the linked tc does not know our $k"
	echo "linked tc knows $k"
done
