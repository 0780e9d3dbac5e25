"""The tables the soak keeps playing: each a game and every client around it. The kinds turn
in a rotation, so every kind of caller meets every read path:

- `public`: 3 seats, a 3-event spectator delay: a `turn()` bot (the creator), a `cya-bot`
  runner that took a seat with `POST /seats`, a built-in bot; watchers without a key;
- `private`: 2 seats, not listed: a `cya-bot` runner (the creator) and a `turn()` bot it
  invited, which took its seat with `POST /seats`;
- `webhooks`: 3 seats: a bot endpoint's player (the creator), a `turn()` bot, a built-in
  bot; both players have event subscriptions;
- `browser`: 2 seats: a person in Chromium, a built-in bot; a watcher without a key.

Every human seat is followed by an SSE stream; seats and watchers read pages and long polls.
"""

from __future__ import annotations

import asyncio
import random
from collections.abc import Awaitable, Callable, Coroutine
from dataclasses import dataclass, field
from typing import Any

from . import followers
from .browser import PageResult
from .client import Player
from .context import Soak
from .followers import Ending
from .players import run_cya_bot, turn_bot
from .reads import NEWS, PAGES, STREAM, SUMMARY, TURN, VIEW, Read

QUICK = {"end_mode": "quick"}
SEEN_BY_ALL_S = 2.5  # docs/webhooks.md: other processes see a new endpoint within 2 s


@dataclass
class Table:
    kind: str
    game_id: str
    creator: Player
    reads: list[Read] = field(default_factory=list)
    tasks: list[asyncio.Future[Any]] = field(default_factory=list)
    ending: Ending = field(default_factory=Ending)
    subscribers: list[Player] = field(default_factory=list)
    bots: list[Player] = field(default_factory=list)  # bot endpoints' players
    pages: list[tuple[Player, asyncio.Future[PageResult]]] = field(default_factory=list)

    def read(self, path: str, who: str, caller: Player | None, kind: str, **kw: Any) -> Read:
        found = Read(self.game_id, path, who, caller.id if caller else None, kind, **kw)
        self.reads.append(found)
        return found

    def run(self, work: Coroutine[Any, Any, Any]) -> None:
        self.tasks.append(asyncio.ensure_future(work))


def follow(soak: Soak, table: Table, who: str, player: Player | None, *,
           watcher_extras: bool = False) -> None:
    """An SSE stream of the caller, and its pages and long polls; a watcher's summaries."""
    api = soak.api() if player is None else player.api
    key = player.key if player else None
    rng = random.Random(soak.rng.random())
    table.run(followers.stream(api, table.read(STREAM, who, player, "events"), key,
                               table.ending, rng))
    table.run(followers.pages(soak.api(), table.read(PAGES, who, player, "events"), key,
                              table.ending, rng))
    table.run(followers.long_polls(soak.api(), table.read(VIEW, who, player, "views"), key,
                                   table.ending))
    if watcher_extras:
        table.run(followers.summaries(soak.api(), table.read(SUMMARY, who, None, "summaries"),
                                      table.ending, rng))


def play_turns(soak: Soak, table: Table, who: str, player: Player) -> None:
    read = table.read(TURN, who, player, "views", actor=f"player:{player.id}")
    table.run(turn_bot(player.api.url, player.key, soak.calls, read,
                       random.Random(soak.rng.random()), soak.think_s))


def play_cya_bot(soak: Soak, table: Table, who: str, player: Player) -> None:
    read = table.read(NEWS, who, player, "views", to_end=False, actor=f"player:{player.id}")
    done: asyncio.Future[None] = asyncio.get_running_loop().create_future()
    run_cya_bot(player.api.url, player.key, soak.calls, read,
                random.Random(soak.rng.random()), soak.think_s, done)
    table.tasks.append(done)


async def _create(creator: Player, players: int, bots: list[str], **options: Any) -> str:
    body = {"ruleset": {"players": players, **QUICK}, "bots": [{"level": b} for b in bots],
            **options}
    return str((await creator.post("/v1/games", body))["game_id"])


async def public(soak: Soak) -> Table:
    creator, runner = await soak.player("turn-bot"), await soak.player("cya-bot")
    table = Table("public", await _create(creator, 3, ["random"], spectator_delay=3),
                  creator)
    await runner.post(f"/v1/games/{table.game_id}/seats")
    follow(soak, table, "creator", creator)
    follow(soak, table, "joined", runner)
    follow(soak, table, "watcher", None, watcher_extras=True)
    await creator.post(f"/v1/games/{table.game_id}/start")
    play_turns(soak, table, "creator", creator)
    play_cya_bot(soak, table, "joined", runner)
    return table


async def private(soak: Soak) -> Table:
    creator, invited = await soak.player("cya-bot"), await soak.player("turn-bot")
    table = Table("private", await _create(creator, 2, [], public=False), creator)
    await invited.post(f"/v1/games/{table.game_id}/seats")
    follow(soak, table, "creator", creator)
    follow(soak, table, "invited", invited)
    await creator.post(f"/v1/games/{table.game_id}/start")
    play_cya_bot(soak, table, "creator", creator)
    play_turns(soak, table, "invited", invited)
    return table


async def webhooks(soak: Soak) -> Table:
    owner, other = await soak.player("webhook-bot"), await soak.player("turn-bot")
    made = await owner.post("/v1/webhooks/bot", {"url": f"{soak.hook_url}/bot/{owner.id}"})
    soak.hooks.add_bot(owner.id, made["secret"])
    for p in (owner, other):
        await soak.subscribe(p)
    await asyncio.sleep(SEEN_BY_ALL_S)  # the other processes learn of endpoints this late
    table = Table("webhooks", await _create(owner, 3, ["greedy"]), owner,
                  subscribers=[owner, other], bots=[owner])
    await other.post(f"/v1/games/{table.game_id}/seats")
    follow(soak, table, "bot owner", owner)
    follow(soak, table, "joined", other)
    await owner.post(f"/v1/games/{table.game_id}/start")
    play_turns(soak, table, "joined", other)
    return table


async def browser(soak: Soak) -> Table:
    person = await soak.player("person")
    table = Table("browser", await _create(person, 2, ["random"]), person)
    follow(soak, table, "person", person)
    follow(soak, table, "watcher", None)
    await person.post(f"/v1/games/{table.game_id}/start")
    assert soak.browser is not None
    made = {"api_key": person.key, "name": person.name, "player_id": person.id}
    page = soak.browser.play(person.api.url, made, table.game_id)
    table.pages.append((person, asyncio.wrap_future(page)))
    return table


KINDS: dict[str, Callable[[Soak], Awaitable[Table]]] = {
    "public": public, "private": private, "webhooks": webhooks, "browser": browser}
