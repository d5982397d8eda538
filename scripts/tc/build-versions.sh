#!/usr/bin/env bash
# make check's "tc plugins build against iproute2 6.1, 6.15 and 7.x": the
# plugins built (warnings as errors, as tc/Makefile builds them) against
# iproute2 as Debian ships it in each SUITE (scripts/tc/iproute2-versions.sh:
# bookworm 6.1, trixie 6.15, sid the newest), then run by that version's
# tc: the installed one when it is that version, else one built from the
# same source. With each tc, and no kernel module:
#  - `tc qdisc add dev lo root KIND help` prints our q_KIND.c's usage and
#    exits 1, for every KIND of tc/q_*.c (sfb: ours, not the built-in);
#  - `KIND limit 1000` gets through the plugin to the kernel, which refuses
#    it ("Operation not permitted", exit 2): tc runs in a user namespace of
#    its own (unshare -r), without CAP_NET_ADMIN over the host's network,
#    so that nothing changes there; `KIND nosuchword` gets the plugin's
#    "What is" and exit 1;
#  - scripts/tests/test_q_sfb_kernel.py: q_sfb refuses our options unless
#    a (fake) /sys says the kernel's sch_sfb is ours.
#
# Usage: build-versions.sh [SUITE...]   (default: bookworm trixie sid)
# Exits 77 (skipped) when a suite's source cannot be had here and nothing
# failed: see iproute2-versions.sh; AQM_IPROUTE2_SRC_<SUITE> then names a
# tree to build against instead.
# Plugins in build/tc-versions/<version>/; the tc builds (and their logs)
# in $AQM_CACHE/iproute2-tc/<version>/, reused while their source is.
set -euo pipefail
# shellcheck source=scripts/lib/common.sh
. "$(dirname "$0")/../lib/common.sh"

suites=("$@")
[ ${#suites[@]} -gt 0 ] || suites=(bookworm trixie sid)
installed=$(dpkg-query -W -f '${Version}' iproute2 2>/dev/null || true)
cd "$AQM_TOP"

# through the plugin to the kernel: unprivileged there, root only in a
# user namespace (where the host's network is not ours to change)
send=()
if unshare -r true 2>/dev/null; then
	send=(unshare -r)
elif [ "$(id -u)" -eq 0 ]; then
	send=(skip)
fi

# tc_for VERSION SRC: the tc binary of that version
tc_for() {
	local v=$1 src=$2 w="$AQM_CACHE/iproute2-tc/$1"
	if [ "$v" = "$installed" ]; then
		command -v tc
		return
	fi
	if [ ! -x "$w/tc/tc" ] || [ "$(cat "$w/.src" 2>/dev/null)" != "$src" ]; then
		rm -rf "$w"
		mkdir -p "$(dirname "$w")"
		cp -a "$src" "$w"
		echo "building tc $v from $src (log: $w/build.log)" >&2
		(cd "$w" && ./configure >build.log 2>&1 &&
			make -j2 SUBDIRS="lib tc" >>build.log 2>&1) || {
			echo "tc $v: build failed, see $w/build.log" >&2
			return 1
		}
		echo "$src" >"$w/.src"
	fi
	echo "$w/tc/tc"
}

# check_tc TC PLUGINS: what that tc does with the plugins
check_tc() {
	local tc=$1 lib=$2 f k usage out rc bad=0
	for f in tc/q_*.c; do
		k=$(basename "$f" .c)
		k=${k#q_}
		usage=$(grep -o -m1 "Usage: \.\.\. $k [^\\\"]*" "$f")
		rc=0
		out=$(TC_LIB_DIR=$lib "$tc" qdisc add dev lo root "$k" help 2>&1) || rc=$?
		if [ "$rc" -ne 1 ] || ! grep -qF -- "$usage" <<<"$out"; then
			echo "$k help: status $rc, not our usage: $out"
			bad=1
		fi
		rc=0
		out=$(TC_LIB_DIR=$lib "$tc" qdisc add dev lo root "$k" nosuchword 2>&1) || rc=$?
		if [ "$rc" -ne 1 ] || ! grep -qF 'What is "nosuchword"?' <<<"$out"; then
			echo "$k nosuchword: status $rc: $out"
			bad=1
		fi
		[ "${send[*]}" != skip ] || continue
		rc=0
		out=$(TC_LIB_DIR=$lib "${send[@]}" "$tc" qdisc add dev lo root "$k" limit 1000 2>&1) || rc=$?
		if [ "$rc" -ne 2 ] || [ "$out" != "RTNETLINK answers: Operation not permitted" ]; then
			echo "$k limit 1000: status $rc, not the kernel's refusal: $out"
			bad=1
		fi
	done
	[ "${send[*]}" != skip ] ||
		echo "no user namespace and root: the requests to the kernel were not checked"
	AQM_TEST_TC=$tc AQM_TEST_TC_LIB_DIR=$lib PYTHONPATH="$AQM_TOP/scripts" \
		"$AQM_VENV/bin/pytest" -q -p no:cacheprovider scripts/tests/test_q_sfb_kernel.py ||
		bad=1
	return "$bad"
}

fail=0
skipped=0
summary=()
for s in "${suites[@]}"; do
	rc=0
	line=$("$AQM_TOP/scripts/tc/iproute2-versions.sh" "$s") || rc=$?
	if [ "$rc" -eq 3 ]; then
		summary+=("$s: SKIP: iproute2's source for $s cannot be had from the archive here (see the log above)")
		skipped=1
		continue
	elif [ "$rc" -ne 0 ]; then
		summary+=("$s: no iproute2 source")
		fail=1
		continue
	fi
	read -r _ v src <<<"$line"
	out="$AQM_TOP/build/tc-versions/$v"
	[ "$(cat "$out/.src" 2>/dev/null)" = "$src" ] || rm -rf "$out"
	mkdir -p "$out"
	echo "$src" >"$out/.src"
	echo "== $s: iproute2 $v ($src), compat: $(make -s -C tc IPROUTE2_SRC="$src" compat-flags)"
	if ! make -s -C tc -j2 IPROUTE2_SRC="$src" O="$out"; then
		summary+=("$s $v: the plugins do not build")
		fail=1
		continue
	fi
	if ! tc=$(tc_for "$v" "$src"); then
		summary+=("$s $v: plugins built; tc $v does not build")
		fail=1
		continue
	fi
	echo "tc: $tc ($("$tc" -V))"
	if check_tc "$tc" "$out"; then
		summary+=("$s $v: plugins built, run by $tc")
	else
		summary+=("$s $v: plugins built, FAILED with $tc")
		fail=1
	fi
done
printf '%s\n' "${summary[@]}"
# 77: skipped (check.sh's step reports it as a TAP SKIP), only when
# nothing failed
[ "$fail" -ne 0 ] || [ "$skipped" -eq 0 ] || exit 77
exit "$fail"
