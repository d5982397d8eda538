#!/usr/bin/env bash
# Prove the Debian packages (make deb, docs/install.md) on fresh Debian 12
# and Debian 13 roots: for each SUITE, debootstrap a minimal root (the
# release, its updates, its security archive and its backports, this
# machine's local CAs and netbase, git and make), clone HEAD into it and:
#
#  1. build: `make deb` there, with the suite's own iproute2 and compiler
#     (it installs the build dependencies and fetches iproute2's source);
#  2. kernel: the suite's linux-image-amd64 and linux-headers-amd64;
#  3. install: linux-aqm-dkms and linux-aqm-tc with apt-get; DKMS must have
#     built and installed aqm_lib, sch_dcn, sch_pi, sch_rem, sch_ared,
#     sch_riops, sch_afd and sch_blue for the kernel (dkms status; modinfo
#     of each module in /lib/modules/KVER/updates/dkms: its vermagic and
#     its signer);
#  4. sfb with the suite's kernel alone: linux-aqm-sfb-dkms installed,
#     sch_sfb of ours built, `modprobe -n` and tc's sfb find ours; purged,
#     they find Linux's again, nothing of it is left and dpkg --verify
#     finds the kernel packages' files as shipped;
#  5. upgrade: the suite's backports kernel (Debian 12: 6.12, Debian 13:
#     7.x), installed after the packages: DKMS's kernel hook must build the
#     modules for it too;
#  6. every kernel: linux-aqm-dkms installed again as on a machine running
#     the newest kernel (a `uname -r` of it first on apt's DPkg::Path; in a
#     chroot DKMS's postinst would otherwise build for every kernel): DKMS's
#     postinst builds for that one, or for all where DKMS is configured so
#     (Debian 13), and the package's own postinst for the rest;
#  7. modprobe: for every kernel, `modprobe -n -v` (a dry run, nothing is
#     loaded) of sch_KIND and, from 6.9 on, of net-sch-KIND (the name the
#     kernel asks for when tc adds a qdisc) finds ours in updates/dkms, and
#     sch_dcn, sch_pi, sch_rem, sch_ared, sch_riops and sch_afd bring
#     aqm_lib first;
#  8. tc: with the suite's own tc, `tc qdisc add dev lo root KIND help`
#     prints our plugin's usage for dcn, pi, rem, ared, riops, afd and
#     blue, and sfb is still iproute2's; dpkg --verify iproute2 finds none of its
#     files changed;
#     aqmstat samples lo (in a network namespace of its own, like tc);
#  8b. boot (unless --no-boot): every kernel of the root booted in the
#     test VM (virtme-ng boots the root's /boot/vmlinuz-KVER with the
#     root's modules tree, DKMS's builds included), and in it
#     selftests/vm/deb-guest.sh: with nothing of ours loaded by hand, the
#     root's tc (in a chroot) adds dcn, pi, rem, ared, riops, afd and blue, the
#     kernel loads DKMS's modules on demand (their srcversion checked), tc
#     -s shows them through the installed plugins, tc's sfb loads the
#     kernel's own, and the kernel log stays clean;
#  9. sfb with both kernels, as step 4, installed as on a machine running
#     the newest kernel;
# 10. purge: apt-get purge of linux-aqm-dkms and linux-aqm-tc, then
#     nothing of ours is left (no module under /lib/modules/*/updates, no
#     /var/lib/dkms/linux-aqm*, no /usr/src/linux-aqm*, no plugin, man page
#     or aqmstat, no depmod or modprobe configuration), and every path that
#     is new since before step 3 belongs to an installed package, to the
#     kernel of step 5, or is DKMS's signing key (/var/lib/dkms/mok.*).
#
# Outside step 8b no module is loaded and no qdisc added: this machine's
# kernel has no module support, and tc runs in a network namespace of its
# own; step 8b loads them in the VM, under each kernel the root has.
#
# The steps run one at a time (the machine may be busy); each one's output
# is in BASE/logs/SUITE/N-STEP.log. A failed step ends its suite, except
# that once the packages are installed, steps 4, 9 and 10 run whatever
# failed before them. The roots stay for inspection (BASE/SUITE) and are made anew
# on the next run.
#
# Usage: deb-check.sh [--base DIR] [--no-boot] [SUITE...]
#   SUITE: default bookworm trixie; --no-boot: no step 8b (no VM)
# Environment: DEB_CHECK_MIRROR (default: the deb.debian.org mirror);
# AQM_IPROUTE2_SRC_<SUITE> (AQM_IPROUTE2_SRC_TRIXIE, as for
# scripts/tc/iproute2-versions.sh): an iproute2 tree of the suite's version
# for make deb (IPROUTE2_SRC) where the mirror lacks the suite's source
# package; the build step's log says it was used.
# Exit status: 0 when every step of every suite passed.
# The steps (s_*, run by step) and the checks run in the root (r_*, by
# in_root_fn) are called indirectly:
# shellcheck disable=SC2317
set -euo pipefail
# shellcheck source=scripts/lib/common.sh
. "$(dirname "$0")/lib/common.sh"

