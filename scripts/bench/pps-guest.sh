#!/usr/bin/env bash
# make bench-pps, inside the test VM, as root: the per-packet cost of every
# qdisc, driven by the kernel's pktgen through /proc/net/pktgen
# (scripts/aqmtools/bench/pps.py says what is measured and how the flows
# are made). Loads the project's modules and pktgen (a module built from
# the test kernel's tree by scripts/bench/pktgen/build.sh: the test kernel
# has none), creates the dummy devices, and runs the plan pps.py prints,
# one step after the other. Each step appends one JSON line to
# OUT/raw.jsonl (besides a first "meta" line and a last "done"):
# - instance: PPS_INSTANCES fresh instances of a qdisc, as the root of as
#   many dummy devices: the kernel's memory (unreclaimable slab, vmalloc,
#   per-CPU, kB) before, with them and a second after their deletion, and
#   tc -s -j of one of them;
# - measure: the qdisc on pps0, as its root (queue "empty": pktgen's
#   enqueue is followed at once by the dequeue to the dummy device, or
#   bypassed), as the leaf of a prio (queue "leaf": empty, never
#   bypassed) or as the leaf of an htb class at PPS_RATE (queue
#   "standing": every packet meets a full or growing queue, and nearly
#   all are dropped); pktgen sends PPS_WARMUP seconds into it, then
#   PPS_DURATION seconds, measured: /proc/net/pktgen/pps0 after that run
#   (pktgen's result), tc -s -j of pps0, and the kernel's memory with the
#   fresh qdisc and after both runs;
# - measure in the state mq: the qdisc as both children of mq on ppsq0, a
#   dummy device with two tx queues, XPS sending CPU 0's packets to tx
#   queue 0 and CPU 1's to tx queue 1; pktgen's thread on CPU 0 alone
#   (THREADS 1) or its threads on CPUs 0 and 1 together (THREADS 2), each
#   with its own source addresses: the same record with "threads" and a
#   list of the threads' results in "pktgen" (and thread 1's addresses in
#   "src1").
# A qdisc that cannot be set up is recorded as a failed step and the run
# goes on, as are the mq steps on a VM with fewer than 2 CPUs or where
# XPS cannot be set; a pktgen that refuses a setting stops the run.
#
# Usage: pps-guest.sh OUT [ARG...]   (ARGs: pps.py plan's)
# Environment: AQM_KDIR (the test kernel's tree: Linux's sch_sfb.ko),
#   AQM_VENV (the venv's python3), PPS_DURATION (s, default 2),
#   PPS_WARMUP (s, default 0.5; 0: none), PPS_RATE (the htb class's rate,
#   default 10mbit), PPS_PKT_SIZE (pktgen's pkt_size, default 60: a
#   64-byte frame with the FCS the kernel does not hold), PPS_INSTANCES
#   (default 16), PPS_PKTGEN (default build/pktgen/pktgen.ko),
#   PPS_PROFILE (bench-pps.sh --profile: a folder shared with the host,
#   where QEMU's tcgprof plugin reads its control file: each measurement's
#   kernel instructions are counted from the end of its warm-up to the end
#   of its run and dumped into PROFILE/KEY.txt, the modules' symbols of
#   that moment into PROFILE/KEY.modsyms, the kernel's into
#   PROFILE/kallsyms; the record names KEY in "profile")
set -euo pipefail

top=$(cd "$(dirname "$0")/../.." && pwd)
export PATH="/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin"
export TC_LIB_DIR="$top/tc"
out=${1:?usage: pps-guest.sh OUT [ARG...]}
shift
: "${AQM_KDIR:?}" "${AQM_VENV:?}"
duration=${PPS_DURATION:-2}
warmup=${PPS_WARMUP:-0.5}
rate=${PPS_RATE:-10mbit}
pkt_size=${PPS_PKT_SIZE:-60}
n_inst=${PPS_INSTANCES:-16}
prof=${PPS_PROFILE:-}
pktgen_ko=${PPS_PKTGEN:-$top/build/pktgen/pktgen.ko}
raw=$out/raw.jsonl
dev=pps0
mqdev=ppsq0
pgdir=/proc/net/pktgen
tmp=$(mktemp -d)
t_start=$(date +%s)

log() { echo "[pps] $*"; }
die() {
	log "error: $*"
	exit 1
}

