#!/usr/bin/env bash
# Install what building and testing linux-aqm needs on Debian 12:
# Debian packages (apt-get) and a Python venv with the PyPI tools in
# $AQM_VENV. Skips the work when nothing changed since the last run.
#
# Usage: deps.sh [--deb-src]
#   --deb-src  also add a deb-src entry for this Debian suite, so that
#              scripts/tc/iproute2-src.sh can fetch iproute2's source.
set -euo pipefail
# shellcheck source=scripts/lib/common.sh
. "$(dirname "$0")/lib/common.sh"

# the packages of every tool in AQM_TOOLS (scripts/lib/common.sh), and
# the libraries, headers and sources the builds need (libnl: the benchmark's
# aqmstat, scripts/bench)
pkgs=(
	"$AQM_KSRC_PKG" linux-headers-amd64 libelf-dev libssl-dev libmnl-dev
	libcap-dev libnl-3-dev libnl-route-3-dev python3-venv python3-pip
	ca-certificates
)
for t in "${AQM_TOOLS[@]}"; do
	p=${t#*:}
	[ "$p" = venv ] || [[ " ${pkgs[*]} " == *" $p "* ]] || pkgs+=("$p")
done

# all_tools: every command of AQM_TOOLS is found
all_tools() {
	local t
	for t in "${AQM_TOOLS[@]}"; do
		command -v "${t%%:*}" >/dev/null 2>&1 || return 1
	done
}

want_src=0
[ "${1:-}" = "--deb-src" ] && want_src=1

stamp="$AQM_CACHE/deps-$(cat "$0" "$AQM_TOP/scripts/lib/common.sh" "$AQM_TOP/scripts/requirements.txt" | sha256sum | cut -c1-12)-$want_src"
if [ -f "$stamp" ] && dpkg-query -W "${pkgs[@]}" >/dev/null 2>&1 && all_tools; then
	exit 0
fi

if [ "$want_src" -eq 1 ]; then
	"$AQM_TOP/scripts/tc/iproute2-src.sh" --add-deb-src-only
fi

missing=()
for p in "${pkgs[@]}"; do
	dpkg-query -W -f '${Status}' "$p" 2>/dev/null | grep -q 'ok installed' ||
		missing+=("$p")
done
if [ "${#missing[@]}" -gt 0 ] || [ "$want_src" -eq 1 ]; then
	aqm_log "apt-get install ${missing[*]}"
	aqm_root apt-get update -qq
	[ "${#missing[@]}" -eq 0 ] ||
		aqm_root env DEBIAN_FRONTEND=noninteractive \
			apt-get install -y -qq --no-install-recommends "${missing[@]}" >/dev/null
fi

mkdir -p "$AQM_CACHE"
if [ ! -x "$AQM_VENV/bin/python3" ]; then
	/usr/bin/python3 -m venv "$AQM_VENV"
fi
"$AQM_VENV/bin/pip" install -q --disable-pip-version-check \
	-r "$AQM_TOP/scripts/requirements.txt"
# what was installed must be what the scripts run
aqm_need "${AQM_TOOLS[@]%%:*}"
touch "$stamp"
aqm_log "dependencies ready"
