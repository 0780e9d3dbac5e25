"""POST /v1/players, GET /v1/players/me, and a player's news (`GET /v1/players/me/events`)."""

from __future__ import annotations

from collections.abc import AsyncIterator
from dataclasses import dataclass
from datetime import UTC, datetime, timedelta
from typing import Annotated

import msgspec
from litestar import Controller, get, post
from litestar.datastructures import State
from litestar.openapi.datastructures import ResponseSpec
from litestar.openapi.spec import (
    OpenAPIMediaType,
    OpenAPIResponse,
    Operation,
)
from litestar.params import Body, HeaderParameter, Parameter
from litestar.response import ServerSentEvent, Stream
from litestar.response.sse import ServerSentEventMessage

from service.http import examples
from service.http.context import Authed, Runtime, authenticate, runtime_of
from service.http.openapi import PublicOptionalBodyOperation
from service.http.problems import problem_responses
from service.http.routes.ratings import player_out
from service.http.schemas.parameters import HEADER_SCHEMA
from service.http.schemas.players import NewPlayer, PlayerCreated, PlayerOut
from service.http.streams import HEARTBEAT, prefers_stream
from service.matchmaking.news import MatchNews
from service.matchmaking.runner.matchmaker import NEWS_KEYS, SEEK_NEWS, Matchmaker
from service.projections.games import games_of_player
from service.projections.leaderboard import ratings_of
from service.table.turns import PlayerNews, Told, news_for, news_time


class PlayersController(Controller):
    path = "/v1/players"
    tags = ["players"]

    @post(
        "/", operation_id="createPlayer", summary="Create a player and its API key",
        description="The API key is returned once; send it as `Authorization: Bearer <key>`.",
        responses=problem_responses(400, 413, 429),
        operation_class=PublicOptionalBodyOperation,
    )
    async def create_player(
        self, state: State,
        data: Annotated[NewPlayer | None, Body(
            description="A display name (optional): 1 to 64 characters, none of them a "
                        "control character.", examples=examples.PLAYER)] = None,
    ) -> PlayerCreated:
        runtime: Runtime = state.runtime
        body = data or NewPlayer()
        player, api_key = await runtime.players.create(body.name, body.bot, body.arena)
        return PlayerCreated(player.player_id, player.name, api_key, player.bot, player.arena)

    @get("/me", operation_id="getMe", summary="The calling player",
         responses=problem_responses(401, 429), before_request=authenticate)
    async def me(self, request: Authed) -> PlayerOut:
        player = request.user
        async with runtime_of(request).services.store.read() as conn:
            return player_out(player, await ratings_of(conn, f"player:{player.player_id}"))


NEWS_ID = r"^[0-9]{1,20}\.[0-9A-Za-z_-]{1,64}\.[0-9]{1,9}$"
RESCAN_SLACK = timedelta(seconds=2)  # clocks of the processes that stamped the news may differ


@dataclass
class NewsOperation(Operation):
    """Documents the stream both ways: one news per NDJSON line, or per Server-Sent Event (its
    `event` the news type, its `data` the same JSON as the line)."""

    def __post_init__(self) -> None:
        ok = (self.responses or {}).get("200")
        if isinstance(ok, OpenAPIResponse) and ok.content is not None:
            line = ok.content["application/x-ndjson"]
            ok.content["text/event-stream"] = OpenAPIMediaType(schema=line.schema)


class PlayerNewsController(Controller):
    path = "/v1/players/me"
    tags = ["players"]
    before_request = staticmethod(authenticate)

    @get("/events", operation_id="streamMyEvents", summary="Your news, across all your games",
         description="A stream of what concerns you: a seat taken (`seated`), a game dealt "
         "(`game_started`), a decision that is yours (`your_turn`, with the whole turn: view, "
         "deadline and legal commands, so a bot needs no further read) and a game over "
         "(`game_finished`: how it ended, `finished`, `abandoned` or `expired`, with the result "
         "or the reason, and whether its ratings are `pending`); of challenges and quick play: a "
         "challenge to you (`challenge`), one accepted (`challenge_accepted`, both sides, with "
         "the game id) or declined (`challenge_declined`, to the challenger), a seek matched "
         "(`matched`, with the game id). Server-Sent Events when "
         "`Accept` prefers "
         "`text/event-stream`, NDJSON otherwise; heartbeats when idle. At the start it tells "
         "where each of your unfinished games stands; resumed with `Last-Event-ID` (or "
         "`?after=`), where each game that changed since that news stands (news may repeat: "
         "`game_id` and `version` tell them apart). Does not count against your rate limit.",
         responses={200: ResponseSpec(
             data_container=PlayerNews | MatchNews,  # type: ignore[arg-type]  # one schema each
             media_type="application/x-ndjson",
             generate_examples=False,
             description="Your news, one per NDJSON line or per Server-Sent Event (with "
                         "`id`, `event`: the news type, and `data`: the news as JSON); blank "
                         "lines or `: heartbeat` comments when idle."),
                    **problem_responses(400, 401, 429)},
         operation_class=NewsOperation, opt={"waits": lambda request: True})
    async def events(
        self, request: Authed,
        after: Annotated[str | None, Parameter(
            pattern=NEWS_ID, description="Resume after this news `id`.")] = None,
        last_event_id: Annotated[str | None, HeaderParameter(
            name="Last-Event-ID", required=False, max_length=100, pattern=f"({NEWS_ID})|^$",
            schema_extra=HEADER_SCHEMA, description="SSE: the last `id` received; it "
            "takes precedence over `after`.")] = None,
    ) -> Stream:
        runtime, player = runtime_of(request), request.user
        since_id = last_event_id or after
        since = news_time(since_id) - RESCAN_SLACK if since_id else None
        news = _news(runtime, player.player_id, since)
        headers = {"Cache-Control": "no-store", "X-Accel-Buffering": "no"}
        if prefers_stream(request.headers.get("accept")):
            return ServerSentEvent(_as_sse(news), headers=headers)
        return Stream(_as_ndjson(news), media_type="application/x-ndjson", headers=headers)