number_re='^(0|[1-9][0-9]*)(\.[0-9]+)?$'
[[ $duration =~ $number_re ]] || die "PPS_DURATION=$duration: seconds expected"
[[ $warmup =~ $number_re ]] || die "PPS_WARMUP=$warmup: seconds expected"
[[ $pkt_size =~ ^[0-9]+$ ]] || die "PPS_PKT_SIZE=$pkt_size: bytes expected"
[[ $n_inst =~ ^[1-9][0-9]*$ ]] || die "PPS_INSTANCES=$n_inst: a count expected"

# json_str TEXT: TEXT as a JSON string
json_str() {
	local s=$1
	s=${s//\\/\\\\}
	s=${s//\"/\\\"}
	s=${s//$'\t'/\\t}
	s=${s//$'\r'/}
	s=${s//$'\n'/\\n}
	printf '"%s"' "$s"
}

# kmem_kb: the kernel's unreclaimable slab (large kmallocs included),
# vmalloc and per-CPU memory, in kB
kmem_kb() {
	local k v _ sum=0
	while read -r k v _; do
		case $k in
		SUnreclaim: | VmallocUsed: | Percpu:) sum=$((sum + v)) ;;
		esac
	done </proc/meminfo
	echo "$sum"
}

# tc_dump DEV: tc -s -j of DEV's qdiscs on one line (null if tc failed)
tc_dump() {
	local j
	j=$(tc -s -j qdisc show dev "$1" 2>/dev/null) || j=null
	[ -n "$j" ] || j=null
	echo "${j//$'\n'/}"
}

# --- the profile (PPS_PROFILE) ---------------------------------------------------
prof_seq=0
# prof_cmd CMD [PATH]: one command to the tcgprof plugin (scripts/bench/
# tcgprof/tcgprof.c), waiting for its acknowledgement
prof_cmd() {
	local ack="" i
	prof_seq=$((prof_seq + 1))
	echo "$prof_seq $*" >"$prof/ctl"
	for ((i = 0; i < 600; i++)); do
		ack=$(cat "$prof/ctl.ack" 2>/dev/null) || true
		[ "$ack" != "$prof_seq" ] || return 0
		sleep 0.05
	done
	die "tcgprof: no acknowledgement of '$*' within 30 s (is QEMU running the plugin?)"
}

# --- modules ------------------------------------------------------------------
# kind -> the module file loaded for it (sfb: ours or the kernel's)
declare -A loaded
for m in "$top"/net/sched/aqm_lib.ko "$top"/net/sched/sch_*.ko; do
	[ -f "$m" ] || continue
	insmod "$m"
	k=$(basename "$m" .ko)
	loaded[${k#sch_}]=$m
done
if [ ! -d "$pgdir" ]; then
	[ -f "$pktgen_ko" ] || die "no $pktgen_ko (scripts/bench/pktgen/build.sh builds it)"
	insmod "$pktgen_ko"
fi
[ -d "$pgdir" ] || die "no $pgdir after loading pktgen"

# use_module KIND MODULE: the module the step runs on loaded (MODULE ours:
# this tree's sch_KIND.ko, linux: the test kernel's, in place of ours: the
# two sch_sfb have one name); nothing may use the other one
use_module() {
	local kind=$1 module=$2 want
	case $module in
	ours) want=$top/net/sched/sch_$kind.ko ;;
	linux) want=$AQM_KDIR/net/sched/sch_$kind.ko ;;
	*) return 0 ;;
	esac
	[ "${loaded[$kind]:-}" != "$want" ] || return 0
	[ -f "$want" ] || {
		echo "no $want" >&2
		return 1
	}
	rmmod "sch_$kind" 2>/dev/null || true
	insmod "$want" || return 1
	loaded[$kind]=$want
	log "sch_$kind: $want"
}

# --- devices --------------------------------------------------------------------
# pps0 carries the measurements, ppsq0 those of the state mq (two tx
# queues), ppsm1..ppsmN the instances; no IPv6 on them, so that nothing
# but pktgen sends through their qdiscs
sysctl -qw net.ipv6.conf.default.disable_ipv6=1 2>/dev/null || true
{
	echo "link add $dev numtxqueues 1 numrxqueues 1 type dummy"
	echo "link set $dev up"
	echo "link add $mqdev numtxqueues 2 numrxqueues 2 type dummy"
	echo "link set $mqdev up"
	for ((i = 1; i <= n_inst; i++)); do
		echo "link add ppsm$i numtxqueues 1 numrxqueues 1 type dummy"
		echo "link set ppsm$i up"
	done
} | ip -batch -

# XPS on ppsq0: each CPU's packets to its own tx queue, CPU 0's (pktgen's
# kpktgend_0) to tx-0 and CPU 1's to tx-1. pktgen's packets have no
# socket, so dev_queue_xmit() picks their queue by the sending CPU's XPS
# map, or else by a flow hash, which would send both threads' packets
# into both queues. Without two CPUs, or XPS, the mq steps fail with
# mq_err as their reason.
mq_err=""
if [ "$(nproc)" -lt 2 ]; then
	mq_err="the VM has $(nproc) CPU: the state mq needs 2 (a pktgen thread and a tx queue each)"
elif [ ! -e "$pgdir/kpktgend_1" ]; then
	mq_err="no pktgen thread on CPU 1 ($pgdir/kpktgend_1)"
elif ! {
	echo 1 >"/sys/class/net/$mqdev/queues/tx-0/xps_cpus" &&
		echo 2 >"/sys/class/net/$mqdev/queues/tx-1/xps_cpus"
} 2>"$tmp/err"; then
	mq_err=$(<"$tmp/err")
	mq_err="XPS on $mqdev: ${mq_err//$'\n'/ }"
fi

# qdisc_clear: pps0 and ppsq0 back to their default, noqueue (a dummy
# device has no queue)
qdisc_clear() {
	tc qdisc del dev "$dev" root 2>/dev/null || true
	tc qdisc del dev "$mqdev" root 2>/dev/null || true
}

# qdisc_setup STATE SPEC: the qdisc under test (handle 10:) on pps0, as
# its root (empty), as the leaf of a prio's first band, where every packet
# goes (leaf: prio never sends around its children, as the root of an
# empty pfifo, codel or fq_codel does), or as the leaf of htb class 1:1 at
# $rate (standing); or two of it (11:, 12:) on ppsq0, as the children of
# mq, one a tx queue (mq); SPEC "-": none
qdisc_setup() {
	local state=$1 spec=$2
	qdisc_clear
	[ "$spec" != - ] || return 0
	case $state in
	empty)
		echo "qdisc add dev $dev root handle 10: $spec" | tc -batch -
		;;
	leaf)
		tc -batch - <<-EOF
			qdisc add dev $dev root handle 1: prio bands 2 priomap 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0
			qdisc add dev $dev parent 1:1 handle 10: $spec
		EOF
		;;
	standing)
		tc -batch - <<-EOF
			qdisc add dev $dev root handle 1: htb default 1
			class add dev $dev parent 1: classid 1:1 htb rate $rate ceil $rate
			qdisc add dev $dev parent 1:1 handle 10: $spec
		EOF
		;;
	mq)
		tc -batch - <<-EOF
			qdisc add dev $mqdev root handle 1: mq
			qdisc add dev $mqdev parent 1:1 handle 11: $spec
			qdisc add dev $mqdev parent 1:2 handle 12: $spec
		EOF
		;;
	*)
		echo "unknown state $state" >&2
		return 1
		;;
	esac
}

