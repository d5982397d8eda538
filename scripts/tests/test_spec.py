"""The netlink YAML spec (Documentation/netlink/specs/tc-aqm.yaml) against
the UAPI header (include/uapi/linux/pkt_aqm.h): every attribute and every
xstats member agrees by name and position, so that neither can drift."""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

import pytest
import yaml

TOP = Path(__file__).resolve().parents[2]
HEADER = TOP / "include/uapi/linux/pkt_aqm.h"
SPEC = TOP / "Documentation/netlink/specs/tc-aqm.yaml"


def _strip_comments(text: str) -> str:
    return re.sub(r"/\*.*?\*/", "", text, flags=re.S)


def header_enums(text: str) -> dict[str, list[tuple[str, int]]]:
    """Anonymous enums of the header by their UNSPEC prefix ("TCA_PI_"):
    the members between UNSPEC and __MAX with their values. An enum that
    continues one of another header (sfb's, after Linux's TCA_SFB_PARMS)
    has no UNSPEC: it starts at an explicit value and its prefix is the one
    of its __MAX ("TCA_SFB_AQM_")."""
    enums: dict[str, list[tuple[str, int]]] = {}
    for body in re.findall(r"enum\s*\{(.*?)\};", _strip_comments(text), re.S):
        names = [n.strip() for n in body.split(",") if n.strip()]
        first = names[0].partition("=")[0].strip()
        if first.endswith("_UNSPEC"):
            if "=" in names[0]:
                raise ValueError(f"UNSPEC with a value: {names[0]}")
            prefix, members = first[: -len("UNSPEC")], names[1:-1]
        else:
            m = re.fullmatch(r"__(\w+_)MAX", names[-1])
            if m is None or "=" not in names[0]:
                raise ValueError(f"enum does not start with UNSPEC or a value: {first}")
            prefix, members = m.group(1), names[:-1]
        if names[-1] != f"__{prefix}MAX":
            raise ValueError(f"enum of {prefix} does not end with __{prefix}MAX")
        value, out = 1, []
        for member in members:
            name, eq, val = (x.strip() for x in member.partition("="))
            if eq:
                if not re.fullmatch(r"\d+", val):
                    raise ValueError(f"enum value not parsed: {member}")
                value = int(val)
            out.append((name, value))
            value += 1
        enums[prefix] = out
    return enums


def header_structs(text: str) -> dict[str, list[tuple[str, str]]]:
    """struct tc_*_xstats of the header: (member, u32/u64) in order; an
    array is binary[its size in bytes], its length a number or a #define."""
    defines = dict(re.findall(r"^#define\s+(\w+)\s+(\d+)\s*$", text, re.M))
    structs = {}
    for name, body in re.findall(r"struct\s+(tc_\w+_xstats)\s*\{(.*?)\};", text, re.S):
        members = []
        for t, m, n in re.findall(
            r"__(u8|u16|u32|u64)\s+(\w+)\s*(?:\[\s*(\w+)\s*\])?\s*;", _strip_comments(body)
        ):
            if n:
                count = int(defines.get(n, n))
                members.append((m, f"binary[{count * int(t[1:]) // 8}]"))
            else:
                members.append((m, t))
        structs[name] = members
    return structs


# sfb keeps Linux's ABI (<linux/pkt_sched.h>, fixed), which pkt_aqm.h
# continues: its TCA_SFB_AQM_* follow TCA_SFB_PARMS, and its struct
# tc_sfb_aqm_xstats follows struct tc_sfb_xstats in the xstats. The spec
# describes each whole (tc-sfb-attrs, tc-sfb-xstats): Linux's part is here.
LINUX_ENUMS = {"TCA_SFB_AQM_": ("TCA_SFB_", [("TCA_SFB_PARMS", 1)])}
LINUX_STRUCTS = {
    "tc_sfb_aqm_xstats": (
        "tc_sfb_xstats",
        [
            (m, "u32")
            for m in (
                *("earlydrop", "penaltydrop", "bucketdrop", "queuedrop", "childdrop"),
                *("marked", "maxqlen", "maxprob", "avgprob"),
            )
        ],
    )
}