_encode = msgspec.json.Encoder().encode


async def _news(runtime: Runtime, player_id: str, since: datetime | None
                ) -> AsyncIterator[PlayerNews | MatchNews | None]:
    """The player's news: where its games stand, then each as it happens; None when idle (a
    heartbeat)."""
    pipeline, told, feeds = runtime.services.pipeline, Told(), runtime.player_feeds
    matches = MatchNewsReader(runtime.services.matchmaker, player_id)
    async with feeds.follow(player_id) as inbox:
        losses = feeds.losses
        for news in await _standing(runtime, player_id, since, told):
            yield news
        for match_news in await matches.read(since):
            yield match_news
        since = datetime.now(UTC)
        while not feeds.draining:
            hint = await feeds.next(inbox, runtime.settings.sse_heartbeat_seconds)
            if feeds.losses != losses:  # news may have been lost meanwhile: look again
                losses, looked = feeds.losses, since
                since = datetime.now(UTC)
                for news in await _standing(runtime, player_id, looked - RESCAN_SLACK, told):
                    yield news
                for match_news in await matches.read(looked - RESCAN_SLACK):
                    yield match_news
            if hint is None:
                yield None
                continue
            if hint[0] in NEWS_KEYS:  # a challenge or seek of the player's changed
                seeks_only = hint[0] == SEEK_NEWS
                last = matches.last_seeks if seeks_only else matches.last
                for match_news in await matches.read(last - RESCAN_SLACK, seeks_only=seeks_only):
                    yield match_news
                continue
            game = await pipeline.load(hint[0])
            if game.version < hint[1]:  # another process wrote it
                game = await pipeline.load(hint[0], fresh=True)
            for news in news_for(game, player_id, told):
                yield news


class MatchNewsReader:
    """A stream's news of its player's challenges and seeks, each told once."""

    def __init__(self, matchmaker: Matchmaker, player_id: str) -> None:
        self.matchmaker, self.player_id = matchmaker, player_id
        self.told: set[str] = set()
        self.last = self.last_seeks = datetime.now(UTC)  # when each kind was last read

    async def read(self, since: datetime | None, *, seeks_only: bool = False
                   ) -> list[MatchNews]:
        at = datetime.now(UTC)
        found = await self.matchmaker.news(self.player_id, since, seeks_only=seeks_only)
        self.last_seeks = at
        if not seeks_only:
            self.last = at
        fresh = [n for n in found if n.id.split(".", 1)[1] not in self.told]
        self.told.update(n.id.split(".", 1)[1] for n in fresh)
        return fresh


async def _standing(runtime: Runtime, player_id: str, since: datetime | None, told: Told
                    ) -> list[PlayerNews]:
    store, pipeline = runtime.services.store, runtime.services.pipeline
    async with store.read() as conn:
        ids = await games_of_player(store, conn, player_id, since=since)
    fresh = runtime.services.settings.catches_up_first
    found: list[PlayerNews] = []
    for game_id in ids:
        found += news_for(await pipeline.load(game_id, fresh=fresh), player_id, told)
    return found


async def _as_sse(news: AsyncIterator[PlayerNews | MatchNews | None]
                  ) -> AsyncIterator[ServerSentEventMessage]:
    async for item in news:
        yield HEARTBEAT if item is None else ServerSentEventMessage(
            data=_encode(item).decode(), id=item.id, event=str(type(item).__struct_config__.tag))


async def _as_ndjson(news: AsyncIterator[PlayerNews | MatchNews | None]) -> AsyncIterator[bytes]:
    async for item in news:
        yield b"\n" if item is None else _encode(item) + b"\n"