# --- pktgen -----------------------------------------------------------------------
# pg FILE CMD: one pktgen command, which must be taken: pktgen answers in
# FILE's Result line (pgctrl has none)
pg() {
	local f=$pgdir/$1 line
	echo "$2" >"$f" || die "pktgen $1: '$2' refused"
	[ "$1" != pgctrl ] || return 0
	while IFS= read -r line; do
		case $line in
		"Result: OK"*) return 0 ;;
		"Result:"*) die "pktgen $1: '$2': ${line#Result: }" ;;
		esac
	done <"$f"
	die "pktgen $1: '$2': no Result line"
}

# pg_entry NAME: pktgen's device entry NAME (a device, or DEV@N: one of
# the entries of DEV on several threads) set up: a new packet for every
# send (clone_skb 0), handed over to the stack (SHARED off: pktgen keeps
# no reference, as a socket would not); UDP to one address and port
pg_entry() {
	pg "$1" "xmit_mode queue_xmit"
	pg "$1" "clone_skb 0"
	pg "$1" "burst 1"
	pg "$1" "flag !SHARED"
	pg "$1" "count 0"
	pg "$1" "delay 0"
	pg "$1" "pkt_size $pkt_size"
	pg "$1" "dst 192.0.2.1"
	pg "$1" "dst_mac 02:00:00:00:00:01"
	pg "$1" "udp_dst_min 9"
	pg "$1" "udp_dst_max 9"
}

