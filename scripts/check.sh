#!/usr/bin/env bash
# make check: the whole linux-aqm test suite.
#
#  1. dependencies (scripts/deps.sh) and the cached test kernel
#  2. host steps, each one TAP result: modules against the test kernel with
#     W=1 and sparse (C=2), no writable global in them, modules against the
#     Debian kernels' headers
#     (bookworm, trixie, trixie-backports), tc plugins, checkpatch
#     --strict, shellcheck, ruff, mypy, pytest
#  3. the VM: insmod, KUnit, netns selftests, tc-testing (selftests/vm/guest.sh)
#  4. one summary of every result, ending in 'N passed, N failed, N skipped'
#
# Usage: check.sh [--lint-only] [--no-vm] [--debug] [STAGE...]
#   STAGE is passed to the guest (kunit net tdc rel); default kunit net
#   tdc, and with --debug all four.
#   --debug (make check-debug): the VM boots the debug variant of the test
#   kernel (KASAN, lockdep, kmemleak, UBSAN, fault injection), every
#   stage runs alone with a kmemleak scan after it, and the reliability
#   suite (selftests/reliability) runs too; results in build/results-debug,
#   or build/results-debug-PART for named stages (rel:soak: -rel-soak).
# Exit status: 0 only when every result passed.
set -euo pipefail
# shellcheck source=scripts/lib/common.sh
. "$(dirname "$0")/lib/common.sh"

lint_only=0
vm=1
stages=()
for a in "$@"; do
	case "$a" in
	--lint-only) lint_only=1; vm=0 ;;
	--no-vm) vm=0 ;;
	--debug) export AQM_KVARIANT=debug ;;
	*) stages+=("$a") ;;
	esac
done

cd "$AQM_TOP"
start=$(date +%s)
"$AQM_TOP/scripts/deps.sh" --deb-src
venv="$AQM_VENV/bin"
[ "$lint_only" -eq 1 ] || "$AQM_TOP/scripts/kernel/vmkernel.sh"
vmkdir=$("$AQM_TOP/scripts/kernel/vmkernel.sh" --print-kdir)

