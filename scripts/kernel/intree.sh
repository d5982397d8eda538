#!/usr/bin/env bash
# Drop linux-aqm into a kernel source tree, for an in-tree build:
#   net/sched/*.c, selftests/kunit/*.[ch]   -> KSRC/net/sched/
#   include/net/*.h, include/uapi/linux/*.h -> KSRC/include/...
#   net/sched/Kbuild + selftests/kunit/Kbuild -> KSRC/net/sched/Kbuild.linux-aqm,
#       included from net/sched/Makefile
#   Kconfig -> KSRC/net/sched/Kconfig.linux-aqm, sourced inside "if NET_SCHED"
# Running it again refreshes the files without adding the hooks twice.
#
# Usage: intree.sh KSRC
set -euo pipefail
# shellcheck source=scripts/lib/common.sh
. "$(dirname "$0")/../lib/common.sh"

ksrc=${1:?usage: intree.sh KSRC}
if [ ! -f "$ksrc/net/sched/Makefile" ] || [ ! -f "$ksrc/net/sched/Kconfig" ]; then
	aqm_die "$ksrc is not a kernel source tree"
fi

cp --remove-destination "$AQM_TOP"/net/sched/*.c "$AQM_TOP"/selftests/kunit/*.[ch] "$ksrc/net/sched/"
cp --remove-destination "$AQM_TOP"/include/net/*.h "$ksrc/include/net/"
cp --remove-destination "$AQM_TOP"/include/uapi/linux/*.h "$ksrc/include/uapi/linux/"
rm -f "$ksrc/net/sched/Kbuild.linux-aqm" "$ksrc/net/sched/Kconfig.linux-aqm"
cat "$AQM_TOP/net/sched/Kbuild" "$AQM_TOP/selftests/kunit/Kbuild" \
	>"$ksrc/net/sched/Kbuild.linux-aqm"
cp "$AQM_TOP/Kconfig" "$ksrc/net/sched/Kconfig.linux-aqm"

# shellcheck disable=SC2016 # make expands it, not the shell
hook='include $(srctree)/$(src)/Kbuild.linux-aqm'
# rewrite (not append to) the file: a tree made with cp -al keeps the
# original's inode untouched
if ! grep -qxF "$hook" "$ksrc/net/sched/Makefile"; then
	{ cat "$ksrc/net/sched/Makefile"; printf '\n%s\n' "$hook"; } >"$ksrc/net/sched/Makefile.new"
	mv "$ksrc/net/sched/Makefile.new" "$ksrc/net/sched/Makefile"
fi

src_line='source "net/sched/Kconfig.linux-aqm"'
if ! grep -qxF "$src_line" "$ksrc/net/sched/Kconfig"; then
	grep -qx 'endif # NET_SCHED' "$ksrc/net/sched/Kconfig" ||
		aqm_die "no 'endif # NET_SCHED' in $ksrc/net/sched/Kconfig"
	sed -i "s|^endif # NET_SCHED\$|$src_line\n\nendif # NET_SCHED|" \
		"$ksrc/net/sched/Kconfig"
fi
aqm_log "linux-aqm installed into $ksrc (enable CONFIG_NET_SCH_AQM_LIB and the qdiscs)"
