"""make bench-pps --profile: the plugin's counts by function per packet."""

from __future__ import annotations

import json
import subprocess
from pathlib import Path

import pytest
from test_bench_pps import EMPTY

from aqmtools.bench import tcgprof

# /proc/kallsyms lines as the guest writes them: the kernel's, then one
# measurement's modules (a data symbol among them, which is not code)
KALLSYMS = """\
ffffffff81000000 T _stext
ffffffff81100000 T __dev_queue_xmit
ffffffff81100400 t __dev_xmit_skb
ffffffff81200000 D jiffies
"""
MODSYMS = """\
ffffffffc0010000 t sfb_enqueue\t[sch_sfb]
ffffffffc0010800 t sfb_dequeue\t[sch_sfb]
ffffffffc0020000 d sfb_qdisc_ops\t[sch_sfb]
"""


def folder(tmp_path: Path, counts: dict[str, str]) -> Path:
    """A results folder with one profiled measurement per key of COUNTS
    (the plugin's dump), each of pktgen's EMPTY result (1,834,567 packets)."""
    prof = tmp_path / "prof"
    prof.mkdir()
    (prof / "kallsyms").write_text(KALLSYMS)
    recs = []
    for i, (key, dump) in enumerate(counts.items(), 1):
        (prof / f"{key}.txt").write_text(dump)
        (prof / f"{key}.modsyms").write_text(MODSYMS)
        qdisc = key.rsplit("-", 1)[1]
        recs.append(
            {
                "type": "measure",
                "round": i,
                "state": "empty",
                "flows": 1000,
                "qdisc": qdisc,
                "pktgen": EMPTY,
                "profile": key,
            }
        )
    (tmp_path / "raw.jsonl").write_text("".join(json.dumps(r) + "\n" for r in recs))
    return tmp_path


def test_symbols_pick_the_function_that_holds_the_address() -> None:
    syms = tcgprof.symbols(
        tcgprof.read_symbols(KALLSYMS.splitlines()), tcgprof.read_symbols(MODSYMS.splitlines())
    )
    assert syms.name_of(0xFFFFFFFF81100000) == "__dev_queue_xmit"
    assert syms.name_of(0xFFFFFFFF811003FF) == "__dev_queue_xmit"
    assert syms.name_of(0xFFFFFFFF81100400) == "__dev_xmit_skb"
    assert syms.name_of(0xFFFFFFFFC0010804) == "sfb_dequeue [sch_sfb]"
    # data symbols are no functions: the code before them keeps the address
    assert syms.name_of(0xFFFFFFFFC0020010) == "sfb_dequeue [sch_sfb]"
    assert syms.name_of(0xFFFFFFFF80000000) == tcgprof.UNKNOWN
    assert tcgprof.module_of("sfb_enqueue [sch_sfb]") == "sch_sfb"
    assert tcgprof.module_of("__dev_xmit_skb") == "kernel"


def test_counts_per_packet_by_function(tmp_path: Path) -> None:
    n = 1834567
    # sfb_enqueue: two addresses, 100 and 20 instructions a packet
    dump = (
        f"ffffffffc0010000 {100 * n}\nffffffffc0010010 {20 * n}\n"
        f"ffffffff81100404 {7 * n}\nffffffffc0010800 {n}\n"
    )
    ps = tcgprof.load(folder(tmp_path, {"r1-empty-1000-sfb": dump}))
    assert len(ps) == 1
    p = ps[0]
    assert p.packets == n
    assert p.per_packet("sfb_enqueue [sch_sfb]") == 120
    assert p.per_packet("__dev_xmit_skb") == 7
    assert p.per_packet("sfb_dequeue [sch_sfb]") == 1
    text = tcgprof.report(ps)
    assert "| `sfb_enqueue [sch_sfb]` | 120 |" in text
    assert "| **all of the kernel** | **128** |" in text
    assert "| sch_sfb | 121 |" in text
    assert "| kernel | 7.0 |" in text


def test_the_median_over_rounds_side_by_side(tmp_path: Path) -> None:
    n = 1834567
    counts = {
        "r1-empty-1000-a": f"ffffffff81100000 {10 * n}\n",
        "r2-empty-1000-a": f"ffffffff81100000 {30 * n}\n",
        "r3-empty-1000-a": f"ffffffff81100000 {12 * n}\n",
        "r4-empty-1000-b": f"ffffffff81100000 {5 * n}\nffffffffc0010000 {50 * n}\n",
    }
    text = tcgprof.report(tcgprof.load(folder(tmp_path, counts)))
    # sorted by the largest cost: sfb_enqueue (b's 50) before 12 / 5
    assert text.index("sfb_enqueue") < text.index("__dev_queue_xmit")
    assert "| `__dev_queue_xmit` | 12 | 5.0 |" in text
    assert "| `sfb_enqueue [sch_sfb]` | 0.0 | 50 |" in text
    assert "Rounds: a 3, b 1." in text


def test_no_profile_is_an_error(tmp_path: Path) -> None:
    (tmp_path / "prof").mkdir()
    (tmp_path / "prof" / "kallsyms").write_text(KALLSYMS)
    (tmp_path / "raw.jsonl").write_text(json.dumps({"type": "meta"}) + "\n")
    with pytest.raises(ValueError, match="no profiled measurement"):
        tcgprof.report(tcgprof.load(tmp_path))
    assert tcgprof.main([str(tmp_path)]) == 1


SRC = """\
static inline int sum3(const int *a, int n)
{
	int s = 0;

	for (int i = 0; i < n; i++)
		s += a[i] * 3;
	return s;
}

int outer(const int *a, int n)
{
	return sum3(a, n) ^ 5;
}
"""


def test_lines_name_the_innermost_inlined_line(tmp_path: Path) -> None:
    c = tmp_path / "m.c"
    c.write_text(SRC)
    ko = tmp_path / "m.ko"
    subprocess.run(["gcc", "-O2", "-g", "-c", str(c), "-o", str(ko)], check=True)
    funcs = tcgprof.ko_symbols(ko)
    section, base, size = funcs["outer"]
    assert size > 0
    assert section == ".text"
    where = tcgprof.addr2line(ko, section, range(base, base + 16))
    # the loop of sum3(), inlined into outer(), is named as sum3()'s, with
    # one of its lines (3-8: which depends on the compiler)
    inner = {w for w in where.values() if w.endswith(" (sum3)")}
    assert inner
    assert all(3 <= int(w.split(":")[1].split(" ")[0]) <= 8 for w in inner)
    assert all(w.startswith(f"{tmp_path.name}/m.c:") for w in where.values())
