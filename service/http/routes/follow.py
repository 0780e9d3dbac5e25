"""Follow a game: its log redacted for the caller, by page or as Server-Sent Events."""

from __future__ import annotations

from collections.abc import AsyncIterator
from dataclasses import dataclass
from typing import Annotated

import msgspec
from litestar import Controller, Response, get
from litestar.openapi.spec import (
    OpenAPIFormat,
    OpenAPIMediaType,
    OpenAPIResponse,
    OpenAPIType,
    Operation,
    Reference,
    Schema,
)
from litestar.params import HeaderParameter, Parameter
from litestar.response import ServerSentEvent
from litestar.response.sse import ServerSentEventMessage

from cya_rules.events import CardDiscarded
from cya_rules.log.visibility import visibility_of
from cya_rules.table.lobby import Lobby
from cya_rules.table.seats import HumanSeat
from cya_rules.views import Viewer
from service.events.records import StoredEvent, redacted_for
from service.http import examples
from service.http.context import (
    Authed,
    Runtime,
    authenticate_or_watch,
    may_watch,
    runtime_of,
    seat_in,
    viewer_in,
)
from service.http.feeds import After, Feed
from service.http.problems import problem_responses
from service.http.schemas.events import EventOut, EventPage, StreamEvent
from service.http.schemas.parameters import HEADER_SCHEMA, VERSION_DIGITS, GameId, version_query
from service.http.streams import HEARTBEAT, EncodedMessages, prefers_stream
from service.players.directory import Player
from service.projections.games import GameAccess, game_access
from service.receipts import Receipt
from service.table.clock import deadline

_encode = msgspec.json.Encoder().encode
WRITE_AT_MOST = 16  # events in one write of a stream

# Made by the same encoders the stream uses, so the documented bytes cannot drift from them.
_STREAM_EXAMPLE = b"".join(m.encode() for m in (
    ServerSentEventMessage(data=_encode(StreamEvent(7, CardDiscarded(seat=2, card="jewels#4"),
                                                    [3], None, examples.RECEIPT)),
                           id="7", event="message"),
    HEARTBEAT,
)).decode()


@dataclass
class EventsOperation(Operation):
    """Documents the stream beside the page: its 200 also answers `text/event-stream`."""

    def __post_init__(self) -> None:
        ok = (self.responses or {}).get("200")
        if isinstance(ok, OpenAPIResponse) and ok.content is not None:
            # The schema of one message's `data`, as streaming APIs document a stream's items.
            ok.content["text/event-stream"] = OpenAPIMediaType(schema=Schema(
                description="One message of a game's event stream (Server-Sent Events: per "
                "event `id`, the version, `event: message` and `data`, this object as JSON; "
                "`: heartbeat` comments when idle): the event, and whose decision the game "
                "waits for after it.",
                all_of=[Reference(ref="#/components/schemas/EventOut"), Schema(
                    type=OpenAPIType.OBJECT, required=["awaiting", "deadline", "receipt"],
                    properties={
                        "awaiting": Schema(type=OpenAPIType.ARRAY,
                                           items=Schema(type=OpenAPIType.INTEGER),
                                           description="The seats whose decision the game "
                                           "waits for after this event."),
                        "deadline": Schema(one_of=[
                            Schema(type=OpenAPIType.STRING, format=OpenAPIFormat.DATE_TIME),
                            Schema(type=OpenAPIType.NULL)],
                            description="When that decision times out (turn clock); null "
                            "without a clock, or for a bot's decision."),
                        "receipt": Schema(one_of=[
                            Reference(ref="#/components/schemas/Receipt"),
                            Schema(type=OpenAPIType.NULL)],
                            description="The server's signed receipt for the log at this "
                            "event's version (docs/receipts.md); null only when the operator "
                            "turned receipts off.")})]),
                example=_STREAM_EXAMPLE)


