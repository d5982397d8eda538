#!/usr/bin/env bash
# Runs inside the test VM, as root: loads the modules built from this tree,
# then runs the KUnit suites, the netns selftests and the tc-testing cases.
# Every stage writes TAP or KTAP into OUT; the host summarises them
# (scripts/aqmtools/tap.py). A stage that cannot run writes a failing
# result rather than nothing.
#
# Usage: guest.sh OUT [STAGE...]
#   STAGE: kunit, net, tdc (default: all three), net:NAME for the one
#   selftest selftests/net/NAME.sh, or tdc:NAME for the cases of
#   selftests/tc-tests/NAME.json, or rel (selftests/reliability/*.sh) and
#   rel:NAME.
#
# On the debug kernel (make check-debug: the one with lockdep) the boot is
# judged first, every stage runs alone, none beside tdc, and a kmemleak
# scan follows the module loads, KUnit, tdc and each selftest: one TAP
# result each in kmemleak.tap, the report kept in kmemleak-NAME.txt.
set -euo pipefail

top=$(cd "$(dirname "$0")/../.." && pwd)
out=$1
shift
stages=("$@")
[ ${#stages[@]} -gt 0 ] || stages=(kunit net tdc)
: "${AQM_CACHE:?}"
kdir=${AQM_KDIR:?}
# tc's plugins from a copy on the guest's tmpfs: the checkout is a 9p share
# without a cache, and every tc process opens its plugin (about 11 ms of a
# tc process under TCG, measured 2026-11-27)
TC_LIB_DIR=$(mktemp -d)
cp "$top"/tc/q_*.so "$TC_LIB_DIR/"
export TC_LIB_DIR
export PATH="/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin"

mkdir -p "$out"
echo "guest: $(uname -r), $(nproc) cpus"

# the guest runs the host's programs: name any that is missing (the host's
# scripts/deps.sh installs them; see AQM_TOOLS in scripts/lib/common.sh)
for t in tc ip ping iperf3 ethtool sysctl python3 insmod "$AQM_CACHE/venv/bin/python3"; do
	command -v "$t" >/dev/null && continue
	echo "guest: $t is missing: run 'make deps' on the host" >&2
	printf '1..1\nnot ok 1 %s is missing in the guest (run make deps)\n' "$t" >"$out/tools.tap"
	exit 1
done

# tap FILE N OK DESC: append one TAP result line
tap() {
	local f=$1 n=$2 ok=$3 desc=$4
	if [ "$ok" -eq 0 ]; then
		echo "ok $n $desc" >>"$f"
	else
		echo "not ok $n $desc" >>"$f"
	fi
}

mountpoint -q /sys/kernel/debug || mount -t debugfs none /sys/kernel/debug

# the debug kernel of make check-debug: lockdep, KASAN, kmemleak
debug=0
[ -r /proc/lockdep_stats ] && debug=1
# debug_locks: 1 while lock debugging is on; a report turns it off
debug_locks() { awk '/debug_locks:/ { print $2 }' /proc/lockdep_stats; }

# what in the kernel log fails a run: warnings, oopses, sanitizer and
# lockdep reports, leaks, stalls
splat_re='BUG:|WARNING:|Oops|general protection|UBSAN|KASAN|suspected memory leak|list_del corruption|RCU stall|INFO: task|INFO: rcu|soft lockup|lock held when returning|possible circular locking|inconsistent lock state'

# The boot, before any module of ours. On the debug kernel a report there
# turns lock debugging off for the whole run ("Disabling lock debugging
# due to kernel taint"), which would then prove nothing about locking: in
# the emulated VM an early interrupt has drawn a KASAN report from the
# kernel itself (1 boot in 2 on one day). The guest says so and stops;
# check.sh boots again. Only the debug kernel (it has lockdep) is judged
# on its boot.
if [ "$debug" -eq 1 ]; then
	dmesg >"$out/boot-dmesg.txt"
	locks=$(debug_locks)
	if grep -qE "$splat_re" "$out/boot-dmesg.txt" || [ "$locks" != 1 ]; then
		printf '1..1\nnot ok 1 the kernel booted with a report in its log, debug_locks %s (boot-dmesg.txt)\n' \
			"$locks" >"$out/boot.tap"
		echo "guest: boot-splat"
		exit 75
	fi
	printf '1..1\nok 1 the kernel booted with a clean log, lock debugging on\n' >"$out/boot.tap"
fi
dmesg -C

# --- kmemleak, on the debug kernel -----------------------------------------
kml=/sys/kernel/debug/kmemleak
if [ "$debug" -eq 1 ] && [ -w "$kml" ]; then
	# what boot left unreferenced is not ours
	echo scan >"$kml"
	echo clear >"$kml"
fi
km_n=0
# kmemleak_after NAME: scan for objects leaked by NAME's tests (an object
# is reported once it is 5 s old and unreferenced in two scans), record
# one TAP line, then forget them so that the next scan blames the next
# stage only
kmemleak_after() {
	[ "$debug" -eq 1 ] || return 0
	local report
	km_n=$((km_n + 1))
	# kmemleak turns itself off after an error of its own
	if [ ! -w "$kml" ]; then
		echo "not ok $km_n kmemleak after $1: kmemleak is off (see dmesg.txt)" >>"$out/kmemleak.lines"
		return 0
	fi
	sleep 5
	echo scan >"$kml"
	echo scan >"$kml"
	report=$(cat "$kml")
	if [ -n "$report" ]; then
		printf '%s\n' "$report" >"$out/kmemleak-$1.txt"
		echo "not ok $km_n kmemleak after $1: $(grep -c '^unreferenced object' <<<"$report") objects (kmemleak-$1.txt)" >>"$out/kmemleak.lines"
	else
		echo "ok $km_n kmemleak after $1: nothing leaked" >>"$out/kmemleak.lines"
	fi
	echo clear >"$kml"
}

# --- load the project's modules (library first) ---------------------------
mods=()
[ -f "$top/net/sched/aqm_lib.ko" ] && mods+=("$top/net/sched/aqm_lib.ko")
for m in "$top"/net/sched/sch_*.ko; do
	[ -f "$m" ] && mods+=("$m")
done
f="$out/modules.tap"
echo "1..${#mods[@]}" >"$f"
n=0
for m in "${mods[@]}"; do
	n=$((n + 1))
	rc=0
	insmod "$m" || rc=$?
	tap "$f" "$n" "$rc" "insmod $(basename "$m")"
done
kmemleak_after modules

has_stage() {
	local s
	for s in "${stages[@]}"; do
		[ "$s" = "$1" ] && return 0
	done
	return 1
}

# net_selected NAME: the net stage, or net:NAME, was asked for
net_selected() {
	has_stage net || has_stage "net:$1"
}

# since T0: seconds elapsed since T0 (a date +%s)
since() { echo "$(($(date +%s) - $1)) s"; }

# cpu_ticks: "busy total" jiffies of all CPUs so far (/proc/stat; idle and
# iowait are not busy)
cpu_ticks() {
	awk '$1 == "cpu" { t = 0; for (i = 2; i <= NF; i++) t += $i
		print t - $5 - $6, t }' /proc/stat
}

# cpu_busy TICKS: the share of the VM's CPUs busy since TICKS (a cpu_ticks),
# in percent: with tests in lanes it counts every lane's
cpu_busy() {
	local b0 t0 b1 t1
	read -r b0 t0 <<<"$1"
	read -r b1 t1 <<<"$(cpu_ticks)"
	awk -v b="$((b1 - b0))" -v t="$((t1 - t0))" 'BEGIN { printf "%d%%", (t > 0 ? 100 * b / t : 0) }'
}

# --- KUnit: each test module runs its suites when loaded ------------------
if has_stage kunit; then
	t0=$(date +%s)
	tests=("$top"/selftests/kunit/*.ko)
	f="$out/kunit-load.tap"
	echo "1..${#tests[@]}" >"$f"
	n=0
	for m in "${tests[@]}"; do
		n=$((n + 1))
		rc=0
		[ -f "$m" ] && insmod "$m" || rc=1
		tap "$f" "$n" "$rc" "insmod $(basename "$m")"
	done
	for r in /sys/kernel/debug/kunit/*/results; do
		[ -f "$r" ] || continue
		suite=$(basename "$(dirname "$r")")
		cat "$r" >"$out/kunit-$suite.ktap"
		echo "kunit: $suite: $(grep -cE '^\s+ok ' "$r") ok, $(grep -cE '^\s+not ok ' "$r") not ok"
	done
	echo "kunit: all suites in $(since "$t0")"
	kmemleak_after kunit
fi

# --- netns selftests and the reliability suite: each script prints TAP ----
# marked NAME MARK: selftests/net/NAME.sh has the line "# aqm-selftest: MARK"
marked() {
	grep -qx "# aqm-selftest: $2" "$top/selftests/net/$1.sh"
}

# run_tests KIND NAME...: selftests/net/NAME.sh (KIND net) or
# selftests/reliability/NAME.sh (KIND rel), one after the other
run_tests() {
	local kind=$1 dir name t0 c0 rc limit slow
	shift
	dir=net
	# a hung test's limit: the reliability suite's parts run 5 qdiscs
	# each on the debug kernel (the soak 10 minutes each)
	limit=${AQM_TEST_TIMEOUT:-600}
	if [ "$kind" != net ]; then
		dir=reliability
		limit=${AQM_TEST_TIMEOUT:-5400}
	fi
	for name in "$@"; do
		t0=$(date +%s)
		c0=$(cpu_ticks)
		rc=0
		# the debug kernel is a slow machine for a selftest that
		# measures: its missed bounds are expected failures (lib.sh)
		slow=no
		if [ "$debug" -eq 1 ] && [ "$kind" = net ] && ! marked "$name" beside-tdc; then
			slow=yes
		fi
		KSFT_MACHINE_SLOW=$slow timeout "$limit" bash "$top/selftests/$dir/$name.sh" \
			>"$out/$kind-$name.tap" 2>"$out/$kind-$name.err" || rc=$?
		# a failing status needs a failing result (not an expected one)
		if [ "$rc" -ne 0 ] && ! awk '/^not ok/ && !/# TODO/ { f = 1 } END { exit !f }' \
			"$out/$kind-$name.tap"; then
			echo "not ok 999 $name exited with status $rc" >>"$out/$kind-$name.tap"
		fi
		echo "$kind: $name ($(since "$t0"), CPUs $(cpu_busy "$c0") busy)"
		tail -n 3 "$out/$kind-$name.err" || true
		kmemleak_after "$kind-$name"
	done
}

# A selftest whose file has the line "# aqm-selftest: beside-tdc" measures no
# rate or delay (its bounds do not depend on how fast the VM runs): those
# run first, while tdc runs beside them on the other CPU; the ones that
# measure run afterwards, in lanes (below), except those marked
# "# aqm-selftest: alone", whose bounds need the whole VM: they run last,
# one at a time. One marked "# aqm-selftest: long" runs
# only when named (net:NAME), never in the whole net stage of make check.
# Those marked "# aqm-selftest: early" (the longest, about 2 minutes) head
# the measuring queue, so that no lane starts one of them last.
beside=()
measure=()
early=()
alone=()
for t in "$top"/selftests/net/*.sh; do
	name=$(basename "$t" .sh)
	if [ "$name" = lib ] || ! net_selected "$name"; then
		continue
	fi
	if marked "$name" long && ! has_stage "net:$name"; then
		continue
	fi
	if marked "$name" beside-tdc; then
		beside+=("$name")
	elif marked "$name" alone; then
		alone+=("$name")
	elif marked "$name" early; then
		early+=("$name")
	else
		measure+=("$name")
	fi
done
measure=("${early[@]}" "${measure[@]}")
rel=()
for t in "$top"/selftests/reliability/*.sh; do
	[ -f "$t" ] || continue
	name=$(basename "$t" .sh)
	if has_stage rel || has_stage "rel:$name"; then
		rel+=("$name")
	fi
done

# --- tc-testing: the kernel's tdc.py runs our JSON cases -----------------
# run_tdc CASEFILE...
run_tdc() {
	local t0 c0 work rc
	t0=$(date +%s)
	c0=$(cpu_ticks)
	work=$(mktemp -d)
	cp -r "$kdir/tools/testing/selftests/tc-testing/." "$work/"
	# our lighter per-case namespace (selftests/tc-tests/nsPlugin.py: no
	# veth pair, tc -n): 177 cases in 119 s against 164 s with the
	# kernel's, which AQM_TDC_NSPLUGIN=kernel keeps
	if [ "${AQM_TDC_NSPLUGIN:-ours}" != kernel ]; then
		cp "$top/selftests/tc-tests/nsPlugin.py" "$work/plugin-lib/nsPlugin.py"
	fi
	cat >"$work/tdc_config_local.py" <<-PY
		NAMES = {'TC': '$(command -v tc)', 'IP': '$(command -v ip)',
		         'DEV0': 'v0p0', 'DEV1': 'v0p1', 'DEV2': '',
		         'DUMMY': 'dummy1', 'ETH': 'eth0',
		         'BATCH_FILE': './batch.txt', 'BATCH_DIR': 'tmp',
		         'TIMEOUT': 24, 'NS': 'tcut', 'EBPFDIR': './'}
		# tdc runs every command with exactly this environment (the
		# raw-netlink cases are selftests/net/nlpolicy.sh, in one process)
		ENVIR = {'TC_LIB_DIR': '$TC_LIB_DIR', 'PATH': '$PATH'}
	PY
	rc=0
	# two cases per CPU (AQM_TDC_JOBS): each waits on tc and ip processes
	# as much as it computes (146 cases: 117 s with -J 2, 100 s with -J 4
	# on 2 CPUs; 641 cases: 483 s with -J 4 at 77% of the CPUs busy, 557 s
	# with -J 6 at 79%, the selftests beside it slower too)
	# in a mount namespace of its own, with its own /run/netns: tdc ends
	# with "ip -a netns del", which would delete the namespaces of the
	# selftests running beside it
	rm -f "$out/tdc-times.txt"
	(cd "$work" && AQM_TDC_TIMES="$out/tdc-times.txt" unshare -m --propagation private sh -c \
		'mkdir -p /run/netns && mount -t tmpfs tdc-netns /run/netns && exec "$@"' sh \
		"$AQM_CACHE/venv/bin/python3" ./tdc.py -J "${AQM_TDC_JOBS:-$((2 * $(nproc)))}" -f "$@") \
		>"$out/tdc.tap" 2>"$out/tdc.err" || rc=$?
	echo "tdc: $(grep -c '^ok' "$out/tdc.tap" || true) ok, $(grep -c '^not ok' "$out/tdc.tap" || true) not ok ($(since "$t0"), CPUs $(cpu_busy "$c0") busy)"
	# where the time went (nsPlugin's lines: id, namespace made, the
	# case's own stages, namespace deleted; seconds, summed over workers)
	[ ! -s "$out/tdc-times.txt" ] || awk '{ n++; a += $2; b += $3; c += $4 }
		END { printf "tdc: %d cases, per case %.3f s namespace, %.3f s the case, %.3f s deletion (sums %.0f / %.0f / %.0f s)\n",
			n, a / n, b / n, c / n, a, b, c }' "$out/tdc-times.txt"
	if [ "$rc" -ne 0 ] && ! grep -q '^not ok' "$out/tdc.tap"; then
		echo "not ok 999 tdc.py exited with status $rc" >>"$out/tdc.tap"
	fi
	rm -rf "$work"
}

cases=()
for s in "${stages[@]}"; do
	[ "${s#tdc:}" = "$s" ] || cases+=("$top/selftests/tc-tests/${s#tdc:}.json")
done
has_stage tdc && cases=("$top"/selftests/tc-tests/*.json)

# --- run them: tdc beside the selftests that allow it, then lanes ----------
# The selftests that measure do not need the whole VM: each drives 10
# Mbit/s or less, and most of its time is traffic of a fixed length. So
# they run AQM_NET_LANES (default 2) at a time once tdc is done. Two
# queues, each selftest taken once: the beside-tdc ones, then those that
# measure. The first lane starts on the beside-tdc queue while tdc runs
# in the second; each lane, once free, takes from the beside-tdc queue
# first, and from the other only after tdc is done, when the lanes past
# the second start too. With two lanes the measuring selftests kept 24-50%
# of the VM's two CPUs busy (make checks of 2026-11-26). Three kept them
# 75-87% busy on a slower machine, where 7 of the 13 measuring selftests
# then failed 11 bounds between them (make check of 2026-11-28, 16:23:
# afd's and afd-unresponsive's UDP shares, ared's samples and idle
# average, dcn's measured departure rate 6,984 packets/s on a 10 Mbit/s
# link, pi's bytemode switch missed by its sampler), so two is the
# default. 1 runs everything one after the other beside tdc as before.
# On the debug kernel every
# stage runs alone, so that a leak or a splat has one owner.
qdir=$(mktemp -d)
printf '%s\n' "${beside[@]}" >"$qdir/beside"
printf '%s\n' "${measure[@]}" >"$qdir/measure"
echo 0 >"$qdir/beside.next"
echo 0 >"$qdir/measure.next"
# lane QUEUE: the queue's next selftest, until none is left
lane() {
	local q=$qdir/$1 i name
	while :; do
		# shellcheck disable=SC2016 # the inner shell expands them
		i=$(flock "$q.next" sh -c 'read -r i <"$1"; echo $((i + 1)) >"$1"; echo "$i"' \
			sh "$q.next")
		name=$(sed -n "$((i + 1))p" "$q")
		[ -n "$name" ] || return 0
		run_tests net "$name"
	done
}
lanes=${AQM_NET_LANES:-2}
if [ "$debug" -eq 1 ]; then
	if [ ${#cases[@]} -gt 0 ]; then
		run_tdc "${cases[@]}"
		kmemleak_after tdc
	fi
	run_tests net "${beside[@]}" "${measure[@]}" "${alone[@]}"
else
	(
		[ ${#cases[@]} -eq 0 ] || run_tdc "${cases[@]}"
		touch "$qdir/tdc-done"
		if [ "$lanes" -ge 2 ]; then
			lane beside
			lane measure
		fi
	) &
	second=$!
	lane beside
	# no selftest that measures runs beside tdc
	if [ "$lanes" -lt 2 ]; then
		wait "$second" || true
	fi
	while [ ! -e "$qdir/tdc-done" ]; do
		sleep 1
	done
	extra=()
	for ((k = 2; k < lanes; k++)); do
		lane measure &
		extra+=($!)
	done
	lane measure
	wait "$second" "${extra[@]}" || true
	if [ "$lanes" -ge 2 ] && [ ${#measure[@]} -gt 0 ]; then
		echo "net: the measuring selftests ran $lanes at a time"
	fi
	run_tests net "${alone[@]}"
fi
rm -rf "$qdir"
run_tests rel "${rel[@]}"

if [ "$debug" -eq 1 ]; then
	{ echo "1..$km_n"; cat "$out/kmemleak.lines" 2>/dev/null || true; } >"$out/kmemleak.tap"
	rm -f "$out/kmemleak.lines"
fi

# --- the kernel log must be clean of warnings, oopses and leaks ----------
f="$out/kernel-log.tap"
echo "1..1" >"$f"
dmesg >"$out/dmesg.txt"
if grep -qE "$splat_re" "$out/dmesg.txt"; then
	tap "$f" 1 1 "kernel log has warnings (see dmesg.txt)"
elif [ "$debug" -eq 1 ] && [ "$(debug_locks)" != 1 ]; then
	tap "$f" 1 1 "lock debugging was turned off during the run (see dmesg.txt)"
else
	tap "$f" 1 0 "kernel log clean"
fi
echo "guest: done"
