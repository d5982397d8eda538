#!/usr/bin/env bash
# Fetch a Debian suite's default kernel headers (and image) without
# installing anything, and build out-of-tree modules against them with that
# suite's own compiler.
#
# SUITE is a Debian suite: bookworm, trixie, trixie-backports (any codename
# CODENAME or CODENAME-backports works the same way). Its packages are
# looked up through a private apt configuration under
# $AQM_CACHE/distro/apt/SUITE (its own sources list, lists, cache and an
# empty dpkg status): the host's sources, pins and installed packages are
# neither read nor changed. The suite's default kernel is the candidate of
# linux-headers-amd64 there (CODENAME: the release, its -updates and its
# -security; CODENAME-backports: that suite alone), or VERSION.
#
# apt-get download fetches the packages of that version and dpkg-deb -x
# extracts them (never dpkg -i) into $AQM_CACHE/distro/SUITE/VERSION/root:
# linux-headers-ABI-amd64, linux-headers-ABI-common, linux-kbuild-*, and,
# unless --headers-only, linux-image-ABI-amd64 (from 7.x on a meta package:
# linux-binary-ABI-amd64 holds the vmlinuz, linux-modules-ABI-amd64 the
# modules tree, linux-base-ABI-amd64 the rest). The extracted tree is fixed
# up for its new place: the headers' Makefile names /usr/src/... and
# absolute symlinks (lib/modules/ABI/build) point into /usr; both are made
# to point into root/. The relative symlinks into
# usr/lib/linux-kbuild-*/scripts resolve inside root/ as they are.
#
# The kbuild programs (modpost, objtool, resolve_btfids) and the compiler
# are the suite's own: Debian 13's need glibc 2.38 (Debian 12 has 2.36),
# and their kernels were built with gcc-14, whose options (for example
# -fmin-function-alignment) Debian 12's gcc-12 rejects. --make therefore
# runs make on the host only when the host is that release (Debian 12 for
# bookworm), and otherwise in a build root of the suite's release
# ($AQM_CACHE/distro/buildroot-CODENAME: debootstrap minbase, then make,
# binutils, perl, python3, the gcc the headers depend on, pahole and the
# kbuild's libraries; for CODENAME-backports with that suite in its
# sources too), in a private mount namespace (chroot, /proc and the folders
# it needs bound in; nothing stays mounted). The host's own toolchain is
# not touched. Root (or sudo) is needed for that, and to install missing
# packages on the host.
#
# A new default version replaces the older ones of the suite in the cache.
#
# Usage: distro-headers.sh [--headers-only] SUITE [VERSION]
#          prints the headers' build dir (the KDIR for make -C)
#        distro-headers.sh --make [--headers-only] SUITE [VERSION] -- MAKEARGS...
#          make -C BUILD_DIR MAKEARGS with the suite's toolchain (M=DIR
#          is bound into the build root)
#        distro-headers.sh --packages SUITE [VERSION]
#          prints the fetched packages and their versions
# Environment: AQM_DEBIAN_MIRROR (default http://deb.debian.org/debian;
#   security from the same host's /debian-security), AQM_DISTRO_MAX_AGE
#   (seconds before the suite's package lists are fetched again, default
#   21600; an explicit VERSION already extracted needs no lists at all)
set -euo pipefail
# shellcheck source=scripts/lib/common.sh
. "$(dirname "$0")/../lib/common.sh"

mode=print
headers_only=0
while [ $# -gt 0 ]; do
	case "$1" in
	--make) mode="make"; shift ;;
	--packages) mode="packages"; headers_only=1; shift ;;
	--headers-only) headers_only=1; shift ;;
	-h | --help) sed -n '2,/^set -euo/p' "$0" | sed '$d; s/^# \{0,1\}//'; exit 0 ;;
	-*) aqm_die "unknown option $1" ;;
	*) break ;;
	esac
