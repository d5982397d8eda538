#!/usr/bin/env bash
# The emulated-WAN harness (make bench) end to end on a small experiment
# (bench-smoke.toml): the run finishes, netem drops nothing, the workloads
# and the samplers produce data that agrees with the bottleneck's counters,
# and the report renders. The figures are the harness's, not the qdiscs'.
set -euo pipefail
# shellcheck source=selftests/net/lib.sh
. "$(dirname "$0")/lib.sh"

top=$(cd "$(dirname "$0")/../.." && pwd)
python=${AQM_CACHE:?}/venv/bin/python3
out=$(mktemp -d)
trap 'rm -rf "$out"' EXIT

tap_plan 9
for t in webgen aqmstat; do
	[ -x "$top/scripts/bench/$t" ] || {
		tap_result 1 "scripts/bench/$t is built (make -C scripts/bench)"
		tap_exit
	}
done

rc=0
PYTHONPATH="$top/scripts" "$python" -m aqmtools.bench.run \
	"$top/selftests/net/bench-smoke.toml" "$out" "$top/scripts/bench" 2>"$out/run.err" || rc=$?
tail -n 5 "$out/run.err" >&2
tap_result "$rc" "the experiment runs to the end"

# check EXPR: a Python expression over the runs' figures, run (dict by
# qdisc name of aqmtools.bench.stats.Run) and cal (calibration.json)
# shellcheck disable=SC2317 # called through tap_cmd
check() {
	PYTHONPATH="$top/scripts" "$python" - "$out" "$1" <<-'PY'
		import json, sys
		from pathlib import Path
		from aqmtools.bench.stats import read_run
		out = Path(sys.argv[1])
		run = {r.meta["qdisc"]: r for r in map(read_run, (p.parent for p in out.glob("*/run.json")))}
		cal = json.loads((out / "calibration" / "calibration.json").read_text())
		value = eval(sys.argv[2])
		print(value)
		sys.exit(0 if value is True else 1)
	PY
}
tap_cmd "calibration measured a positive load per user" \
	check 'cal["per_user_bps"] > 0 and cal["users"] == 10'
tap_cmd "both runs exist and netem dropped nothing in either" \
	check 'sorted(run) == ["dcn", "droptail"] and all(r.meta["valid"] for r in run.values())'
tap_cmd "web exchanges completed in every run, none failed" \
	check 'all(len(r.web.done) >= 20 and r.web.errors == 0 for r in run.values())'
tap_cmd "two long flows with a goodput each" \
	check 'all(len(r.goodputs) == 2 and min(r.goodputs) > 0 for r in run.values())'
tap_cmd "the bottleneck carried the traffic, at most at its rate" \
	check 'all(0.3 < r.link.utilization <= 1.02 for r in run.values())'
tap_cmd "aqmstat sampled dcn's state: pref and HB flows" \
	check '(lambda recs: len(recs) > 100 and any(x["hb_flows"] > 0 for x in recs) and all("pref" in x for x in recs))([json.loads(l) for l in (out / "dcn-load90-ecn0" / "aqmstat-down.jsonl").read_text().splitlines()])'
tap_cmd "aqmstat's last packet count is the qdisc's (idle at the end)" \
	check 'all(json.loads((out / d / "aqmstat-down.jsonl").read_text().splitlines()[-1])["packets"] == [q for q in json.loads((out / d / "tc-after.json").read_text())["down"] if q["handle"] == "10:"][0]["packets"] for d in ("dcn-load90-ecn0", "droptail-load90-ecn0"))'
rc=0
PYTHONPATH="$top/scripts" "$python" -m aqmtools.bench.report "$out" >/dev/null 2>&1 || rc=$?
[ -s "$out/rt-cdf-load90-ecn0.png" ] || rc=1
tap_result "$rc" "the report renders the plots and the summary"
tap_exit
