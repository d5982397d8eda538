#!/usr/bin/env bash
# selftests/net/sfb.sh with its comparison against Linux's own sfb
# (AQM_SFB_LINUX=1): the issue's mix through Linux's module, loaded in
# place of ours and driven by the distribution's tc, against ours; and
# scripts/load.sh refusing to load ours beside it, with its message. Not
# part of make check (its budget): scripts/check.sh net:sfb-linux.
# aqm-selftest: long
set -euo pipefail
AQM_SFB_LINUX=1 exec bash "$(dirname "$0")/sfb.sh"