done
[ $# -ge 1 ] || aqm_die "usage: $(basename "$0") [--make] [--headers-only] SUITE [VERSION] [-- MAKEARGS...]"
suite=$1
shift
want_ver=""
if [ $# -gt 0 ] && [ "$1" != -- ]; then
	want_ver=$1
	shift
fi
make_args=()
if [ "$mode" = make ]; then
	[ "${1:-}" = -- ] || aqm_die "--make: MAKEARGS follow a --"
	shift
	make_args=("$@")
fi

mirror=${AQM_DEBIAN_MIRROR:-http://deb.debian.org/debian}
max_age=${AQM_DISTRO_MAX_AGE:-21600}
keyring=/usr/share/keyrings/debian-archive-keyring.gpg
codename=${suite%%-*}
case "$suite" in
*[!a-z-]* | "") aqm_die "SUITE $suite: a Debian suite such as bookworm, trixie or trixie-backports" ;;
*-backports) suites=("$suite") ;;
sid | unstable) suites=(sid) ;;
*-*) aqm_die "SUITE $suite: only CODENAME or CODENAME-backports" ;;
*) suites=("$suite" "$suite-updates" "$suite-security") ;;
esac
[ -r "$keyring" ] || aqm_die "no $keyring (apt-get install debian-archive-keyring)"
aqm_need dpkg-deb

top="$AQM_CACHE/distro"
aptdir="$top/apt/$suite"

# the private apt configuration: nothing of the host's sources, pins or
# package state
apt_opts=(
	-o "Dir::Etc::SourceList=$aptdir/sources.list"
	-o "Dir::Etc::SourceParts=$aptdir/sources.list.d"
	-o "Dir::Etc::Preferences=$aptdir/preferences"
	-o "Dir::Etc::PreferencesParts=$aptdir/preferences.d"
	-o "Dir::State::Lists=$aptdir/lists"
	-o "Dir::State::status=$aptdir/status"
	-o "Dir::Cache=$aptdir/cache"
	-o "APT::Architectures::=amd64" -o "APT::Architecture=amd64"
	-o "Acquire::Languages=none" -o "Debug::NoLocking=1"
)
[ "$(id -u)" -ne 0 ] || apt_opts+=(-o "APT::Sandbox::User=root")

apt_setup() {
	local s url
	mkdir -p "$aptdir/lists/partial" "$aptdir/cache/archives/partial" \
		"$aptdir/sources.list.d" "$aptdir/preferences.d"
	: >"$aptdir/preferences"
	[ -f "$aptdir/status" ] || : >"$aptdir/status"
	for s in "${suites[@]}"; do
		url=$mirror
		[[ "$s" != *-security ]] || url="${mirror%/debian}/debian-security"
		echo "deb [signed-by=$keyring] $url $s main"
	done >"$aptdir/sources.list.new"
	if ! cmp -s "$aptdir/sources.list.new" "$aptdir/sources.list"; then
		mv "$aptdir/sources.list.new" "$aptdir/sources.list"
		rm -f "$aptdir/lists/"*_Packages "$aptdir/.updated"
	else
		rm -f "$aptdir/sources.list.new"
	fi
}

# apt_update: fetch the suite's package lists when they are older than
# max_age
apt_update() {
	local now stamp=0
	now=$(date +%s)
	[ ! -f "$aptdir/.updated" ] || stamp=$(stat -c %Y "$aptdir/.updated")
	[ $((now - stamp)) -ge "$max_age" ] || return 0
	aqm_log "apt-get update for $suite (private lists in $aptdir)"
	apt-get "${apt_opts[@]}" -q update >"$aptdir/update.log" 2>&1 || {
		cat "$aptdir/update.log" >&2
		return 1
	}
	touch "$aptdir/.updated"
}

acache() {
	apt-cache "${apt_opts[@]}" "$@"
}

# field PKG=VER FIELD: one field of that package version's stanza
field() {
	acache show "$1" 2>/dev/null | awk -v f="$2" '
		$0 == "" { exit }
		index($0, f ": ") == 1 { print substr($0, length(f) + 3); exit }'
}

