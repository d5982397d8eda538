"""make bench-pps: pktgen's result text, the flows, the plan, the figures."""

from __future__ import annotations

import ipaddress
import json
import lzma
import math
import subprocess
from itertools import islice
from pathlib import Path

import pytest

from aqmtools.bench import pps

GUEST = Path(__file__).resolve().parents[1] / "bench" / "pps-guest.sh"

# /proc/net/pktgen/pps0 after a measured run with the queue empty, as
# pktgen_if_show() in the test kernel's net/core/pktgen.c (6.12) prints it
# for pps-guest.sh's settings at 1,000,000 flows: SHARED off (no flag
# printed), no flows of pktgen's own, and after the stop pktgen holds no
# packet, so show_results() printed -1 frags (\x20: pktgen's trailing
# spaces)
EMPTY = """\
Params: count 0  min_pkt_size: 60  max_pkt_size: 60
     frags: 0  delay: 0  clone_skb: 0  ifname: pps0
     flows: 0 flowlen: 0
     queue_map_min: 0  queue_map_max: 0
     dst_min: 192.0.2.1  dst_max:\x20
     src_min: 198.18.0.1  src_max: 198.18.0.64
     src_mac: 6e:2f:1a:55:0c:9b dst_mac: 02:00:00:00:00:01
     udp_src_min: 1024  udp_src_max: 16649  udp_dst_min: 9  udp_dst_max: 9
     src_mac_count: 0  dst_mac_count: 0
     xmit_mode: xmit_queue
     Flags:\x20
Current:
     pkts-sofar: 1834567  errors: 0
     started: 81234567us  stopped: 83184440us idle: 12us
     seq_num: 1834567  cur_dst_mac_offset: 0  cur_src_mac_offset: 0
     cur_saddr: 198.18.0.8  cur_daddr: 192.0.2.1
     cur_udp_dst: 9  cur_udp_src: 5591
     cur_queue_map: 0
     flows: 0
Result: OK: 1949873(c1949861+d12) usec, 1834567 (60byte,-1frags)
  940864pps 451Mb/sec (451614720bps) errors: 0
"""

# the same with the queue standing under htb at 10 Mbit/s: pktgen's pps
# counts the packets sent only, its errors the packets dropped
STANDING = """\
Params: count 0  min_pkt_size: 60  max_pkt_size: 60
     frags: 0  delay: 0  clone_skb: 0  ifname: pps0
     flows: 0 flowlen: 0
     queue_map_min: 0  queue_map_max: 0
     dst_min: 192.0.2.1  dst_max:\x20
     src_min: 198.18.0.1  src_max: 198.18.0.1
     src_mac: 6e:2f:1a:55:0c:9b dst_mac: 02:00:00:00:00:01
     udp_src_min: 1024  udp_src_max: 2024  udp_dst_min: 9  udp_dst_max: 9
     src_mac_count: 0  dst_mac_count: 0
     xmit_mode: xmit_queue
     Flags:\x20
Current:
     pkts-sofar: 40600  errors: 1398765
     started: 91234567us  stopped: 93184779us idle: 0us
     seq_num: 40600  cur_dst_mac_offset: 0  cur_src_mac_offset: 0
     cur_saddr: 198.18.0.1  cur_daddr: 192.0.2.1
     cur_udp_dst: 9  cur_udp_src: 1389
     cur_queue_map: 0
     flows: 0
Result: OK: 1950212(c1950212+d0) usec, 40600 (60byte,0frags)
  20818pps 9Mb/sec (9992640bps) errors: 1398765
"""


# --- pktgen's result -----------------------------------------------------------
def test_parse_result_empty_queue() -> None:
    r = pps.parse_result(EMPTY)
    assert (r.elapsed_us, r.busy_us, r.idle_us) == (1949873, 1949861, 12)
    assert (r.sent, r.errors, r.offered, r.pkt_size) == (1834567, 0, 1834567, 60)
    assert (r.pps, r.bps) == (940864, 451614720)
    # pktgen's own pps is the same figure: sent over elapsed
    assert r.ns_per_packet == pytest.approx(1e9 / r.pps, rel=1e-5)
    assert r.ns_per_packet == pytest.approx(1949873 * 1000 / 1834567)
    assert r.drop_share == 0


def test_parse_result_standing_queue_counts_the_drops() -> None:
    r = pps.parse_result(STANDING)
    assert (r.sent, r.errors) == (40600, 1398765)
    assert r.offered == 40600 + 1398765
    # the cost is of every packet offered, not of pktgen's pps (sent only)
    assert r.ns_per_packet == pytest.approx(1950212 * 1000 / 1439365)
    assert 1e9 / r.pps > 30 * r.ns_per_packet
    assert r.drop_share == pytest.approx(1398765 / 1439365)


def test_parse_result_without_a_run() -> None:
    idle = EMPTY.split("Result:")[0] + "Result: Idle\n"
    with pytest.raises(ValueError, match="Result: Idle"):
        pps.parse_result(idle)
    with pytest.raises(ValueError, match="no Result line"):
        pps.parse_result("Params: count 0\n")


def test_parse_result_of_pktgen_format() -> None:
    """The line show_results() writes, for other figures."""
    line = (
        "Result: OK: 5(c4+d1) usec, 7 (1514byte,3frags)\n"
        "  1400000pps 16958Mb/sec (16958400000bps) errors: 2"
    )
    r = pps.parse_result(line)
    assert (r.elapsed_us, r.sent, r.pkt_size, r.errors, r.offered) == (5, 7, 1514, 2, 9)
    assert r.ns_per_packet == pytest.approx(5000 / 9)


