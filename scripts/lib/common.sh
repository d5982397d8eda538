# shellcheck shell=bash
# Common definitions for the linux-aqm scripts: where things live.
# Sourced, never run.

AQM_TOP=$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd -P)
AQM_CACHE=${LINUX_AQM_CACHE:-${XDG_CACHE_HOME:-$HOME/.cache}/linux-aqm}
# The venv of the PyPI tools (scripts/requirements.txt); its bin/ goes
# first on PATH, since its tools start each other through PATH (vng runs
# virtme-run).
AQM_VENV="$AQM_CACHE/venv"
# ip, tc, sysctl and depmod live in sbin, which a user's PATH may lack.
PATH="$AQM_VENV/bin:$PATH:/usr/local/sbin:/usr/sbin:/sbin"
# Debian package whose kernel source the test kernel is built from.
AQM_KSRC_PKG=${AQM_KSRC_PKG:-linux-source-6.12}
export AQM_TOP AQM_CACHE AQM_VENV AQM_KSRC_PKG PATH

aqm_log() {
	printf '[%s] %s\n' "$(basename "$0")" "$*" >&2
}

aqm_die() {
	aqm_log "error: $*"
	exit 1
}

# aqm_step NAME CMD...: run CMD (a function runs in this shell: what it
# sets stays set), keep its output in $logs/NAME.log and append one TAP
# result to $host, numbered by the caller's counter n. A step fails on a
# non-zero status or when its log has a compiler or sparse warning; exit
# 77 is a skip whose reason is the log's last SKIP line. Returns CMD's
# status (77 for a skip).
aqm_step() {
	local name=$1 log t0 rc=0
	shift
	: "${host:?aqm_step needs host, the TAP file}"
	n=$((n + 1))
	log="${logs:?}/$(echo "$name" | tr -c 'A-Za-z0-9.\n-' '_').log"
	t0=$(date +%s)
	"$@" >"$log" 2>&1 || rc=$?
	if [ "$rc" -eq 0 ] && grep -qE '(warning|error):' "$log"; then
		rc=1
	fi
	if [ "$rc" -eq 77 ]; then
		echo "ok $n $name # SKIP $(grep SKIP "$log" | tail -n 1)" >>"$host"
		aqm_log "$name: skipped ($(grep SKIP "$log" | tail -n 1))"
		return 77
	fi
	if [ "$rc" -eq 0 ]; then
		echo "ok $n $name" >>"$host"
	else
		echo "not ok $n $name" >>"$host"
		aqm_log "FAILED: $name (log: $log)"
		tail -n 20 "$log" >&2
	fi
	aqm_log "$name: $([ "$rc" -eq 0 ] && echo ok || echo FAILED) ($(($(date +%s) - t0)) s)"
	return "$rc"
}

# Run a command as root: directly when we are root, else through sudo.
aqm_root() {
	if [ "$(id -u)" -eq 0 ]; then
		"$@"
	else
		sudo "$@"
	fi
}

# Every command the scripts run that a fresh Debian 12 machine may lack,
# and what provides it: "command:source", source being a Debian package
# or "venv" (scripts/requirements.txt). scripts/deps.sh installs them all
# and then checks this table.
AQM_TOOLS=(
	git:git make:make gcc:build-essential bison:bison flex:flex bc:bc
	pahole:dwarves cpio:cpio depmod:kmod modprobe:kmod xz:xz-utils perl:perl
	sparse:sparse pkg-config:pkg-config dpkg-source:dpkg-dev
	groff:groff-base shellcheck:shellcheck python3:python3
	qemu-system-x86_64:qemu-system-x86 udevadm:udev script:bsdutils
	ip:iproute2 tc:iproute2 ping:iputils-ping iperf3:iperf3
	ethtool:ethtool sysctl:procps flent:flent
	vng:venv virtme-run:venv pytest:venv ruff:venv mypy:venv
)

# aqm_need CMD...: die naming the first missing command and what installs it
aqm_need() {
	local c t src
	for c in "$@"; do
		command -v "$c" >/dev/null 2>&1 && continue
		src=""
		for t in "${AQM_TOOLS[@]}"; do
			[ "${t%%:*}" = "$c" ] && src=${t#*:}
		done
		case "$src" in
		venv) aqm_die "$c is missing from $AQM_VENV/bin: run 'make deps' (pip install -r scripts/requirements.txt into that venv)" ;;
		"") aqm_die "$c is missing (not one of AQM_TOOLS in scripts/lib/common.sh)" ;;
		*) aqm_die "$c is missing: run 'make deps' (or: apt-get install $src)" ;;
		esac
	done
}