# pg_rem_all N: kpktgend_N without devices; its thread drops them at its
# next turn, so wait until its Running and Stopped lines are empty (an
# entry added again before would be refused as in use)
pg_rem_all() {
	local f=$pgdir/kpktgend_$1 l1 l2 i
	pg "kpktgend_$1" rem_device_all
	for ((i = 0; i < 40; i++)); do
		{
			IFS= read -r l1 || true
			IFS= read -r l2 || true
		} <"$f"
		[ "$l1$l2" != "Running: Stopped: " ] || return 0
		sleep 0.05
	done
	die "pktgen: kpktgend_$1 kept its devices: $l1 $l2"
}

# pg_on[N]: the entry on kpktgend_N ("": none). pgctrl start runs every
# thread that has a device, so a thread has one only when it is to send.
pg_on=("" "")
# pg_use ENTRY0 [ENTRY1]: kpktgend_0 sending on ENTRY0 alone, kpktgend_1
# on ENTRY1 or on nothing. A thread's devices go only all at once, and
# their settings with them, so an entry is set up anew when it comes back.
pg_use() {
	local want=("$1" "${2:-}") n
	for n in 0 1; do
		[ "${pg_on[n]}" != "${want[n]}" ] || continue
		[ -z "${pg_on[n]}" ] || pg_rem_all "$n"
		pg_on[n]=""
		[ -n "${want[n]}" ] || continue
		pg "kpktgend_$n" "add_device ${want[n]}"
		pg_on[n]=${want[n]}
		pg_entry "${want[n]}"
	done
}

# pps0 on the first thread (CPU 0), none on the second
pg_rem_all 0
[ ! -e "$pgdir/kpktgend_1" ] || pg_rem_all 1
pg_use "$dev"

# running: every thread's entry is in the first line of its kpktgend_N,
# "Running: pps0 " (both threads' in the state mq at 2 threads)
running() {
	local n line
	for n in 0 1; do
		[ -n "${pg_on[n]}" ] || continue
		line=""
		IFS= read -r line <"$pgdir/kpktgend_$n" || true
		[[ $line == *" ${pg_on[n]} "* ]] || return 1
	done
}

# run_pktgen SECONDS: pktgen sends on its entries for SECONDS from the
# moment every thread runs (the write of start returns when the run
# stops; a stop that came before a thread took the start would leave it
# running for ever)
run_pktgen() {
	local pid i
	pg pgctrl start &
	pid=$!
	for ((i = 0; i < 200; i++)); do
		! running || break
		sleep 0.05
	done
	running || die "pktgen did not start within 10 s"
	sleep "$1"
	pg pgctrl stop
	wait "$pid" || die "pktgen's start failed"
}

# cost TEXT: ns per offered packet in pktgen's result TEXT, for the log
# (pps.py computes the figures from the same text)
cost() {
	local re='Result: OK: ([0-9]+)\(' us
	[[ $1 =~ $re ]] || {
		echo "?"
		return 0
	}
	us=${BASH_REMATCH[1]}
	re='pkts-sofar: ([0-9]+) +errors: ([0-9]+)'
	if [[ $1 =~ $re ]] && ((BASH_REMATCH[1] + BASH_REMATCH[2] > 0)); then
		echo "$((us * 1000 / (BASH_REMATCH[1] + BASH_REMATCH[2])))"
	else
		echo "?"
	fi
}

