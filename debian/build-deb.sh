#!/usr/bin/env bash
# make deb: build linux-aqm's Debian packages for the Debian release this
# machine runs (the tc plugins are built against its iproute2 and depend on
# that release of it, so a package for Debian 12 is built on Debian 12 and
# one for Debian 13 on Debian 13; scripts/deb-check.sh builds both, each in
# a fresh root of its release).
#
# The tree as git sees it (tracked files and untracked ones not ignored, as
# they are in the working tree) is copied to build/deb/CODENAME/linux-aqm-
# VERSION/, with a first changelog entry that gives the packages a version
# of that release (0.1.0-1 becomes 0.1.0-1+deb12 on Debian 12, +deb13 on 13),
# and `dpkg-buildpackage -us -uc -b` runs there; the .deb files land in
# build/deb/CODENAME/. Missing build dependencies are installed first
# (apt-get build-dep, as root or through sudo), and the iproute2 source of
# the installed tc is fetched as make tc fetches it (a deb-src entry is
# added when there is none: scripts/tc/iproute2-src.sh --add-deb-src).
#
# Usage: debian/build-deb.sh   (make deb)
# Prints the built packages; the build's output is in build/deb/CODENAME/build.log.
set -euo pipefail
# shellcheck source=scripts/lib/common.sh
. "$(dirname "$0")/../scripts/lib/common.sh"

[ -r /etc/os-release ] || aqm_die "no /etc/os-release: not a Debian system"
# shellcheck disable=SC1091
. /etc/os-release
[ "${ID:-}" = debian ] || aqm_log "warning: ${ID:-this system} is not Debian; building anyway"
codename=${VERSION_CODENAME:-unknown}
suffix=""
[ -z "${VERSION_ID:-}" ] || suffix="+deb${VERSION_ID%%.*}"

cd "$AQM_TOP"
if ! command -v dpkg-checkbuilddeps >/dev/null 2>&1 || ! dpkg-checkbuilddeps debian/control 2>/dev/null; then
	aqm_log "installing the build dependencies of debian/control (apt-get build-dep)"
	aqm_root env DEBIAN_FRONTEND=noninteractive apt-get build-dep -y -qq ./ >/dev/null
	dpkg-checkbuilddeps debian/control
fi

IPROUTE2_SRC=$("$AQM_TOP/scripts/tc/iproute2-src.sh" --add-deb-src)
export IPROUTE2_SRC

upstream=$(sed -n 's/^PACKAGE_VERSION="\(.*\)"$/\1/p' dkms.conf)
[ -n "$upstream" ] || aqm_die "no PACKAGE_VERSION in dkms.conf"
out="$AQM_TOP/build/deb/$codename"
src="$out/linux-aqm-$upstream"
rm -rf "$out"
mkdir -p "$src"
if git -C "$AQM_TOP" rev-parse --git-dir >/dev/null 2>&1; then
	# files deleted in the working tree but not in git are skipped
	git -C "$AQM_TOP" ls-files -z -co --exclude-standard |
		while IFS= read -r -d '' f; do [ -e "$f" ] && printf '%s\0' "$f"; done |
		tar --null -T - -cf - | tar -xf - -C "$src"
	rev=$(git -C "$AQM_TOP" rev-parse --short HEAD)
	[ -z "$(git -C "$AQM_TOP" status --porcelain)" ] || rev="$rev+changes"
else
	tar --exclude=./build --exclude=./.git -cf - . | tar -xf - -C "$src"
	rev=unknown
fi

# the release's own version, in a first changelog entry of the copy
version=$(dpkg-parsechangelog -l debian/changelog -S Version)
{
	printf 'linux-aqm (%s%s) %s; urgency=medium\n\n' "$version" "$suffix" "$codename"
	printf '  * Built by make deb for Debian %s (%s), iproute2 %s, from %s.\n\n' \
		"${VERSION_ID:-?}" "$codename" "$(dpkg-query -W -f '${Version}' iproute2)" "$rev"
	printf ' -- %s  %s\n\n' "$(dpkg-parsechangelog -l debian/changelog -S Maintainer)" "$(date -R)"
	cat debian/changelog
} >"$src/debian/changelog"

aqm_log "dpkg-buildpackage -us -uc -b in $src (log: $out/build.log)"
t0=$(date +%s)
if ! (cd "$src" && dpkg-buildpackage -us -uc -b) >"$out/build.log" 2>&1; then
	tail -n 30 "$out/build.log" >&2
	aqm_die "dpkg-buildpackage failed (log: $out/build.log)"
fi
aqm_log "built in $(($(date +%s) - t0)) s:"
ls -1 "$out"/*.deb