def with_linux_heads(
    parsed: dict[str, list[Any]], heads: dict[str, tuple[str, list[Any]]]
) -> dict[str, list[Any]]:
    """The header's enums or structs, those that continue Linux's under
    Linux's name with Linux's part first."""
    out = {}
    for name, members in parsed.items():
        base, head = heads.get(name, (name, []))
        out[base] = [*head, *members]
    return out


def spec_enums(spec: dict[str, Any]) -> dict[str, list[tuple[str, int]]]:
    """Attribute sets with a name-prefix, as C names and values (from 1, or
    as given by 'value')."""
    enums: dict[str, list[tuple[str, int]]] = {}
    for aset in spec["attribute-sets"]:
        prefix = aset.get("name-prefix")
        if prefix is None:
            continue
        cprefix = prefix.upper().replace("-", "_")
        value, out = 1, []
        for attr in aset["attributes"]:
            value = attr.get("value", value)
            out.append((cprefix + attr["name"].upper().replace("-", "_"), value))
            value += 1
        enums[cprefix] = out
    return enums


def spec_structs(spec: dict[str, Any]) -> dict[str, list[tuple[str, str]]]:
    return {
        d["name"].replace("-", "_"): [
            (
                m["name"].replace("-", "_"),
                f"binary[{m['len']}]" if m["type"] == "binary" else m["type"],
            )
            for m in d["members"]
        ]
        for d in spec["definitions"]
        if d["type"] == "struct" and d["name"].endswith("-xstats")
    }


@pytest.fixture(scope="module")
def header() -> str:
    return HEADER.read_text()


@pytest.fixture(scope="module")
def spec() -> dict[str, Any]:
    data: dict[str, Any] = yaml.safe_load(SPEC.read_text())
    return data


def test_every_enum_matches(header: str, spec: dict[str, Any]) -> None:
    h, s = with_linux_heads(header_enums(header), LINUX_ENUMS), spec_enums(spec)
    assert set(h) == set(s)
    for prefix, members in h.items():
        assert s[prefix] == members, prefix


def test_no_attribute_is_shadowed_by_a_define(header: str) -> None:
    # an attribute named like its enum's TCA_<NAME>_MAX define (ared's
    # max_th was TCA_ARED_MAX) is silently replaced by the define's value
    defines = set(re.findall(r"^#define\s+(\w+)", header, re.M))
    for members in header_enums(header).values():
        shadowed = {name for name, _ in members} & defines
        assert not shadowed, shadowed


def test_every_xstats_struct_matches(header: str, spec: dict[str, Any]) -> None:
    h, s = with_linux_heads(header_structs(header), LINUX_STRUCTS), spec_structs(spec)
    assert h, "no xstats struct found in the header"
    assert h == s


def test_every_qdisc_has_options_and_xstats(spec: dict[str, Any]) -> None:
    subs = {m["name"]: m["formats"] for m in spec["sub-messages"]}
    sets = {a["name"] for a in spec["attribute-sets"]}
    structs = {d["name"] for d in spec["definitions"]}
    options = {f["value"]: f["attribute-set"] for f in subs["tc-options-msg"]}
    xstats = {f["value"]: f["fixed-header"] for f in subs["tca-stats-app-msg"]}
    assert set(options) == set(xstats)
    # a qdisc's sets cannot be described yet left out of the sub-messages
    described = {n for n in sets if n.endswith("-attrs")} - {"tc-attrs", "tc-aqm-ratio-attrs"}
    assert {options[k] for k in options} == described
    assert {xstats[k] for k in xstats} == {d for d in structs if d.endswith("-xstats")}
    for kind in options:
        assert options[kind] == f"tc-{kind}-attrs" and options[kind] in sets
        assert xstats[kind] == f"tc-{kind}-xstats" and xstats[kind] in structs


def test_nests_point_at_defined_sets(spec: dict[str, Any]) -> None:
    sets = {a["name"] for a in spec["attribute-sets"]}
    structs = {d["name"] for d in spec["definitions"] if d["type"] == "struct"}
    for aset in spec["attribute-sets"]:
        for attr in aset["attributes"]:
            if attr["type"] == "nest":
                assert attr["nested-attributes"] in sets, attr["name"]
            if "struct" in attr:
                assert attr["type"] == "binary" and attr["struct"] in structs, attr["name"]