class FollowController(Controller):
    path = "/v1/games/{game_id:str}"
    tags = ["follow"]
    before_request = staticmethod(authenticate_or_watch)  # watchers need no key

    @get("/events", operation_id="listEvents", summary="The log as you may see it",
         description="A page of events after version `after`. With `Accept: text/event-stream` "
         "the answer is a Server-Sent Event stream instead: one `message` per event (its `id` "
         "is the version; reconnect with `Last-Event-ID` to resume), a `: heartbeat` comment "
         "when idle, and the stream ends after `game_ended`.",
         responses={200: examples.ok(EventPage, "The deal, as seat 0 sees it", "events",
                                     "A page of the log, redacted for you."),
                    **problem_responses(400, 401, 403, 404, 429)},
         operation_class=EventsOperation,
         opt={"waits": lambda request: prefers_stream(request.headers.get("accept"))})
    async def events(
        self, request: Authed, game_id: GameId,
        after: Annotated[int, version_query(
            "Only events after this version: the previous page's `next_after`, or the version "
            "you hold.")] = 0,
        limit: Annotated[int, Parameter(
            ge=1, le=500, description="At most this many events (JSON pages only).")] = 100,
        last_event_id: Annotated[str | None, HeaderParameter(
            name="Last-Event-ID", required=False, max_length=9,
            pattern=f"^({VERSION_DIGITS})?$", schema_extra=HEADER_SCHEMA,
            description="Event stream only: the last `id` received. The stream resumes after "
                        "it; it takes precedence over `after`. Empty (an event source that "
                        "has received no id yet): as if not sent.")] = None,
    ) -> Response[EventPage]:
        runtime, player = runtime_of(request), request.user
        if prefers_stream(request.headers.get("accept")):
            # Who the caller is, decided once from the game as it stands (as the pages and
            # `/view` decide it), and from this process's cache: opening a stream on a game
            # it already follows needs no database connection.
            game, seat = await seat_in(runtime.services.pipeline, game_id, player)
            if seat is None:
                may_watch(game, player)
            assert game.lobby is not None  # a game's log opens with its creation
            start = int(last_event_id) if last_event_id else after
            return ServerSentEvent(  # type: ignore[return-value]
                _stream(runtime, game_id, game.lobby, player, seat, start),
                headers={"Cache-Control": "no-store", "X-Accel-Buffering": "no"})
        store = runtime.services.store
        async with store.read() as conn:
            access = await game_access(conn, game_id)
        viewer = viewer_in(access, player)
        horizon = access.horizon(viewer)
        if horizon < access.version:  # a watcher, behind by the game's spectator delay
            return Response(await _delayed_page(runtime, access, after, limit, horizon))
        upto = after + limit
        if viewer is None and access.spectator_delay:
            # Not past the version checked: a game in its lobby may have started since, and a
            # watcher trails it from then on.
            upto = min(upto, access.version)
        stored = await store.read_events(game_id, after, upto)
        page = [EventOut(s.version, redacted_for(s, viewer)) for s in stored]
        if stored and stored[-1].version > access.version:  # moved on since the check
            async with store.read() as conn:
                access = await game_access(conn, game_id)
        return Response(EventPage(game_id, access.version, page,
                                  stored[-1].version if stored else after,
                                  access.awaiting, access.deadline,
                                  await _page_receipt(runtime, game_id, stored, after)))


