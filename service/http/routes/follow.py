"""Follow a game: its log redacted for the caller, by page or as Server-Sent Events."""

from __future__ import annotations

from collections.abc import AsyncIterator
from dataclasses import dataclass
from typing import Annotated

import msgspec
from litestar import Controller, Response, get
from litestar.datastructures.headers import Accept, MediaTypeHeader
from litestar.openapi.spec import (
    OpenAPIMediaType,
    OpenAPIResponse,
    OpenAPIType,
    Operation,
    Schema,
)
from litestar.params import HeaderParameter, Parameter
from litestar.response import ServerSentEvent
from litestar.response.sse import ServerSentEventMessage

from service.domain.events import CardDiscarded
from service.domain.views import Viewer
from service.http import examples
from service.http.context import Authed, Runtime, authenticate, runtime_of, viewer_in
from service.http.problems import problem_responses
from service.http.schemas import (
    HEADER_SCHEMA,
    VERSION_DIGITS,
    EventOut,
    EventPage,
    GameId,
    version_query,
)
from service.projections.games import game_access
from service.store.records import redacted_for

_encode = msgspec.json.Encoder().encode

# Made by the same encoders the stream uses, so the documented bytes cannot drift from them.
# A heartbeat is a comment alone: Litestar's message defaults to an empty `data:` line, which
# EventSource clients would receive as an empty `message` event.
_HEARTBEAT = ServerSentEventMessage(comment="heartbeat", data=None)
_STREAM_EXAMPLE = b"".join(m.encode() for m in (
    ServerSentEventMessage(data=_encode(EventOut(7, CardDiscarded(seat=2, card="jewels#4"))),
                           id="7", event="message"),
    _HEARTBEAT,
)).decode()


@dataclass
class EventsOperation(Operation):
    """Documents the stream beside the page: its 200 also answers `text/event-stream`."""

    def __post_init__(self) -> None:
        ok = (self.responses or {}).get("200")
        if isinstance(ok, OpenAPIResponse) and ok.content is not None:
            ok.content["text/event-stream"] = OpenAPIMediaType(
                schema=Schema(type=OpenAPIType.STRING, description=(
                    "Server-Sent Events: per event `id` (the version), `event: message` and "
                    "`data` (an EventOut as JSON); `: heartbeat` comments when idle.")),
                example=_STREAM_EXAMPLE)


_JSON, _STREAM = MediaTypeHeader("application/json"), MediaTypeHeader("text/event-stream")


def _prefers_stream(accept: str | None) -> bool:
    """Whether `Accept` ranks the event stream above JSON: q-values honoured (`q=0` refuses a
    type), ties to the type named first, and JSON for `*/*` or a header naming neither."""
    if not accept or "text/" not in accept:  # names neither the stream nor text/*
        return False
    for entry in Accept(accept):  # best first
        media = MediaTypeHeader(entry)
        if media.priority[0] <= 0:
            continue
        if media.match(_JSON):
            return False
        if media.match(_STREAM):
            return True
    return False


class FollowController(Controller):
    path = "/v1/games/{game_id:str}"
    tags = ["follow"]
    before_request = staticmethod(authenticate)

    @get("/events", operation_id="listEvents", summary="The log as you may see it",
         description="A page of events after version `after`. With `Accept: text/event-stream` "
         "the answer is a Server-Sent Event stream instead: one `message` per event (its `id` "
         "is the version; reconnect with `Last-Event-ID` to resume), a `: heartbeat` comment "
         "when idle, and the stream ends after `game_ended`.",
         responses={200: examples.ok(EventPage, "The deal, as seat 0 sees it", "events",
                                     "A page of the log, redacted for you."),
                    **problem_responses(400, 401, 403, 404, 429)},
         operation_class=EventsOperation)
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
        async with runtime.services.store.read() as conn:
            access = await game_access(conn, game_id)
        viewer = viewer_in(access, player)
        if _prefers_stream(request.headers.get("accept")):
            start = int(last_event_id) if last_event_id else after
            return ServerSentEvent(  # type: ignore[return-value]
                self._stream(runtime, game_id, viewer, start),
                headers={"Cache-Control": "no-store", "X-Accel-Buffering": "no"})
        stored = await runtime.services.store.read_events(game_id, after, after + limit)
        page = [EventOut(s.version, redacted_for(s, viewer)) for s in stored]
        # The read may see versions newer than the access check did, never fewer.
        last = stored[-1].version if stored else 0
        return Response(EventPage(game_id, max(access.version, last), page,
                                  last if stored else after))

    async def _stream(self, runtime: Runtime, game_id: str, viewer: Viewer,
                      after: int) -> AsyncIterator[ServerSentEventMessage]:
        heartbeat = runtime.settings.sse_heartbeat_seconds
        sent = after
        async with runtime.feeds.follow(game_id) as feed:
            while True:
                for s in feed.after(sent):
                    body = _encode(EventOut(s.version, redacted_for(s, viewer))).decode()
                    yield ServerSentEventMessage(data=body, id=str(s.version), event="message")
                    sent = s.version
                if feed.ended and sent >= feed.version:
                    return
                if feed.draining:  # this process is stopping: the client resumes elsewhere
                    return
                if not await feed.wait_past(sent, heartbeat):
                    yield _HEARTBEAT