[ "$(id -u)" -eq 0 ] || exec sudo -- "$0" "$@"
base=/var/tmp/linux-aqm-deb
boot=1
while [ $# -gt 0 ]; do
	case "$1" in
	--base) base=$2; shift 2 ;;
	--no-boot) boot=0; shift ;;
	-h | --help) sed -n '2,/^set -euo/p' "$0" | sed '$d; s/^# \{0,1\}//'; exit 0 ;;
	-*) aqm_die "unknown option $1" ;;
	*) break ;;
	esac
done
suites=("$@")
[ ${#suites[@]} -gt 0 ] || suites=(bookworm trixie)
mirror=${DEB_CHECK_MIRROR:-${FRESH_MIRROR:-http://deb.debian.org/debian}}
base=$(realpath -m "$base")
case "$base" in
/ | "$AQM_TOP" | "$AQM_TOP"/*) aqm_die "refusing base $base" ;;
esac
logbase="$base/logs"
clone=/var/tmp/linux-aqm
kinds=(dcn pi rem ared riops afd blue)
aqm_need debootstrap git unshare chroot
[ "$boot" -eq 0 ] || aqm_need vng qemu-system-x86_64 timeout

[ -z "$(git -C "$AQM_TOP" status --porcelain)" ] ||
	aqm_log "warning: uncommitted changes are not in the clone; it has HEAD $(git -C "$AQM_TOP" rev-parse --short HEAD)"

# ---- the root ---------------------------------------------------------------

root=""
unmount_root() {
	local m
	[ -n "$root" ] || return 0
	for m in $(findmnt -rn -o TARGET | grep -E "^$root(/|$)" | sort -r); do
		umount -l "$m" 2>/dev/null || true
	done
}
trap unmount_root EXIT

# in_root CMD: the shell command CMD as root in the root, in the
# environment of a login there
in_root() {
	chroot "$root" /usr/bin/env -i HOME=/root LANG=C.UTF-8 TERM=dumb \
		DEBIAN_FRONTEND=noninteractive \
		PATH=/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin \
		/bin/bash -c "$1"
}

# the functions of this script that run in the root (r_*)
r_fns=(r_kernels r_packages r_dkms r_modprobe r_no_module r_tc r_aqmstat r_files r_kernel_files)

# in_root_fn FUNCTION ARGS...: a function of this script, run in the root
in_root_fn() {
	local fn=$1 a args=""
	shift
	for a in "$@"; do
		args+=" $(printf '%q' "$a")"
	done
	in_root "set -uo pipefail; $(declare -f "${r_fns[@]}"); $fn$args"
}

# in_root_netns FUNCTION ARGS...: the same in a network namespace of its
# own (tc and aqmstat talk to this machine's kernel: not to its network)
in_root_netns() {
	local fn=$1 a args=""
	shift
	for a in "$@"; do
		args+=" $(printf '%q' "$a")"
	done
	unshare -n chroot "$root" /usr/bin/env -i HOME=/root LANG=C.UTF-8 \
		PATH=/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin \
		/bin/bash -c "set -uo pipefail; $(declare -f "${r_fns[@]}"); $fn$args"
}

make_root() {
	local suite=$1
	unmount_root
	rm -rf --one-file-system "$root"
	mkdir -p "$root"
	debootstrap --variant=minbase "$suite" "$root" "$mirror" || return 1
	cat >"$root/etc/apt/sources.list" <<-EOF
		deb $mirror $suite main
		deb $mirror $suite-updates main
		deb ${mirror%/debian}/debian-security $suite-security main
		deb $mirror $suite-backports main
	EOF
	cp /etc/resolv.conf "$root/etc/resolv.conf"
	# the machine's local CAs (an egress proxy's), which
	# update-ca-certificates adds to the root's bundle
	if compgen -G '/usr/local/share/ca-certificates/*.crt' >/dev/null; then
		mkdir -p "$root/usr/local/share/ca-certificates"
		cp /usr/local/share/ca-certificates/*.crt "$root/usr/local/share/ca-certificates/"
	fi
	mount -t proc proc "$root/proc"
	in_root 'apt-get update -qq && apt-get install -y -qq ca-certificates netbase git make >/dev/null &&
		update-ca-certificates >/dev/null' || return 1
	echo "root: $(in_root 'cat /etc/debian_version'), $(du -sh --one-file-system "$root" | cut -f1)"
}

clone_head() {
	local origin="$root/mnt/linux-aqm-origin" rc=0
	mkdir -p "$origin"
	mount --bind -o ro "$AQM_TOP" "$origin"
	in_root "rm -rf $clone && git clone -q /mnt/linux-aqm-origin $clone" || rc=$?
	umount "$origin"
	[ "$rc" -eq 0 ] || return "$rc"
	cloned+=("$suite $(in_root "git -C $clone rev-parse --short HEAD")")
	echo "cloned ${cloned[-1]#* } into $clone"
}

# ---- checks run in the root (in_root_fn) ------------------------------------

# kernels with headers, one a line
r_kernels() {
	local b k
	for b in /lib/modules/*/build; do
		[ -e "$b/include" ] || continue
		k=${b#/lib/modules/}
		echo "${k%/build}"
	done
}

# the linux-aqm packages dpkg knows (installed, half-installed or with
# configuration files left), one a line
r_packages() {
	dpkg-query -W -f '${db:Status-Abbrev} ${Package}\n' 'linux-aqm*' 2>/dev/null |
		awk '$1 != "un" { print $2 }'
}

# what dpkg --verify says of the installed kernel packages' files (nothing
# when they are as shipped)
r_kernel_files() {
	local p
	for p in $(dpkg-query -W -f '${db:Status-Abbrev} ${Package}\n' 'linux-image-*' 'linux-modules-*' 2>/dev/null |
		awk '$1 == "ii" { print $2 }'); do
		dpkg --verify "$p" | sed "s|^|$p: |"
	done
}

# r_dkms NAME VERSION MODULE...: DKMS built and installed MODULEs of
# NAME/VERSION for every kernel with headers
r_dkms() {
	local name=$1 ver=$2 bad=0 k m f vm v signer st n=0
	shift 2
	for k in $(r_kernels); do
		n=$((n + 1))
		st=$(dkms status -m "$name" -v "$ver" -k "$k" 2>&1)
		if grep -q ': installed' <<<"$st"; then
			echo "$k: $st"
		else
			echo "FAIL $k: dkms status: ${st:-nothing}"
			bad=1
		fi
		for m in "$@"; do
			f=$(find "/lib/modules/$k/updates/dkms/" -maxdepth 1 -name "$m.ko*" 2>/dev/null | head -n 1)
			if [ -z "$f" ]; then
				echo "FAIL $k: no $m.ko* in /lib/modules/$k/updates/dkms"
				bad=1
				continue
			fi
			vm=$(modinfo -F vermagic "$f")
			signer=$(modinfo -F signer "$f")
			if [ "${vm%% *}" != "$k" ]; then
				echo "FAIL $f: vermagic '$vm'"
				bad=1
			fi
			v=$(modinfo -F version "$f")
			echo "  ${f#/lib/modules/"$k"/}: vermagic ${vm%% *},${v:+ version $v,} signer ${signer:-none}"
		done
	done
	[ "$n" -gt 0 ] || { echo "FAIL: no kernel with headers"; bad=1; }
	return "$bad"
}

# r_modprobe WHERE KIND...: for every kernel, `modprobe -n -v` of sch_KIND
# and (6.9 and later) net-sch-KIND loads sch_KIND from WHERE
# (updates/dkms or kernel/net/sched) last; sch_dcn, pi, rem, ared,
# riops, afd bring aqm_lib
r_modprobe() {
	local where=$1 bad=0 k kind n names out last v
	shift
	for k in $(r_kernels); do
		v=${k%%-*}
		v=${v%%+*}
		for kind in "$@"; do
			names=("sch_$kind")
			! dpkg --compare-versions "$v" ge 6.9 || names+=("net-sch-$kind")
			for n in "${names[@]}"; do
				out=$(modprobe -n -v -S "$k" "$n" 2>&1) || true
				last=$(awk '$1 == "insmod" { p = $2 } END { print p }' <<<"$out")
				case "$last" in
				/lib/modules/"$k"/"$where"/sch_"$kind".ko*) ;;
				*)
					echo "FAIL $k: modprobe -n -v $n: $out"
					bad=1
					continue
					;;
				esac
				case "$kind" in
				dcn | pi | rem | ared | riops | afd)
					if ! grep -q "^insmod /lib/modules/$k/updates/dkms/aqm_lib.ko" <<<"$out"; then
						echo "FAIL $k: modprobe -n -v $n does not load aqm_lib: $out"
						bad=1
					fi
					;;
				esac
				echo "$k: modprobe $n -> $(awk '$1 == "insmod" { printf "%s ", $2 }' <<<"$out")"
			done
		done
	done
	return "$bad"
}

# r_no_module NAME: modprobe finds no module NAME for any kernel
r_no_module() {
	local k
	for k in /lib/modules/*; do
		k=${k#/lib/modules/}
		if modprobe -n -S "$k" "$1" 2>/dev/null; then
			echo "FAIL $k: modprobe still finds $1"
			return 1
		fi
	done
	echo "modprobe -n $1: not found for any kernel"
}

# r_tc WHOSE KIND USAGE: the root's tc, `tc qdisc add dev lo root KIND
# help` prints USAGE (WHOSE=ours) or not (WHOSE=theirs), exits 1
r_tc() {
	local whose=$1 kind=$2 usage=$3 out rc=0
	out=$(tc qdisc add dev lo root "$kind" help 2>&1) || rc=$?
	if [ "$rc" -ne 1 ]; then
		echo "FAIL tc $kind help: status $rc: $out"
		return 1
	fi
	if grep -qF -- "$usage" <<<"$out"; then
		[ "$whose" = ours ] || { echo "FAIL tc $kind help: our plugin answered: $out"; return 1; }
		echo "tc $(tc -V | sed -n 's/.*iproute2-\([^ ,]*\).*/\1/p') $kind: our usage: $usage"
	else
		[ "$whose" = theirs ] || { echo "FAIL tc $kind help: not our usage: $out"; return 1; }
		echo "tc $kind: iproute2's own: $(head -n 2 <<<"$out" | tr '\n' ' ')"
	fi
}

# aqmstat samples the namespace's lo (noqueue once it is up)
r_aqmstat() {
	local out
	ip link set lo up
	out=$(aqmstat -d lo -n 2 -t 10 -f json 2>&1) || { echo "FAIL aqmstat: $out"; return 1; }
	grep -q '"dev":"lo".*"kind":"noqueue".*"packets":' <<<"$out" || { echo "FAIL aqmstat: $out"; return 1; }
	echo "aqmstat: $(head -n 1 <<<"$out")"
}

# r_files PRESENT|ABSENT PATH...: each PATH (a glob) exists, or none does
r_files() {
	local want=$1 bad=0 p
	shift
	for p in "$@"; do
		if compgen -G "$p" >/dev/null; then
			[ "$want" = present ] || { echo "FAIL left: $(compgen -G "$p" | tr '\n' ' ')"; bad=1; }
		else
			[ "$want" = absent ] || { echo "FAIL missing: $p"; bad=1; }
		fi
	done
	[ "$bad" -ne 0 ] || echo "$want: $*"
	return "$bad"
}

# every path of the root but the churn of apt, dpkg, logs, caches and the
# clone (merged /usr: /lib is /usr/lib), sorted
snapshot() {
	(cd "$root" && find . -xdev \( -path ./proc -o -path ./sys -o -path ./dev -o -path ./run \
		-o -path ./tmp -o -path ./var/tmp -o -path ./var/cache -o -path ./var/lib/apt \
		-o -path ./var/lib/dpkg -o -path ./var/log -o -path ./root \) -prune -o -print) |
		sed 's#^\.##; s#^/\(lib\|lib64\|bin\|sbin\)/#/usr/\1/#' | sort -u
}

# the paths the root's installed packages own, as snapshot() writes them:
# their files, and the links their maintainer scripts made: those of the
# alternatives they registered (/etc/alternatives/NAME and the link of each
# master and slave) and the /etc/rc?.d links of their init scripts
owned_paths() {
	local f
	{
		cat "$root"/var/lib/dpkg/info/*.list
		for f in "$root"/etc/rc?.d/[SK][0-9][0-9]*; do
			[ -L "$f" ] || continue
			grep -qx "/etc/init.d/${f##*/[SK][0-9][0-9]}" "$root"/var/lib/dpkg/info/*.list &&
				echo "${f#"$root"}"
		done
		for f in "$root"/var/lib/dpkg/alternatives/*; do
			[ -f "$f" ] || continue
			echo "/etc/alternatives/${f##*/}"
			awk 'NR == 2 { print; next }
				NR >= 3 && $0 == "" { exit }
				NR >= 3 && NR % 2 == 1 { print "/etc/alternatives/" $0; next }
				NR >= 3 { print }' "$f"
		done
	} | sed 's#^/\(lib\|lib64\|bin\|sbin\)/#/usr/\1/#' | sort -u
}