results="$AQM_TOP/build/results${AQM_KVARIANT:+-$AQM_KVARIANT}"
logs="$AQM_TOP/build/logs${AQM_KVARIANT:+-$AQM_KVARIANT}"
vm_timeout=2400
# the guest's root (the host's, over 9p) with a cache: every process the
# tests start reads its binary and libraries through it, and without one
# each exec goes back to the host (tdc:afd tdc:pi under TCG: 83-90 s
# without, 64-72 s with, 2026-11-27). The checkout and the cache are
# shares of their own, mounted without one, so the guest sees what the
# host steps beside it build. The benchmarks keep virtme-ng's mount, as
# their published figures were measured with it.
export AQM_VM_ROOT_CACHE=${AQM_VM_ROOT_CACHE-loose}
if [ "${AQM_KVARIANT:-}" = debug ]; then
	# a part of the run (named stages) keeps its results beside the
	# others': a run split into boots is reported from all of them
	# (scripts/aqmtools/reliability_report.py)
	if [ ${#stages[@]} -gt 0 ]; then
		part=$(echo "${stages[*]}" | tr ' :' '_-')
		results="$results-$part"
		logs="$logs-$part"
	fi
	[ ${#stages[@]} -gt 0 ] || stages=(kunit net tdc rel)
	vm_timeout=14400
fi
rm -rf "$results" "$logs"
mkdir -p "$results" "$logs"
host="$results/host.tap"
n=0

# step NAME CMD...: aqm_step (scripts/lib/common.sh), a failure recorded
# and the run going on
step() {
	aqm_step "$@" || true
}

kernel_c() {
	git ls-files -co --exclude-standard -- 'net/sched/*.c' 'net/sched/*.h' \
		'include/net/*.h' 'include/uapi/linux/*.h' 'selftests/kunit/*.[ch]'
}

# The Debian kernels the modules build against (W=1, build only), a step
# each: Debian 12's, Debian 13's and the newest, trixie-backports'. The
# suite's default kernel headers are fetched and extracted, never installed,
# and built against with the suite's own compiler (in a build root of it
# when it is not the host's release): scripts/kernel/distro-headers.sh.
distro_suites=(bookworm trixie trixie-backports)

# build_distro SUITE: in a copy of the tree
build_distro() {
	local dir="$AQM_CACHE/build-$1"
	rm -rf "$dir"
	mkdir -p "$dir"
	git ls-files -co --exclude-standard | tar -cf - -T - | tar -xf - -C "$dir"
	"$AQM_TOP/scripts/kernel/distro-headers.sh" --make --headers-only "$1" -- \
		M="$dir" W=1 modules
}

# CAMELCASE: the kernel's own struct Qdisc and Qdisc_ops, as upstream.
# include/net/aqm_compat.h is the one place of the LINUX_VERSION_CODE
# tests, written in the kernel's idiom (LINUX_VERSION_CODE >= ...).
checkpatch() {
	local rc=0 f ign
	for f in $(kernel_c); do
		ign=FILE_PATH_CHANGES,SPDX_LICENSE_TAG,CAMELCASE
		[ "$f" != include/net/aqm_compat.h ] ||
			ign+=,LINUX_VERSION_CODE,CONSTANT_COMPARISON
		"$vmkdir/scripts/checkpatch.pl" --strict --no-tree --terse \
			--ignore "$ign" -f "$f" || rc=1
	done
	return "$rc"
}

# groff prints a warning for every man page problem; none may appear
man_pages() {
	local f out rc=0
	for f in tc/*.8 scripts/bench/*.1; do
		out=$(groff -man -ww -z "$f" 2>&1)
		[ -z "$out" ] || { echo "$f: $out"; rc=1; }
	done
	return "$rc"
}

shell_scripts() {
	git ls-files -co --exclude-standard -- '*.sh' '.ci/run'
}

pytest_tap() {
	"$venv/pytest" -q -p no:cacheprovider --junitxml="$logs/pytest.xml" || true
	"$venv/python3" -m aqmtools.junit "$logs/pytest.xml" >"$results/pytest.tap"
}

# run_vm: boot the test VM and run the guest's stages
run_vm() {
	local t0 rc boot v genv=""
	t0=$(date +%s)
	# the guest does not inherit this environment: the knobs of the
	# selftests and the reliability suite go in by name when set
	for v in AQM_FUZZ_N AQM_FUZZ_SEED AQM_SOAK_SECS AQM_HOSTILE_N AQM_HOSTILE_FLOWS \
		AQM_TEST_TIMEOUT AQM_NET_LANES AQM_TDC_JOBS AQM_TDC_NSPLUGIN; do
		[ -z "${!v:-}" ] || genv+="$v=$(printf %q "${!v}") "
	done
	# a boot whose own log has a report (guest.sh: boot-splat) is booted
	# again, twice at most. The kernel's console (and the guest's stderr)
	# goes to vm-console.log: a crash that stops the VM leaves its Oops
	# there and nowhere else
	for boot in 1 2 3; do
		rc=0
		"$AQM_TOP/scripts/vm/run.sh" --console --timeout "$vm_timeout" --rwdir "$results" -- \
			"${genv}AQM_CACHE='$AQM_CACHE' AQM_KDIR='$vmkdir' bash '$AQM_TOP/selftests/vm/guest.sh' '$results' ${stages[*]}" \
			>"$logs/vm.log" 2>"$logs/vm-console.log" || rc=$?
		grep -q '^guest: boot-splat' "$logs/vm.log" || break
		cp "$logs/vm.log" "$logs/vm-boot$boot.log"
		cp "$logs/vm-console.log" "$logs/vm-console-boot$boot.log"
		aqm_log "boot $boot: the kernel's log had a report before any test ($logs/vm-boot$boot.log)"
	done
	grep -E '^(guest|kunit|net|tdc|rel):' "$logs/vm.log" || true
	if [ "$rc" -ne 0 ] || ! grep -q '^guest: done' "$logs/vm.log"; then
		printf '1..1\nnot ok 1 VM run (status %s, logs %s/vm.log, vm-console.log)\n' \
			"$rc" "${logs#"$AQM_TOP/"}" >"$results/vm.tap"
		tail -n 30 "$logs/vm.log" >&2
		# a crash that stops the VM (status 255: the guest gave none)
		# leaves its Oops on the console only: its first report, and
		# the console's last lines
		echo "--- the guest kernel's console (${logs#"$AQM_TOP/"}/vm-console.log):" >&2
		awk '/^\[ *[0-9]+\.[0-9]+\] .*(BUG:|Oops|general protection|Kernel panic|WARNING:|KASAN|UBSAN)/ && !n { n = 1 }
			n && n++ <= 40' "$logs/vm-console.log" >&2
		tail -n 20 "$logs/vm-console.log" >&2
	fi
	aqm_log "VM stages: $(($(date +%s) - t0)) s"
}

echo "1..$([ "$lint_only" -eq 1 ] && echo 6 || echo $((15 + ${#distro_suites[@]})))" >"$host"
if [ "$lint_only" -eq 0 ]; then
	step "modules build against the test kernel (W=1, sparse)" \
		make -C "$vmkdir" M="$AQM_TOP" W=1 C=2 modules
	step "modules hold no writable global of their own (instances share nothing)" \
		"$AQM_TOP/scripts/kernel/module-globals.sh"
	step "tc plugins build" make tc
	for suite in bookworm trixie sid; do
		step "tc plugins build and run against $suite's iproute2" \
			"$AQM_TOP/scripts/tc/build-versions.sh" "$suite"
	done
	step "tc built from iproute2 source with the plugins linked in" \
		"$AQM_TOP/scripts/tc/build-linked-tc.sh"
	step "benchmark programs (webgen, aqmstat) build" make -C scripts/bench all aqmstat-asan
	step "make install: depmod ranks our sch_sfb above the kernel's" \
		"$AQM_TOP/scripts/install-check.sh" "$vmkdir"
fi
# the VM's run, in the background from the moment the tree holds what it
# loads (the modules, the plugins, the benchmark programs) while the host's
# remaining steps run: those only read the tree (the distribution builds
# work in copies), and the VM begins with stages that measure no rate or delay
# (KUnit, tdc and the beside-tdc selftests), which sharing the CPUs only
# slows down
vm_pid=""
if [ "$vm" -eq 1 ]; then
	run_vm &
	vm_pid=$!
fi
if [ "$lint_only" -eq 0 ]; then
	for s in "${distro_suites[@]}"; do
		step "modules build against Debian $s linux-headers" build_distro "$s"
	done
fi
step "man pages (groff -ww)" man_pages
step "checkpatch --strict" checkpatch
# shellcheck disable=SC2046
step "shellcheck" shellcheck -x $(shell_scripts)
step "ruff" sh -c "'$venv/ruff' check scripts selftests && '$venv/ruff' format --check scripts selftests"
step "mypy --strict" "$venv/mypy"
export PYTHONPATH="$AQM_TOP/scripts"
step "pytest (host tooling)" pytest_tap

if [ -n "$vm_pid" ]; then
	wait "$vm_pid" || true
fi

aqm_log "total: $(($(date +%s) - start)) s"
"$venv/python3" -m aqmtools.tap "$results"