# --- flows -------------------------------------------------------------------------
def test_unitary_divisors() -> None:
    assert pps.unitary_divisors(1) == [1]
    assert pps.unitary_divisors(1000) == [1, 8, 125, 1000]
    assert pps.unitary_divisors(1_000_000) == [1, 64, 15625, 1_000_000]
    assert pps.unitary_divisors(12) == [1, 3, 4, 12]
    with pytest.raises(ValueError):
        pps.unitary_divisors(0)


@pytest.mark.parametrize(
    ("n", "addrs", "ports"),
    [(1, 1, 1), (1000, 1, 1000), (100_000, 32, 3125), (1_000_000, 64, 15625), (65536, 65536, 1)],
)
def test_split_flows(n: int, addrs: int, ports: int) -> None:
    s = pps.split_flows(n)
    assert (s.addrs, s.ports, s.flows) == (addrs, ports, n)
    assert math.gcd(s.addrs, s.ports) == 1


def test_split_flows_every_n_up_to_3000() -> None:
    for n in range(1, 3001):
        s = pps.split_flows(n)
        assert s.flows == n and math.gcd(s.addrs, s.ports) == 1
        assert s.addrs <= pps.ADDR_SPAN and s.ports <= pps.PORT_SPAN


def test_split_flows_refuses_what_it_cannot_make() -> None:
    with pytest.raises(ValueError, match="no coprime split"):
        pps.split_flows(77, max_addrs=5, max_ports=5)
    # 2^17: no odd part to put on the ports, too many for either alone
    with pytest.raises(ValueError):
        pps.split_flows(2**17, max_addrs=2**16, max_ports=2**16)


def test_pktgen_settings() -> None:
    p = pps.split_flows(1_000_000).pktgen()
    assert p == {
        "src_min": "198.18.0.1",
        "src_max": "198.18.0.64",
        "udp_src_min": "1024",
        "udp_src_max": "16649",
    }
    # one flow: pktgen leaves address and port alone (min == max)
    assert pps.split_flows(1).pktgen() == {
        "src_min": "198.18.0.1",
        "src_max": "198.18.0.1",
        "udp_src_min": "1024",
        "udp_src_max": "1024",
    }
    # the widest: udp_src_max, exclusive, still a u16; the addresses in
    # 198.18.0.0/15
    p = pps.FlowSplit(pps.ADDR_SPAN, pps.PORT_SPAN).pktgen()
    assert int(p["udp_src_max"]) == 65535
    assert ipaddress.IPv4Address(p["src_max"]) in ipaddress.IPv4Network("198.18.0.0/15")


@pytest.mark.parametrize("n", [1, 2, 1000, 4096, 100_000, 1_000_000])
def test_pktgen_sends_exactly_n_flows_round_robin(n: int) -> None:
    """pktgen's stepping (the model of mod_cur_headers()) with the
    settings of N flows: the first N packets are N distinct flows, and
    the next ones repeat them in the same order."""
    seq = list(islice(pps.pktgen_flows(pps.split_flows(n).pktgen(), n + 1000), n + 1000))
    assert len(set(seq[:n])) == n
    assert all(seq[k] == seq[k - n] for k in range(n, n + 1000))
    addrs = {a for a, _ in seq[:n]}
    ports = {p for _, p in seq[:n]}
    s = pps.split_flows(n)
    assert (len(addrs), len(ports)) == (s.addrs, s.ports)
    assert max(ports) < 65535 and min(ports) == pps.PORT_BASE


def test_ranges_that_share_a_factor_give_fewer_flows() -> None:
    """Why the split is coprime: 4 addresses x 6 ports step together
    through lcm(4, 6) = 12 pairs, not 24."""
    settings = pps.FlowSplit(4, 6).pktgen()
    seq = list(pps.pktgen_flows(settings, 24))
    assert len(set(seq)) == 12


def test_pktgen_model_follows_pktgens_bounds() -> None:
    """The address range includes src_max, the port range excludes
    udp_src_max, and each steps before the packet is built."""
    settings = {
        "src_min": "10.0.0.1",
        "src_max": "10.0.0.3",
        "udp_src_min": "100",
        "udp_src_max": "102",
    }
    seq = list(pps.pktgen_flows(settings, 6))
    a = int(ipaddress.IPv4Address("10.0.0.1"))
    assert seq == [(a + 1, 101), (a + 2, 100), (a, 101), (a + 1, 100), (a + 2, 101), (a, 100)]


# --- the plan ------------------------------------------------------------------
def test_plan_runs_every_qdisc_once_per_cell_and_round() -> None:
    steps = pps.plan()
    inst = [s for s in steps if s.what == "instance"]
    meas = [s for s in steps if s.what == "measure"]
    assert [s.qdisc.name for s in inst] == [q.name for q in pps.QDISCS if not q.baseline]
    # noqueue with the queue empty only
    assert len(meas) == 5 * 4 * (len(pps.QDISCS) + len(pps.QDISCS) - 1) == 620
    seen: dict[tuple[int, str, int], list[str]] = {}
    for s in meas:
        seen.setdefault((s.round, s.state, s.flows), []).append(s.qdisc.name)
    for (_, state, _), names in seen.items():
        want = [q.name for q in pps.QDISCS if state == "empty" or not q.baseline]
        assert sorted(names) == sorted(want)
    # interleaved: a round ends before the next begins, and the orders differ
    rounds = [s.round for s in meas]
    assert rounds == sorted(rounds)
    orders = {r: seen[(r, "empty", 1000)] for r in range(1, 6)}
    assert len({tuple(o) for o in orders.values()}) > 1
    assert pps.plan() == steps


