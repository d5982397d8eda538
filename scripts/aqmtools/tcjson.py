"""Read what selftests/net/lib.sh's leaf_sampler writes: the JSON arrays of
`tc -s -j qdisc show`, one per sample, written one after the other."""

from __future__ import annotations

import json
from typing import Any


def arrays(text: str) -> list[list[dict[str, Any]]]:
    """The JSON arrays of TEXT, in order (white space between them)."""
    dec, i = json.JSONDecoder(), 0
    out: list[list[dict[str, Any]]] = []
    while True:
        while i < len(text) and text[i].isspace():
            i += 1
        if i >= len(text):
            return out
        value, i = dec.raw_decode(text, i)
        if not isinstance(value, list):
            raise ValueError(f"a JSON array expected at offset {i}")
        out.append(value)


def leaf_samples(path: str, handle: str = "10:") -> list[dict[str, Any]]:
    """Every sample of the qdisc with HANDLE in the sampler file PATH."""
    with open(path, encoding="utf-8") as f:
        return [q for a in arrays(f.read()) for q in a if q.get("handle") == handle]
