"""Every way a caller reads a game, recorded as it happens: the event stream, event pages, the
view's long poll, `/turn` and the news. What each read path delivered is then held against
the finished game's unredacted history (`expected_for`): complete, in order, nothing more."""

from __future__ import annotations

import asyncio
import json
import random
from collections.abc import AsyncIterator
from dataclasses import dataclass, field
from typing import Any

import httpx
import msgspec

from cya_rules.log.codec import AnyEvent
from cya_rules.log.visibility import shown_to

from .api import Api, Player

LIVE = ("lobby", "playing")


@dataclass
class Reads:
    """What one caller was sent, by read path."""

    stream: list[dict[str, Any]] = field(default_factory=list)  # StreamEvent items, in order
    pages: list[dict[str, Any]] = field(default_factory=list)  # EventOut items, in order
    views: list[int] = field(default_factory=list)  # the versions the long poll answered
    turns: list[int] = field(default_factory=list)  # the versions `/turn` answered
    news: list[dict[str, Any]] = field(default_factory=list)  # news items for this game


async def sse(client: httpx.AsyncClient, path: str, headers: dict[str, str]
              ) -> AsyncIterator[tuple[str | None, dict[str, Any]]]:
    """Each message of a Server-Sent Event stream, as (event name, data), until it ends."""
    async with client.stream("GET", path, headers={**headers, "Accept": "text/event-stream"},
                             timeout=httpx.Timeout(30, read=60)) as r:
        assert r.status_code == 200, await r.aread()
        name, data = None, None
        async for line in r.aiter_lines():
            if line.startswith("event:"):
                name = line[6:].strip()
            elif line.startswith("data:"):
                data = json.loads(line[5:].strip())
            elif line == "" and data is not None:
                yield name, data
                name, data = None, None


async def follow_stream(api: Api, game_id: str, headers: dict[str, str], into: Reads) -> None:
    async for _, data in sse(api.http, f"/v1/games/{game_id}/events", headers):
        into.stream.append(data)


async def follow_pages(api: Api, game_id: str, headers: dict[str, str], into: Reads) -> None:
    """Pages after the last one read, as a polling client reads them, until `game_ended`."""
    after = 0
    while not into.pages or into.pages[-1]["event"]["type"] != "game_ended":
        r = await api.http.get(f"/v1/games/{game_id}/events", params={"after": after},
                               headers=headers)
        assert r.status_code == 200, r.text
        page = r.json()
        into.pages += page["events"]
        after = page["next_after"]
        if not page["events"]:
            await asyncio.sleep(0.05)


async def follow_view(api: Api, game_id: str, headers: dict[str, str], into: Reads) -> None:
    """The view's long poll, one version past the last answer each time, until it is over."""
    version, status = 0, "lobby"
    while status in LIVE:
        r = await api.http.get(f"/v1/games/{game_id}/view", headers=headers,
                               params={"wait_for_version": version + 1, "timeout": 10})
        assert r.status_code == 200, r.text
        version, status = r.json()["version"], r.json()["status"]
        into.views.append(version)


async def play_turns(api: Api, game_id: str, who: Player, into: Reads, rng: random.Random
                     ) -> None:
    """A `turn()`/`send()` bot: `/turn`, then one of its commands, until the game is over."""
    while True:
        r = await api.get(who, f"/v1/games/{game_id}/turn", params={"timeout": 10})
        assert r.status_code == 200, r.text
        turn = r.json()
        into.turns.append(turn["version"])
        if turn["status"] not in LIVE:
            return
        if turn["legal_commands"]:
            sent = await api.post(who, f"/v1/games/{game_id}/commands",
                                  rng.choice(turn["legal_commands"]))
            assert sent.status_code == 200, sent.text


async def follow_news(api: Api, game_id: str, who: Player, into: Reads) -> None:
    async for _, data in sse(api.http, "/v1/players/me/events", who.auth):
        if data.get("game_id") == game_id:
            into.news.append(data)
            if data["type"] == "game_finished":
                return


async def history(api: Api, game_id: str, who: Player) -> list[AnyEvent]:
    r = await api.get(who, f"/v1/games/{game_id}/history")
    assert r.status_code == 200, r.text
    lines = [json.loads(line) for line in r.text.splitlines() if line]
    assert [line["version"] for line in lines] == list(range(1, len(lines) + 1))
    return [msgspec.convert(line["data"], AnyEvent) for line in lines]  # type: ignore[arg-type]


def expected_for(log: list[AnyEvent], seat: int | None) -> list[dict[str, Any]]:
    """Each event as `seat` (None: a watcher) may see it, as JSON."""
    return [{"version": v, "event": msgspec.json.decode(msgspec.json.encode(shown_to(e, seat)))}
            for v, e in enumerate(log, 1)]
