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
    the members between UNSPEC and __MAX with their values."""
    enums: dict[str, list[tuple[str, int]]] = {}
    for body in re.findall(r"enum\s*\{(.*?)\};", _strip_comments(text), re.S):
        names = [n.strip() for n in body.split(",") if n.strip()]
        if any("=" in n for n in names):
            raise ValueError(f"explicit enum values are not parsed: {names}")
        first = names[0]
        if not first.endswith("_UNSPEC"):
            raise ValueError(f"enum does not start with UNSPEC: {first}")
        prefix = first[: -len("UNSPEC")]
        if names[-1] != f"__{prefix}MAX":
            raise ValueError(f"enum of {prefix} does not end with __{prefix}MAX")
        enums[prefix] = [(n, i) for i, n in enumerate(names[1:-1], start=1)]
    return enums


def header_structs(text: str) -> dict[str, list[tuple[str, str]]]:
    """struct tc_*_xstats of the header: (member, u32/u64) in order."""
    structs = {}
    for name, body in re.findall(r"struct\s+(tc_\w+_xstats)\s*\{(.*?)\};", text, re.S):
        members = re.findall(r"__(u8|u16|u32|u64)\s+(\w+)\s*;", _strip_comments(body))
        structs[name] = [(m, t) for t, m in members]
    return structs


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
            (m["name"].replace("-", "_"), m["type"]) for m in d["members"]
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
    h, s = header_enums(header), spec_enums(spec)
    assert set(h) == set(s)
    for prefix, members in h.items():
        assert s[prefix] == members, prefix


def test_every_xstats_struct_matches(header: str, spec: dict[str, Any]) -> None:
    h, s = header_structs(header), spec_structs(spec)
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
    for aset in spec["attribute-sets"]:
        for attr in aset["attributes"]:
            if attr["type"] == "nest":
                assert attr["nested-attributes"] in sets, attr["name"]


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
