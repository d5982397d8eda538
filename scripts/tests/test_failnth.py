"""The fail-nth tool's configurations against the netlink spec."""

from __future__ import annotations

from pathlib import Path

import pytest

from aqmtools import rtnl
from aqmtools.failnth import CONFIGS, options

SPEC = str(Path(__file__).resolve().parents[2] / "Documentation/netlink/specs/tc-aqm.yaml")


@pytest.mark.parametrize("kind", sorted(CONFIGS))
def test_configs_name_attributes_of_the_spec(kind: str) -> None:
    # every attribute named is one of tc-KIND-attrs: the request is built
    for values in CONFIGS[kind]:
        attrs = rtnl.parse_attrs(options(SPEC, kind, values))
        assert len(attrs) == len(values)


def test_every_project_qdisc_has_configs() -> None:
    assert {"pi", "rem", "ared", "riops", "dcn", "afd", "blue", "sfb"} <= set(CONFIGS)
