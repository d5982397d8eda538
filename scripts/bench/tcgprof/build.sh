#!/usr/bin/env bash
# Build tcgprof.so, the QEMU TCG plugin of make bench-pps --profile
# (tcgprof.c says what it counts), against the plugin API of the QEMU
# installed here. Debian ships QEMU with plugin support but not the
# header, qemu-plugin.h: it is taken from the Debian source package of the
# installed qemu-system-x86 version (apt-get source --download-only, the
# deb-src entries scripts/deps.sh --deb-src adds), once, into
# $AQM_CACHE/qemu-src/VERSION/. Nothing of it is committed.
#
# Usage: build.sh
# Output: build/tcgprof/tcgprof.so (its path printed on stdout)
set -euo pipefail
# shellcheck source=scripts/lib/common.sh
. "$(dirname "$0")/../../lib/common.sh"

aqm_need gcc dpkg-query apt-get tar
version=$(dpkg-query -W -f '${Version}' qemu-system-x86 2>/dev/null) ||
	aqm_die "qemu-system-x86 is not installed (scripts/deps.sh installs it)"
# the binary's version may carry a binNMU suffix (+b3) the source has not
srcver=${version%+b[0-9]*}
src=$AQM_CACHE/qemu-src/${srcver#*:}
header=$src/qemu-plugin.h
if [ ! -f "$header" ]; then
	mkdir -p "$src"
	aqm_log "qemu-plugin.h: apt-get source qemu=$srcver into $src"
	(cd "$src" && apt-get source -qq --download-only "qemu=$srcver" >&2) ||
		aqm_die "apt-get source qemu=$srcver failed (deb-src entries: scripts/deps.sh --deb-src)"
	orig=$(find "$src" -maxdepth 1 -name 'qemu_*.orig.tar.*' | head -n 1)
	[ -n "$orig" ] || aqm_die "no qemu orig tarball in $src"
	tar -xf "$orig" -C "$src" --wildcards --no-anchored --strip-components=3 \
		'include/qemu/qemu-plugin.h'
	[ -f "$header" ] || aqm_die "$orig has no include/qemu/qemu-plugin.h"
	# the header is all that is kept
	rm -f "$src"/qemu_*
fi
out=$AQM_TOP/build/tcgprof
mkdir -p "$out"
gcc -O2 -Wall -Wextra -Werror -shared -fPIC -I "$src" \
	"$AQM_TOP/scripts/bench/tcgprof/tcgprof.c" -o "$out/tcgprof.so.new" -lpthread
mv "$out/tcgprof.so.new" "$out/tcgprof.so"
echo "$out/tcgprof.so"