# --- steps ----------------------------------------------------------------------
# instance NAME KIND MODULE SPEC
instance() {
	local name=$1 kind=$2 module=$3 spec=$4 k0 k1 k2 tcj i err=""
	if ! use_module "$kind" "$module" 2>"$tmp/err"; then
		err=$(<"$tmp/err")
	else
		# the frees of the qdiscs before (after an RCU grace period)
		sleep 1
		k0=$(kmem_kb)
		for ((i = 1; i <= n_inst; i++)); do
			echo "qdisc add dev ppsm$i root handle 10: $spec"
		done | tc -batch - 2>"$tmp/err" || err=$(<"$tmp/err")
		k1=$(kmem_kb)
		tcj=$(tc_dump ppsm1)
		for ((i = 1; i <= n_inst; i++)); do
			echo "qdisc del dev ppsm$i root"
		done | tc -force -batch - 2>/dev/null || true
		sleep 1
		k2=$(kmem_kb)
	fi
	if [ -n "$err" ]; then
		printf '{"type":"instance","qdisc":"%s","kind":"%s","module":"%s","spec":%s,"error":%s}\n' \
			"$name" "$kind" "$module" "$(json_str "$spec")" "$(json_str "$err")" >>"$raw"
		log "instance $name: failed: $err"
		return 0
	fi
	printf '{"type":"instance","qdisc":"%s","kind":"%s","module":"%s","spec":%s,"n":%d,"kmem_kb":[%d,%d,%d],"tc":%s}\n' \
		"$name" "$kind" "$module" "$(json_str "$spec")" "$n_inst" "$k0" "$k1" "$k2" "$tcj" >>"$raw"
	log "instance $name: $(((k1 - k0) * 1024 / n_inst)) bytes of kernel memory each"
}

# pg_flows ENTRY SRC_MIN SRC_MAX SPORT_MIN SPORT_MAX: ENTRY's flows
pg_flows() {
	pg "$1" "src_min $2"
	pg "$1" "src_max $3"
	pg "$1" "udp_src_min $4"
	pg "$1" "udp_src_max $5"
}

# measure ROUND STATE FLOWS NAME KIND MODULE SRC_MIN SRC_MAX SPORT_MIN SPORT_MAX
#   THREADS SRC1_MIN SRC1_MAX SPEC (THREADS and SRC1_*: the state mq's, else 1 - -)
measure() {
	local round=$1 state=$2 flows=$3 name=$4 kind=$5 module=$6
	local smin=$7 smax=$8 pmin=$9 pmax=${10} threads=${11} smin1=${12} smax1=${13} spec=${14}
	local k0 k1 text tcj err="" mq="" qdev=$dev entries=("$dev") texts t log_cost key=""
	local what="round $round $state $flows flows $name"
	if [ "$state" = mq ]; then
		# the record's fields of the state mq (its error records too)
		mq=$(printf ',"threads":%d' "$threads")
		if [ "$threads" = 1 ]; then what+=", 1 thread"; else what+=", $threads threads"; fi
		qdev=$mqdev
		entries=("$mqdev@0")
		[ "$threads" = 1 ] || entries+=("$mqdev@1")
		err=$mq_err
	fi
	if [ -z "$err" ] && { ! use_module "$kind" "$module" 2>"$tmp/err" ||
		! qdisc_setup "$state" "$spec" 2>"$tmp/err"; }; then
		err=$(<"$tmp/err")
	fi
	if [ -n "$err" ]; then
		qdisc_clear
		printf '{"type":"measure","round":%d,"state":"%s","flows":%d,"qdisc":"%s","kind":"%s","module":"%s","spec":%s%s,"error":%s}\n' \
			"$round" "$state" "$flows" "$name" "$kind" "$module" "$(json_str "$spec")" "$mq" \
			"$(json_str "$err")" >>"$raw"
		log "$what: failed: $err"
		return 0
	fi
	pg_use "${entries[@]}"
	pg_flows "${entries[0]}" "$smin" "$smax" "$pmin" "$pmax"
	if [ "${#entries[@]}" -gt 1 ]; then
		# thread 1's own flows: as many addresses, disjoint, the same ports
		pg_flows "${entries[1]}" "$smin1" "$smax1" "$pmin" "$pmax"
		mq+=$(printf ',"src1":["%s","%s"]' "$smin1" "$smax1")
	fi
	# the kernel's memory from the fresh qdisc to after all its traffic
	k0=$(kmem_kb)
	[ "$warmup" = 0 ] || run_pktgen "$warmup"
	[ -z "$prof" ] || prof_cmd reset
	run_pktgen "$duration"
	if [ -n "$prof" ]; then
		key="r$round-$state-$flows-$name${mq:+-t$threads}"
		prof_cmd dump "$prof/$key.txt"
		awk '$4 ~ /^\[/' /proc/kallsyms >"$prof/$key.modsyms"
	fi
	k1=$(kmem_kb)
	texts=""
	log_cost=""
	for t in "${entries[@]}"; do
		text=$(<"$pgdir/$t")
		texts+=${texts:+,}$(json_str "$text")
		log_cost+=${log_cost:+ + }$(cost "$text")
	done
	# one result text in the other states, as before; their list in mq
	[ -z "$mq" ] || texts="[$texts]"
	[ -z "$prof" ] || mq+=$(printf ',"profile":"%s"' "$key")
	tcj=$(tc_dump "$qdev")
	qdisc_clear
	printf '{"type":"measure","round":%d,"state":"%s","flows":%d,"qdisc":"%s","kind":"%s","module":"%s","spec":%s,"src":["%s","%s"],"sport":[%d,%d],"duration_s":%s,"warmup_s":%s,"kmem_kb":[%d,%d]%s,"pktgen":%s,"tc":%s}\n' \
		"$round" "$state" "$flows" "$name" "$kind" "$module" "$(json_str "$spec")" \
		"$smin" "$smax" "$pmin" "$pmax" "$duration" "$warmup" "$k0" "$k1" "$mq" \
		"$texts" "$tcj" >>"$raw"
	log "$what: $log_cost ns/packet"
}

