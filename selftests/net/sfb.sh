#!/usr/bin/env bash
# sch_sfb (Stochastic Fair BLUE, section IV of Feng et al.) under real
# traffic through the 10 Mbit/s, 40 ms dumbbell, against Linux's own sfb.
#
# 1. Linux's mix of the issue: one UDP flow at twice the bottleneck rate
#    (20 Mbit/s) and 8 TCP flows, through our sfb and then through Linux's
#    (its module from the test kernel, loaded in place of ours for the
#    run), both with tc's defaults. Both hold the UDP flow with early drops
#    at p_min just below 1, not with the penalty: with 8 flows the queue is
#    short, a bin rarely holds `target` packets, and p_min reaches 1 only
#    for moments (measured in two runs, ours / Linux's: UDP 1.55-1.77 /
#    1.59-1.65 Mbit/s, TCP 8.8-9.0 / 8.9-9.0 Mbit/s, 17000-18000 early
#    drops each, 0-315 penalty drops).
#    Checked: TCP keeps 80% of the link under both, the UDP flow stays
#    under twice a ninth of the link, and ours is within 35% (UDP) and 10%
#    (TCP) of Linux's: the defaults behave as Linux's sfb. The Linux half
#    runs with AQM_SFB_LINUX=1 only (selftests/net/sfb-linux.sh, outside
#    make check's budget); make check runs ours alone and skips it.
# 2. The paper's regime, many flows per bin: the UDP flow and 32 TCP flows.
#    The queue stands (about 400 packets), the UDP flow's bins reach
#    p_m = 1 at every level within 3 to 6 s, and from then on it passes
#    only through the penalty, penalty_rate 10 packets/s = 117760 bit/s of
#    1472-byte datagrams (Fig. 15/16). The moving hash every 8 s (rehash
#    8000) is run two ways, 20 s each, the UDP flow's received rate read
#    per second from the iperf3 server:
#    - db 0, no double buffering: after each switch the bins start clean
#      and the flow escapes until they are polluted again (measured 0.47 to
#      0.66 Mbit/s in the second after a switch, at 8 and 16 s);
#    - db 4000 with warm_raise (IV-D: a penalized arrival raises its bins
#      of the set being warmed): held at the penalty rate across every
#      switch (0.11 to 0.14 Mbit/s in the seconds between the switches);
#    (Linux's warm-up rule, db 4000 without warm_raise, escapes as db 0
#    does: its standby bins count only the penalized flow's admitted
#    packets, about none, and never reach `target`; measured 0.54 and 0.58
#    Mbit/s after the switches. Not run here, to keep make check within
#    its budget; tc-sfb.8 has the figures.)
#    A flow held by the penalty gets, in any 3 s, at most what the token
#    bucket allows: 3 s of the rate plus its burst of 20 packets, 0.589
#    Mbit. The bucket fills while the flow sends it little (seconds in
#    which its packets meet a bin at `max` first), and then empties at the
#    switch: 0.41-0.46 Mbit/s in that one second, 1.08-1.12 x the 3 s
#    allowance in the window (3 of 27 runs with double buffering, with or
#    without warm_all; 0.60-0.65 x in the others), and once 1.56 x under
#    load (make check of 2026-11-28), when a penalized packet dropped at
#    max did not warm: since it does (aqm_sfb_warm_at_max()), 0.11-0.13
#    Mbit/s in every second across both switches (2 runs). Without double buffering
#    the flow escapes: 1.58-2.02 x in the worse window of each run, and
#    never under 1.58 x in any window (3 runs).
#    Checked: TCP keeps 80% of the link; under warm_raise the seconds 7-9
#    and 15-17 around the switches each get at most 1.35 x the allowance,
#    and no second of 10-14 passes 2 x the rate; without double buffering
#    one of the windows gets more than 1.35 x.
# The figures were measured in the TCG test VM; the bounds leave a margin.
# python3 takes 1.5 s to start there: one reads every result at the end.
# About 85 s; with AQM_SFB_LINUX=1 (net:sfb-linux) 100 s.
# How soon the flood's bins reach p_m = 1 depends on how fast the VM
# forwards: in lanes beside other selftests on a slower machine the flood
# kept 2.26 and 2.46 Mbit/s against the 2.22 bound (make check and
# net:sfb beside net:riops, 2026-11-28, three lanes at 85% and 75% of the
# CPUs), alone 2.06; so it runs alone (guest.sh).
# aqm-selftest: alone
set -euo pipefail
# shellcheck source=selftests/net/lib.sh
. "$(dirname "$0")/lib.sh"