# closure VER: the kernel packages of that version to fetch, as NAME=VER
# lines: from linux-headers-amd64 (and linux-image-amd64) the Depends,
# first alternative, whose name is linux-{headers,kbuild,image,binary,
# modules,base}-<digit>..., followed down
closure() {
	local ver=$1 start=(linux-headers-amd64) q item name deps dep dn dv kinds
	kinds='^linux-(headers|kbuild)-[0-9]'
	if [ "$headers_only" -eq 0 ]; then
		start+=(linux-image-amd64)
		kinds='^linux-(headers|kbuild|image|binary|modules|base)-[0-9]'
	fi
	declare -A seen=()
	q=()
	for name in "${start[@]}"; do
		[ -n "$(field "$name=$ver" Package)" ] || aqm_die "$suite has no $name $ver"
		q+=("$name=$ver")
	done
	while [ ${#q[@]} -gt 0 ]; do
		item=${q[0]}
		q=("${q[@]:1}")
		deps=$(field "$item" Depends)
		IFS=, read -ra deps <<<"$deps"
		for dep in "${deps[@]}"; do
			dep=${dep%%|*}
			dep=$(echo "$dep" | sed 's/^ *//; s/ *$//')
			dn=${dep%% *}
			[[ "$dn" =~ $kinds ]] || continue
			[ -z "${seen[$dn]:-}" ] || continue
			dv=""
			if [[ "$dep" =~ \(=\ *([^\)]*)\) ]]; then
				dv=${BASH_REMATCH[1]}
			fi
			if [ -z "$dv" ]; then
				# unversioned (linux-kbuild-X): the same source version
				# when there is one, else the candidate
				if [ -n "$(field "$dn=$ver" Package)" ]; then
					dv=$ver
				else
					dv=$(acache policy "$dn" | awk '/Candidate:/ { print $2 }')
				fi
			fi
			case "$dv" in "" | "(none)") aqm_die "$suite: no version of $dn" ;; esac
			seen[$dn]=1
			q+=("$dn=$dv")
			echo "$dn=$dv"
		done
	done
}

# extract DIR PART NAME=VER...: download and extract into DIR/root; PART
# (headers or image) is recorded in DIR/.PART when done
extract() {
	local dir=$1 part=$2 tmp deb p
	shift 2
	tmp="$dir/debs.$$"
	rm -rf "$tmp"
	mkdir -p "$tmp" "$dir/root"
	aqm_log "$suite: apt-get download $*"
	(cd "$tmp" && apt-get "${apt_opts[@]}" -q download "$@") >"$tmp.log" 2>&1 || {
		cat "$tmp.log" >&2
		rm -rf "$tmp" "$tmp.log"
		return 1
	}
	for p in "$@"; do
		deb=$(ls "$tmp/${p%%=*}_"*.deb)
		dpkg-deb -x "$deb" "$dir/root"
		echo "$(dpkg-deb -f "$deb" Package) $(dpkg-deb -f "$deb" Version)" >>"$dir/packages.$part"
		dpkg-deb -f "$deb" Depends | tr ',' '\n' | sed '/^ *$/d' >>"$dir/depends.$part"
	done
	rm -rf "$tmp" "$tmp.log"
	fixup "$dir/root"
	touch "$dir/.$part"
}

# fixup ROOT: make the extracted tree work where it is
fixup() {
	local root=$1 l t mk
	# absolute symlinks (lib/modules/ABI/build -> /usr/src/...) point into
	# the extracted tree, relative to it
	while IFS= read -r l; do
		t=$(readlink "$l")
		ln -sfnr "$root$t" "$l"
	done < <(find "$root" -type l -lname '/*')
	# the headers' Makefile: KBUILD_OUTPUT=/usr/src/... and
	# include /usr/src/...-common/Makefile
	for mk in "$root"/usr/src/linux-headers-*/Makefile; do
		[ -f "$mk" ] || continue
		grep -q '/usr/src/' "$mk" || continue
		sed -i "s#\\([ =]\\)/usr/src/#\\1$root/usr/src/#g" "$mk"
	done
}

# build_dir DIR: the extracted headers' build dir (the one with .config)
build_dir() {
	local d
	for d in "$1"/root/usr/src/linux-headers-*; do
		[ -f "$d/.config" ] && { echo "$d"; return 0; }
	done
	return 1
}

apt_setup
ver=""
if [ -n "$want_ver" ] && [ -f "$top/$suite/$want_ver/.headers" ] &&
	{ [ "$headers_only" -eq 1 ] || [ -f "$top/$suite/$want_ver/.image" ]; }; then
	ver=$want_ver
else
	apt_update || {
		# offline: the newest version already extracted will do
		ver=$(find "$top/$suite" -mindepth 2 -maxdepth 2 -name .headers -printf '%h\n' 2>/dev/null |
			sed 's#.*/##' | sort -V | tail -n 1)
		[ -n "$ver" ] || aqm_die "$suite: apt-get update failed and nothing is cached"
		aqm_log "$suite: apt-get update failed; using the cached $ver"
	}
	if [ -z "$ver" ]; then
		ver=$want_ver
		[ -n "$ver" ] || ver=$(acache policy linux-headers-amd64 | awk '/Candidate:/ { print $2 }')
		case "$ver" in "" | "(none)") aqm_die "$suite has no linux-headers-amd64" ;; esac
	fi
