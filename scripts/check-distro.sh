#!/usr/bin/env bash
# make check-distro: the modules on the Debian kernels as the distribution
# ships them, one VM boot each: bookworm (Debian 12, 6.1), trixie (Debian
# 13, 6.12) and trixie-backports (7.x).
#
# Not part of make check: time. make check already builds the modules
# against these kernels' headers (W=1); booting them is another 4.5-7.5
# minutes per kernel under software emulation on 2 CPUs (the VMs 271, 454
# and 390 s, the whole run 19.5 minutes, niced beside a benchmark VM), on
# top of make check's own VM, for what changes only when a kernel or the
# modules' kernel API does. make check keeps the test kernel's checks.
#
# Per SUITE, one TAP result per host step, then one VM:
#  1. scripts/kernel/distro-headers.sh SUITE: the suite's default kernel,
#     its headers AND its image (vmlinuz and the /lib/modules tree from
#     linux-image / linux-modules), extracted, never installed;
#  2. the modules (aqm_lib and the eight qdiscs) built against those headers
#     with the suite's compiler (distro-headers.sh --make), in a copy of
#     the tree in $AQM_CACHE/check-distro/SUITE/src;
#  3. depmod of the extracted modules tree (dpkg's postinst would run it;
#     dpkg-deb -x does not), so that the guest's modprobe finds the
#     kernel's own modules (veth, sch_htb, sch_netem, overlay, ...);
#  4. the tc that drives the qdiscs, with our plugins built for it:
#     - the host's tc when the host runs the suite's release (Debian 12
#       for bookworm: iproute2 6.1, that release's);
#     - else the suite's release's own tc binary, trixie's iproute2 6.15
#       for trixie and trixie-backports (which has no iproute2 of its own):
#       the Debian package and its libraries (glibc 2.41) extracted into
#       $AQM_CACHE/check-distro/tc-CODENAME/VERSION and run through that
#       release's own dynamic loader (ld-linux-x86-64.so.2 --library-path),
#       since the host's glibc 2.36 cannot run it; the plugins are built
#       against iproute2's source of that version (iproute2-versions.sh;
#       where the mirror does not serve it, AQM_IPROUTE2_SRC_CODENAME or an
#       upstream tree of that version in $AQM_CACHE/iproute2-upstream).
#       When that cannot be had, the step is skipped and the host's tc
#       drives the run, and the summary says so;
#  5. the VM: vng --run VMLINUZ boots the distribution's kernel. virtme-ng
#     finds the modules tree beside the image (the extracted root's
#     lib/modules/KVER or usr/lib/modules/KVER), builds an initramfs with
#     the host's busybox (busybox-static) and the drivers the distribution
#     kernel has as modules (9p, 9pnet_virtio, overlay; on 6.1 virtio_pci
#     and virtio_console too: modprobe --show-depends on that tree), and in
#     the guest links /lib/modules/KVER to the tree, so that the guest's
#     modprobe loads the rest on demand. In it selftests/vm/distro-guest.sh: insmod of our
#     modules, selftests/net/contract.sh, a short dumbbell run per qdisc
#     (selftests/net/lib.sh) driven by that tc, the kernel log.
# Then a table (suite, kernel, modules loaded, contract N/N, dumbbell per
# qdisc, the tc, each boot's time) and 'N passed, N failed, N skipped'.
#
# The whole run is niced (nice -n 19), and one VM boots at a time.
#
# Usage: check-distro.sh [--no-vm] [SUITE...]
#   SUITE: default bookworm trixie trixie-backports; --no-vm: the host
#   steps only (fetch, build, depmod, tc), no boot
# Results (TAP) in build/results-distro/, logs in build/logs-distro/ (the
# guest's output SUITE-vm.log, the kernel's console SUITE-console.log).
# Environment: AQM_VM_ACCEL=kvm|tcg (default: what scripts/vm/run.sh found
# on this boot, else tcg), AQM_DISTRO_VM_TIMEOUT (seconds per boot, default
# 1500), AQM_DISTRO_SMOKE_SECS (each dumbbell run, default 4).
# Exit status: 0 only when every result passed.
set -euo pipefail
# shellcheck source=scripts/lib/common.sh
. "$(dirname "$0")/lib/common.sh"