top=$(cd "$(dirname "$0")/../.." && pwd)
tmp=$(mktemp -d)
UDP_LEN=1472
PENALTY_BPS=$((10 * UDP_LEN * 8))
LINK_BPS=10000000
# what the penalty's token bucket lets through in 3 s: 3 s of the rate
# plus the burst of 20 packets
WINDOW_BITS=$((3 * PENALTY_BPS + 20 * UDP_LEN * 8))
linux_ko=${AQM_KDIR:-}/net/sched/sch_sfb.ko
ours_ko=$top/net/sched/sch_sfb.ko

tap_plan 12
dumbbell_setup 40
trap 'dumbbell_cleanup; rm -rf "$tmp"' EXIT

# flood NAME SECS TCP_FLOWS QDISC...: TCP_FLOWS TCP flows and one UDP flow
# at 20 Mbit/s for SECS, the UDP server's per-second report kept
flood() {
	local name=$1 secs=$2 tcp=$3 pids=()
	shift 3
	dumbbell_qdisc "$@"
	ns_rcv iperf3 -s -1 -D -p 5301 >/dev/null
	iperf_run "$secs" "$tcp" >"$tmp/$name-tcp.json" &
	pids+=($!)
	ns_snd iperf3 -c "$RCV_IP" -p 5301 -u -b 20mbit -l "$UDP_LEN" -t "$secs" \
		-i 1 --get-server-output -J >"$tmp/$name-udp.json" &
	pids+=($!)
	wait "${pids[@]}"
	bottleneck_stats >"$tmp/$name-end.json"
	echo "# t=${SECONDS}s $name done" >&2
}

# 1. the issue's mix, ours then Linux's (AQM_SFB_LINUX=1, as
# selftests/net/sfb-linux.sh runs it, and the test kernel has it)
flood ours 12 8 sfb
linux=0
skip="Linux's sch_sfb.ko is not in the test kernel"
[ "${AQM_SFB_LINUX:-0}" = 1 ] || skip="the comparison with Linux's sfb is net:sfb-linux's, not make check's"
if [ "${AQM_SFB_LINUX:-0}" = 1 ] && [ -f "$linux_ko" ]; then
	dumbbell_qdisc pfifo limit 1000
	rmmod sch_sfb
	if insmod "$linux_ko"; then
		# ours cannot load beside it: scripts/load.sh says why
		load_rc=0
		"$top/scripts/load.sh" sch_sfb >/dev/null 2>"$tmp/load.err" || load_rc=$?
		load_msg=$(cat "$tmp/load.err")
		# the distribution's tc, its built-in sfb: Linux's own pair
		TC_LIB_DIR=/nonexistent flood linux 12 8 sfb
		dumbbell_qdisc pfifo limit 1000
		rmmod sch_sfb
		linux=1
	fi
	insmod "$ours_ko"
fi

# 2. many flows per bin: the penalty, and the moving hash two ways
flood nodb 20 32 sfb rehash 8000 db 0
flood raise 20 32 sfb rehash 8000 db 4000 warm_raise

# --- read every result with one python3 --------------------------------------
eval "$(PYTHONPATH="$AQM_PYTHONPATH" python3 - "$tmp" "$linux" "$WINDOW_BITS" <<'PY'
import json, re, sys
from aqmtools.iperf import tcp_total, udp_goodput
d, linux, allowed = sys.argv[1], sys.argv[2] == "1", float(sys.argv[3])
UNIT = {"bits/sec": 1.0, "Kbits/sec": 1e3, "Mbits/sec": 1e6, "Gbits/sec": 1e9}


def per_second(name):
    """The UDP server's received bit/s, one per second (not the total)."""
    with open(f"{d}/{name}-udp.json") as f:
        text = json.load(f).get("server_output_text", "")
    rx = r"\]\s+([\d.]+)-([\d.]+)\s+sec\s+[\d.]+ \w?Bytes\s+([\d.]+) (\w*bits/sec)"
    out = [float(m[3]) * UNIT[m[4]] for m in re.finditer(rx, text)
           if float(m[2]) - float(m[1]) < 1.5]
    return out


