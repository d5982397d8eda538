"""Send one RTM_NEWQDISC with chosen attributes, for paths that tc cannot reach.

tc plugins check their options before sending them, so the kernel's own
checks of impossible combinations and malformed attributes (two exclusive
options together, a u8 flag of 2, a ratio nest without its denominator)
are only reachable with hand-chosen netlink. This tool builds the request
from typed attributes through pyroute2, prints the kernel's extended ack
like tc does ("Error: MSG.") and exits 2 on a kernel error, as tc does, 0
on success, 1 on bad usage.

Usage: nlqdisc.py [--change] DEV HANDLE KIND [TYPE:FORMAT:VALUE...]
  HANDLE: "1:" (root qdisc with handle 1:)
  TYPE: the attribute number inside TCA_OPTIONS (include/uapi/linux/pkt_aqm.h)
  FORMAT: u8, u16, u32, u64;
          ratio: NUM/DEN as a nest of TCA_AQM_RATIO_NUM and _DEN (u64), or
          NUM alone for a nest without its denominator;
          hex: raw payload bytes, for malformed attributes
Example: nlqdisc.py dummy1 1: blue 1:u32:100 4:ratio:1/50

Needs pyroute2: run it with the project venv's python3.
"""

from __future__ import annotations

import sys
import types
from dataclasses import dataclass
from typing import Any

from pyroute2 import IPRoute  # type: ignore[import-untyped]
from pyroute2.netlink import NLA_F_NESTED, nla  # type: ignore[import-untyped]
from pyroute2.netlink.exceptions import NetlinkError  # type: ignore[import-untyped]
from pyroute2.netlink.rtnl import TC_H_ROOT  # type: ignore[import-untyped]
from pyroute2.netlink.rtnl.tcmsg import plugins  # type: ignore[import-untyped]

TCA_AQM_RATIO_NUM = 1
TCA_AQM_RATIO_DEN = 2

_INTS = {"u8": "uint8", "u16": "uint16", "u32": "uint32", "u64": "uint64"}


@dataclass(frozen=True)
class Attr:
    """One attribute of TCA_OPTIONS: its number, pyroute2 class and value."""

    atype: int
    nla_class: str
    value: Any


def _ratio_class() -> Any:
    """The TCA_AQM_RATIO nest, flagged NLA_F_NESTED as the kernel's strict
    parser requires."""
    return type(
        "aqm_ratio",
        (nla,),
        {
            "nla_flags": NLA_F_NESTED,
            "nla_map": (
                (0, "TCA_AQM_RATIO_UNSPEC", "none"),
                (TCA_AQM_RATIO_NUM, "TCA_AQM_RATIO_NUM", "uint64"),
                (TCA_AQM_RATIO_DEN, "TCA_AQM_RATIO_DEN", "uint64"),
            ),
        },
    )


def typed_attr(spec: str) -> Attr:
    """An attribute from TYPE:FORMAT:VALUE."""
    parts = spec.split(":", 2)
    if len(parts) != 3:
        raise ValueError(f"{spec!r}: TYPE:FORMAT:VALUE expected")
    atype, fmt, value = int(parts[0], 0), parts[1], parts[2]
    if atype <= 0 or atype >= NLA_F_NESTED:
        raise ValueError(f"{spec!r}: attribute type out of range")
    if fmt in _INTS:
        return Attr(atype, _INTS[fmt], int(value, 0))
    if fmt == "ratio":
        num, slash, den = value.partition("/")
        members = [["TCA_AQM_RATIO_NUM", int(num, 0)]]
        if slash:
            members.append(["TCA_AQM_RATIO_DEN", int(den, 0)])
        return Attr(atype, "ratio", {"attrs": members})
    if fmt == "hex":
        # pyroute2 packs typed values only; a payload of the wrong size is
        # sent as opaque bytes (its "cdata" class), chosen here byte by byte
        return Attr(atype, "cdata", bytes.fromhex(value))
    raise ValueError(f"{spec!r}: unknown format {fmt!r}")


def options_class(attrs: list[Attr]) -> Any:
    """A pyroute2 nla class for TCA_OPTIONS with exactly these types."""
    nla_map = [(0, "UNSPEC", "none")]
    nla_map += [(a.atype, f"OPT_{a.atype}", a.nla_class) for a in attrs]
    return type(
        "aqm_options",
        (nla,),
        {"nla_flags": NLA_F_NESTED, "nla_map": tuple(nla_map), "ratio": _ratio_class()},
    )


def parse_handle(text: str) -> int:
    """tc's MAJOR:MINOR (hex) as a 32-bit handle."""
    major, _, minor = text.partition(":")
    return (int(major or "0", 16) << 16) | int(minor or "0", 16)


def register(kind: str, attrs: list[Attr]) -> None:
    """Teach pyroute2 the TCA_OPTIONS of KIND: exactly ATTRS, at the root.

    pyroute2 looks a qdisc's options up by TCA_KIND in its plugin table;
    the project's qdiscs are not there, so each request registers a plugin
    for its own attribute list.
    """
    values = {"attrs": [[f"OPT_{a.atype}", a.value] for a in attrs]}
    plugins[kind] = types.SimpleNamespace(
        options=options_class(attrs),
        get_parameters=lambda _context: values,
        parent=TC_H_ROOT,
    )


def send(dev: str, handle: int, kind: str, attrs: list[Attr], change: bool) -> tuple[int, str]:
    """Create (exclusively) or change the root qdisc KIND of DEV with ATTRS.

    Return: (errno, extack message) of the kernel's answer, (0, "") on
    success.
    """
    register(kind, attrs)
    with IPRoute(ext_ack=True) as ipr:
        links = ipr.link_lookup(ifname=dev)
        if not links:
            raise ValueError(f"no device {dev!r}")
        try:
            ipr.tc("change" if change else "add", kind=kind, index=links[0], handle=handle)
        except NetlinkError as e:
            text = e.args[1] if len(e.args) > 1 and isinstance(e.args[1], str) else ""
            return int(e.code), text
    return 0, ""


def main(argv: list[str]) -> int:
    args = argv[1:]
    change = bool(args) and args[0] == "--change"
    if change:
        args = args[1:]
    if len(args) < 3:
        print(__doc__, file=sys.stderr)
        return 1
    dev, handle, kind, specs = args[0], args[1], args[2], args[3:]
    try:
        attrs = [typed_attr(s) for s in specs]
        err, text = send(dev, parse_handle(handle), kind, attrs, change)
    except ValueError as e:
        print(f"nlqdisc: {e}", file=sys.stderr)
        return 1
    if err:
        text = text or f"errno {err}"
        print(f"Error: {text}{'' if text.endswith('.') else '.'}", file=sys.stderr)
        return 2
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
