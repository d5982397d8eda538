"""Tests of tdc's lighter namespace plugin (selftests/tc-tests/nsPlugin.py).

The plugin runs inside the kernel's tc-testing directory, whose tdc_config
and TdcPlugin modules it imports; stand-ins are enough for the netlink
encoding checked here (the namespaces themselves are made in the VM, by
every tdc case of make check).
"""

from __future__ import annotations

import importlib.util
import socket
import struct
import sys
import types
from pathlib import Path

import pytest

PLUGIN = Path(__file__).resolve().parents[2] / "selftests/tc-tests/nsPlugin.py"


@pytest.fixture(scope="module")
def plugin() -> types.ModuleType:
    cfg = types.ModuleType("tdc_config")
    cfg.ENVIR = {}  # type: ignore[attr-defined]
    cfg.NAMES = {"IP": "ip"}  # type: ignore[attr-defined]
    base = types.ModuleType("TdcPlugin")
    base.TdcPlugin = object  # type: ignore[attr-defined]
    saved = {k: sys.modules.get(k) for k in ("tdc_config", "TdcPlugin")}
    sys.modules.update({"tdc_config": cfg, "TdcPlugin": base})
    try:
        spec = importlib.util.spec_from_file_location("nsPlugin", PLUGIN)
        assert spec and spec.loader
        mod = importlib.util.module_from_spec(spec)
        spec.loader.exec_module(mod)
    finally:
        for k, v in saved.items():
            if v is None:
                sys.modules.pop(k, None)
            else:
                sys.modules[k] = v
    return mod


def _attrs(buf: bytes) -> dict[int, bytes]:
    out = {}
    off = 0
    while off < len(buf):
        n, t = struct.unpack_from("=HH", buf, off)
        assert n >= 4
        out[t & 0x3FFF] = buf[off + 4 : off + n]
        off += (n + 3) & ~3
    assert off == len(buf)
    return out


def test_newlink_is_ip_link_add_up_type_dummy(plugin: types.ModuleType) -> None:
    msg = plugin.newlink_dummy("dummy1")
    length, mtype, flags, _seq, pid = struct.unpack_from("=IHHII", msg)
    assert length == len(msg) and length % 4 == 0
    assert mtype == 16 and pid == 0  # RTM_NEWLINK, to the kernel
    # request, ack, create, exclusive: an existing device is an error
    assert flags == 0x1 | 0x4 | 0x400 | 0x200
    family, _type, index, ifflags, change = struct.unpack_from("=BxHiII", msg, 16)
    assert (family, index, ifflags, change) == (socket.AF_UNSPEC, 0, 1, 1)  # IFF_UP
    attrs = _attrs(msg[32:])
    assert attrs[3] == b"dummy1\0"  # IFLA_IFNAME
    assert struct.unpack_from("=H", msg, 32 + 4 + 8 + 2)[0] & 0x8000  # nested
    assert _attrs(attrs[18]) == {1: b"dummy\0"}  # IFLA_LINKINFO / IFLA_INFO_KIND


def test_ack_errno(plugin: types.ModuleType) -> None:
    def ack(err: int, mtype: int = 2) -> bytes:
        return struct.pack("=IHHII", 36, mtype, 0, 1, 0) + struct.pack("=i", err) + bytes(16)

    assert plugin.ack_errno(ack(0)) == 0
    assert plugin.ack_errno(ack(-17)) == 17  # EEXIST
    with pytest.raises(OSError):
        plugin.ack_errno(ack(0, mtype=16))