def test_plan_lines_parse_as_the_guest_reads_them() -> None:
    steps = pps.plan(flows=[1_000_000], rounds=1)
    lines = [s.line() for s in steps]
    assert lines[0] == "instance - - - pfifo pfifo - - - - - pfifo limit 1000"
    red = next(x for x in lines if x.startswith("measure") and " red " in x)
    # read -r what round state flows name kind module smin smax pmin pmax spec
    f = red.split(" ", 11)
    assert f[:11] == [
        "measure",
        "1",
        f[2],
        "1000000",
        "red",
        "red",
        "-",
        "198.18.0.1",
        "198.18.0.64",
        "1024",
        "16649",
    ]
    assert f[11] == pps.BY_NAME["red"].spec
    noq = next(x for x in lines if " noqueue " in x)
    assert noq.endswith(" -") and " empty " in noq
    # both sfb, one kind: which module each runs on
    sfb = [tuple(x.split(" ", 11)[4:7]) for x in lines if x.startswith("measure") and " sfb " in x]
    assert sorted(sfb) == [("sfb", "sfb", "ours")] * 2 + [("sfb-linux", "sfb", "linux")] * 2


def test_plan_cli(capsys: pytest.CaptureFixture[str]) -> None:
    assert pps.main(["pps", "plan", "--count"]) == 0
    assert capsys.readouterr().out.split() == ["620", "15"]
    assert pps.main(["pps", "plan", "--rounds", "2", "--flows", "1,1_000", "--only", "dcn"]) == 0
    lines = capsys.readouterr().out.splitlines()
    assert len(lines) == 1 + 2 * 2 * 2
    with pytest.raises(SystemExit):
        pps.main(["pps", "plan", "--only", "cake"])


# --- the figures ---------------------------------------------------------------
def _m(r: int, state: str, flows: int, q: str, ns: float, errors: int = 0) -> pps.Measurement:
    """A measurement of NS per packet: 2 s, so many packets."""
    offered = round(2e9 / ns)
    res = pps.PktgenResult(2_000_000, 2_000_000, 0, offered - errors, 60, 0, 0, errors)
    return pps.Measurement(r, state, flows, q, res, None, 0)


def test_medians_spreads_and_ratios() -> None:
    ms = [_m(r, "empty", 1000, "fq_codel", ns) for r, ns in enumerate([400, 420, 380, 1000, 410])]
    ms += [_m(r, "empty", 1000, "dcn", ns) for r, ns in enumerate([430, 425, 10, 435])]
    med = pps.medians(ms)
    assert med[("empty", 1000, "fq_codel")] == pytest.approx(410, rel=1e-4)
    # an even count: the mean of the middle two
    assert med[("empty", 1000, "dcn")] == pytest.approx(427.5, rel=1e-4)
    assert pps.ratio(med, "empty", 1000, "dcn", "fq_codel") == pytest.approx(427.5 / 410, rel=1e-4)
    assert pps.ratio(med, "empty", 1000, "dcn", "pie") is None
    assert pps.ratio(med, "standing", 1000, "dcn", "fq_codel") is None
    spr = pps.spreads(ms)
    assert spr[("empty", 1000, "fq_codel")] == pytest.approx((1000 - 380) / 410, rel=1e-3)


def test_scaling_and_verdicts() -> None:
    med = {("empty", 1000, "dcn"): 400.0, ("empty", 1_000_000, "dcn"): 500.0}
    assert pps.scaling(med, "empty", "dcn", 1000, 1_000_000) == pytest.approx(1.25)
    assert pps.scaling(med, "standing", "dcn", 1000, 1_000_000) is None
    assert pps.verdict(1.25, 1.2) == "missed"
    assert pps.verdict(1.2, 1.2) == "met"
    assert pps.verdict(None, 1.2) == "not measured"
    assert [g.text for g in pps.GOALS] == [
        "dcn <= 1.05 x fq_codel",
        "afd <= 1.05 x fq_codel",
        "pi <= pie",
        "blue <= pie",
        "sfb (ours) <= 0.8 x sfb (Linux's)",
    ]


# --- raw.jsonl and the summary -------------------------------------------------
def _measure_line(
    r: int, state: str, flows: int, q: str, text: str, memory: int | None = None
) -> str:
    leaf: dict[str, object] = {"kind": q, "handle": "10:", "packets": 1, "drops": 0}
    if memory is not None:
        leaf["memory"] = memory
    root = {"kind": "htb", "handle": "1:"}
    rec = _measure_rec(r, state, flows, q, text, 1024)
    rec["tc"] = [root, leaf] if state == "standing" else [leaf]
    return json.dumps(rec)


def _measure_rec(
    r: int, state: str, flows: int, q: str, pktgen: object, sport_max: int
) -> dict[str, object]:
    """A measure record as pps-guest.sh writes it, without its tc dump."""
    return {
        "type": "measure",
        "round": r,
        "state": state,
        "flows": flows,
        "qdisc": q,
        "kind": q,
        "module": "-",
        "spec": f"{q} limit 1000",
        "src": ["198.18.0.1", "198.18.0.1"],
        "sport": [1024, sport_max],
        "duration_s": 2,
        "warmup_s": 0.5,
        "kmem_kb": [100_000, 100_100],
        "pktgen": pktgen,
    }