names = ["ours", "nodb", "raise"] + (["linux"] if linux else [])
for n in names:
    print(f"{n}_tcp={tcp_total(f'{d}/{n}-tcp.json'):.0f}")
    print(f"{n}_udp={udp_goodput(f'{d}/{n}-udp.json')[0]:.0f}")
    with open(f"{d}/{n}-end.json") as f:
        e = json.load(f)[0]
    for k in ("earlydrop", "penaltydrop", "bucketdrop"):
        print(f"{n}_{k}={e.get(k, -1)}")
for n in ("nodb", "raise"):
    s = per_second(n)
    print(f"{n}_ps='{' '.join(f'{x / 1e6:.2f}' for x in s)}'")
    # seconds 7-9 and 15-17: around the switches at 8 and 16 s (qdisc
    # time), against what the bucket allows in 3 s; 10-14: between them
    win = [sum(s[7:10]) / allowed, sum(s[15:18]) / allowed]
    print(f"{n}_win='{win[0]:.2f} {win[1]:.2f}'")
    print(f"{n}_winmax={max(win):.2f}")
    print(f"{n}_between={max(s[10:15] or [0]):.0f}")
PY
)"

# shellcheck disable=SC2154 # set by the eval above
{
	for p in ours linux nodb raise; do
		[ "$p" != linux ] || [ "$linux" = 1 ] || continue
		v() { eval "echo \$${p}_$1"; }
		echo "# $p: tcp $(v tcp) bit/s, udp $(v udp) bit/s, early drops $(v earlydrop)," \
			"penalty drops $(v penaltydrop), bucket drops $(v bucketdrop)"
	done
	for p in nodb raise; do
		v() { eval "echo \$${p}_$1"; }
		echo "# $p: UDP Mbit/s per second: $(v ps)"
	done
} >&2

share2=$((2 * LINK_BPS / 9))
# shellcheck disable=SC2154
{
	tap_cmp "ours, 8 TCP + UDP at 2x the link: TCP keeps 80% of it (bit/s)" \
		"$ours_tcp" ">=" $((LINK_BPS * 8 / 10))
	tap_cmp "ours: the UDP flow stays under twice a ninth of the link (bit/s)" \
		"$ours_udp" "<" "$share2"
	if [ "$linux" = 1 ]; then
		tap_cmp "Linux's sfb, same mix: TCP keeps 80% of the link (bit/s)" \
			"$linux_tcp" ">=" $((LINK_BPS * 8 / 10))
		tap_cmp "ours gives UDP what Linux's does, within 35% ($linux_udp bit/s)" \
			"$(awk -v a="$ours_udp" -v b="$linux_udp" 'BEGIN { d = a - b; if (d < 0) d = -d; print d / b }')" \
			"<=" 0.35
		tap_cmp "ours gives TCP what Linux's does, within 10% ($linux_tcp bit/s)" \
			"$(awk -v a="$ours_tcp" -v b="$linux_tcp" 'BEGIN { d = a - b; if (d < 0) d = -d; print d / b }')" \
			"<=" 0.10
		case $load_msg in
		*"kernel's own sch_sfb is loaded"*) msg_ok=0 ;;
		*) msg_ok=1 ;;
		esac
		tap_result $((load_rc == 0 || msg_ok)) \
			"with Linux's sch_sfb loaded, scripts/load.sh sch_sfb fails (exit $load_rc) and says why: $load_msg"
	else
		for _ in 1 2 3 4; do
			tap_skip "$skip"
		done
	fi
	tap_cmp "32 TCP + UDP: TCP keeps 80% of the link (bit/s)" \
		"$raise_tcp" ">=" $((LINK_BPS * 8 / 10))
	tap_cmp "32 TCP + UDP: the UDP flow is rate-limited as nonresponsive (penalty drops)" \
		"$raise_penaltydrop" ">" 1000
	tap_cmp "db with warm_raise: held across both switches: in seconds 7-9 and 15-17 at most 1.35 x what the penalty's bucket allows in 3 s ($raise_win)" \
		"$raise_winmax" "<=" 1.35
	tap_cmp "db with warm_raise: held between the switches, within 2 x the penalty rate in every second of 10-14 (bit/s)" \
		"$raise_between" "<=" $((PENALTY_BPS * 2))
	tap_cmp "no double buffering: the flow escapes at a switch: more than 1.35 x the bucket's 3 s in seconds 7-9 or 15-17 ($nodb_win)" \
		"$nodb_winmax" ">" 1.35
	tap_cmp "no double buffering: TCP keeps 80% of the link (bit/s)" \
		"$nodb_tcp" ">=" $((LINK_BPS * 8 / 10))
}
tap_exit
