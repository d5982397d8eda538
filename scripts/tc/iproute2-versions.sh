#!/usr/bin/env bash
# Provide iproute2's source as a Debian suite ships it (bookworm: 6.1,
# trixie: 6.15, sid: the newest), to build the tc plugins against versions
# other than the installed one (scripts/tc/build-versions.sh).
#
# Each suite's deb-src entry lives in an apt tree of its own,
# $AQM_CACHE/apt-src/<suite>/ (sources.list, lists, cache), signed by
# debian-archive-keyring: the host's apt never sees trixie or sid, and no
# binary package can come from them. `apt-get source iproute2=<version>`
# fetches into $AQM_CACHE/iproute2/<version>, the folder
# scripts/tc/iproute2-src.sh keeps the installed version's source in.
# A suite's index is refreshed when older than a day (AQM_APT_SRC_MAX_AGE,
# in minutes; offline, the last one is kept); a version already fetched
# needs no network.
#
# Usage: iproute2-versions.sh SUITE...
# Prints "SUITE VERSION DIR" for each SUITE, DIR being the source tree.
# Exits 3 when the suite's source cannot be had here: the archive lists it
# but does not serve its files (seen on a registry mirror that serves
# trixie's and sid's binary packages only), or the suite's index cannot be
# fetched and none is cached (seen: sid's InRelease served weeks past its
# Valid-Until); 1 on any other failure.
#
# AQM_IPROUTE2_SRC_<SUITE> (the suite in capitals: AQM_IPROUTE2_SRC_SID)
# names a tree to use instead, as IPROUTE2_SRC does for iproute2-src.sh:
# for a machine whose mirror lacks the suite's files. Its VERSION is the
# tree's own (include/version.h), and the substitution is logged.
# AQM_DEBIAN_MIRROR: the archive (default http://deb.debian.org/debian).
set -euo pipefail
# shellcheck source=scripts/lib/common.sh
. "$(dirname "$0")/../lib/common.sh"

[ $# -gt 0 ] || aqm_die "usage: $0 SUITE..."
mirror=${AQM_DEBIAN_MIRROR:-http://deb.debian.org/debian}
keyring=/usr/share/keyrings/debian-archive-keyring.gpg
max_age=${AQM_APT_SRC_MAX_AGE:-1440}

# apt_src SUITE CMD ARGS...: apt-get or apt-cache on the suite's own tree
apt_src() {
	local d="$AQM_CACHE/apt-src/$1" cmd=$2
	shift 2
	"$cmd" -o Dir::Etc::SourceList="$d/sources.list" \
		-o Dir::Etc::SourceParts=/dev/null \
		-o Dir::State::Lists="$d/lists" -o Dir::Cache="$d/cache" \
		-o APT::Sandbox::User=root -o Acquire::Languages=none "$@"
}

# suite_version SUITE: iproute2's version in the suite's index, refreshed
# when it is older than max_age (kept if the refresh fails)
suite_version() {
	local s=$1 d="$AQM_CACHE/apt-src/$1" v
	mkdir -p "$d/lists/partial" "$d/cache/archives/partial"
	echo "deb-src [signed-by=$keyring] $mirror $s main" >"$d/sources.list.new"
	cmp -s "$d/sources.list.new" "$d/sources.list" || rm -f "$d/version"
	mv "$d/sources.list.new" "$d/sources.list"
	if [ ! -s "$d/version" ] || [ -n "$(find "$d/version" -mmin "+$max_age")" ]; then
		aqm_log "$s: refreshing the index of $mirror $s (deb-src only)"
		if apt_src "$s" apt-get update -qq >"$d/update.log" 2>&1; then
			v=$(apt_src "$s" apt-cache showsrc --only-source iproute2 2>/dev/null |
				sed -n 's/^Version: //p' | sort -V | tail -n 1)
			[ -n "$v" ] || aqm_die "$s: no iproute2 in $mirror $s"
			echo "$v" >"$d/version"
		elif [ -s "$d/version" ]; then
			# offline: try again after max_age, not at every run
			touch "$d/version"
			aqm_log "$s: could not refresh the index (see $d/update.log), keeping iproute2 $(cat "$d/version")"
		else
			# the index cannot be had (seen here: a mirror serving
			# sid's InRelease weeks past its Valid-Until): like a
			# missing source, the suite is not to be had here
			cat "$d/update.log" >&2
			aqm_log "$s: apt-get update of $mirror $s failed"
			exit 3
		fi
	fi
	cat "$d/version"
}

# fetch SUITE VERSION: the source of iproute2 VERSION, unpacked once
fetch() {
	local s=$1 v=$2 dir="$AQM_CACHE/iproute2/$2"
	if [ ! -f "$dir/.done" ]; then
		rm -rf "$dir"
		mkdir -p "$dir"
		aqm_log "$s: fetching iproute2 $v source"
		if ! (cd "$dir" && apt_src "$s" apt-get source -qq --download-only \
			"iproute2=$v" >"$dir/fetch.log" 2>&1); then
			cat "$dir/fetch.log" >&2
			rm -rf "$dir"
			aqm_log "$s: apt-get source iproute2=$v failed; where the mirror lacks it, set AQM_IPROUTE2_SRC_$(suite_var "$s") to an iproute2 ${v%%-*} tree"
			# 3: the suite's source is not to be had here (a mirror that
			# serves its binary packages only), as against a broken setup
			exit 3
		fi
		(cd "$dir" && dpkg-source -x --no-check ./*.dsc src >>"$dir/fetch.log" 2>&1) ||
			aqm_die "$s: dpkg-source -x failed (see $dir/fetch.log)"
		touch "$dir/.done"
	fi
	echo "$dir/src"
}

suite_var() {
	echo "$1" | tr '[:lower:]' '[:upper:]' | tr -c 'A-Z0-9\n' '_'
}

command -v dpkg-source >/dev/null 2>&1 || {
	aqm_log "installing dpkg-dev (dpkg-source)"
	aqm_root env DEBIAN_FRONTEND=noninteractive \
		apt-get install -y -qq --no-install-recommends dpkg-dev >/dev/null
}
[ -f "$keyring" ] || aqm_die "$keyring is missing: apt-get install debian-archive-keyring"

for s in "$@"; do
	var=AQM_IPROUTE2_SRC_$(suite_var "$s")
	src=${!var:-}
	if [ -n "$src" ]; then
		[ -f "$src/tc/tc_util.h" ] || aqm_die "$var=$src has no tc/tc_util.h"
		v=$(sed -n 's/.*version\[\] = "\([^"]*\)".*/\1/p' "$src/include/version.h" 2>/dev/null || true)
		aqm_log "$s: iproute2 ${v:-(no include/version.h)} from $var=$src, not from Debian"
		echo "$s ${v:-unknown} $src"
		continue
	fi
	v=$(suite_version "$s")
	src=$(fetch "$s" "$v")
	echo "$s $v $src"
done
