#!/usr/bin/env bash
# The harness's connect phase (experiment key long_connect, run.Bench.
# connect_first) end to end on bench-connect.toml: every long flow connects
# before the qdisc under test goes on, the run's time begins then (its
# warm-up and window moved by the phase), and the window's flows and
# counters are those of the qdisc under test.
set -euo pipefail
# shellcheck source=selftests/net/lib.sh
. "$(dirname "$0")/lib.sh"

top=$(cd "$(dirname "$0")/../.." && pwd)
python=${AQM_CACHE:?}/venv/bin/python3
out=$(mktemp -d)
trap 'rm -rf "$out"' EXIT

tap_plan 6
rc=0
PYTHONPATH="$top/scripts" "$python" -m aqmtools.bench.run \
	"$top/selftests/net/bench-connect.toml" "$out" "$top/scripts/bench" 2>"$out/run.err" || rc=$?
tail -n 5 "$out/run.err" >&2
tap_result "$rc" "the experiment runs to the end"

rc=0
PYTHONPATH="$top/scripts" "$python" - "$out/red-load100-ecn1-s3" "$_tap_n" <<'PY' || rc=$?
import json, sys
from pathlib import Path
from aqmtools.bench.stats import leaf, read_run
rd, n = Path(sys.argv[1]), int(sys.argv[2])
meta = json.loads((rd / "run.json").read_text())
r = read_run(rd)
before = leaf(json.loads((rd / "tc-before.json").read_text())["down"])
after = leaf(json.loads((rd / "tc-after.json").read_text())["down"])
first = json.loads((rd / "aqmstat-down.jsonl").read_text().splitlines()[0])
c = meta.get("connect_s", -1.0)
checks = [
    ("every long flow connected within the phase",
     meta.get("connect_streams") == 8 and 0 < c < 20,
     (meta.get("connect_streams"), round(c, 2), round(meta["connect_polled_s"], 2),
      r.tcp_connected_s)),
    ("the handshakes crossed in the first band, none dropped (10 SYN-ACKs at least)",
     meta["connect_bands"]["first"][0] >= 10 and meta["connect_bands"]["first"][1] == 0,
     meta["connect_bands"]),
    ("the run's time begins at the phase's end",
     meta["warmup_s"] == 2 + c and meta["duration_s"] == 8 + c and meta["long_connect_s"] == 20,
     (round(meta["warmup_s"], 2), round(meta["duration_s"], 2))),
    ("RED is the qdisc counted, from its start (not the phase's pfifo)",
     before["kind"] == after["kind"] == first["kind"] == "red"
     and before["packets"] < after["packets"] / 4,
     (before["kind"], before["packets"], first["kind"], after["kind"], after["packets"])),
    ("eight flows with a goodput in the window, and no problem",
     len(r.goodputs) == 8 and min(r.goodputs) > 0 and r.problems == [],
     ([round(g / 1e6, 2) for g in r.goodputs], r.problems)),
]
failed = 0
for desc, ok, detail in checks:
    n += 1
    failed += not ok
    print(f"{'ok' if ok else 'not ok'} {n} {desc} ({detail})")
sys.exit(1 if failed else 0)
PY
exit $((rc != 0 || _tap_failed > 0))
