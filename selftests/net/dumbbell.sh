#!/usr/bin/env bash
# The test harness itself: the dumbbell comes up, its RTT is what netem was
# asked for, and TCP through it is limited by the htb bottleneck, where the
# queue builds (so that AQM tests measure the qdisc they think they do).
set -euo pipefail
# shellcheck source=selftests/net/lib.sh
. "$(dirname "$0")/lib.sh"

tap_plan 7
dumbbell_setup 40

tap_cmd "IPv4 reaches the receiver through the router" ns_snd ping -c 2 -W 2 -q "$RCV_IP"
tap_cmd "IPv6 reaches the receiver through the router" ns_snd ping -6 -c 2 -W 2 -q "$RCV_IP6"

rtt=$(ns_snd ping -c 5 -i 0.2 -q "$RCV_IP" | awk -F/ '/^rtt/ { print $5 }')
tap_cmp "ping RTT at least the 40 ms of netem" "$rtt" ">=" 40
tap_cmp "ping RTT idle under 60 ms" "$rtt" "<" 60

dumbbell_qdisc pfifo limit 200
qlen_sampler 8 0.5 >"/tmp/qlen.$$" &
sampler=$!
json=$(iperf_run 8 4)
wait "$sampler"
mbit=$(echo "$json" | json_get 'round(j["end"]["sum_received"]["bits_per_second"] / 1e6, 2)')
tap_cmp "4 TCP flows fill the 10 Mbit/s bottleneck (Mbit/s)" "$mbit" ">=" 8
tap_cmp "and do not exceed it (Mbit/s)" "$mbit" "<=" 10.2
qmax=$(sort -n "/tmp/qlen.$$" | tail -n 1)
tap_cmp "the queue builds at the bottleneck (max backlog, packets)" "${qmax:-0}" ">=" 50
rm -f "/tmp/qlen.$$"
tap_exit
