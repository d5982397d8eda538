#!/usr/bin/env bash
# Inside the test VM (the demo, selftests/vm/guest.sh): hold packet timestamps
# on until killed (run it in the background before any traffic).
#
# Each ping turns the kernel's netstamp static key on, and later off, and
# the kernel patches the code of the receive path to do it. In the emulated
# VM, patching it while packets flow has crashed the guest: "Oops: int3"
# in netif_rx_internal, the breakpoint of the patch still seen after it (2
# demo runs of 2 on one build of the test kernel, none on the build
# before). A socket that asks for timestamps from the start keeps the key
# on, so that later users only count and nothing is patched under load.
set -euo pipefail
exec python3 -c 'import socket, time
s = socket.socket(socket.AF_INET, socket.SOCK_DGRAM)
s.setsockopt(socket.SOL_SOCKET, socket.SO_TIMESTAMP, 1)
while True:
    time.sleep(3600)'
