"""Tests of the raw-netlink case runner (selftests/net/nlpolicy.sh)."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from aqmtools.nlcases import Case, load, run, run_case
from aqmtools.nlqdisc import Attr

CASES = Path(__file__).resolve().parents[2] / "selftests/net/nlpolicy.json"

NOQUEUE = "qdisc noqueue 0: root refcnt 2 \n"


def _case(**over: object) -> Case:
    base: dict[str, object] = {
        "cid": "t1",
        "name": "reject",
        "setup": [],
        "change": False,
        "kind": "blue",
        "attrs": [Attr(8, "uint8", 2)],
        "error": "integer out of range",
        "show": "qdisc noqueue 0: root",
    }
    base.update(over)
    return Case(**base)  # type: ignore[arg-type]


class FakeTc:
    """tc that records its calls and prints SHOW for `qdisc show`."""

    def __init__(self, show: str = NOQUEUE, setup_rc: int = 0) -> None:
        self.calls: list[list[str]] = []
        self.show = show
        self.setup_rc = setup_rc

    def __call__(self, args: list[str]) -> tuple[int, str]:
        self.calls.append(args)
        if args[:2] == ["qdisc", "show"]:
            return 0, self.show
        if args[:2] == ["qdisc", "del"]:
            return 0, ""
        return self.setup_rc, "Error: bad setup\n" if self.setup_rc else ""


def test_shipped_cases_load() -> None:
    cases = load(CASES.read_text(encoding="utf-8"))
    assert len(cases) >= 20
    assert {c.kind for c in cases} == {"pi", "rem", "ared", "riops", "dcn", "blue", "afd", "sfb"}
    # every refused request names why, and every case checks the outcome
    assert all(c.show for c in cases)
    assert all(c.error for c in cases if c.error is not None)


def test_case_ids_are_unique_across_the_tc_testing_files() -> None:
    # one id names one case wherever it fails: nlpolicy.json and the
    # tc-testing files share tdc's id space
    ids = [c.cid for c in load(CASES.read_text(encoding="utf-8"))]
    for f in sorted((CASES.parents[1] / "tc-tests").glob("*.json")):
        ids += [str(t["id"]) for t in json.loads(f.read_text(encoding="utf-8"))]
    assert len(ids) > 300
    dup = sorted({i for i in ids if ids.count(i) > 1})
    assert not dup, f"ids used twice: {dup}"


@pytest.mark.parametrize(
    "bad",
    [
        [{"id": "a", "name": "n", "kind": "pi", "attrs": ["1:u32"], "error": None, "show": "x"}],
        [{"id": "a", "name": "n", "kind": "pi", "attrs": [], "error": "(", "show": "x"}],
        [{"id": "a", "name": "n", "kind": "pi", "attrs": []}],
        [{"id": "a", "name": "n", "kind": "pi", "attrs": [], "error": None, "show": "x"}] * 2,
    ],
)
def test_load_rejects(bad: list[dict[str, object]]) -> None:
    with pytest.raises(ValueError):
        load(json.dumps(bad))


def test_refusal_with_the_expected_message_passes() -> None:
    tc = FakeTc()
    sent: list[tuple[str, int, str, bool]] = []

    def sender(
        dev: str, handle: int, kind: str, attrs: list[Attr], change: bool
    ) -> tuple[int, str]:
        sent.append((dev, handle, kind, change))
        return 34, "integer out of range"

    assert run_case(_case(), "dummy1", sender, tc) == []
    assert sent == [("dummy1", 0x10000, "blue", False)]
    # the device shows its own noqueue root: nothing to delete
    assert tc.calls == [["qdisc", "show", "dev", "dummy1"]]


def test_a_qdisc_left_by_the_case_is_deleted() -> None:
    tc = FakeTc(show="qdisc blue 1: root refcnt 2 limit 300p \n")
    case = _case(error=None, show="qdisc blue 1: root")
    assert run_case(case, "dummy1", lambda *_: (0, ""), tc) == []
    assert tc.calls[-1] == ["qdisc", "del", "dev", "dummy1", "root"]


def test_a_failed_show_still_deletes() -> None:
    class FailingShow(FakeTc):
        def __call__(self, args: list[str]) -> tuple[int, str]:
            self.calls.append(args)
            return (1, "Error: busy\n") if args[:2] == ["qdisc", "show"] else (0, "")

    tc = FailingShow()
    why = run_case(_case(), "dummy1", lambda *_: (34, "integer out of range"), tc)
    assert len(why) == 1 and why[0].startswith("tc qdisc show")
    assert tc.calls[-1] == ["qdisc", "del", "dev", "dummy1", "root"]


def test_accepted_request_that_must_be_refused_fails() -> None:
    why = run_case(_case(), "d", lambda *_: (0, ""), FakeTc())
    assert why == ["kernel accepted it"]


def test_refusal_for_another_reason_fails() -> None:
    why = run_case(_case(), "d", lambda *_: (22, "NLA_F_NESTED is missing"), FakeTc())
    assert len(why) == 1 and "does not match" in why[0]


def test_refused_valid_request_fails() -> None:
    why = run_case(_case(error=None), "d", lambda *_: (22, "no"), FakeTc())
    assert why == ["kernel refused it: errno 22 'no'"]


def test_state_after_the_request_is_checked() -> None:
    tc = FakeTc(show="qdisc blue 1: root refcnt 2 limit 100p \n")
    why = run_case(_case(), "d", lambda *_: (34, "integer out of range"), tc)
    assert len(why) == 1 and why[0].startswith("tc qdisc show")


def test_setup_runs_on_the_device_and_its_failure_stops_the_case() -> None:
    tc = FakeTc(setup_rc=2)
    sent: list[int] = []

    def sender(*_: object) -> tuple[int, str]:
        sent.append(1)
        return 0, ""

    case = _case(setup=["qdisc add dev $DEV root handle 1: blue limit 300"])
    why = run_case(case, "dummy1", sender, tc)
    want = ["qdisc", "add", "dev", "dummy1", "root", "handle", "1:", "blue", "limit", "300"]
    assert tc.calls[0] == want
    assert why and why[0].startswith("setup") and not sent
    assert tc.calls[-1][:2] == ["qdisc", "del"]


def test_run_prints_tap_and_counts_failures() -> None:
    cases = [_case(cid="a"), _case(cid="b", error=None)]
    lines, failed = run(cases, "d", lambda *_: (34, "integer out of range"), FakeTc())
    assert failed == 1
    assert lines[0] == "1..2"
    assert lines[1] == "ok 1 a: reject"
    assert lines[2] == "not ok 2 b: reject"
    assert lines[3].startswith("# kernel refused it")
