"""docs/reliability.md's generator on a made-up results directory."""

from __future__ import annotations

from pathlib import Path

from aqmtools import reliability_report


def test_report_lists_every_result(tmp_path: Path) -> None:
    (tmp_path / "rel-nlfuzz.tap").write_text(
        "1..2\nok 1 pi (root): 10000 requests; 0 violations\n"
        "not ok 2 dcn (root): 10000 requests; 3 violations\n#   detail\n"
    )
    (tmp_path / "rel-failslab.tap").write_text("1..1\nok 1 # SKIP no fault injection\n")
    (tmp_path / "kmemleak.tap").write_text("1..1\nok 1 kmemleak after rel-nlfuzz: nothing leaked\n")
    (tmp_path / "kernel-log.tap").write_text("1..1\nok 1 kernel log clean\n")
    (tmp_path / "net-pi.tap").write_text("1..3\nok 1 a\nok 2 b\nnot ok 3 c\n")
    (tmp_path / "net-dcn.tap").write_text("1..2\nok 1 a\nnot ok 2 rate (3 > 4) # TODO slow\n")
    (tmp_path / "kunit-aqm_pi.ktap").write_text(
        "KTAP version 1\n1..1\n    1..3\n    ok 1 x\n    not ok 2 y\n    ok 3 z # SKIP\n"
        "# Totals: pass:1 fail:1 skip:1 total:3\nnot ok 1 aqm_pi\n"
    )
    out = reliability_report.report([tmp_path], "6.12-debug")
    assert "| held | pi (root): 10000 requests; 0 violations |" in out
    assert "| FAILED | dcn (root): 10000 requests; 3 violations |" in out
    assert "| skipped |" in out
    assert "kmemleak after rel-nlfuzz: nothing leaked" in out
    assert "| net-pi | 2 | 1 | 0 | 0 |" in out
    # a bound missed on a slow machine is an expected failure, not a failure
    assert "| net-dcn | 1 | 0 | 1 | 0 |" in out
    # a KUnit suite counts its cases, not its one top-level line
    assert "| kunit-aqm_pi | 1 | 1 | 0 | 1 |" in out
    assert "Netlink fuzzing" in out and "6.12-debug" in out
    # what a whole run has and these results lack is said
    absent = "rel-churn, rel-hostile, rel-soak, tdc"
    assert f"Not run in these boots, so not in this report: {absent}.\n" in out


def test_a_run_split_into_boots(tmp_path: Path) -> None:
    one, two = tmp_path / "boot1", tmp_path / "boot2"
    one.mkdir()
    two.mkdir()
    (one / "rel-soak.tap").write_text("1..0 # SKIP in a boot of its own\n")
    (one / "net-pi.tap").write_text("1..1\nnot ok 1 old\n")
    (one / "kernel-log.tap").write_text("1..1\nok 1 kernel log clean\n")
    (two / "rel-soak.tap").write_text("1..1\nok 1 pi: 600 s, slab +12 kB\n")
    (two / "net-pi.tap").write_text("1..1\nok 1 new\n")
    (two / "kernel-log.tap").write_text("1..1\nnot ok 1 kernel log has warnings\n")
    (two / "run.txt").write_text("Tree abc1234, 2026-11-25, 3,300 s.\n")
    out = reliability_report.report([one, two], "k")
    # the later boot's results of a stage stand; each boot's log is listed
    assert "| held | pi: 600 s, slab +12 kB |" in out
    assert "| net-pi | 1 | 0 | 0 | 0 |" in out
    assert "Boot 1 of 2 (boot1): net-pi, rel-soak\n" in out
    assert "Boot 2 of 2 (boot2): net-pi, rel-soak. Tree abc1234, 2026-11-25, 3,300 s.\n" in out
    assert "| FAILED | kernel log has warnings |" in out
    assert "Not run in these boots, so not in this report: rel-nlfuzz, rel-failslab" in out
    assert reliability_report.main(["r", "--kernel", "k", str(one), str(two)]) == 0
    assert reliability_report.main(["r", str(tmp_path / "none")]) == 1


def test_a_whole_run_lacks_nothing() -> None:
    names = {f"rel-{t}.tap" for t in reliability_report.TITLES}
    names |= {"kunit-aqm_pi.ktap", "net-pi.tap", "tdc.tap"}
    assert reliability_report.missing(names) == []
    assert reliability_report.missing(names - {"tdc.tap"}) == ["tdc"]
    # tdc is a file of its own, not a prefix
    assert reliability_report.missing(names - {"tdc.tap"} | {"tdcx.tap"}) == ["tdc"]
