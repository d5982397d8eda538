#!/usr/bin/env bash
# Print the directory from which the installed tc loads q_*.so plugins.
set -euo pipefail
tc=$(command -v tc || echo /usr/sbin/tc)
if [ -x "$tc" ]; then
	dir=$(strings "$tc" | grep -m1 -E '^/usr/lib[^ ]*/tc/?$' || true)
	if [ -n "$dir" ]; then
		echo "${dir%/}"
		exit 0
	fi
fi
echo "/usr/lib/$(gcc -print-multiarch)/tc"
