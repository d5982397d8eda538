"""Tests of the TAP/KTAP summariser used by make check."""

from __future__ import annotations

from pathlib import Path

import pytest

from aqmtools.tap import Result, main, parse, results, summarise

KUNIT_OK = """\
    KTAP version 1
    # Subtest: aqm_pi
    # module: aqm_pi_kunit
    1..3
    ok 1 aqm_pi_known_answer
    ok 2 aqm_pi_clamp
    ok 3 aqm_pi_slow # SKIP not on this arch
# aqm_pi: pass:2 fail:0 skip:1 total:3
ok 1 aqm_pi
"""

KUNIT_FAIL = """\
[    3.100000]     KTAP version 1
[    3.100001]     # Subtest: aqm_pi
[    3.100002]     1..2
[    3.100003]     # aqm_pi_clamp: EXPECTATION FAILED at aqm_pi_kunit.c:99
[    3.100004]     not ok 1 aqm_pi_clamp
[    3.100005]     ok 2 aqm_pi_gain_ratio
[    3.100006] not ok 1 aqm_pi
"""

PARAM = """\
KTAP version 1
1..1
    # Subtest: suite
    1..1
        # Subtest: param_case
        ok 1 a
        not ok 2 b
    not ok 1 param_case
not ok 1 suite
"""


def test_kunit_pass_and_skip() -> None:
    s = parse(KUNIT_OK, "kunit")
    assert (s.passed, s.failed, s.skipped) == (2, 0, 1)


def test_kunit_failure_with_klog_prefix() -> None:
    s = parse(KUNIT_FAIL, "kunit")
    assert (s.passed, s.failed) == (1, 1)
    assert s.failures == ["kunit/aqm_pi: aqm_pi_clamp"]


def test_parameterised_leaves_counted_once() -> None:
    s = parse(PARAM, "kunit")
    assert (s.passed, s.failed) == (1, 1)


def test_plan_not_met_is_failure() -> None:
    s = parse("    1..4\n    ok 1 a\n    ok 2 b\nnot ok 1 suite\n", "kunit")
    assert s.passed == 2
    assert s.failed == 2
    assert "2 of 4 planned results missing" in s.failures[0]


def test_top_level_plan_not_met() -> None:
    s = parse("1..3\nok 1 x\n", "net")
    assert (s.passed, s.failed) == (1, 2)


def test_parent_failure_of_its_own_counts() -> None:
    # suite init failed after all cases passed
    s = parse("    1..1\n    ok 1 a\nnot ok 1 suite\n", "kunit")
    assert (s.passed, s.failed) == (1, 1)


def test_plain_tap_and_tdc_style() -> None:
    text = "1..3\nok 1 a1b2 - pfifo add\nnot ok 2 c3d4 - red add\nok 3 e5f6 - x # skipped - no\n"
    s = parse(text, "tdc")
    assert (s.passed, s.failed, s.skipped) == (1, 1, 1)
    assert s.failures == ["tdc: c3d4 - red add"]


def test_bail_out() -> None:
    s = parse("1..2\nok 1 a\nBail out! VM died\n", "vm")
    assert s.failed == 2  # the bail out and the missing result


def test_todo_is_not_failure() -> None:
    s = parse("1..2\nnot ok 1 known # TODO later\nok 2 fine # TODO done\n", "x")
    assert (s.passed, s.failed) == (2, 0)
    # a failing TODO result is listed as an expected failure; a passing one is not
    assert s.expected == ["x: known"]


def test_summarise_dir_and_main(tmp_path: Path, capsys: object) -> None:
    (tmp_path / "a.tap").write_text("1..1\nok 1 a\n")
    (tmp_path / "b.ktap").write_text(KUNIT_OK)
    total = summarise(tmp_path)
    assert (total.passed, total.failed, total.skipped) == (3, 0, 1)
    assert main(["tap", str(tmp_path)]) == 0
    (tmp_path / "c.tap").write_text("1..1\nnot ok 1 broken\n")
    assert main(["tap", str(tmp_path)]) == 1


def test_empty_dir_fails(tmp_path: Path) -> None:
    assert main(["tap", str(tmp_path)]) == 1


def test_results_lists_the_top_level_lines() -> None:
    text = (
        "1..3\nok 1 - a b\n    ok 1 nested\n"
        "not ok 2 rate # TODO slow machine\nok 3 # SKIP no pktgen\n"
    )
    assert results(text) == [
        Result(True, "a b", ""),
        Result(False, "rate", "TODO slow machine"),
        Result(True, "", "SKIP no pktgen"),
    ]
    assert [r.todo for r in results(text)] == [False, True, False]
    assert [r.skipped for r in results(text)] == [False, False, True]


def test_main_prints_the_end_of_a_failed_results_stderr(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    (tmp_path / "net-x.tap").write_text("1..1\nnot ok 1 x works\n")
    (tmp_path / "net-x.err").write_text("".join(f"line {i}\n" for i in range(100)))
    (tmp_path / "ok-y.tap").write_text("1..1\nok 1 y\n")
    (tmp_path / "ok-y.err").write_text("not shown\n")
    assert main(["tap", str(tmp_path)]) == 1
    out = capsys.readouterr().out.splitlines()
    assert out[0] == "FAIL net-x: x works"
    assert out[1:41] == [f"  | line {i}" for i in range(60, 100)]
    assert "not shown" not in "\n".join(out)