# ---- one suite --------------------------------------------------------------

rows=()
cloned=()
fail_all=0

# step SUITE NAME CMD...: run CMD with its output in the suite's log, and
# add a row with its status and time; fails when CMD does
step() {
	local suite=$1 name=$2 t0 rc=0 secs log
	shift 2
	nstep=$((nstep + 1))
	log="$logbase/$suite/$nstep-${name//[^A-Za-z0-9]/_}.log"
	aqm_log "$suite: $name (log: $log)"
	t0=$(date +%s)
	"$@" >"$log" 2>&1 || rc=$?
	secs=$(($(date +%s) - t0))
	if [ "$rc" -eq 0 ]; then
		rows+=("$(printf '%-9s %-58s %-5s %5s s' "$suite" "$name" ok "$secs")")
	else
		rows+=("$(printf '%-9s %-58s %-5s %5s s' "$suite" "$name" FAIL "$secs")")
		aqm_log "$suite: $name failed ($rc):"
		grep -E '^FAIL' "$log" >&2 || tail -n 20 "$log" >&2
		fail_all=1
	fi
	return "$rc"
}

s_build() {
	local var src env=""
	var=AQM_IPROUTE2_SRC_$(echo "$suite" | tr '[:lower:]-' '[:upper:]_')
	src=${!var:-}
	if [ -n "$src" ]; then
		[ -f "$src/tc/tc_util.h" ] || { echo "FAIL: $var=$src has no tc/tc_util.h"; return 1; }
		rm -rf "$root/var/tmp/iproute2-src"
		cp -a "$src" "$root/var/tmp/iproute2-src"
		env="IPROUTE2_SRC=/var/tmp/iproute2-src"
		echo "iproute2 source: $src ($var; $(sed -n 's/.*version\[\] = "\([^"]*\)".*/\1/p' "$src/include/version.h")), not Debian's"
	fi
	in_root "cd $clone && $env make deb" || return 1
	debdir=$clone/build/deb/$(sed -n 's/^VERSION_CODENAME=//p' "$root/etc/os-release")
	in_root "ls -l $debdir/*.deb && dpkg-deb -f $debdir/linux-aqm-tc_*.deb Version Depends Built-Using"
}

s_kernel() {
	in_root 'apt-get install -y --no-install-recommends linux-image-amd64 linux-headers-amd64' || return 1
	in_root_fn r_kernels
}

s_install() {
	snapshot >"$logbase/$suite/before.paths"
	owned_paths >"$logbase/$suite/before.owned"
	in_root "apt-get install -y $debdir/linux-aqm-dkms_*_all.deb $debdir/linux-aqm-tc_*_amd64.deb" || return 1
	in_root_fn r_dkms linux-aqm "$dkms_ver" "${modules[@]}"
}

s_upgrade() {
	local before after
	before=$(in_root_fn r_kernels)
	in_root "apt-get install -y --no-install-recommends -t $suite-backports linux-image-amd64 linux-headers-amd64" || return 1
	after=$(in_root_fn r_kernels)
	later=$(comm -13 <(sort <<<"$before") <(sort <<<"$after") | tail -n 1)
	[ -n "$later" ] || { echo "FAIL: no new kernel from $suite-backports"; return 1; }
	echo "new kernel: $later"
	in_root_fn r_dkms linux-aqm "$dkms_ver" "${modules[@]}"
}

# none of iproute2's files (its tc-sfb.8 among them) changed
verify_iproute2() {
	local out
	out=$(in_root 'dpkg --verify iproute2' 2>&1) || true
	if [ -n "$out" ]; then
		echo "FAIL dpkg --verify iproute2: $out"
		return 1
	fi
	echo "dpkg --verify iproute2: none of its files changed"
}

s_modprobe() {
	in_root_fn r_modprobe updates/dkms "${kinds[@]}"
}

s_tc() {
	local k bad=0
	for k in "${kinds[@]}"; do
		in_root_netns r_tc ours "$k" "$(usage_of "$k")" || bad=1
	done
	in_root_netns r_tc theirs sfb "$(usage_of sfb)" || bad=1
	in_root_fn r_files present "/usr/lib/*/tc/q_dcn.so" /usr/share/man/man8/tc-dcn.8.gz \
		/usr/bin/aqmstat /usr/share/man/man1/aqmstat.1.gz || bad=1
	verify_iproute2 || bad=1
	in_root_netns r_aqmstat || bad=1
	return "$bad"
}

# every kernel of the root booted in the VM, deb-guest.sh in it (step 8b)
s_boot() {
	local k out rc bad=0 cmd
	for k in $(in_root_fn r_kernels | sort -V); do
		out="$logbase/$suite/boot-$k"
		rm -rf "$out"
		mkdir -p "$out"
		cmd="bash $(printf %q "$AQM_TOP/selftests/vm/deb-guest.sh") $(printf %q "$root") $k"
		cmd+=" $(printf %q "$out") >$(printf %q "$out/guest.tap") 2>$(printf %q "$out/guest.log")"
		echo "-- $k: vng --run $root/boot/vmlinuz-$k ($(aqm_vm_accel))"
		rc=0
		aqm_vng_distro "$root/boot/vmlinuz-$k" 900 "$out/vm.log" "$out/console.log" "$cmd" \
			--rodir "$root" --rwdir "$out" || rc=$?
		cat "$out/guest.log" 2>/dev/null || true
		cat "$out/guest.tap" 2>/dev/null || true
		if [ "$rc" -ne 0 ] || ! grep -q '^deb-guest: done' "$out/guest.log" 2>/dev/null ||
			grep -q '^not ok' "$out/guest.tap" || ! grep -q '^ok' "$out/guest.tap"; then
			echo "FAIL: $k (vng status $rc; the console: $out/console.log)"
			tail -n 20 "$out/console.log"
			bad=1
		else
			echo "$k: $(grep -c '^ok' "$out/guest.tap") ok"
		fi
	done
	return "$bad"
}

# apt_as_newest ARGS...: apt-get ARGS in the root as on a machine running
# its newest kernel: a `uname -r` of it first on the PATH of the maintainer
# scripts (apt runs dpkg with DPkg::Path)
apt_as_newest() {
	local newest rc=0
	newest=$(in_root_fn r_kernels | sort -V | tail -n 1)
	cat >"$root/usr/local/bin/uname" <<-EOF
		#!/bin/sh
		# deb-check.sh: the machine runs $newest
		[ "\$1" = -r ] && { echo $newest; exit 0; }
		exec /usr/bin/uname "\$@"
	EOF
	chmod +x "$root/usr/local/bin/uname"
	echo "uname -r: $(in_root 'uname -r')"
	in_root "apt-get -o DPkg::Path=/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin $*" || rc=$?
	rm -f "$root/usr/local/bin/uname"
	return "$rc"
}

# linux-aqm-dkms installed again as on a machine running the newest kernel:
# DKMS's postinst builds for that one (Debian 12) or for all (Debian 13's
# autoinstall_all_kernels), the package's own loop for the rest
s_reinstall() {
	local out bad=0
	out=$(apt_as_newest install -y --reinstall "$debdir/linux-aqm-dkms_*_all.deb" 2>&1) || bad=1
	printf '%s\n' "$out"
	[ "$bad" -eq 0 ] || { echo "FAIL: the reinstall failed"; return 1; }
	in_root_fn r_dkms linux-aqm "$dkms_ver" "${modules[@]}" || bad=1
	echo "DKMS's postinst: $(grep -m1 '^Building for ' <<<"$out" || echo '?')"
	echo "the package's loop: $(grep 'linux-aqm-dkms: building ' <<<"$out" | sed 's/.* for //' | tr '\n' ' ')"
	return "$bad"
}

# linux-aqm-sfb-dkms as on a machine running the newest kernel
s_sfb() {
	local bad=0 kf
	if ! apt_as_newest install -y "$debdir/linux-aqm-sfb-dkms_*_amd64.deb"; then
		echo "FAIL: linux-aqm-sfb-dkms did not install: $(in_root 'dkms status linux-aqm-sfb' 2>&1 | tr '\n' ' ')"
		bad=1
	fi
	kf=$(in_root_fn r_kernel_files)
	echo "dpkg --verify of the kernel packages, linux-aqm-sfb-dkms installed: ${kf:-nothing changed}"
	if [ "$bad" -eq 0 ]; then
		in_root_fn r_dkms linux-aqm-sfb "$dkms_ver" sch_sfb || bad=1
		in_root_fn r_modprobe updates/dkms sfb || bad=1
		in_root_netns r_tc ours sfb "$(usage_of sfb)" || bad=1
		in_root_fn r_files present "/usr/lib/*/tc/q_sfb.so" /usr/share/man/man8/tc-sfb-aqm.8.gz \
			/usr/share/man/man8/tc-sfb.8.gz || bad=1
		verify_iproute2 || bad=1
	fi
	echo "-- purge linux-aqm-sfb-dkms"
	in_root 'apt-get purge -y linux-aqm-sfb-dkms' || return 1
	in_root_fn r_modprobe kernel/net/sched sfb || bad=1
	in_root_netns r_tc theirs sfb "$(usage_of sfb)" || bad=1
	in_root_fn r_files absent "/lib/modules/*/updates/dkms/sch_sfb.ko*" /var/lib/dkms/linux-aqm-sfb \
		"/usr/src/linux-aqm-sfb-*" "/usr/lib/*/tc/q_sfb.so" "/usr/share/man/man8/tc-sfb-aqm.8*" || bad=1
	kf=$(in_root_fn r_kernel_files)
	if [ -n "$kf" ]; then
		echo "FAIL: the kernel packages' files are not as shipped: $kf"
		bad=1
	else
		echo "dpkg --verify of the kernel packages, linux-aqm-sfb-dkms purged: nothing changed"
	fi
	in_root_fn r_dkms linux-aqm "$dkms_ver" "${modules[@]}" >/dev/null ||
		{ echo "FAIL: linux-aqm's modules went with linux-aqm-sfb-dkms"; bad=1; }
	return "$bad"
}

s_purge() {
	local bad=0 new left pkgs
	# the packages dpkg knows (linux-aqm-sfb-dkms is gone unless step 7 failed)
	pkgs=$(in_root_fn r_packages | tr '\n' ' ')
	echo "purging: $pkgs"
	in_root "apt-get purge -y $pkgs" || return 1
	in_root_fn r_files absent "/lib/modules/*/updates/dkms/aqm_lib.ko*" "/lib/modules/*/updates/dkms/sch_*.ko*" \
		"/var/lib/dkms/linux-aqm*" "/usr/src/linux-aqm*" "/usr/lib/*/tc/q_dcn.so" "/usr/lib/*/tc/q_pi.so" \
		"/usr/lib/*/tc/q_rem.so" "/usr/lib/*/tc/q_ared.so" "/usr/lib/*/tc/q_riops.so" "/usr/lib/*/tc/q_afd.so" \
		"/usr/lib/*/tc/q_blue.so" "/usr/lib/*/tc/q_sfb.so" "/usr/share/man/man8/tc-dcn.8*" \
		"/usr/share/man/man8/tc-pi.8*" "/usr/share/man/man8/tc-rem.8*" "/usr/share/man/man8/tc-ared.8*" \
		"/usr/share/man/man8/tc-riops.8*" "/usr/share/man/man8/tc-afd.8*" \
		"/usr/share/man/man8/tc-blue.8*" "/usr/share/man/man8/tc-sfb-aqm.8*" /usr/bin/aqmstat \
		"/usr/share/man/man1/aqmstat.1*" "/usr/share/doc/linux-aqm*" "/etc/depmod.d/*aqm*" \
		"/usr/lib/depmod.d/*aqm*" "/etc/modprobe.d/*aqm*" "/usr/lib/modprobe.d/*aqm*" || bad=1
	if in_root 'dpkg -l "linux-aqm*" 2>/dev/null' | grep -E '^[a-z]{2} ' | grep -v '^un '; then
		echo "FAIL: dpkg still knows the packages above"
		bad=1
	else
		echo "dpkg: no linux-aqm package"
	fi
	in_root_fn r_no_module sch_dcn || bad=1
	# what is new since before the install and nobody's
	snapshot >"$logbase/$suite/after.paths"
	owned_paths >"$logbase/$suite/after.owned"
	new=$(comm -13 "$logbase/$suite/before.paths" "$logbase/$suite/after.paths")
	left=$(comm -23 <(printf '%s\n' "$new" | sed '/^$/d') <(owned_paths))
	[ -z "$later" ] || left=$(grep -vF -e "/$later" -e "-$later" <<<"$left" || true)
	left=$(grep -vxE '/var/lib/dkms/mok\.(key|pub)' <<<"$left" || true)
	echo "new since the install: $(printf '%s\n' "$new" | sed '/^$/d' | wc -l) paths, of the backports kernel ($later) or of packages: all but:"
	echo "${left:-  (none)}"
	[ -z "$left" ] || { echo "FAIL: left behind: $left"; bad=1; }
	if grep -qxE '/var/lib/dkms/mok\.(key|pub)' <<<"$new"; then
		echo "kept: /var/lib/dkms/mok.key and mok.pub, DKMS's signing key of every DKMS module (made at the first build; docs/install.md)"
	fi
	# gone: only what a package owned and no longer does (an upgrade that
	# came with the backports kernel, linux-libc-dev's, drops files)
	left=$(comm -23 <(comm -23 "$logbase/$suite/before.paths" "$logbase/$suite/after.paths") \
		<(comm -23 "$logbase/$suite/before.owned" "$logbase/$suite/after.owned"))
	[ -z "$left" ] || { echo "FAIL: gone since the install: $left"; bad=1; }
	return "$bad"
}

# the first line of our plugin's usage, from the clone's source
usage_of() {
	grep -o -m1 "Usage: \.\.\. $1 [^\\\"]*" "$root$clone/tc/q_$1.c"
}

for suite in "${suites[@]}"; do
	root="$base/$suite"
	# the last run's logs go, step 8b's boot-KVER folders with them
	rm -rf --one-file-system "${logbase:?}/$suite"
	mkdir -p "$logbase/$suite"
	nstep=0
	debdir=""
	later=""
	t_suite=$(date +%s)
	v=AQM_IPROUTE2_SRC_$(echo "$suite" | tr '[:lower:]-' '[:upper:]_')
	if ! { step "$suite" "root: debootstrap minbase + git make" make_root "$suite" &&
		step "$suite" "clone HEAD" clone_head &&
		step "$suite" "make deb (build deps, ${!v:+given }iproute2 source, build)" s_build; }; then
		unmount_root
		continue
	fi
	dkms_ver=$(sed -n 's/^PACKAGE_VERSION="\(.*\)"$/\1/p' "$root$clone/dkms.conf")
	mapfile -t modules < <(sed -n 's/^BUILT_MODULE_NAME\[[0-9]*\]="\(.*\)"$/\1/p' "$root$clone/dkms.conf")
	# once the packages are in, the purge runs whatever failed before it
	if step "$suite" "kernel: $suite linux-image/headers-amd64" s_kernel &&
		step "$suite" "install -dkms -tc: DKMS builds ${#modules[@]} modules" s_install; then
		step "$suite" "sfb opt-in, $suite's kernel: in, takes over, out" s_sfb || true
		{ step "$suite" "upgrade: $suite-backports kernel, DKMS hook" s_upgrade &&
			step "$suite" "reinstall as if running the newest: every kernel" s_reinstall &&
			step "$suite" "modprobe -n: ours from updates/dkms" s_modprobe &&
			step "$suite" "tc help: ours (dcn pi rem ared riops afd blue), sfb iproute2's" s_tc &&
			{ [ "$boot" -eq 0 ] ||
				step "$suite" "boot each kernel: tc loads DKMS's modules" s_boot; }; } || true
		step "$suite" "sfb opt-in, both kernels: in, takes over, out" s_sfb || true
		step "$suite" "purge: nothing of ours left" s_purge || true
	fi
	kernels=$(in_root_fn r_kernels 2>/dev/null | tr '\n' ' ' || true)
	rows+=("$(printf '%-9s %-58s %-5s %5s s' "$suite" "total (kernels: ${kernels:-none})" "" "$(($(date +%s) - t_suite))")")
	unmount_root
done

echo "deb-check: ${cloned[*]:-nothing cloned}; logs in $logbase"
printf '%-9s %-58s %-5s %7s\n' suite step result time
printf '%s\n' "${rows[@]}"
exit "$fail_all"