# --- the run ----------------------------------------------------------------------
mapfile -t steps < <(PYTHONPATH="$top/scripts" "$AQM_VENV/bin/python3" -m aqmtools.bench.pps plan "$@")
[ ${#steps[@]} -gt 0 ] || die "an empty plan (pps.py plan $*)"
n_measure=0
[ -z "$prof" ] || awk '$4 !~ /^\[/' /proc/kallsyms >"$prof/kallsyms"
for s in "${steps[@]}"; do
	[ "${s%% *}" != measure ] || n_measure=$((n_measure + 1))
done
version=$(<"$pgdir/pgctrl")
cpu=$(awk -F': ' '/^model name/ { print $2; exit }' /proc/cpuinfo)
printf '{"type":"meta","kernel":%s,"cpus":%d,"cpu":%s,"pktgen":%s,"duration_s":%s,"warmup_s":%s,"rate":%s,"pkt_size":%d,"instances":%d,"plan_args":%s,"steps":%d,"started":%d}\n' \
	"$(json_str "$(uname -r)")" "$(nproc)" "$(json_str "$cpu")" "$(json_str "${version##*Version: }")" \
	"$duration" "$warmup" "$(json_str "$rate")" "$pkt_size" "$n_inst" "$(json_str "$*")" \
	"${#steps[@]}" "$t_start" >"$raw"
log "guest: $(uname -r), $(nproc) cpus; ${#steps[@]} steps, $n_measure measurements of ${duration} s after ${warmup} s"

done_n=0
t_measure=""
for s in "${steps[@]}"; do
	read -r what round state flows name kind module smin smax pmin pmax spec <<<"$s"
	if [ "$what" = instance ]; then
		instance "$name" "$kind" "$module" "$spec"
		continue
	fi
	# the state mq's line has THREADS SRC1_MIN SRC1_MAX before the SPEC
	threads=1 smin1=- smax1=-
	[ "$state" != mq ] || read -r threads smin1 smax1 spec <<<"$spec"
	[ -n "$t_measure" ] || t_measure=$(date +%s)
	if [ $((done_n % 20)) -eq 0 ] && [ "$done_n" -gt 0 ]; then
		per=$((($(date +%s) - t_measure) * 1000 / done_n))
		log "$done_n/$n_measure measured, about $(((n_measure - done_n) * per / 60000)) minutes left"
	fi
	measure "$round" "$state" "$flows" "$name" "$kind" "$module" "$smin" "$smax" "$pmin" "$pmax" \
		"$threads" "$smin1" "$smax1" "$spec"
	done_n=$((done_n + 1))
done

pg kpktgend_0 rem_device_all
[ -z "${pg_on[1]}" ] || pg kpktgend_1 rem_device_all
rm -rf "$tmp"
# a report of the kernel (a warning in a qdisc at a million flows) is the
# first thing to read when a figure looks wrong
dmesg >"$out/dmesg.txt"
if grep -qE 'BUG:|WARNING:|Oops|general protection|UBSAN|KASAN|soft lockup|RCU stall' "$out/dmesg.txt"; then
	log "the kernel's log has a report: $out/dmesg.txt"
fi
printf '{"type":"done","seconds":%d}\n' "$(($(date +%s) - t_start))" >>"$raw"
log "done: $done_n measurements in $(($(date +%s) - t_start)) s"
