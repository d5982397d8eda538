#!/usr/bin/env bash
# Runs inside a VM booted from a Debian kernel as the distribution ships it
# (scripts/check-distro.sh, make check-distro), as root: the smoke run of
# the project's modules on that kernel. Every part writes TAP into OUT:
#  - modules.tap: insmod of aqm_lib and the eight qdiscs, built against this
#    kernel's headers (the tree this script is in: check-distro.sh's copy),
#    and our sch_sfb is the one registered (not the kernel's own);
#  - contract.tap: selftests/net/contract.sh;
#  - dumbbell.tap: one short run per qdisc through the 10 Mbit/s netns
#    dumbbell of selftests/net/lib.sh (AQM_DISTRO_SMOKE_SECS, default 4 s,
#    of 4 TCP flows): the flows get through it, tc shows it with our
#    plugin's options, its own counters saw the traffic;
#  - kernel-log.tap: no warning, oops or sanitizer report in the kernel log.
# The tc is the one first on PATH with our plugins in TC_LIB_DIR, as
# check-distro.sh chose them (AQM_TC_DESC says which); OUT/facts keeps the
# kernel, the boot time and the tc for the summary.
#
# Usage: distro-guest.sh OUT SUITE
#        distro-guest.sh --smoke   (the dumbbell runs alone, TAP on stdout)
set -euo pipefail

top=$(cd "$(dirname "$0")/../.." && pwd)

# --- one short dumbbell run per qdisc (run below) ----------------------------
# [NAME:]KIND OPTIONS, as contract.sh sets them up; NAME (default KIND)
# labels the results
SMOKE=(
	"pi limit 200 ecn"
	"rem limit 200 ecn"
	"ared limit 200 ecn"
	"riops limit 200 ecn"
	"dcn limit 200 ecn"
	"afd limit 200 qref 20 ecn"
	"blue limit 200 threshold 100 ecn"
	"sfb limit 200"
	"sfred:sfb limit 200 red"
)