# aqm_vm_build: dependencies, the cached test kernel, the modules against
# it and the tc plugins (what make demo and make bench run in the VM);
# sets AQM_VMKDIR to the test kernel's build dir
aqm_vm_build() {
	"$AQM_TOP/scripts/deps.sh" --deb-src
	"$AQM_TOP/scripts/kernel/vmkernel.sh"
	AQM_VMKDIR=$("$AQM_TOP/scripts/kernel/vmkernel.sh" --print-kdir)
	make -s -C "$AQM_VMKDIR" M="$AQM_TOP" modules
	make -s -C "$AQM_TOP" tc
}

# aqm_commit_stamp: the commit measured, "+" marking uncommitted changes
# to net, include, tc or scripts (the benchmarks keep it in OUT/commit,
# their publish steps cite it)
aqm_commit_stamp() {
	local dirty
	dirty=$(git -C "$AQM_TOP" status --porcelain -- net include tc scripts)
	echo "$(git -C "$AQM_TOP" rev-parse --short HEAD)$([ -z "$dirty" ] || echo +)"
}

# aqm_vm_bench OUT TAG SECONDS CMD: boot the test VM with the results
# folder OUT writable and run the shell command CMD in it, for at most
# SECONDS; the guest's output goes to OUT/vm-part.log, then is appended to
# OUT/vm.log, and its lines "[TAG] ..." and errors are shown as they come.
# Dies, keeping OUT/vm-part.log, unless the guest printed "[TAG] done"
# (make bench: TAG bench, make bench-pps: pps).
aqm_vm_bench() {
	local out=$1 tag=$2 secs=$3 cmd=$4
	"$AQM_TOP/scripts/vm/run.sh" --timeout "$secs" --rwdir "$out" -- "$cmd" 2>&1 |
		tee "$out/vm-part.log" | grep --line-buffered -E "^\[$tag\]|Error|Traceback" || true
	cat "$out/vm-part.log" >>"$out/vm.log"
	grep -q "^\[$tag\] done" "$out/vm-part.log" ||
		aqm_die "the benchmark did not finish (log: $out/vm-part.log)"
	rm -f "$out/vm-part.log"
}

# aqm_vm_accel: the accelerator for a VM: AQM_VM_ACCEL (kvm or tcg), else
# what scripts/vm/run.sh found on this boot of the machine, else tcg
aqm_vm_accel() {
	local a=${AQM_VM_ACCEL:-} f
	if [ -z "$a" ]; then
		a=tcg
		for f in "$AQM_CACHE/accel-$(cat /proc/sys/kernel/random/boot_id)-"*; do
			[ -f "$f" ] && a=$(cat "$f")
		done
	fi
	echo "$a"
}

# aqm_vng_distro VMLINUZ SECONDS VMLOG CONSOLE CMD [VNG-ARG...]: boot a
# distribution's kernel image with virtme-ng, which takes the modules tree
# beside it (ROOT/boot/vmlinuz-KVER: ROOT/lib/modules/KVER), and run the
# shell command CMD in it as root; the guest's output in VMLOG, the
# kernel's console in CONSOLE. Returns vng's status (124: past SECONDS).
aqm_vng_distro() {
	local vmlinuz=$1 secs=$2 vmlog=$3 console=$4 cmd=$5 pid rc=0 vargs
	shift 5
	vargs=(--run "$vmlinuz" --memory 2G --cpus 2 --verbose "$@")
	[ "$(aqm_vm_accel)" = tcg ] && vargs+=(--disable-kvm)
	# as scripts/vm/run.sh: timeout leads a process group of its own, so
	# that qemu ends with vng
	timeout -k 10 "$secs" vng "${vargs[@]}" --exec "$cmd" </dev/null >"$vmlog" 2>"$console" &
	pid=$!
	# shellcheck disable=SC2064 # the pid is meant to be expanded now
	trap "kill -TERM -- -$pid 2>/dev/null; exit 130" INT TERM
	wait "$pid" || rc=$?
	trap - INT TERM
	return "$rc"
}