# niced as a whole: the builds and the VM yield the CPUs to anything else
if [ "$(nice)" -lt 19 ]; then
	exec nice -n 19 "$0" "$@"
fi

vm=1
if [ "${1:-}" = --no-vm ]; then
	vm=0
	shift
fi
suites=("$@")
[ ${#suites[@]} -gt 0 ] || suites=(bookworm trixie trixie-backports)
for s in "${suites[@]}"; do
	case "$s" in
	*[!a-z-]* | "" | -*) aqm_die "SUITE $s: a Debian suite such as bookworm, trixie or trixie-backports" ;;
	esac
done
vm_timeout=${AQM_DISTRO_VM_TIMEOUT:-1500}

cd "$AQM_TOP"
start=$(date +%s)
aqm_need vng virtme-run qemu-system-x86_64 udevadm timeout depmod modprobe dpkg-deb
# virtme-ng's initramfs for a distribution kernel (its virtio and 9p
# drivers are modules) needs a static busybox
if ! dpkg-query -W -f '${Status}' busybox-static 2>/dev/null | grep -q 'ok installed'; then
	aqm_log "apt-get install busybox-static (virtme-ng's initramfs)"
	aqm_root apt-get update -qq
	aqm_root env DEBIAN_FRONTEND=noninteractive \
		apt-get install -y -qq --no-install-recommends busybox-static >/dev/null
fi

results="$AQM_TOP/build/results-distro"
logs="$AQM_TOP/build/logs-distro"
work="$AQM_CACHE/check-distro"
rm -rf "$results" "$logs"
mkdir -p "$results" "$logs" "$work"
host="$results/host.tap"
: >"$host"
n=0
host_codename=$(. /etc/os-release && echo "${VERSION_CODENAME:-}")

# step NAME CMD...: aqm_step (scripts/lib/common.sh); its status is the
# step's (77: skipped)
step() {
	aqm_step "$@"
}

# --- 1. the suite's kernel: headers and image ------------------------------
# fetch SUITE: sets kd (headers' build dir), root (the extracted tree),
# ver (the Debian version), kver (uname -r), vmlinuz, moddir
fetch() {
	kd=$("$AQM_TOP/scripts/kernel/distro-headers.sh" "$1") || return 1
	root=${kd%%/usr/src/*}
	ver=$(basename "$(dirname "$root")")
	kver=${kd##*/linux-headers-}
	vmlinuz=""
	for f in "$root/boot/vmlinuz-$kver" "$root/usr/lib/modules/$kver/vmlinuz" \
		"$root/lib/modules/$kver/vmlinuz"; do
		[ -f "$f" ] && { vmlinuz=$f; break; }
	done
	moddir=""
	for d in "$root/lib/modules/$kver" "$root/usr/lib/modules/$kver"; do
		[ -d "$d/kernel" ] && { moddir=$d; break; }
	done
	cat "$root/../packages.image"
	echo "kernel $kver ($ver): image $vmlinuz, modules $moddir"
	[ -n "$vmlinuz" ] || { echo "error: no vmlinuz for $kver in $root"; return 1; }
	[ -n "$moddir" ] || { echo "error: no modules tree for $kver in $root"; return 1; }
}

# --- 2. the modules against its headers, in a copy of the tree -------------
build() {
	local s=$1
	src="$work/$s/src"
	rm -rf "$src"
	mkdir -p "$src"
	git ls-files -co --exclude-standard | tar -cf - -T - | tar -xf - -C "$src" || return 1
	"$AQM_TOP/scripts/kernel/distro-headers.sh" --make "$s" "$ver" -- M="$src" modules || return 1
	ls "$src"/net/sched/*.ko
}

# --- 3. depmod of the extracted tree ---------------------------------------
# kmod 30 (Debian 12) looks in BASE/lib/modules only; trixie's tree is in
# usr/lib/modules: a base whose lib/modules/KVER is a link to the tree
run_depmod() {
	local base
	base=$(mktemp -d)
	mkdir -p "$base/lib/modules"
	ln -s "$moddir" "$base/lib/modules/$kver"
	depmod -b "$base" "$kver" || { rm -rf "$base"; return 1; }
	rm -rf "$base"
	[ -s "$moddir/modules.dep" ] || { echo "error: depmod wrote no modules.dep"; return 1; }
	echo "$(wc -l <"$moddir/modules.dep") modules in $moddir/modules.dep"
}

# --- 4. the tc that drives the qdiscs --------------------------------------
# plugins DIR SRC: our q_*.so built against the iproute2 tree SRC into DIR
plugins() {
	rm -rf "$1"
	mkdir -p "$1"
	make -s -C "$src/tc" IPROUTE2_SRC="$2" O="$1" || return 1
	ls "$1"
}

# check_tc: the tc (tc_cmd) prints our usage through our plugins (tc_lib)
check_tc() {
	local f k out rc bad=0
	"${tc_cmd[@]}" -V
	for f in "$src"/tc/q_*.c; do
		k=$(basename "$f" .c)
		k=${k#q_}
		rc=0
		out=$(TC_LIB_DIR=$tc_lib "${tc_cmd[@]}" qdisc add dev lo root "$k" help 2>&1) || rc=$?
		if [ "$rc" -ne 1 ] || ! grep -q "^Usage: \.\.\. $k " <<<"$out"; then
			echo "$k help: status $rc, not our plugin's usage: $out"
			bad=1
		fi
	done
	return "$bad"
}

# release_apt CODENAME CMD ARGS...: apt-get or apt-cache on a private
# configuration of the release (CODENAME, -updates, -security): its own
# sources, lists, cache and an empty dpkg status
release_apt() {
	local d="$work/apt/$1" cmd=$2
	shift 2
	"$cmd" -o "Dir::Etc::SourceList=$d/sources.list" -o Dir::Etc::SourceParts=/dev/null \
		-o Dir::Etc::Preferences=/dev/null -o Dir::Etc::PreferencesParts=/dev/null \
		-o "Dir::State::Lists=$d/lists" -o "Dir::State::status=$d/status" \
		-o "Dir::Cache=$d/cache" -o APT::Architectures::=amd64 -o APT::Architecture=amd64 \
		-o Acquire::Languages=none -o Debug::NoLocking=1 -o APT::Sandbox::User=root "$@"
}

# release_tc CODENAME: the release's own tc, extracted with its libraries;
# sets tc_cmd (its loader running it) and tc_ver
release_tc() {
	local c=$1 d="$work/apt/$1" mirror=${AQM_DEBIAN_MIRROR:-http://deb.debian.org/debian}
	local keyring=/usr/share/keyrings/debian-archive-keyring.gpg s url v dir pk ld
	mkdir -p "$d/lists/partial" "$d/cache/archives/partial"
	[ -f "$d/status" ] || : >"$d/status"
	for s in "$c" "$c-updates" "$c-security"; do
		url=$mirror
		[[ "$s" != *-security ]] || url="${mirror%/debian}/debian-security"
		echo "deb [signed-by=$keyring] $url $s main"
	done >"$d/sources.list"
	if [ -z "$(find "$d/.updated" -mmin -360 2>/dev/null)" ]; then
		release_apt "$c" apt-get -q update >"$d/update.log" 2>&1 || {
			cat "$d/update.log"
			return 1
		}
		touch "$d/.updated"
	fi
	v=$(release_apt "$c" apt-cache policy iproute2 | awk '/Candidate:/ { print $2 }')
	case "$v" in "" | "(none)") echo "error: $c has no iproute2"; return 1 ;; esac
	tc_ver=$v
	dir="$work/tc-$c/$v"
	tc_root=$dir
	if [ ! -f "$dir/.done" ]; then
		rm -rf "$work/tc-$c"
		mkdir -p "$dir/debs"
		# iproute2 and the libraries it needs, down to libc6
		pk=$(release_apt "$c" apt-cache depends --recurse --no-recommends --no-suggests \
			--no-conflicts --no-breaks --no-replaces --no-enhances "iproute2=$v" |
			grep -E '^(lib|iproute2$)' | sort -u | sed "s/^iproute2\$/iproute2=$v/")
		# shellcheck disable=SC2086 # one package a word
		(cd "$dir/debs" && release_apt "$c" apt-get -q download $pk) || return 1
		for f in "$dir"/debs/*.deb; do
			dpkg-deb -x "$f" "$dir/root" || return 1
			echo "$(dpkg-deb -f "$f" Package) $(dpkg-deb -f "$f" Version)" >>"$dir/packages"
		done
		rm -rf "$dir/debs"
		touch "$dir/.done"
	fi
	ld="$dir/root/usr/lib/x86_64-linux-gnu/ld-linux-x86-64.so.2"
	[ -x "$ld" ] || { echo "error: no loader in $dir/root"; return 1; }
	tc_cmd=("$ld" --library-path "$dir/root/usr/lib/x86_64-linux-gnu" "$dir/root/usr/sbin/tc")
	if "$ld" --list --library-path "$dir/root/usr/lib/x86_64-linux-gnu" \
		"$dir/root/usr/sbin/tc" | grep 'not found'; then
		echo "error: $c's tc lacks a library"
		return 1
	fi
}

# source_for CODENAME VERSION: an iproute2 tree of that (Debian) version,
# for the plugins: iproute2-versions.sh, else an upstream tree of the same
# upstream version in $AQM_CACHE/iproute2-upstream
source_for() {
	local c=$1 v=$2 line rc=0 up var
	line=$("$AQM_TOP/scripts/tc/iproute2-versions.sh" "$c") || rc=$?
	if [ "$rc" -eq 3 ]; then
		up=${v%%-*}
		var=AQM_IPROUTE2_SRC_$(echo "$c" | tr '[:lower:]' '[:upper:]')
		if [ -f "$AQM_CACHE/iproute2-upstream/v$up/tc/tc_util.h" ]; then
			rc=0
			line=$(env "$var=$AQM_CACHE/iproute2-upstream/v$up" \
				"$AQM_TOP/scripts/tc/iproute2-versions.sh" "$c") || rc=$?
		fi
	fi
	[ "$rc" -eq 0 ] || return "$rc"
	read -r _ sv tree <<<"$line"
	[ "${sv%%-*}" = "${v%%-*}" ] || {
		echo "error: iproute2 source $sv for $c's tc $v"
		return 1
	}
	echo "$tree"
}

# tc_for SUITE: sets tc_desc, tc_cmd, tc_lib and tc_wrap (a folder whose
# tc runs tc_cmd, first on the guest's PATH; empty for the host's tc)
tc_for() {
	local s=$1 c=${1%%-*} tree from glibc
	tc_wrap=""
	tc_lib="$work/$s/tc-plugins"
	if [ "$c" = "$host_codename" ]; then
		tc_cmd=("$(command -v tc)")
		tc_desc="the host's tc, iproute2 $(dpkg-query -W -f '${Version}' iproute2) ($c's; plugins built against its Debian source)"
		plugins "$tc_lib" "$("$AQM_TOP/scripts/tc/iproute2-src.sh")" || return 1
		check_tc
		return
	fi
	# the release's own tc; where it cannot be had, the host's (a skip)
	if release_tc "$c" && tree=$(source_for "$c" "$tc_ver") &&
		plugins "$tc_lib" "$tree" && check_tc; then
		glibc=$(awk '$1 == "libc6" { print $2 }' "$tc_root/packages")
		from="Debian's source"
		[[ "$tree" == "$AQM_CACHE/iproute2/"* ]] ||
			from="the upstream tree $(basename "$tree"): the mirror serves no Debian source"
		tc_desc="$c's tc, iproute2 $tc_ver (Debian's binary, run by $c's ld.so, glibc $glibc)"
		[ "$s" = "$c" ] || tc_desc+=" as $s runs it ($s extends $c)"
		tc_desc+="; plugins built against iproute2 ${tc_ver%%-*} ($from)"
		tc_wrap="$work/$s/tc-bin"
		mkdir -p "$tc_wrap"
		{
			echo '#!/bin/sh'
			echo "# $tc_desc"
			printf 'exec'
			printf ' %q' "${tc_cmd[@]}"
			echo ' "$@"'
		} >"$tc_wrap/tc"
		chmod +x "$tc_wrap/tc"
		cat "$tc_wrap/tc"
		return
	fi
	tc_cmd=("$(command -v tc)")
	tc_desc="the host's tc, iproute2 $(dpkg-query -W -f '${Version}' iproute2) (NOT $c's: its tc could not be had here, see ${logs#"$AQM_TOP/"})"
	plugins "$tc_lib" "$("$AQM_TOP/scripts/tc/iproute2-src.sh")" || return 1
	check_tc || return 1
	echo "SKIP $c's tc could not be had here: the host's tc drives this run"
	return 77
}

# --- 5. the VM --------------------------------------------------------------
accel=$(aqm_vm_accel)

# boot SUITE: the distribution's kernel, distro-guest.sh in it
boot() {
	local s=$1 sres="$results/$1" t0 rc=0 cmd
	mkdir -p "$sres"
	cmd="PATH=${tc_wrap:+$tc_wrap:}/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin"
	cmd+=" TC_LIB_DIR=$(printf %q "$tc_lib") AQM_TC_DESC=$(printf %q "$tc_desc")"
	cmd+=" AQM_DISTRO_SMOKE_SECS=${AQM_DISTRO_SMOKE_SECS:-4}"
	cmd+=" bash $(printf %q "$src/selftests/vm/distro-guest.sh") $(printf %q "$sres") $s"
	aqm_log "$s: booting $kver ($ver) with $accel: vng --run $vmlinuz"
	t0=$(date +%s)
	aqm_vng_distro "$vmlinuz" "$vm_timeout" "$logs/$s-vm.log" "$logs/$s-console.log" "$cmd" \
		--rodir "$(realpath "$AQM_CACHE")" --rwdir "$sres" || rc=$?
	echo "$(($(date +%s) - t0))" >"$sres/vm-seconds"
	grep '^distro-guest:' "$logs/$s-vm.log" >&2 || true
	if [ "$rc" -ne 0 ] || ! grep -q '^distro-guest: done' "$logs/$s-vm.log"; then
		printf '1..1\nnot ok 1 %s: VM run (status %s, logs %s/%s-vm.log, %s-console.log)\n' \
			"$s" "$rc" "${logs#"$AQM_TOP/"}" "$s" "$s" >"$sres/vm.tap"
		tail -n 30 "$logs/$s-vm.log" >&2
		echo "--- the guest kernel's console (${logs#"$AQM_TOP/"}/$s-console.log):" >&2
		awk '/^\[ *[0-9]+\.[0-9]+\] .*(BUG:|Oops|general protection|Kernel panic|WARNING:|KASAN|UBSAN)/ && !n { n = 1 }
			n && n++ <= 40' "$logs/$s-console.log" >&2
		tail -n 20 "$logs/$s-console.log" >&2
	fi
	aqm_log "$s: VM $(cat "$sres/vm-seconds") s (status $rc)"
}

declare -A tc_of=()
for s in "${suites[@]}"; do
	kd="" root="" ver="" kver="" vmlinuz="" moddir="" src=""
	tc_desc="" tc_wrap="" tc_lib=""
	tc_cmd=()
	step "$s: kernel image, modules tree and headers fetched" fetch "$s" || continue
	echo "$kver $ver" >"$logs/$s.kernel"
	step "$s: modules built against $kver's headers" build "$s" || continue
	step "$s: depmod of the distribution's modules tree" run_depmod || continue
	rc=0
	step "$s: tc plugins built and loaded by the release's tc" tc_for "$s" || rc=$?
	# a skip has set the host's tc
	[ "$rc" -eq 0 ] || [ "$rc" -eq 77 ] || continue
	tc_of[$s]=$tc_desc
	[ "$vm" -eq 0 ] || boot "$s"
done
echo "1..$n" >>"$host"

# --- the summary -------------------------------------------------------------
# count FILE: "passed/planned" of a TAP file ("-" when there is none)
count() {
	[ -f "$1" ] || { echo -; return; }
	awk '/^1\.\.[0-9]+/ { p = substr($1, 4) } /^ok / { k++ } END { printf "%d/%d", k, p }' "$1"
}
# loaded FILE: "loaded/insmods" of modules.tap, and whether the sfb
# registered is ours
loaded() {
	[ -f "$1" ] || { echo -; return; }
	awk '/insmod/ { t++; if ($1 == "ok") k++ } /sch_sfb loaded is ours/ { o = ($1 == "ok") ? ", sfb ours" : ", sfb NOT ours" }
		END { printf "%d/%d%s", k, t, o }' "$1"
}
# smoke FILE: per qdisc of the dumbbell runs, ok (goodput) or FAIL
smoke() {
	[ -f "$1" ] || { echo -; return; }
	awk '/^(not )?ok [0-9]+ [a-z]+:/ {
			q = ($1 == "not") ? $4 : $3; sub(":", "", q)
			if (!(q in st)) { order[++m] = q; st[q] = "ok" }
			if ($1 == "not" && !/# TODO/) st[q] = "FAIL"
			if (/goodput/ && match($0, /\([0-9.]+ >=/)) gp[q] = substr($0, RSTART + 1, RLENGTH - 4)
		}
		END { for (i = 1; i <= m; i++) printf "%s %s%s ", order[i], st[order[i]], (order[i] in gp) ? "(" gp[order[i]] ")" : "" }' "$1"
}

echo
echo "check-distro: the Debian kernels as shipped (goodput in Mbit/s; boot: kernel start to the guest script; VM: the whole boot and run)"
printf '%-17s %-36s %-16s %-8s %-5s %-6s %s\n' suite "kernel (Debian version)" "modules loaded" contract boot VM "dumbbell per qdisc"
for s in "${suites[@]}"; do
	sres="$results/$s"
	k=- v=-
	[ ! -f "$logs/$s.kernel" ] || read -r k v <"$logs/$s.kernel"
	b=$(sed -n 's/^boot=//p' "$sres/facts" 2>/dev/null || true)
	vs=$(cat "$sres/vm-seconds" 2>/dev/null || true)
	printf '%-17s %-36s %-16s %-8s %-5s %-6s %s\n' "$s" "$k ($v)" "$(loaded "$sres/modules.tap")" \
		"$(count "$sres/contract.tap")" "${b:--}${b:+s}" "${vs:--}${vs:+s}" "$(smoke "$sres/dumbbell.tap")"
done
for s in "${suites[@]}"; do
	echo "  $s: tc: ${tc_of[$s]:-(no run)}"
done
aqm_log "total: $(($(date +%s) - start)) s"
PYTHONPATH="$AQM_TOP/scripts" "$AQM_VENV/bin/python3" -m aqmtools.tap "$results"
