"""The hash chain: each event's hash covers the previous hash and the event's canonical bytes.

canonical bytes = JSON [game_id, version, type, schema_version, visibility, command_id, actor]
                  + b"\\n" + the stored `data` bytes, exactly as stored.
hash(v) = SHA-256(hex hash(v-1) as ASCII || canonical bytes(v)), with hash(0) = 64 zeros.
The recorded time is left out: it is metadata, not a fact of the game.
"""

from __future__ import annotations

import hashlib

import msgspec

GENESIS_HASH = "0" * 64  # hash(0), before the first event
_encode = msgspec.json.Encoder().encode


def event_hash(
    prev_hash: str,
    game_id: str,
    version: int,
    event_type: str,
    schema_version: int,
    visibility: str,
    command_id: str | None,
    actor: str | None,
    data: bytes,
) -> str:
    header = _encode([game_id, version, event_type, schema_version, visibility, command_id, actor])
    h = hashlib.sha256(prev_hash.encode("ascii"))
    h.update(header)
    h.update(b"\n")
    h.update(data)
    return h.hexdigest()