async def _stream(runtime: Runtime, game_id: str, lobby: Lobby, player: Player,
                  viewer: Viewer, after: int) -> AsyncIterator[ServerSentEventMessage]:
    """The log after `after`, redacted for `viewer`. A seat's events are shown to its player
    until the seat leaves them (resigned, or handed to a bot): from then on they watch, as a
    read opened then would decide. Events from before the caller sat down are theirs too: a
    seat's holder is judged only once the caller has held it.

    What one wake-up finds past `sent` goes as one write (a command's events come together;
    `WRITE_AT_MOST` of them, so a stream that opens on a long log does not encode it all at
    once): a message per event, made once per feed and viewer when it has several followers
    (`_frame`). A write per event was one pass through Litestar, uvicorn and a `send` system
    call for each of a command's three to five events, on every stream following its game."""
    heartbeat = runtime.settings.sse_heartbeat_seconds
    mine, held = HumanSeat(player.player_id), False
    sent = after
    async with runtime.feeds.follow(game_id) as feed:
        while True:
            # A watcher trails a running game by its spectator delay.
            delay = lobby.spectator_delay if viewer is None and not feed.ended else 0
            frames: list[bytes] = []
            leaves = False  # the caller's seat left them: they watch from here, or go
            for s in feed.after(sent)[:min(max(feed.version - delay - sent, 0), WRITE_AT_MOST)]:
                then = feed.after_each[s.version - 1]
                if viewer is not None and then.seats:
                    if then.seats[viewer] == mine:
                        held = True
                    elif held:  # resigned or handed over: a watcher from here on
                        leaves = True
                        break
                frames.append(_frame(runtime, feed, s, viewer, then))
                sent = s.version
            if frames:
                yield EncodedMessages(b"".join(frames))
                del frames  # not held while the stream waits
            if leaves:
                if not lobby.public and player.player_id != lobby.creator:
                    return  # a private game's watchers are its players
                viewer = None  # the rest waits for the spectator delay
                continue
            if feed.ended and sent >= feed.version:
                return
            if feed.draining:  # this process is stopping: the client resumes elsewhere
                return
            if not await feed.wait_past(sent + delay, heartbeat):
                yield HEARTBEAT


def _frame(runtime: Runtime, feed: Feed, s: StoredEvent, viewer: Viewer, then: After
           ) -> bytes:
    """One event's stream message for `viewer`, as `ServerSentEventMessage(data=…, id=…,
    event="message")` encodes it (JSON holds no line break), made once per feed: a public
    event is the same for every viewer (a game watched by a crowd: each message once, not
    once per stream)."""
    frame = feed.frames.get((s.version, "all")) or feed.frames.get((s.version, viewer))
    if frame is None:
        body = _encode(StreamEvent(s.version, redacted_for(s, viewer), then.awaiting,
                                   then.deadline, runtime.receipt(feed.game_id, s.version, s.hash)))
        frame = b"id: %d\r\nevent: message\r\ndata: %s\r\n\r\n" % (s.version, body)
        if feed.users > 1:  # kept for the others only: a feed of one follower holds none
            # By the event's own class, as `redacted_for` decides, not the stored column.
            shown = "all" if visibility_of(s.event) == "public" else viewer
            feed.frames[(s.version, shown)] = frame
    return frame


async def _delayed_page(runtime: Runtime, access: GameAccess, after: int, limit: int,
                        horizon: int) -> EventPage:
    """A watcher's page of a game with a spectator delay: nothing past `horizon`, and whose
    decision it was then."""
    stored = await runtime.services.store.read_events(access.game_id, after,
                                                      min(after + limit, horizon))
    then = await runtime.services.pipeline.at_version(access.game_id, horizon)
    pending = then.pending_seat()
    return EventPage(access.game_id, horizon, [EventOut(s.version, redacted_for(s, None))
                                               for s in stored],
                     stored[-1].version if stored else after,
                     [pending[0]] if pending else [], deadline(then),
                     await _page_receipt(runtime, access.game_id, stored, min(after, horizon)))


async def _page_receipt(runtime: Runtime, game_id: str, stored: list[StoredEvent],
                        after: int) -> Receipt | None:
    """The receipt for the version a page brings its reader to: its last event's, or for an
    empty page the version the reader asked after (read from the log, if there is one)."""
    if stored:
        return runtime.receipt(game_id, stored[-1].version, stored[-1].hash)
    return await runtime.receipt_at(game_id, after)