def _raw_lines() -> list[str]:
    lines = [
        json.dumps(
            {
                "type": "meta",
                "kernel": "6.12.117-linux-aqm",
                "cpus": 2,
                "cpu": "Test CPU",
                "pktgen": "2.75",
                "duration_s": 2,
                "warmup_s": 0.5,
                "rate": "10mbit",
                "pkt_size": 60,
                "instances": 16,
            }
        ),
        json.dumps(
            {
                "type": "instance",
                "qdisc": "dcn",
                "kind": "dcn",
                "module": "ours",
                "spec": "dcn limit 1000",
                "n": 16,
                "kmem_kb": [1000, 1160, 1001],
                "tc": [{"kind": "dcn", "handle": "10:", "memory": 40960}],
            }
        ),
        json.dumps(
            {
                "type": "instance",
                "qdisc": "fq_codel",
                "kind": "fq_codel",
                "module": "-",
                "spec": "fq_codel limit 1000",
                "n": 16,
                "kmem_kb": [1000, 2168, 1000],
                "tc": [{"kind": "fq_codel", "handle": "10:", "memory_used": 0}],
            }
        ),
    ]
    for r in (1, 2, 3):
        for flows in (1000, 1_000_000):
            lines.append(_measure_line(r, "empty", flows, "fq_codel", EMPTY))
            lines.append(_measure_line(r, "empty", flows, "dcn", EMPTY, 40960))
            lines.append(_measure_line(r, "standing", flows, "fq_codel", STANDING))
            lines.append(_measure_line(r, "standing", flows, "dcn", STANDING, 40960))
    lines.append(
        _measure_line(4, "empty", 1000, "dcn", EMPTY.split("Result:")[0] + "Result: Idle\n")
    )
    lines.append(
        json.dumps(
            {
                "type": "measure",
                "round": 4,
                "state": "empty",
                "flows": 1000,
                "qdisc": "pi",
                "error": "Error: Specified qdisc kind is unknown.",
            }
        )
    )
    lines.append(json.dumps({"type": "done", "seconds": 1800}))
    lines.append(json.dumps({"type": "host", "accel": "kvm", "commit": "abc1234"}))
    return lines


def test_read_raw() -> None:
    raw = pps.read_raw(_raw_lines())
    assert raw.meta["kernel"] == "6.12.117-linux-aqm"
    assert len(raw.measurements) == 24
    assert len(raw.failures) == 2
    assert "Result: Idle" in raw.failures[0] and "qdisc kind is unknown" in raw.failures[1]
    dcn = [m for m in raw.measurements if m.qdisc == "dcn"]
    assert {m.memory for m in dcn} == {40960}
    assert {m.memory for m in raw.measurements if m.qdisc == "fq_codel"} == {None}
    assert {m.kmem_delta_kb for m in raw.measurements} == {100}
    inst = {i.qdisc: i for i in raw.instances}
    assert inst["dcn"].memory == 40960 and inst["fq_codel"].memory is None
    assert inst["fq_codel"].slab_bytes == pytest.approx(1168 * 1024 / 16)
    assert raw.host["accel"] == "kvm"
    with pytest.raises(ValueError, match="unknown record type"):
        pps.read_raw(['{"type": "what"}'])


def test_summary() -> None:
    text = pps.summary(pps.read_raw(_raw_lines()))
    assert "VM acceleration kvm" in text and "6.12.117-linux-aqm" in text
    ns = f"{1949873 * 1000 / 1834567:,.0f}"
    # dcn's figures are fq_codel's here: ratio 1.00, its goal met
    assert f"| dcn | {ns} (1.00) | {ns} (1.00) |" in text
    assert (
        "| dcn <= 1.05 x fq_codel | empty (fq_codel bypassed) | 1.00 met | 1.00 met | met |" in text
    )
    # afd, pie and Linux's sfb were not run
    assert "| afd <= 1.05 x fq_codel | empty (fq_codel bypassed) |  |  | not measured |" in text
    # the flow scaling: the same cost at 1,000 and 1,000,000 flows
    assert f"| dcn | empty | {ns} | {ns} | 1.00 | met |" in text
    assert "| pi | empty |  |  |  | not measured |" in text
    # memory: dcn's own report, fixed; fq_codel's kernel memory per instance
    assert "| dcn | 40.0 KiB | 10.0 KiB | 40.0 KiB | 40.0 KiB | 0.00 B |" in text
    assert (
        "| fq_codel | not reported | 73.0 KiB | not reported | not reported | not reported |"
        in text
    )
    assert "Failed measurements" in text and "Result: Idle" in text
    assert "| 1,000,000 | 64 x 15,625 | 198.18.0.1-198.18.0.64 | 1024-16648 |" in text
    # the standing queue drops nearly all
    assert "(97.2%)" in text
    assert "TCG" not in text
    tcg = pps.summary(pps.read_raw(_raw_lines()[:-1]), accel="tcg")
    assert "emulated CPU (TCG)" in tcg


def test_goal_missed() -> None:
    raw = pps.Raw()
    raw.measurements = [_m(1, "empty", 1000, "fq_codel", 400), _m(1, "empty", 1000, "dcn", 440)]
    raw.measurements += [_m(1, "empty", 1_000_000, "fq_codel", 400)]
    raw.measurements += [_m(1, "empty", 1_000_000, "dcn", 560)]
    text = pps.summary(raw)
    assert (
        "| dcn <= 1.05 x fq_codel | empty (fq_codel bypassed) | 1.10 missed | 1.40 missed"
        " | missed (2 of 2) |" in text
    )
    assert "| dcn | empty | 440 | 560 | 1.27 | missed |" in text


