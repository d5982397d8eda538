#!/usr/bin/env bash
# make bench-pps: the per-packet cost of every qdisc, Linux's and ours,
# driven by pktgen in the test VM (scripts/aqmtools/bench/pps.py says what
# is measured, scripts/bench/pps-guest.sh how). Builds what the VM runs
# (the modules, the tc plugins, and pktgen: a module from the test
# kernel's own tree, scripts/bench/pktgen/build.sh), boots the VM on the
# results folder as make bench does, and writes summary.md there.
#
# Usage: bench-pps.sh [--rounds N] [--duration S] [--warmup S] [--flows N,N,...]
#                     [--states S,S,...] [--rate RATE] [--only NAME]... [--seed N]
#   --rounds: interleaved rounds, each running every qdisc once per cell
#     (default 5, or PPS_ROUNDS)
#   --duration: seconds measured per measurement (default 2, PPS_DURATION)
#   --warmup: seconds pktgen sends into the qdisc before (default 0.5,
#     PPS_WARMUP; 0: none)
#   --flows: the numbers of flows (default 1,1000,100000,1000000, PPS_FLOWS)
#   --states: the queue's states (default empty,standing, PPS_STATES; leaf
#     adds the qdisc as the leaf of a prio, where no qdisc is bypassed:
#     about half as much time again; mq adds the qdisc as both children of
#     mq on a dummy device with two tx queues, XPS sending each CPU's
#     packets to its own, measured with pktgen's thread on CPU 0 alone and
#     with its threads on CPUs 0 and 1 together, each with its own flows:
#     the aggregate throughput and its scaling from one thread to two,
#     beside fq_codel's. The VM needs 2 CPUs, else the mq steps fail. Each
#     mq cell is 2 measurements, 600 with the defaults, about 35 minutes
#     more; --states mq alone runs it without the others)
#   --rate: the rate of the htb parent of the standing queue (default
#     10mbit, PPS_RATE), far below pktgen's
#   --only: only these qdiscs (pps.py's names: noqueue pfifo red pie codel
#     fq_codel hhf sfb-linux dcn pi rem ared riops afd blue sfb); the
#     ratios need fq_codel, the goals pie, sfb-linux and 1000 flows too
#   --seed: the seed of the rounds' orders (default 1)
#   --profile: also count the guest kernel's instructions in every
#     measurement with QEMU's tcgprof plugin (TCG only; scripts/bench/
#     tcgprof/), by function per packet: OUT/prof/, and OUT/profile.md
#     from aqmtools.bench.tcgprof. The counts are exact where timings
#     under TCG are noisy, but instructions are not time: a cache miss or
#     a division counts as one
#   PPS_INSTANCES (default 16): fresh instances per memory measurement;
#   PPS_PKT_SIZE (default 60, pktgen's pkt_size: 64-byte frames with the FCS)
# Time: printed before the VM boots; with the defaults 620 measurements,
#   about 35 minutes on KVM (2.5 s of pktgen and some 0.8 s of setup
#   each, 15 instance measurements, the boot).
# Results: build/bench/pps/ (PPS_OUT overrides): raw.jsonl (one JSON line
#   per measurement, pktgen's own result text in it), summary.md, vm.log,
#   commit, command; scripts/bench/publish-pps.sh copies them into
#   docs/results/pps-DATE/.
set -euo pipefail
# shellcheck source=scripts/lib/common.sh
. "$(dirname "$0")/lib/common.sh"

rounds=${PPS_ROUNDS:-5}
duration=${PPS_DURATION:-2}
warmup=${PPS_WARMUP:-0.5}
flows=${PPS_FLOWS:-1,1000,100000,1000000}
states=${PPS_STATES:-empty,standing}
rate=${PPS_RATE:-10mbit}
seed=1
only=()
profile=0
while [ $# -gt 0 ]; do
	if [ "$1" = --profile ]; then
		profile=1
		shift
		continue
	fi
	[ $# -ge 2 ] || aqm_die "$1 needs a value (see the usage in $0)"
	case $1 in
	--rounds) rounds=$2 ;;
	--duration) duration=$2 ;;
	--warmup) warmup=$2 ;;
	--flows) flows=$2 ;;
	--states) states=$2 ;;
	--rate) rate=$2 ;;
	--only) only+=("$2") ;;
	--seed) seed=$2 ;;
	*) aqm_die "unknown argument $1 (see the usage in $0)" ;;
	esac
	shift 2
