#!/usr/bin/env bash
# Provide the iproute2 source of the same version as the installed tc, for
# building the tc plugins against its headers.
#
# Order: $IPROUTE2_SRC if set; else a copy already fetched into
# $AQM_CACHE/iproute2/<version>; else `apt-get source iproute2=<version>`,
# which needs a deb-src entry: added only with --add-deb-src.
#
# Usage: iproute2-src.sh [--add-deb-src | --add-deb-src-only]
# Prints the source directory on stdout.
set -euo pipefail
# shellcheck source=scripts/lib/common.sh
. "$(dirname "$0")/../lib/common.sh"

add_src=0
case "${1:-}" in
--add-deb-src) add_src=1 ;;
--add-deb-src-only) add_src=2 ;;
"") ;;
*) aqm_die "unknown option $1" ;;
esac

srclist=/etc/apt/sources.list.d/linux-aqm-deb-src.sources

# add_deb_src: a deb-src twin of every deb entry of the system's sources,
# in deb822 form (debian.sources, Debian 12 cloud images) or one-line form
# (sources.list, the installer and debootstrap)
add_deb_src() {
	[ -f "$srclist" ] && return 0
	local base=/etc/apt/sources.list.d/debian.sources list=/etc/apt/sources.list
	aqm_log "adding deb-src entries in $srclist"
	if [ -f "$base" ]; then
		sed -n 's/^Types: deb$/Types: deb-src/; /^Types:\|^URIs:\|^Suites:\|^Components:\|^Signed-By:\|^$/p' \
			"$base"
	elif [ -f "$list" ]; then
		awk '$1 == "deb" {
			opts = ""
			i = 2
			if ($2 ~ /^\[/) { opts = $2; i = 3 }
			printf "Types: deb-src\nURIs: %s\nSuites: %s\nComponents:", $i, $(i + 1)
			for (j = i + 2; j <= NF; j++) printf " %s", $j
			printf "\n"
			if (opts ~ /signed-by=/) {
				sub(/.*signed-by=/, "", opts)
				sub(/[] ].*/, "", opts)
				printf "Signed-By: %s\n", opts
			}
			printf "\n"
		}' "$list"
	else
		aqm_die "neither $base nor $list to derive a deb-src entry from"
	fi | aqm_root tee "$srclist" >/dev/null
	grep -q '^Types: deb-src' "$srclist" ||
		aqm_die "no deb entry in the system's apt sources to derive $srclist from"
	aqm_root apt-get update -qq
}

if [ "$add_src" -eq 2 ]; then
	add_deb_src
	exit 0
fi

if [ -n "${IPROUTE2_SRC:-}" ]; then
	[ -f "$IPROUTE2_SRC/tc/tc_util.h" ] ||
		aqm_die "IPROUTE2_SRC=$IPROUTE2_SRC has no tc/tc_util.h"
	echo "$IPROUTE2_SRC"
	exit 0
fi

ver=$(dpkg-query -W -f '${Version}' iproute2 2>/dev/null || true)
[ -n "$ver" ] || aqm_die "iproute2 is not installed"
dir="$AQM_CACHE/iproute2/$ver"
if [ ! -f "$dir/.done" ]; then
	[ "$add_src" -eq 1 ] && add_deb_src
	rm -rf "$dir"
	mkdir -p "$dir"
	aqm_log "fetching iproute2 $ver source"
	(cd "$dir" && apt-get source -qq --download-only "iproute2=$ver" >/dev/null 2>&1) ||
		aqm_die "apt-get source iproute2=$ver failed: add a deb-src entry (make deps, or $0 --add-deb-src) or set IPROUTE2_SRC"
	(cd "$dir" && dpkg-source -x --no-check ./*.dsc src >/dev/null)
	touch "$dir/.done"
fi
echo "$dir/src"