# smoke: TAP on stdout, three results per qdisc, each named "KIND: ...";
# a process of its own (distro-guest.sh --smoke), where set -e holds
smoke() {
	# shellcheck source=selftests/net/lib.sh
	. "$top/selftests/net/lib.sh"
	local entry qd kind name json mbit st red
	tap_plan $((${#SMOKE[@]} * 3))
	dumbbell_setup 20
	for entry in "${SMOKE[@]}"; do
		name=${entry%%[: ]*}
		[ "${entry#"$name":}" = "$entry" ] || entry=${entry#"$name":}
		read -r -a qd <<<"$entry"
		kind=${qd[0]}
		dumbbell_qdisc "${qd[@]}"
		json=$(iperf_run "$secs" 4)
		mbit=$(echo "$json" | json_get 'round(j["end"]["sum_received"]["bits_per_second"] / 1e6, 2)')
		tap_cmp "$name: 4 TCP flows for $secs s through it at 10 Mbit/s, goodput in Mbit/s" "$mbit" ">=" 4
		# "KIND LIMIT PACKETS RED" of the qdisc under test, through our
		# plugin; RED: sfb's red mode on (true) or not (false)
		st=$(bottleneck_stats | json_get '" ".join(str(x).lower() for x in (j[0]["kind"], j[0].get("options", {}).get("limit"), j[0]["packets"], j[0].get("options", {}).get("red", False)))')
		read -r -a st <<<"$st"
		red=false
		[[ " ${qd[*]} " != *" red "* ]] || red=true
		tap_strict tap_result "$([ "${st[0]}" = "$kind" ] && [ "${st[1]}" = 200 ] && [ "${st[3]}" = "$red" ] && echo 0 || echo 1)" \
			"$name: tc shows it with our plugin's options (kind ${st[0]}, limit ${st[1]}, red ${st[3]})"
		tap_strict tap_cmp "$name: its own counters saw the flows (packets sent)" "${st[2]}" ">=" 1000
	done
	tap_exit
}
if [ "${1:-}" = --smoke ]; then
	secs=${AQM_DISTRO_SMOKE_SECS:-4}
	smoke
fi

out=$1
suite=$2
: "${TC_LIB_DIR:?}"
export TC_LIB_DIR
secs=${AQM_DISTRO_SMOKE_SECS:-4}
# seconds from the kernel's start to here
boot=$(awk '{ printf "%d", $1 }' /proc/uptime)

mkdir -p "$out"
tcv=$(tc -V 2>&1 || true)
echo "distro-guest: $suite, kernel $(uname -r), $(nproc) cpus, userspace after $boot s"
echo "distro-guest: tc $(command -v tc): $tcv; ${AQM_TC_DESC:-}"
printf 'kernel=%s\nboot=%s\ntc=%s\n' "$(uname -r)" "$boot" "$tcv" >"$out/facts"

for t in tc ip ping iperf3 ethtool sysctl python3 insmod; do
	command -v "$t" >/dev/null && continue
	echo "distro-guest: $t is missing: run 'make deps' on the host" >&2
	printf '1..1\nnot ok 1 %s: %s is missing in the guest (run make deps)\n' "$suite" "$t" >"$out/tools.tap"
	exit 1
done

# tap FILE N STATUS DESC: append one TAP result line
tap() {
	if [ "$3" -eq 0 ]; then
		echo "ok $2 $4" >>"$1"
	else
		echo "not ok $2 $4" >>"$1"
	fi
}

# since T0: seconds elapsed since T0 (a date +%s)
since() { echo "$(($(date +%s) - $1)) s"; }

# the boot's log, then only what the run adds
dmesg >"$out/boot-dmesg.txt"
dmesg -C

# --- our modules, library first ----------------------------------------------
mods=("$top/net/sched/aqm_lib.ko")
for q in dcn pi rem ared riops afd blue sfb; do
	mods+=("$top/net/sched/sch_$q.ko")
done
f="$out/modules.tap"
echo "1..$((${#mods[@]} + 1))" >"$f"
i=0
for m in "${mods[@]}"; do
	i=$((i + 1))
	rc=0
	insmod "$m" || rc=$?
	tap "$f" "$i" "$rc" "$suite: insmod $(basename "$m") ($(modinfo -F vermagic "$m" 2>/dev/null | cut -d' ' -f1))"
done
# the kernel's own sch_sfb is a module here too: "sfb" must be ours
rc=0
grep -q O /sys/module/sch_sfb/taint 2>/dev/null || rc=1
tap "$f" $((i + 1)) "$rc" "$suite: the sch_sfb loaded is ours (out-of-tree taint), not the kernel's"
echo "distro-guest: modules: $(grep -c '^ok' "$f")/$((i + 1))"

# --- the contract ---------------------------------------------------------------
t0=$(date +%s)
rc=0
timeout 900 bash "$top/selftests/net/contract.sh" >"$out/contract.tap" 2>"$out/contract.err" || rc=$?
if [ "$rc" -ne 0 ] && ! grep -q '^not ok' "$out/contract.tap"; then
	echo "not ok 999 contract.sh exited with status $rc" >>"$out/contract.tap"
fi
echo "distro-guest: contract: $(grep -c '^ok' "$out/contract.tap" || true) ok, $(grep -c '^not ok' "$out/contract.tap" || true) not ok ($(since "$t0"))"
echo "contract=$(since "$t0")" >>"$out/facts"
echo "# tc: $(command -v tc): $tcv; ${AQM_TC_DESC:-}" >>"$out/contract.tap"

t0=$(date +%s)
rc=0
bash "$0" --smoke >"$out/dumbbell.tap" 2>"$out/dumbbell.err" || rc=$?
if [ "$rc" -ne 0 ] && ! grep -q '^not ok' "$out/dumbbell.tap"; then
	echo "not ok 999 the dumbbell runs exited with status $rc" >>"$out/dumbbell.tap"
fi
echo "distro-guest: dumbbell: $(grep -c '^ok' "$out/dumbbell.tap" || true) ok, $(grep -c '^not ok' "$out/dumbbell.tap" || true) not ok ($(since "$t0"))"
grep -E '^(not )?ok' "$out/dumbbell.tap" | sed 's/^/distro-guest:   /'
echo "# tc: $(command -v tc): $tcv; ${AQM_TC_DESC:-}" >>"$out/dumbbell.tap"

# --- the kernel log -------------------------------------------------------------
# shellcheck source=selftests/net/lib.sh
splat_re=$(. "$top/selftests/net/lib.sh" && echo "$KERNEL_SPLAT_RE")
f="$out/kernel-log.tap"
echo "1..1" >"$f"
dmesg >"$out/dmesg.txt"
if grep -qE "$splat_re" "$out/dmesg.txt"; then
	tap "$f" 1 1 "$suite: kernel log has warnings (see dmesg.txt)"
else
	tap "$f" 1 0 "$suite: kernel log clean"
fi
echo "distro-guest: done"
