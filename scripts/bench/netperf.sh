#!/usr/bin/env bash
# Fetch netperf (flent's traffic generator) into $AQM_CACHE/netperf and
# print its bin directory. Debian ships netperf in non-free only, so the
# package is downloaded through a private apt source list and unpacked
# into the cache: the machine's apt sources and installed packages are
# left as they were.
#
# Usage: netperf.sh   (prints the directory holding netperf and netserver)
set -euo pipefail
# shellcheck source=scripts/lib/common.sh
. "$(dirname "$0")/../lib/common.sh"

dir="$AQM_CACHE/netperf"
if [ -x "$dir/usr/bin/netperf" ] && [ -x "$dir/usr/bin/netserver" ]; then
	echo "$dir/usr/bin"
	exit 0
fi
# shellcheck source=/dev/null
. /etc/os-release
suite=${VERSION_CODENAME:?}
mirror=${AQM_DEBIAN_MIRROR:-http://deb.debian.org/debian}
apt_dir=$(mktemp -d)

trap 'rm -rf "$apt_dir"' EXIT
mkdir -p "$apt_dir/lists/partial" "$apt_dir/archives/partial" "$apt_dir/parts" "$apt_dir/prefs"
echo "deb $mirror $suite non-free" >"$apt_dir/sources.list"
apt_opts=(
	-o APT::Sandbox::User=root
	-o "Dir::Etc::SourceList=$apt_dir/sources.list"
	-o "Dir::Etc::SourceParts=$apt_dir/parts"
	-o "Dir::Etc::PreferencesParts=$apt_dir/prefs"
	-o "Dir::State::Lists=$apt_dir/lists"
	-o "Dir::Cache::Archives=$apt_dir/archives"
	-o "Dir::Cache=$apt_dir"
)
aqm_log "downloading netperf from $suite non-free"
apt-get "${apt_opts[@]}" update -qq
(cd "$apt_dir" && apt-get "${apt_opts[@]}" download -qq netperf)
rm -rf "$dir"
mkdir -p "$dir"
dpkg -x "$apt_dir"/netperf_*.deb "$dir"
[ -x "$dir/usr/bin/netperf" ] || aqm_die "netperf package without usr/bin/netperf"
echo "$dir/usr/bin"
