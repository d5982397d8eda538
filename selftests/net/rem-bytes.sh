#!/usr/bin/env bash
# sch_rem's rate mismatch x - c with rate set, in packet mode: c is the
# rate's bytes per period over avpkt, so x must count the arrivals' bytes
# over avpkt too (1c3514a). Before, x counted packets, and small packets
# raised the price while their bytes were far below the rate.
#  - rem as the root of a dummy device (every packet leaves at once, the
#    queue term is alpha (0 - qref) = -0.01 a period with alpha 0.01,
#    qref 1), rate 100 kbit/s and avpkt 1514 (c = 0.0165 a period);
#  - pings of 98 bytes on the wire, at most 100 a second (ping -i 0.01):
#    at most 78 kbit/s, below the rate. Counting bytes, x - c + alpha (b -
#    b*) < 0 in every period: the price stays 0. Counting packets (before
#    1c3514a), 13 pings a second or more raise it.
# aqm-selftest: beside-tdc
set -euo pipefail
# shellcheck source=selftests/net/lib.sh
. "$(dirname "$0")/lib.sh"

ns="aqm-rembytes-$$"
tap_plan 2
trap 'ip netns del "$ns" 2>/dev/null || true' EXIT
dummy_leaf_setup "$ns" none
tc -n "$ns" qdisc add dev dummy1 root handle 1: rem limit 100 qref 1 alpha 0.01 \
	rate 100kbit avpkt 1514

t0=$SECONDS
ip netns exec "$ns" ping -q -c 500 -i 0.01 -s 56 -W 0.01 10.99.0.2 >/dev/null 2>&1 || true
secs=$((SECONDS - t0))
read -r sent price <<<"$(tc -n "$ns" -s -j qdisc show dev dummy1 |
	python3 -c 'import json, sys; q = json.load(sys.stdin)[0]; print(q["packets"], q["price"])')"
echo "# $sent packets in about $secs s, price $price packets" >&2
# the case that tells the two apart: more than 13 packets a second
tap_cmp "the pings came at more than 13 a second (packets)" "$sent" ">" $((13 * (secs + 1)))
tap_cmp "traffic below the rate in bytes leaves the price at 0 (packets)" "$price" "==" 0
tap_exit