done
number_re='^(0|[1-9][0-9]*)(\.[0-9]+)?$'
[[ $duration =~ $number_re ]] || aqm_die "--duration $duration: seconds expected"
[[ $warmup =~ $number_re ]] || aqm_die "--warmup $warmup: seconds expected"
[[ $rate =~ ^[0-9]+[a-z]*$ ]] || aqm_die "--rate $rate: a tc rate expected (10mbit)"
instances=${PPS_INSTANCES:-16}
pkt_size=${PPS_PKT_SIZE:-60}
[[ $instances =~ ^[1-9][0-9]*$ ]] || aqm_die "PPS_INSTANCES=$instances: a count expected"
[[ $pkt_size =~ ^[1-9][0-9]*$ ]] || aqm_die "PPS_PKT_SIZE=$pkt_size: bytes expected"

plan_args=(--rounds "$rounds" --flows "$flows" --states "$states" --seed "$seed")
for o in "${only[@]}"; do
	plan_args+=(--only "$o")
done
python=$AQM_VENV/bin/python3
[ -x "$python" ] || "$AQM_TOP/scripts/deps.sh" --deb-src
# the plan is checked (and counted) before anything is built
counts=$(PYTHONPATH="$AQM_TOP/scripts" "$python" -m aqmtools.bench.pps plan "${plan_args[@]}" --count) ||
	aqm_die "pps.py plan ${plan_args[*]}: refused"
read -r n_measure n_inst <<<"$counts"
# a pktgen run (warm-up, measurement) takes some 0.25 s beside its
# duration (pktgen's start and stop wait 125 ms each, the start's writer
# polls every 100 ms), the qdisc's setup and dumps some 0.3 s; an instance
# measurement about 3 s; the boot about a minute
minutes=$(awk -v m="$n_measure" -v i="$n_inst" -v d="$duration" -v w="$warmup" \
	'BEGIN { printf "%.0f", (m * (d + w + 0.3 + 0.25 * (1 + (w > 0))) + i * 3 + 60) / 60 }')
timeout=$(((minutes * 3 + 15) * 60))

cd "$AQM_TOP"
aqm_vm_build
pktgen_ko=$("$AQM_TOP/scripts/bench/pktgen/build.sh" "$AQM_VMKDIR")
if [ "$profile" = 1 ]; then
	[ "$(aqm_vm_accel)" = tcg ] || aqm_die "--profile needs TCG (AQM_VM_ACCEL=tcg): QEMU's plugins see only what it translates"
	tcgprof=$("$AQM_TOP/scripts/bench/tcgprof/build.sh")
fi

out=${PPS_OUT:-$AQM_TOP/build/bench/pps}
rm -rf "$out"
mkdir -p "$out"
aqm_commit_stamp >"$out/commit"
# how to run it again (scripts/bench/publish-pps.sh cites it)
cmd_line="scripts/bench-pps.sh --rounds $rounds --duration $duration --warmup $warmup --flows $flows"
cmd_line+=" --states $states --rate $rate --seed $seed"
for o in "${only[@]}"; do
	cmd_line+=" --only $o"
done
[ "$profile" = 0 ] || cmd_line+=" --profile"
echo "$cmd_line" >"$out/command"
aqm_log "$n_measure measurements of $duration s after $warmup s of warm-up, $n_inst instance measurements: about $minutes minutes on KVM -> $out"

guest="AQM_KDIR=$(printf %q "$AQM_VMKDIR") AQM_VENV=$(printf %q "$AQM_VENV")"
guest+=" PPS_DURATION=$duration PPS_WARMUP=$warmup PPS_RATE=$rate PPS_INSTANCES=$instances"
guest+=" PPS_PKT_SIZE=$pkt_size PPS_PKTGEN=$(printf %q "$pktgen_ko")"
guest+=" bash $(printf %q "$AQM_TOP/scripts/bench/pps-guest.sh") $(printf %q "$out")"
for a in "${plan_args[@]}"; do
	guest+=" $(printf %q "$a")"
done
if [ "$profile" = 1 ]; then
	mkdir -p "$out/prof"
	guest="PPS_PROFILE=$(printf %q "$out/prof") $guest"
	export AQM_VM_QEMU_OPTS="-plugin $tcgprof,ctl=$out/prof/ctl"
fi
aqm_vm_bench "$out" pps "$timeout" "$guest"
# what the guest cannot know, in the raw data too (a published page keeps
# only that file)
accel=$(grep -ho 'booting [^ ]* with [a-z]*' "$out/vm.log" | awk '{ print $NF }' | tail -n 1) || true
printf '{"type":"host","accel":"%s","commit":"%s","command":"%s"}\n' \
	"${accel:-unknown}" "$(cat "$out/commit")" "$cmd_line" >>"$out/raw.jsonl"
PYTHONPATH="$AQM_TOP/scripts" "$python" -m aqmtools.bench.pps report "$out" >/dev/null
if [ "$profile" = 1 ]; then
	PYTHONPATH="$AQM_TOP/scripts" "$python" -m aqmtools.bench.tcgprof "$out" -o "$out/profile.md"
	aqm_log "profile: $out/profile.md"
fi
aqm_log "summary: $out/summary.md"
cat "$out/summary.md"
