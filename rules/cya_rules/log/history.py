"""A game's history as `GET /v1/games/{game_id}/history` serves it (`HISTORY.ndjson`): one JSON
object a line, oldest first, each a stored event with its place in the log and its hash:

    {"version": 1, "type": "game_created", "schema_version": 1, "visibility": "server",
     "command_id": null, "actor": "player:…", "recorded_at": "2026-12-06T19:00:00.123456Z",
     "hash": "<64 hex>", "data": {…the event, its bytes exactly as stored and hashed…}}

`data` is kept as the bytes it was sent as (`msgspec.Raw`): the hash covers them, not any
re-encoding. The game's id is not in the lines (it is in the URL): the reader supplies it.
"""

from __future__ import annotations

from datetime import datetime

import msgspec


class HistoryLine(msgspec.Struct, frozen=True, gc=False):
    version: int
    type: str
    schema_version: int
    visibility: str
    command_id: str | None
    actor: str | None
    recorded_at: datetime
    hash: str
    data: msgspec.Raw


_decoder = msgspec.json.Decoder(HistoryLine)


class HistoryError(ValueError):
    """A file that is not a history: the message names the line."""


def read_history(ndjson: bytes) -> list[HistoryLine]:
    """The history's lines, in file order (blank lines skipped)."""
    lines = []
    for number, raw in enumerate(ndjson.split(b"\n"), start=1):
        if not raw.strip():
            continue
        try:
            lines.append(_decoder.decode(raw))
        except (msgspec.DecodeError, msgspec.ValidationError) as exc:
            raise HistoryError(f"line {number} is not a history line: {exc}") from None
    return lines
