# shellcheck shell=bash
# Common definitions for the linux-aqm scripts: where things live.
# Sourced, never run.

AQM_TOP=$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)
AQM_CACHE=${LINUX_AQM_CACHE:-${XDG_CACHE_HOME:-$HOME/.cache}/linux-aqm}
# Debian package whose kernel source the test kernel is built from.
AQM_KSRC_PKG=${AQM_KSRC_PKG:-linux-source-6.12}
export AQM_TOP AQM_CACHE AQM_KSRC_PKG

aqm_log() {
	printf '[%s] %s\n' "$(basename "$0")" "$*" >&2
}

aqm_die() {
	aqm_log "error: $*"
	exit 1
}

# Run a command as root: directly when we are root, else through sudo.
aqm_root() {
	if [ "$(id -u)" -eq 0 ]; then
		"$@"
	else
		sudo "$@"
	fi
}
