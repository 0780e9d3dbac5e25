"""What a forger with the database does to a saved history: change its lines, and (unless a
test says not to) rebuild the hash chain after them, so that only what the chain cannot see
is left to catch them."""

from __future__ import annotations

import json
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import msgspec

from cya_rules.log.chain import GENESIS_HASH, event_hash


@dataclass
class Line:
    meta: dict[str, Any]  # every field but `data`
    data: bytes  # as stored

    @property
    def type(self) -> str:
        return str(self.meta["type"])

    def event(self) -> dict[str, Any]:
        return json.loads(self.data)  # type: ignore[no-any-return]

    def set_event(self, event: dict[str, Any]) -> None:
        self.data = msgspec.json.encode(event)


class _Raw(msgspec.Struct):
    data: msgspec.Raw


def read(path: Path) -> list[Line]:
    out = []
    for raw in path.read_bytes().splitlines():
        meta = json.loads(raw)
        del meta["data"]
        out.append(Line(meta, bytes(msgspec.json.decode(raw, type=_Raw).data)))
    return out


def write(path: Path, lines: list[Line]) -> None:
    path.write_bytes(b"".join(
        msgspec.json.encode({**line.meta, "data": msgspec.Raw(line.data)}) + b"\n"
        for line in lines))


def rechain(game_id: str, lines: list[Line]) -> None:
    """Versions from 1 and every hash recomputed: a consistent chain."""
    prev = GENESIS_HASH
    for version, line in enumerate(lines, start=1):
        m = line.meta
        m["version"] = version
        m["hash"] = prev = event_hash(prev, game_id, version, m["type"], m["schema_version"],
                                      m["visibility"], m["command_id"], m["actor"], line.data)


def first(lines: list[Line], event_type: str, after: int = 0) -> int:
    return next(i for i, line in enumerate(lines) if line.type == event_type and i >= after)
