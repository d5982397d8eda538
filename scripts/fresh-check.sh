#!/usr/bin/env bash
# Prove the README's commands on a fresh machine: build a minimal Debian 12
# root with debootstrap (nothing of this machine's installs in it), install
# in it only what README.md tells a newcomer to install (git and make),
# clone the repository into a folder the test VM cannot see unless the
# scripts share it (/var/tmp), and run the commands there as root, with
# /proc, /sys and /dev (so /dev/kvm) bound in. Of this machine the root gets
# only its name resolution and its local CAs (/usr/local/share/ca-certificates,
# which an egress proxy may need). Prints each command's exit
# status and time; the full output of each is in LOGDIR.
#
# The root is made anew on every run unless --reuse is given, so that a
# second run of the same commands on the same "machine" (warm caches) can be
# measured too. --kernel-from copies an already built test kernel cache
# (a $AQM_CACHE/kernel/<key> folder) into the root, for iterating on the
# scripts without a 15-minute kernel build; a run with it is not a cold run
# and says so.
#
# Usage: fresh-check.sh [--root DIR] [--reuse] [--kernel-from DIR] [CMD...]
#   CMD   commands run in order in the clone (default: 'make demo'
#         'make check'); all run even when one fails
# Environment: FRESH_MIRROR (default: the deb.debian.org mirror)
# Exit status: 0 when every command exited 0.
set -euo pipefail
# shellcheck source=scripts/lib/common.sh
. "$(dirname "$0")/lib/common.sh"

[ "$(id -u)" -eq 0 ] || exec sudo -- "$0" "$@"
root=/var/tmp/linux-aqm-fresh/root
reuse=0
kernel_from=""
while [ $# -gt 0 ]; do
	case "$1" in
	--root) root=$2; shift 2 ;;
	--reuse) reuse=1; shift ;;
	--kernel-from) kernel_from=$2; shift 2 ;;
	-h | --help) sed -n '2,/^set -euo/p' "$0" | sed '$d; s/^# \{0,1\}//'; exit 0 ;;
	-*) aqm_die "unknown option $1" ;;
	*) break ;;
	esac
done
cmds=("$@")
[ ${#cmds[@]} -gt 0 ] || cmds=("make demo" "make check")

mirror=${FRESH_MIRROR:-http://deb.debian.org/debian}
root=$(realpath -m "$root")
case "$root" in
/ | "$AQM_TOP" | "$AQM_TOP"/*) aqm_die "refusing root $root" ;;
esac
logdir="$root.logs"
clone=/var/tmp/linux-aqm

unmount_all() {
	local m
	# deepest first
	for m in $(findmnt -rn -o TARGET | grep -E "^$root(/|$)" | sort -r); do
		umount -l "$m" 2>/dev/null || true
	done
}
trap unmount_all EXIT

mount_all() {
	mountpoint -q "$root/proc" || mount -t proc proc "$root/proc"
	mountpoint -q "$root/sys" || mount --rbind /sys "$root/sys"
	mountpoint -q "$root/dev" || mount --rbind /dev "$root/dev"
	mountpoint -q "$root/run" || mount -t tmpfs tmpfs "$root/run"
}

# in_root CMD: run the shell command CMD as root inside the fresh root, with
# the environment of a login on a new machine and nothing of ours
in_root() {
	chroot "$root" /usr/bin/env -i HOME=/root LANG=C.UTF-8 TERM=dumb \
		PATH=/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin \
		/bin/bash -c "$1"
}

command -v debootstrap >/dev/null || {
	aqm_log "installing debootstrap"
	apt-get update -qq
	DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends debootstrap >/dev/null
}
[ -z "$(git -C "$AQM_TOP" status --porcelain)" ] ||
	aqm_log "warning: uncommitted changes are not in the clone; it has HEAD $(git -C "$AQM_TOP" rev-parse --short HEAD)"

t_all=$(date +%s)
unmount_all
if [ "$reuse" -eq 0 ] || [ ! -x "$root/usr/bin/make" ]; then
	rm -rf --one-file-system "$root" "$logdir"
	mkdir -p "$root"
	aqm_log "debootstrap bookworm (minbase) into $root"
	t0=$(date +%s)
	debootstrap --variant=minbase bookworm "$root" "$mirror" >"$root.debootstrap.log" 2>&1 ||
		aqm_die "debootstrap failed (log: $root.debootstrap.log)"
	# the suites of an installed Debian 12: the release, its updates and
	# its security archive
	cat >"$root/etc/apt/sources.list" <<-EOF
		deb $mirror bookworm main
		deb $mirror bookworm-updates main
		deb ${mirror%/debian}/debian-security bookworm-security main
	EOF
	# what the machine, not the project, provides: name resolution and the
	# local CAs that its network needs (an egress proxy's), which
	# ca-certificates adds to the system bundle when it is installed
	cp /etc/resolv.conf "$root/etc/resolv.conf"
	if compgen -G '/usr/local/share/ca-certificates/*.crt' >/dev/null; then
		mkdir -p "$root/usr/local/share/ca-certificates"
		cp /usr/local/share/ca-certificates/*.crt "$root/usr/local/share/ca-certificates/"
	fi
	mount_all
	aqm_log "the README's prerequisites: apt-get install git make"
	in_root 'apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq git make >/dev/null'
	aqm_log "fresh root ready in $(($(date +%s) - t0)) s"
fi
mount_all
mkdir -p "$logdir"

# clone HEAD of this checkout, as a newcomer clones main
origin="$root/mnt/linux-aqm-origin"
mkdir -p "$origin"
mount --bind -o ro "$AQM_TOP" "$origin"
in_root "rm -rf $clone && git clone -q /mnt/linux-aqm-origin $clone"
umount "$origin"
aqm_log "cloned $(git -C "$AQM_TOP" rev-parse --short HEAD) into $clone"

if [ -n "$kernel_from" ]; then
	[ -f "$kernel_from/.done" ] || aqm_die "$kernel_from is not a built test kernel"
	dest="$root/root/.cache/linux-aqm/kernel/$(basename "$kernel_from")"
	if [ ! -f "$dest/.done" ]; then
		mkdir -p "$(dirname "$dest")"
		cp -a "$kernel_from" "$dest"
	fi
	aqm_log "NOT A COLD RUN: test kernel copied from $kernel_from"
fi

rc_all=0
summary=()
i=0
for c in "${cmds[@]}"; do
	i=$((i + 1))
	log="$logdir/$i-${c//[^A-Za-z0-9]/_}.log"
	aqm_log "run: $c (log: $log)"
	t0=$(date +%s)
	rc=0
	in_root "cd $clone && $c" </dev/null >"$log" 2>&1 || rc=$?
	secs=$(($(date +%s) - t0))
	[ "$rc" -eq 0 ] || rc_all=1
	line="'$c': exit $rc in $secs s; $(grep -E '^[0-9]+ passed, ' "$log" | tail -n 1 || true)"
	summary+=("$line")
	aqm_log "$line"
	[ "$rc" -eq 0 ] || tail -n 15 "$log" >&2
done

echo "fresh-check: $(git -C "$AQM_TOP" rev-parse --short HEAD) in a new Debian 12 root ($root)${kernel_from:+, test kernel copied (not cold)}"
printf '  %s\n' "${summary[@]}"
echo "  total $(($(date +%s) - t_all)) s"
exit "$rc_all"
