"""Audit: the whole log (NDJSON), the state at any version, and verification."""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime
from typing import Annotated, Any

import msgspec
from litestar import Controller, Response, get
from litestar.openapi.datastructures import ResponseSpec
from litestar.openapi.spec import OpenAPIHeader, OpenAPIResponse, OpenAPIType, Operation, Schema
from litestar.params import Parameter

from cya_rules import player_view, spectator_view
from cya_rules.docs import doc
from cya_rules.log.codec import EventCodec
from cya_rules.table.lobby import SeatResigned
from cya_rules.table.timeouts import SeatHandedToBot
from service.audit.verify import VerifyReport, verify
from service.events.records import StoredRow
from service.http.context import Authed, authenticate_or_watch, runtime_of, viewer_in
from service.http.problems import Problem, forbidden, problem_responses
from service.http.schemas.parameters import GameId
from service.http.schemas.play import StateOut
from service.projections.games import game_access
from service.receipts import Receipt

_encode = msgspec.json.Encoder().encode


# Documents the lines `history` encodes itself (the route returns bytes).
class HistoryLine(msgspec.Struct):
    """One line of `GET /v1/games/{game_id}/history` (NDJSON): a stored event, unredacted."""

    version: Annotated[int, doc("The event's version: its place in the game's log, from 1.")]
    type: Annotated[str, doc("The event's type, as `data` names it.")]
    schema_version: Annotated[int, doc("The version of this event type's `data` layout.")]
    visibility: Annotated[
        str,
        doc("Who sees it in full: `public` (everyone), a seat number (that seat alone) or"
            " `server` (no player); the others see it redacted."),
    ]
    command_id: Annotated[
        str | None,
        doc("On the first event of a command sent with an id: a client's is"
            " `player:<player id>:<Idempotency-Key>`, a bot move's or an expired clock's"
            " `due:<version>:<bot_turn|deadline>`, a bot endpoint's `webhook:<version>`; null"
            " otherwise."),
    ]
    actor: Annotated[
        str | None, doc("Who caused it: `player:<player id>`, `bot:<level>` (a bot seat's"
                        " move), `webhook:<player id>` (the player's bot endpoint), or"
                        " `timeout:<seat>` (that seat's turn clock ran out).")
    ]
    recorded_at: Annotated[datetime, doc("When the event was stored; `hash` leaves it out.")]
    hash: Annotated[
        str,
        doc("Hex SHA-256 of: the previous event's `hash` (64 zeros before the first event) as"
            " ASCII, the compact JSON array `[game_id, version, type, schema_version,"
            " visibility, command_id, actor]`, a newline, and `data` exactly as it appears in"
            " this line. `GET /verify` checks the chain; so can you, from this log alone."),
    ]
    data: Annotated[
        dict[str, Any],
        doc("The event itself, unredacted, with its `type`: the stored bytes, compact UTF-8"
            " JSON, as they are hashed. Of the event schema its `type` names, at"
            " `schema_version` (an older version may differ from today's schema)."),
    ]


def _not_finished() -> Problem:
    return forbidden("game_not_finished", "The full log is open once the game is finished.")


_SEAT_GIVEN_UP = (SeatResigned, SeatHandedToBot)
_SEAT_GIVEN_UP_TYPES = frozenset(c.__struct_config__.tag for c in _SEAT_GIVEN_UP)


def _gave_up_a_seat(player_id: str, stored: list[StoredRow], codec: EventCodec) -> bool:
    """Whether the player held a seat once the cards were dealt and has lost it since: after
    the start a seat changes hands only by resigning or a hand-over, each naming its player."""
    for row in stored:
        if row.type in _SEAT_GIVEN_UP_TYPES:
            event = codec.decode(row.type, row.schema_version, row.data)
            if isinstance(event, _SEAT_GIVEN_UP) and event.player_id == player_id:
                return True
    return False


class HistoryPage(msgspec.Struct):
    """A page of `GET /v1/games/{game_id}/history/page`: the history's lines as JSON."""

    game_id: Annotated[str, doc("The game's id.")]
    version: Annotated[int, doc("The game's version: the number of events in its log.")]
    lines: Annotated[list[HistoryLine], doc("The lines after `?after=`, oldest first.")]
    next_after: Annotated[int, doc(
        "Pass it as `?after=` for the next page: the last version on this page, or `after` "
        "itself when the page is empty (then there are no more).")]
    receipt: Annotated[Receipt | None, doc(
        "The server's signed receipt for the whole log, at `version` (docs/receipts.md). Null"
        " only when the operator turned receipts off.")]
    receipt_salt: Annotated[str, doc(
        "Hex: the game's receipt salt. A receipt's `chain_seal` is HMAC-SHA-256 keyed with it"
        " of the line's `hash` at the receipt's version, so with it any receipt of this game"
        " can be checked against these lines.")]


RECEIPT_HEADER = "Cya-Receipt"
RECEIPT_SALT_HEADER = "Cya-Receipt-Salt"


@dataclass
class HistoryOperation(Operation):
    """`GET /history` is NDJSON, one event a line: its receipt and salt travel in headers."""

    def __post_init__(self) -> None:
        ok = (self.responses or {}).get("200")
        if isinstance(ok, OpenAPIResponse):
            text = Schema(type=OpenAPIType.STRING)
            ok.headers = {
                RECEIPT_HEADER: OpenAPIHeader(
                    description="The server's signed receipt for the whole log, at its last "
                    "version: a `Receipt` as compact JSON (docs/receipts.md). Absent only when "
                    "the operator turned receipts off.", schema=text),
                RECEIPT_SALT_HEADER: OpenAPIHeader(
                    description="Hex: the game's receipt salt (see `HistoryPage.receipt_salt`).",
                    schema=text)}


