#!/usr/bin/env bash
# The kernel's checks of requests that tc cannot build (two exclusive
# options, a u8 flag of 2, a ratio nest without its denominator, a value
# outside the policy range, an unknown attribute): selftests/net/nlpolicy.json
# sent through pyroute2 by scripts/aqmtools/nlcases.py, one TAP line per
# case, on a dummy device in a namespace of its own.
# aqm-selftest: beside-tdc
set -euo pipefail

top=$(cd "$(dirname "$0")/../.." && pwd)
python=${AQM_CACHE:?}/venv/bin/python3
ns="aqm-nl-$$"

cleanup() { ip netns del "$ns" 2>/dev/null || true; }
trap cleanup EXIT

ip netns add "$ns"
ip -n "$ns" link add dummy1 type dummy
ip -n "$ns" link set dummy1 up
ip netns exec "$ns" env PYTHONPATH="$top/scripts" \
	"$python" -m aqmtools.nlcases dummy1 "$top/selftests/net/nlpolicy.json"
