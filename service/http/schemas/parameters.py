"""The path, query and header parameters the routes share."""

from __future__ import annotations

import re
from typing import Annotated, Any

from litestar.params import Parameter

# Opaque to clients (the server's are 32 hex digits); held to a safe alphabet so an id that
# could never exist is a 400 naming it, not a database error (PostgreSQL refuses a NUL).
GAME_ID_PATTERN = r"^[0-9A-Za-z_-]{1,64}$"  # a final newline slips past `$`: harmless here
GAME_ID = re.compile(GAME_ID_PATTERN)
GameId = Annotated[str, Parameter(pattern=GAME_ID_PATTERN,
                                  description="The game's id, as `POST /v1/games` gave it.")]


def version_query(description: str) -> Any:
    """A query parameter holding a game version."""
    return Parameter(ge=0, le=10**9, schema_extra={"minimum": 0}, description=description)


VERSION_DIGITS = "[0-9]{1,9}"  # a game version in a header; ASCII only (headers are Latin-1)
# An optional header is a string when sent and absent otherwise: Litestar documents `str | None`
# as "string or null", and a client (schemathesis did) sends null as the text `null`.
HEADER_SCHEMA: dict[str, Any] = {"one_of": None, "type": "string"}