PKT_SCHED = Path("/usr/include/linux/pkt_sched.h")


def test_linux_heads_are_linux_abi() -> None:
    """what this file says of Linux's sfb, against the installed header"""
    if not PKT_SCHED.exists():
        pytest.skip(f"no {PKT_SCHED} (linux-libc-dev)")
    text = _strip_comments(PKT_SCHED.read_text())
    enum = re.search(r"enum\s*\{\s*TCA_SFB_UNSPEC\b.*?\};", text, re.S)
    assert enum is not None
    assert header_enums(enum.group(0)) == {"TCA_SFB_": LINUX_ENUMS["TCA_SFB_AQM_"][1]}
    struct = re.search(r"struct\s+tc_sfb_xstats\s*\{.*?\};", text, re.S)
    assert struct is not None
    assert header_structs(struct.group(0)) == dict([LINUX_STRUCTS["tc_sfb_aqm_xstats"]])


# the parsers themselves must see a drift; these inputs are made to differ


def test_parser_sees_a_renamed_or_moved_attribute() -> None:
    text = "enum {\n\tTCA_X_UNSPEC,\n\tTCA_X_A, /* c */\n\tTCA_X_B,\n\t__TCA_X_MAX\n};"
    assert header_enums(text) == {"TCA_X_": [("TCA_X_A", 1), ("TCA_X_B", 2)]}
    spec = {
        "attribute-sets": [{"name-prefix": "tca-x-", "attributes": [{"name": "b"}, {"name": "a"}]}]
    }
    assert spec_enums(spec) != header_enums(text)


def test_parser_sees_a_changed_member_type() -> None:
    text = "struct tc_x_xstats {\n\t__u32\tp; /* c */\n\t__u64\tq;\n};"
    assert header_structs(text) == {"tc_x_xstats": [("p", "u32"), ("q", "u64")]}
    spec = {
        "definitions": [
            {
                "name": "tc-x-xstats",
                "type": "struct",
                "members": [{"name": "p", "type": "u64"}, {"name": "q", "type": "u64"}],
            }
        ]
    }
    assert spec_structs(spec) != header_structs(text)


def test_parser_reads_a_continued_enum_and_an_array() -> None:
    text = (
        "#define TCA_Y_N\t4\n"
        "enum {\n\tTCA_Y_AQM_A = 2, /* c */\n\tTCA_Y_AQM_B,\n\t__TCA_Y_AQM_MAX\n};\n"
        "struct tc_y_xstats {\n\t__u32\ta;\n\t__u32\tb[TCA_Y_N];\n\t__u64\tc[2];\n};"
    )
    assert header_enums(text) == {"TCA_Y_AQM_": [("TCA_Y_AQM_A", 2), ("TCA_Y_AQM_B", 3)]}
    assert header_structs(text) == {
        "tc_y_xstats": [("a", "u32"), ("b", "binary[16]"), ("c", "binary[16]")]
    }
    heads = {"TCA_Y_AQM_": ("TCA_Y_", [("TCA_Y_P", 1)])}
    assert with_linux_heads(header_enums(text), heads) == {
        "TCA_Y_": [("TCA_Y_P", 1), ("TCA_Y_AQM_A", 2), ("TCA_Y_AQM_B", 3)]
    }
    spec = {
        "attribute-sets": [
            {"name-prefix": "tca-y-", "attributes": [{"name": "p"}, {"name": "aqm-a"}]}
        ]
    }
    # a member left out of the spec is seen
    assert spec_enums(spec) != with_linux_heads(header_enums(text), heads)
    with pytest.raises(ValueError):
        header_enums("enum {\n\tTCA_Y_A,\n\t__TCA_Y_MAX\n};")
    with pytest.raises(ValueError):
        header_enums("enum {\n\tTCA_Y_AQM_A = X,\n\t__TCA_Y_AQM_MAX\n};")