def _receipt_of(request: Authed, game_id: str, rows: list[StoredRow]) -> Receipt | None:
    return runtime_of(request).receipt(game_id, rows[-1].version, rows[-1].hash) if rows else None


async def _history(request: Authed, game_id: str) -> list[StoredRow]:
    """The game's rows as stored, once the caller may read them unredacted."""
    runtime, player = runtime_of(request), request.user
    store = runtime.services.store
    async with store.read() as conn:
        access = await game_access(conn, game_id)
    viewer_in(access, player)
    if access.status == "lobby":  # the seeds are not all in, and none may be seen before
        raise forbidden("game_not_started", "The log is open once the cards are dealt (its "
                        "client seeds stay secret until then).")
    running = access.status in ("lobby", "playing")
    if running and (player.player_id != access.creator
                    or access.seat_of(player.player_id) is not None):
        raise _not_finished()
    stored = await store.read_as_stored(game_id)
    if running and _gave_up_a_seat(player.player_id, stored, store.codec):
        raise _not_finished()  # it saw its hand, and may relay what the log shows
    return stored


def _line(r: StoredRow) -> dict[str, Any]:
    """A `HistoryLine`, its `data` as stored, byte for byte: what `hash` covers."""
    return {"version": r.version, "type": r.type, "schema_version": r.schema_version,
            "visibility": r.visibility, "command_id": r.command_id, "actor": r.actor,
            "recorded_at": r.recorded_at, "hash": r.hash, "data": msgspec.Raw(r.data)}


class AuditController(Controller):
    path = "/v1/games/{game_id:str}"
    tags = ["audit"]
    before_request = staticmethod(authenticate_or_watch)  # every route here only reads

    @get("/history", operation_id="getHistory", summary="The whole unredacted log as NDJSON",
         description="For a finished game (anyone who may watch it), or for its creator when "
         "the creator held no seat when the cards were dealt (a creator who played would see "
         "the other hands, also after resigning).",
         media_type="application/x-ndjson", operation_class=HistoryOperation,
         responses={200: ResponseSpec(data_container=HistoryLine, generate_examples=False,
                                      media_type="application/x-ndjson",
                                      description="One JSON event per line, oldest first."),
                    **problem_responses(400, 401, 403, 404, 429)})
    async def history(self, request: Authed, game_id: GameId) -> Response[bytes]:
        rows = await _history(request, game_id)
        lines = [_encode(_line(r)) for r in rows]
        headers = {RECEIPT_SALT_HEADER: runtime_of(request).receipt_salt(game_id)}
        receipt = _receipt_of(request, game_id, rows)
        if receipt is not None:
            headers[RECEIPT_HEADER] = _encode(receipt).decode()
        return Response(b"\n".join(lines) + b"\n", media_type="application/x-ndjson",
                        headers=headers)

    @get("/history/page", operation_id="getHistoryPage",
         summary="The whole unredacted log, a page of JSON at a time",
         description="The lines of `GET /history` as one JSON document per page, for clients "
         "that read JSON only (generated ones). The same access rules.",
         responses={200: ResponseSpec(data_container=HistoryPage, generate_examples=False,
                                      description="A page of the log's lines, oldest first."),
                    **problem_responses(400, 401, 403, 404, 429)})
    async def history_page(
        self, request: Authed, game_id: GameId,
        after: Annotated[int, Parameter(ge=0, le=10**9, description=(
            "Only lines after this version: the previous page's `next_after`."))] = 0,
        limit: Annotated[int, Parameter(ge=1, le=5000, description=(
            "At most this many lines."))] = 1000,
    ) -> Response[bytes]:
        rows = await _history(request, game_id)
        page = [r for r in rows if r.version > after][:limit]
        return Response(_encode({  # `HistoryPage`, encoded here to keep `data` as stored
            "game_id": game_id, "version": len(rows), "lines": [_line(r) for r in page],
            "next_after": page[-1].version if page else after,
            "receipt": _receipt_of(request, game_id, rows),
            "receipt_salt": runtime_of(request).receipt_salt(game_id)}),
            media_type="application/json")

    @get("/state", operation_id="getStateAt", summary="Your view of the game at a version",
         description="The same visibility as `GET /view`: your own hand only, at that version.",
         responses=problem_responses(400, 401, 403, 404, 429))
    async def state(self, request: Authed, game_id: GameId,
                    version: Annotated[int, Parameter(
                        ge=1, le=10**9, description="The version to replay the log up to: "
                        "1 is the game's creation.")]) -> StateOut:
        runtime, player = runtime_of(request), request.user
        async with runtime.services.store.read() as conn:
            access = await game_access(conn, game_id)
        seat = viewer_in(access, player)
        if version > access.version:
            raise Problem(404, "version_not_found",
                          f"The game is at version {access.version}.")
        if version > access.horizon(seat):
            raise forbidden("spectator_delay", f"Watchers see this game {access.spectator_delay}"
                            f" events behind the table while it runs: up to version "
                            f"{access.horizon(seat)} now.")
        game = await runtime.services.pipeline.at_version(game_id, version)
        view = None
        if game.status != "lobby" and game.state is not None:
            view = spectator_view(game.state) if seat is None else player_view(game.state, seat)
        return StateOut(game_id, version, seat, view)

    @get("/verify", operation_id="verifyGame",
         summary="Check the hash chain, every revealed shuffle and the rules",
         responses=problem_responses(400, 401, 403, 404, 429))
    async def verify(self, request: Authed, game_id: GameId) -> VerifyReport:
        runtime, player = runtime_of(request), request.user
        async with runtime.services.store.read() as conn:
            viewer_in(await game_access(conn, game_id), player)
        return await verify(runtime.services.store, game_id)