fi
dir="$top/$suite/$ver"

if [ ! -f "$dir/.headers" ]; then
	rm -rf "$dir"
	mkdir -p "$dir"
	mapfile -t pkgs < <(closure "$ver" | grep -E '^linux-(headers|kbuild)-')
	[ ${#pkgs[@]} -ge 3 ] || aqm_die "$suite $ver: expected headers, common headers and kbuild, got: ${pkgs[*]}"
	extract "$dir" headers "${pkgs[@]}"
fi
if [ "$headers_only" -eq 0 ] && [ ! -f "$dir/.image" ]; then
	rm -f "$dir/packages.image"
	mapfile -t pkgs < <(closure "$ver" | grep -vE '^linux-(headers|kbuild)-')
	[ ${#pkgs[@]} -ge 1 ] || aqm_die "$suite $ver: no image package"
	extract "$dir" image "${pkgs[@]}"
fi
kd=$(build_dir "$dir") || aqm_die "$dir: no headers build dir"
# a new default kernel replaces the older ones of the suite
if [ -z "$want_ver" ]; then
	for old in "$top/$suite"/*; do
		[ "$old" = "$dir" ] || [ ! -d "$old" ] ||
			[ "$(printf '%s\n' "${old##*/}" "$ver" | sort -V | tail -n 1)" != "$ver" ] ||
			rm -rf "$old"
	done
fi

case "$mode" in
print)
	echo "$kd"
	exit 0
	;;
packages)
	cat "$dir/packages.headers" "$dir/packages.image" 2>/dev/null
	exit 0
	;;
esac

# --- make -C $kd with the suite's toolchain

# the compiler the headers were built with, and what a build needs: make,
# binutils (gcc-N-for-host brings only the prefixed x86_64-linux-gnu-as),
# perl and python3 (W=1 runs kernel-doc: perl up to 6.x, python from 7.x),
# the gcc the headers depend on (linux-compiler-gcc-N-x86 in Debian 12
# means gcc-N), the kbuild programs' libraries and pahole
cc_text=$(sed -n 's/^CONFIG_CC_VERSION_TEXT="\(.*\)"$/\1/p' "$kd/.config")
needs=(make binutils perl python3)
while read -r p; do
	case "$p" in
	linux-compiler-gcc-*) p=${p#linux-compiler-}; p=${p%-*} ;;
	gcc-[0-9]* | pahole | dwarves | lib*) ;;
	*) continue ;;
	esac
	[[ " ${needs[*]} " == *" $p "* ]] || needs+=("$p")
done < <(sed 's/|.*//; s/([^)]*)//; s/ //g' "$dir/depends.headers")
[[ " ${needs[*]} " == *" gcc-"* ]] || aqm_die "$suite $ver: its headers name no gcc"

host_codename=$(. /etc/os-release && echo "${VERSION_CODENAME:-}")
m_dir=""
for i in "${!make_args[@]}"; do
	case "${make_args[$i]}" in
	M=*)
		m_dir=$(realpath -m "${make_args[$i]#M=}")
		make_args[i]="M=$m_dir"
		;;
	esac
done