def test_report_cli(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    (tmp_path / "raw.jsonl").write_text("\n".join(_raw_lines()) + "\n")
    (tmp_path / "vm.log").write_text("[run.sh] booting 6.12.117 with tcg\n")
    assert pps.main(["pps", "report", str(tmp_path)]) == 0
    text = (tmp_path / "summary.md").read_text()
    # the raw data's own record of the acceleration comes first
    assert "VM acceleration kvm" in text
    # a published page keeps raw.jsonl.xz only
    pub = tmp_path / "pub"
    pub.mkdir()
    with lzma.open(pub / "raw.jsonl.xz", "wt") as f:
        f.write("\n".join(_raw_lines()) + "\n")
    capsys.readouterr()
    assert pps.main(["pps", "report", str(pub / "raw.jsonl.xz"), "-o", "-"]) == 0
    assert capsys.readouterr().out == text
    assert pps.accel_of("x\n[run.sh] booting k with kvm\n") == "kvm"
    assert pps.accel_of("") == "unknown"


def test_cost_above_noqueue_and_the_queue_checks() -> None:
    raw = pps.Raw()
    raw.measurements = [
        _m(1, "empty", 1000, "noqueue", 300),
        _m(1, "empty", 1000, "fq_codel", 400),
        _m(1, "empty", 1000, "dcn", 450),
        # a standing queue that did not stand, an empty one that dropped
        _m(1, "standing", 1000, "dcn", 500, errors=10),
        _m(1, "empty", 1000, "pie", 400, errors=2_000_000),
    ]
    text = pps.summary(raw)
    assert "| noqueue (no qdisc) | 300 (0.75) |" in text
    assert "| fq_codel | 100 (1.00) |" in text
    assert "| dcn | 150 (1.50) |" in text
    assert "- dcn, 1,000 flows, standing queue: only 0.0% dropped" in text
    assert "- pie, 1,000 flows, queue empty: 40.0% dropped" in text
    assert pps.checks(raw.measurements[:3]) == []


def test_states(capsys: pytest.CaptureFixture[str]) -> None:
    assert pps.main(["pps", "plan", "--count", "--states", "standing,leaf,empty"]) == 0
    # noqueue with the queue empty only: it has no leaf
    assert capsys.readouterr().out.split() == [str(5 * 4 * (16 + 15 + 15)), "15"]
    steps = pps.plan(states=["empty", "leaf"], rounds=1, flows=[1])
    assert [s.state for s in steps if s.what == "measure"] == ["empty"] * 16 + ["leaf"] * 15
    with pytest.raises(SystemExit):
        pps.main(["pps", "plan", "--states", "empty,full"])
    with pytest.raises(SystemExit):
        pps.main(["pps", "plan", "--flows", ","])


def test_bypass_is_said() -> None:
    raw = pps.Raw()
    raw.measurements = [
        _m(1, state, 1000, q, ns)
        for state in ("empty", "leaf")
        for q, ns in (("fq_codel", 300), ("dcn", 400), ("pie", 380))
    ]
    text = pps.summary(raw)
    assert "fq_codel set TCQ_F_CAN_BYPASS" in text
    assert "## Queue empty, the qdisc as the leaf of a prio (no bypass)" in text
    assert (
        "| dcn <= 1.05 x fq_codel | empty (fq_codel bypassed) | 1.33 missed | missed (1 of 1) |"
        in text
    )
    assert "| dcn <= 1.05 x fq_codel | leaf | 1.33 missed | missed (1 of 1) |" in text
    # pie bypasses nothing
    assert "| pi <= pie | empty |  | not measured |" in text


def test_idle_time_is_flagged() -> None:
    res = pps.PktgenResult(2_000_000, 1_900_000, 100_000, 4_000_000, 60, 0, 0, 0)
    assert res.idle_share == pytest.approx(0.05)
    m = pps.Measurement(1, "empty", 1, "pie", res, None, 0)
    assert pps.checks([m]) == [
        "pie, 1 flows, queue empty: pktgen gave 5.0% of its time to other tasks"
    ]
    # the cost is of the elapsed time, as pktgen's own pps
    assert m.ns == pytest.approx(500)


def test_a_run_cut_short_is_read() -> None:
    lines = _raw_lines()[:6]
    lines.append(lines[-1][:50])
    raw = pps.read_raw(lines)
    assert len(raw.measurements) == 3 and raw.done is None
    assert raw.failures[0].startswith("line 7: not JSON")
    assert "Failed measurements" in pps.summary(raw)


# --- the state mq ----------------------------------------------------------------
def test_plan_mq_measures_each_qdisc_at_1_and_2_threads() -> None:
    flows = [1, 1000, 1_000_000]
    steps = pps.plan(states=["mq"], rounds=2, flows=flows)
    meas = [s for s in steps if s.what == "measure"]
    names = [q.name for q in pps.QDISCS if not q.baseline]
    # every qdisc but noqueue: a dummy device with mq has children anyway
    assert len(meas) == 2 * len(flows) * len(names) * 2
    assert "noqueue" not in {s.qdisc.name for s in meas}
    pairs: dict[tuple[int, int, str], list[int]] = {}
    for i, s in enumerate(meas):
        assert s.state == "mq"
        pairs.setdefault((s.round, s.flows, s.qdisc.name), []).append(i)
    assert len(pairs) == 2 * len(flows) * len(names)
    for idx in pairs.values():
        # the two measurements of a qdisc one after the other
        assert len(idx) == 2 and idx[1] == idx[0] + 1
        assert sorted(meas[i].threads for i in idx) == [1, 2]
    # the order of a pair is drawn: both occur
    firsts = {meas[idx[0]].threads for idx in pairs.values()}
    assert firsts == {1, 2}
    # seeded: the same plan again, another with another seed
    assert pps.plan(states=["mq"], rounds=2, flows=flows) == steps
    assert pps.plan(states=["mq"], rounds=2, flows=flows, seed=2) != steps


def test_plan_mq_leaves_the_other_states_as_they_were() -> None:
    steps = pps.plan(states=["empty", "standing", "mq"])
    assert [s for s in steps if s.state != "mq"] == pps.plan()
    assert {s.threads for s in steps if s.state != "mq"} == {0}


def test_plan_mq_lines_parse_as_the_guest_reads_them() -> None:
    steps = pps.plan(states=["mq"], rounds=1, flows=[1_000_000], qdiscs=[pps.BY_NAME["red"]])
    lines = [s.line() for s in steps if s.what == "measure"]
    assert len(lines) == 2
    by_threads: dict[str, tuple[str, str]] = {}
    for line in lines:
        # read -r what round state flows name kind module smin smax pmin pmax spec,
        # then in mq: read -r threads smin1 smax1 spec <<<"$spec"
        f = line.split(" ", 11)
        assert f[:11] == [
            "measure",
            "1",
            "mq",
            "1000000",
            "red",
            "red",
            "-",
            "198.18.0.1",
            "198.18.0.64",
            "1024",
            "16649",
        ]
        threads, smin1, smax1, spec = f[11].split(" ", 3)
        assert spec == pps.BY_NAME["red"].spec
        by_threads[threads] = (smin1, smax1)
    assert by_threads == {"1": ("-", "-"), "2": ("198.18.0.65", "198.18.0.128")}


def test_guest_loop_passes_the_plan_lines_to_measure() -> None:
    """The guest's own loop over the plan (pps-guest.sh's last "for s"),
    run by bash with measure() printing its arguments: the other states'
    lines as before (THREADS 1, no thread 1), mq's with its fields."""
    text = GUEST.read_text()
    start = text.rindex('\nfor s in "${steps[@]}"; do\n')
    loop = text[start : text.index("\ndone\n", start) + 6]
    qdiscs = [pps.BY_NAME["noqueue"], pps.BY_NAME["red"]]
    steps = pps.plan(qdiscs, [1_000_000], 1, states=["empty", "mq"])
    script = (
        "set -euo pipefail\n"
        'measure() { printf "%s|" "$@"; echo; }\n'
        "instance() { :; }\n"
        "log() { :; }\n"
        "t_measure='' done_n=0 n_measure=0\n"
        "mapfile -t steps\n" + loop
    )
    run = subprocess.run(
        ["bash", "-c", script],
        input="".join(st.line() + "\n" for st in steps),
        capture_output=True,
        text=True,
        check=True,
    )
    got = [x.split("|")[:-1] for x in run.stdout.splitlines()]
    red = pps.BY_NAME["red"].spec
    common = ["1000000", "red", "red", "-", "198.18.0.1", "198.18.0.64", "1024", "16649"]
    assert ["1", "empty", *common, "1", "-", "-", red] in got
    assert [
        "1",
        "empty",
        "1000000",
        "noqueue",
        "noqueue",
        "-",
        *common[4:],
        "1",
        "-",
        "-",
        "-",
    ] in got
    assert ["1", "mq", *common, "1", "-", "-", red] in got
    assert ["1", "mq", *common, "2", "198.18.0.65", "198.18.0.128", red] in got
    assert len(got) == 4


@pytest.mark.parametrize("n", [1, 2, 1000, 100_000])
def test_mq_threads_send_disjoint_flows(n: int) -> None:
    """Thread 0 the plan's range, thread 1 as many addresses after it:
    N flows each, none in common."""
    split = pps.split_flows_mq(n)
    assert split == pps.split_flows(n)
    t0, t1 = split.pktgen(), split.pktgen(1)
    assert t0 == pps.split_flows(n).pktgen()
    assert {k: t1[k] for k in ("udp_src_min", "udp_src_max")} == {
        k: t0[k] for k in ("udp_src_min", "udp_src_max")
    }
    f0 = set(islice(pps.pktgen_flows(t0, 2 * n), 2 * n))
    f1 = set(islice(pps.pktgen_flows(t1, 2 * n), 2 * n))
    assert len(f0) == len(f1) == n
    assert not f0 & f1
    a1 = ipaddress.IPv4Address(t1["src_max"])
    assert a1 in ipaddress.IPv4Network("198.18.0.0/15")
    assert (
        int(ipaddress.IPv4Address(t1["src_min"])) == int(ipaddress.IPv4Address(t0["src_max"])) + 1
    )


def test_plan_mq_cli(capsys: pytest.CaptureFixture[str]) -> None:
    assert pps.main(["pps", "plan", "--count", "--states", "mq"]) == 0
    assert capsys.readouterr().out.split() == [str(5 * 4 * 15 * 2), "15"]
    assert pps.main(["pps", "plan", "--count", "--states", "mq,empty"]) == 0
    assert capsys.readouterr().out.split() == [str(5 * 4 * (16 + 15 * 2)), "15"]
    # not by default
    assert pps.main(["pps", "plan", "--count"]) == 0
    assert capsys.readouterr().out.split() == ["620", "15"]
    # 65,536 flows take 65,536 addresses: one thread's, not two
    assert pps.main(["pps", "plan", "--count", "--flows", "65536"]) == 0
    capsys.readouterr()
    with pytest.raises(SystemExit):
        pps.main(["pps", "plan", "--states", "mq", "--flows", "65536"])


# /proc/net/pktgen/ppsq0@N after a run of the state mq at 1,000 flows, in
# EMPTY's format (the entry's name is ifname; pps and bps as show_results()
# computes them)
def _mq_text(thread: int, elapsed: int, sent: int, errors: int = 0, idle: int = 0) -> str:
    pps_ = sent * 1_000_000 // elapsed
    bps = pps_ * 8 * 60
    src = f"198.18.0.{1 + thread}"
    return f"""\
Params: count 0  min_pkt_size: 60  max_pkt_size: 60
     frags: 0  delay: 0  clone_skb: 0  ifname: ppsq0@{thread}
     flows: 0 flowlen: 0
     queue_map_min: 0  queue_map_max: 0
     dst_min: 192.0.2.1  dst_max:\x20
     src_min: {src}  src_max: {src}
     src_mac: 6e:2f:1a:55:0c:9b dst_mac: 02:00:00:00:00:01
     udp_src_min: 1024  udp_src_max: 2024  udp_dst_min: 9  udp_dst_max: 9
     src_mac_count: 0  dst_mac_count: 0
     xmit_mode: xmit_queue
     Flags:\x20
Current:
     pkts-sofar: {sent}  errors: {errors}
     started: 81234567us  stopped: {81234567 + elapsed}us idle: {idle}us
     seq_num: {sent}  cur_dst_mac_offset: 0  cur_src_mac_offset: 0
     cur_saddr: {src}  cur_daddr: 192.0.2.1
     cur_udp_dst: 9  cur_udp_src: 1389
     cur_queue_map: {thread}
     flows: 0
Result: OK: {elapsed}(c{elapsed - idle}+d{idle}) usec, {sent} (60byte,-1frags)
  {pps_}pps {bps // 1_000_000}Mb/sec ({bps}bps) errors: {errors}
"""


def _mq_line(r: int, q: str, texts: list[str], flows: int = 1000, **extra: object) -> str:
    rec = _measure_rec(r, "mq", flows, q, texts, 2024)
    rec["threads"] = len(texts)
    rec["tc"] = [{"kind": "mq", "handle": "1:"}]
    if len(texts) > 1:
        rec["src1"] = ["198.18.0.2", "198.18.0.2"]
    rec.update(extra)
    return json.dumps(rec)


# packets sent by each thread in rounds 1-3, all in 2 s: (1 thread, 2 threads)
MQ_SENT = {
    # 0.50, 0.52, 0.48 Mpps alone (median 0.500); 0.95, 0.90, 1.00 together
    # (median 0.950): 1.90
    "fq_codel": ([1_000_000, 1_040_000, 960_000], [950_000, 900_000, 1_000_000]),
    # 0.400, and 0.600 together: 1.50, 0.79 of fq_codel's
    "dcn": ([800_000] * 3, [600_000] * 3),
    # 0.400, and 0.740 together: 1.85, 0.97 of fq_codel's
    "pie": ([800_000] * 3, [740_000] * 3),
}


def _mq_lines() -> list[str]:
    lines = []
    for q, (alone, both) in MQ_SENT.items():
        for r in (1, 2, 3):
            lines.append(_mq_line(r, q, [_mq_text(0, 2_000_000, alone[r - 1])]))
            t0 = _mq_text(0, 2_000_000, both[r - 1])
            t1 = _mq_text(1, 2_000_000, both[r - 1])
            if q == "pie" and r == 1:
                # thread 1 stopped 400 us later, 10,000 of its packets dropped:
                # 1,480,000 offered over 2,000,400 us
                t1 = _mq_text(1, 2_000_400, both[0] - 10_000, errors=10_000)
            lines.append(_mq_line(r, q, [t0, t1]))
    # a VM of one CPU; a thread without a result; a result missing
    lines.append(_mq_line(4, "dcn", [], error="the VM has 1 CPU: the state mq needs 2", threads=2))
    idle = _mq_text(1, 2_000_000, 1).split("Result:")[0] + "Result: Idle\n"
    lines.append(_mq_line(4, "pie", [_mq_text(0, 2_000_000, 5), idle]))
    lines.append(_mq_line(4, "fq_codel", [_mq_text(0, 2_000_000, 5)], threads=2))
    return lines


def test_mq_aggregate_throughput() -> None:
    one = pps.parse_result(_mq_text(0, 2_000_000, 1_000_000))
    assert pps.MqMeasurement(1, 1000, "dcn", (one,)).mpps == pytest.approx(0.5)
    t0 = pps.parse_result(_mq_text(0, 2_000_000, 740_000))
    t1 = pps.parse_result(_mq_text(1, 2_000_400, 730_000, errors=10_000))
    m = pps.MqMeasurement(1, 1000, "pie", (t0, t1))
    # both threads' packets offered, sent and dropped, over the longer time
    assert m.threads == 2
    assert m.mpps == pytest.approx(1_480_000 / 2_000_400)
    assert t1.pps == 730_000 * 1_000_000 // 2_000_400


def test_read_raw_mq() -> None:
    raw = pps.read_raw(_mq_lines())
    assert raw.measurements == []
    assert len(raw.mq) == 3 * 3 * 2 and raw.mq_failed == 3
    assert {m.threads for m in raw.mq} == {1, 2}
    assert raw.failures == [
        "round 4 mq 1000 flows dcn, 2 threads: the VM has 1 CPU: the state mq needs 2",
        "round 4 mq 1000 flows pie, 2 threads: thread 1: no pktgen result: Result: Idle",
        "round 4 mq 1000 flows fq_codel, 2 threads: 2 threads but 1 pktgen results",
    ]
    meds = pps.mq_medians(raw.mq)
    assert meds[(1000, "fq_codel", 1)] == pytest.approx(0.5)
    assert meds[(1000, "fq_codel", 2)] == pytest.approx(0.95)
    assert meds[(1000, "pie", 2)] == pytest.approx(0.74)
    assert pps.mq_scaling(meds, 1000, "fq_codel") == pytest.approx(1.9)
    assert pps.mq_scaling(meds, 1000, "dcn") == pytest.approx(1.5)
    assert pps.mq_scaling(meds, 1000, "pie") == pytest.approx(1.85)
    assert pps.mq_scaling(meds, 1, "pie") is None
    # a record of one text, as the other states write it, reads as one thread
    one = json.loads(_mq_line(1, "dcn", [_mq_text(0, 2_000_000, 8)]))
    one["pktgen"] = one["pktgen"][0]
    del one["threads"]
    assert pps.read_raw([json.dumps(one)]).mq[0].threads == 1


def test_summary_mq() -> None:
    text = pps.summary(pps.read_raw(_mq_lines()))
    assert "## Multiqueue (the qdisc as each child of mq, pktgen on 1 and 2 threads)" in text
    assert (
        "| flows per thread | qdisc | Mpps, 1 thread | Mpps, 2 threads | scaling"
        " | over fq_codel's |" in text
    )
    assert "| 1,000 | pie | 0.400 | 0.740 | 1.85 | 0.97 |" in text
    assert "| 1,000 | fq_codel | 0.500 | 0.950 | 1.90 | 1.00 |" in text
    assert (
        "| 1,000 | dcn | 0.400 | 0.600 | 1.50 | 0.79 (below fq_codel's by more than 10%) |" in text
    )
    assert "scales as fq_codel does, near 2 on 2 CPUs" in text
    assert "| 1,000 | 1 x 1,000 | 198.18.0.1-198.18.0.1 | 198.18.0.2-198.18.0.2 |" in text
    assert "- round 4 mq 1000 flows dcn, 2 threads: the VM has 1 CPU" in text
    # an mq run alone: no single-queue sections, 3 rounds
    assert "## Goals" not in text and "## Memory" not in text and "## Flows" not in text
    assert "; 3 rounds," in text
    # nothing judged met or missed
    assert " met |" not in text and "missed" not in text


def test_summary_mq_without_fq_codel_and_all_failed() -> None:
    lines = [x for x in _mq_lines() if '"fq_codel"' not in x]
    text = pps.summary(pps.read_raw(lines))
    assert "| 1,000 | dcn | 0.400 | 0.600 | 1.50 | no fq_codel scaling |" in text
    failed = [x for x in _mq_lines() if '"round": 4' in x]
    text = pps.summary(pps.read_raw(failed))
    assert "All 3 measurements of the state failed" in text
    assert "| 1,000 |" not in text


def test_mq_checks() -> None:
    busy = pps.parse_result(_mq_text(0, 2_000_000, 1_000_000))
    away = pps.parse_result(_mq_text(1, 2_000_000, 500_000, errors=500_000, idle=100_000))
    ms = [
        pps.MqMeasurement(1, 1000, "dcn", (busy, away)),
        pps.MqMeasurement(1, 1000, "dcn", (busy,)),
    ]
    assert pps.mq_checks(ms) == [
        "dcn, 1,000 flows, mq at 2 threads: 50.0% dropped",
        "dcn, 1,000 flows, mq at 2 threads: pktgen gave 5.0% of its time to other tasks",
    ]


def test_old_raw_reports_as_before_beside_mq() -> None:
    """A raw file of before the state mq ("pktgen" a string, no
    "threads") reads and reports as it did; with mq lines added, the
    report is the same but for the mq section and the mq failures."""
    old = _raw_lines()
    raw = pps.read_raw(old)
    assert raw.mq == [] and raw.mq_failed == 0
    before = pps.summary(raw)
    assert "Multiqueue" not in before
    both = pps.summary(pps.read_raw(old + _mq_lines()))
    start, end = both.index("## Multiqueue"), both.index("## Flows")
    cut = both[:start] + both[end:]
    cut = "\n".join(x for x in cut.split("\n") if " mq " not in x)
    assert cut == before


def test_report_cli_mq_alone(tmp_path: Path) -> None:
    (tmp_path / "raw.jsonl").write_text("\n".join(_mq_lines()) + "\n")
    assert pps.main(["pps", "report", str(tmp_path)]) == 0
    assert "## Multiqueue" in (tmp_path / "summary.md").read_text()
    (tmp_path / "raw.jsonl").write_text(
        "\n".join(x for x in _mq_lines() if '"round": 4' in x) + "\n"
    )
    assert pps.main(["pps", "report", str(tmp_path)]) == 1
