#!/usr/bin/env bash
# The emulated-WAN harness (make bench) end to end on a small experiment
# (bench-smoke.toml): the run finishes, netem drops nothing, the workloads
# and the samplers produce data that agrees with the bottleneck's counters.
# The figures are the harness's, not the qdiscs'. (The report's plots are
# tested on the host, scripts/tests/test_bench_stats.py: importing
# matplotlib in the emulated guest alone takes long.)
set -euo pipefail
# shellcheck source=selftests/net/lib.sh
. "$(dirname "$0")/lib.sh"

top=$(cd "$(dirname "$0")/../.." && pwd)
python=${AQM_CACHE:?}/venv/bin/python3
out=$(mktemp -d)
trap 'rm -rf "$out"' EXIT

tap_plan 8
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

# check DESC COND DETAIL: a TAP result for COND, a Python expression over
# the runs' figures (run: aqmtools.bench.stats.Run by qdisc name; cal:
# calibration.json; last: the last aqmstat record of a run; leaf: the
# qdisc under test in a run's tc-after.json), with DETAIL's value shown.
# The checks are collected and evaluated by one python3 at the end (it
# takes seconds to start and to read the runs in the emulated VM).
checks=()
check() {
	checks+=("$1" "$2" "$3")
}
check "calibration measured a positive load per user" \
	'cal["per_user_bps"] > 0 and cal["users"] == 10' 'round(cal["per_user_bps"])'
check "both runs exist and netem dropped nothing in either" \
	'sorted(run) == ["dcn", "droptail"] and all(r.meta["valid"] for r in run.values())' \
	'{q: r.meta["netem_drops"] for q, r in run.items()}'
check "web exchanges completed in every run, none failed" \
	'all(len(r.web.done) >= 20 and r.web.errors == 0 for r in run.values())' \
	'{q: (len(r.web.done), r.web.errors) for q, r in run.items()}'
check "two long flows with a goodput each" \
	'all(len(r.goodputs) == 2 and min(r.goodputs) > 0 for r in run.values())' \
	'{q: [round(g / 1e6, 2) for g in r.goodputs] for q, r in run.items()}'
check "the bottleneck carried the traffic, at most at its rate" \
	'all(0.3 < r.link.utilization <= 1.02 for r in run.values())' \
	'{q: round(r.link.utilization, 3) for q, r in run.items()}'
check "aqmstat sampled dcn's state: pref and HB flows" \
	'(lambda recs: len(recs) > 100 and any(x["hb_flows"] > 0 for x in recs) and all("pref" in x for x in recs))([json.loads(l) for l in (rd["dcn"] / "aqmstat-down.jsonl").read_text().splitlines()])' \
	'len((rd["dcn"] / "aqmstat-down.jsonl").read_text().splitlines())'
check "aqmstat's last packet count is the qdisc's (idle at the end)" \
	'all(last(q)["packets"] == leaf(q)["packets"] for q in run)' \
	'{q: (last(q)["t"], last(q)["packets"], leaf(q)["packets"]) for q in run}'

rc=0
PYTHONPATH="$top/scripts" "$python" - "$out" "$_tap_n" "${checks[@]}" <<'PY' || rc=$?
import json, sys
from pathlib import Path
from aqmtools.bench.stats import leaf as leaf_of, read_run
out = Path(sys.argv[1])
n, args = int(sys.argv[2]), sys.argv[3:]
run = {r.meta["qdisc"]: r for r in map(read_run, (p.parent for p in out.glob("*/run.json")))}
cal = json.loads((out / "calibration" / "calibration.json").read_text())
rd = {q: out / f"{q}-load90-ecn0-s3" for q in run}


def last(q):
    return json.loads((rd[q] / "aqmstat-down.jsonl").read_text().splitlines()[-1])


def leaf(q):
    return leaf_of(json.loads((rd[q] / "tc-after.json").read_text())["down"])


failed = 0
for i in range(0, len(args), 3):
    desc, cond, what = args[i : i + 3]
    try:
        ok = eval(cond) is True
        detail = eval(what)
    except Exception as e:
        ok, detail = False, repr(e)
    n += 1
    failed += not ok
    print(f"{'ok' if ok else 'not ok'} {n} {desc} ({detail})")
sys.exit(1 if failed else 0)
PY
exit $((rc != 0 || _tap_failed > 0))