aqm_log "$suite $ver: building against $kd (compiler of the kernel: $cc_text)"
if [ "$codename" = "$host_codename" ]; then
	missing=()
	for p in "${needs[@]}"; do
		dpkg-query -W -f '${Status}' "$p" 2>/dev/null | grep -q 'ok installed' ||
			missing+=("$p")
	done
	if [ ${#missing[@]} -gt 0 ]; then
		aqm_log "apt-get install ${missing[*]}"
		aqm_root apt-get update -qq
		aqm_root env DEBIAN_FRONTEND=noninteractive \
			apt-get install -y -qq --no-install-recommends "${missing[@]}" >/dev/null
	fi
	exec make -C "$kd" "${make_args[@]}"
fi

# a build root of the suite's release
broot="$top/buildroot-$codename"
in_broot() {
	aqm_root chroot "$broot" /usr/bin/env -i PATH=/usr/sbin:/usr/bin:/sbin:/bin \
		HOME=/root LANG=C.UTF-8 DEBIAN_FRONTEND=noninteractive "$@"
}
if [ ! -f "$broot/.done" ]; then
	command -v debootstrap >/dev/null || {
		aqm_log "apt-get install debootstrap"
		aqm_root apt-get update -qq
		aqm_root env DEBIAN_FRONTEND=noninteractive \
			apt-get install -y -qq --no-install-recommends debootstrap >/dev/null
	}
	aqm_root rm -rf --one-file-system "$broot"
	mkdir -p "$top"
	aqm_log "debootstrap $codename (minbase) into $broot"
	t0=$(date +%s)
	# a release newer than this debootstrap knows is bootstrapped as sid is
	script=()
	[ -e "/usr/share/debootstrap/scripts/$codename" ] ||
		script=(/usr/share/debootstrap/scripts/sid)
	aqm_root debootstrap --variant=minbase --include=make,binutils,perl,python3 \
		"$codename" "$broot" "$mirror" "${script[@]}" >"$broot.log" 2>&1 ||
		aqm_die "debootstrap failed (log: $broot.log)"
	aqm_root touch "$broot/.done"
	aqm_log "build root ready in $(($(date +%s) - t0)) s"
fi
# what this kernel needs (a newer kernel of the suite may need a newer
# compiler); a backports kernel may need what only its suite has, which
# apt takes from there only then, as the backports' own builds do
missing=()
for p in "${needs[@]}"; do
	in_broot dpkg-query -W -f "\${Status}" "$p" 2>/dev/null | grep -q 'ok installed' ||
		missing+=("$p")
done
if [ ${#missing[@]} -gt 0 ]; then
	aqm_log "$broot: apt-get install ${missing[*]}"
	aqm_root cp /etc/resolv.conf "$broot/etc/resolv.conf"
	if [[ "$suite" == *-backports ]]; then
		echo "deb $mirror $suite main" |
			aqm_root tee "$broot/etc/apt/sources.list.d/$suite.list" >/dev/null
	fi
	# the host's policy on expired Release files holds in the root too (a
	# machine whose mirror is a snapshot turns the check off)
	valid=()
	apt-config dump | grep -qi '^Acquire::Check-Valid-Until "\(false\|0\|no\)"' &&
		valid=(-o Acquire::Check-Valid-Until=false)
	in_broot apt-get "${valid[@]}" update -qq
	in_broot apt-get install -y -qq -o Dpkg::Use-Pty=0 --no-install-recommends \
		"${missing[@]}" >/dev/null
fi

# the headers and the module folder, bound at their own paths; /proc for
# objtool. unshare -m: the mounts are private and go with the process. In a
# chroot whose / is no mount point (scripts/fresh-check.sh's root) unshare
# cannot make / private (nor create a user namespace): there the mounts
# keep the propagation they inherit and are unmounted when make is done.
binds=("$top")
[ -z "$m_dir" ] || binds+=("$m_dir")
userspec=()
[ "$(id -u)" -eq 0 ] || userspec=(--userspec="$(id -u):$(id -g)")
ns=(-m)
mountpoint -q / || ns=(-m --propagation unchanged)
# shellcheck disable=SC2016 # expanded by the inner shell
aqm_root unshare "${ns[@]}" -- bash -c '
	set -e
	r=$1 nb=$2
	shift 2
	mounts=()
	cleanup() {
		local i
		for ((i = ${#mounts[@]} - 1; i >= 0; i--)); do
			umount "${mounts[i]}" 2>/dev/null || umount -l "${mounts[i]}" || true
		done
	}
	trap cleanup EXIT
	mount -t proc proc "$r/proc"
	mounts+=("$r/proc")
	while [ "$nb" -gt 0 ]; do
		mkdir -p "$r$1"
		mount --bind "$1" "$r$1"
		mounts+=("$r$1")
		shift
		nb=$((nb - 1))
	done
	chroot "$@"
' bash "$broot" "${#binds[@]}" "${binds[@]}" "${userspec[@]}" "$broot" \
	/usr/bin/env -i PATH=/usr/sbin:/usr/bin:/sbin:/bin HOME=/tmp LANG=C.UTF-8 \
	make -C "$kd" "${make_args[@]}"
