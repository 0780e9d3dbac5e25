"""The timed part of bench/scale.py, against one API server per store size: the same client
and scripted games as bench/http_api.py, and timed reads of the games already in the store.

The sizes take turns in every round (as bench/http_api.py's phases do), so the machine's noise
falls on all of them alike; each figure is taken over all rounds. A size's server runs for its
turn only: three at once would hold 108 connections, past PostgreSQL's default 100."""

from __future__ import annotations

import asyncio
import random
import time
from typing import Any

import http_api

from scaling.fill import pool_key, pool_size

READERS = 2  # concurrent clients of each timed read: latency, not throughput
FAMILIES = ("2p", "3-6p")


class Store:
    """One store size: its server, its scripted games, its filler games to read."""

    def __init__(self, games: int, filler: list[str]) -> None:
        self.games, self.filler = games, filler
        self.load: http_api.Load  # for each turn (`start`)
        self.players = [pool_key(i) for i in range(pool_size(games))]
        self.latencies: dict[str, list[float]] = {}
        self.rates: list[float] = []
        self.live: http_api.Games | None = None

    def keep(self, name: str, values: list[float]) -> None:
        self.latencies.setdefault(name, []).extend(values)

    async def start(self, base: str) -> None:
        """A turn on the server at `base`: games to play made, then a warm-up."""
        self.load = http_api.Load([base])
        self.live = http_api.Games(self.load, await http_api.tables(self.load,
                                                                    4 * http_api.GAMES))
        creator = {"Authorization": f"Bearer {self.players[0]}"}
        for _ in range(20):  # a public lobby with open games in it
            await self.load.call("POST", "/v1/games", {"ruleset": http_api.RULES}, creator)
        await http_api._timed(1.0, self.live.step, http_api.GAMES)  # warm up

    async def commands(self, seconds: float) -> float:
        assert self.live is not None
        await self.live.restock(2 * http_api.GAMES)
        n, _ = await http_api._timed(seconds, self.live.step, http_api.GAMES)
        self.rates.append(n / seconds)
        return n / seconds

    async def paced(self, rate: float, seconds: float) -> None:
        assert self.live is not None
        await self.live.restock(int(rate * seconds) // 20 + 2 * http_api.GAMES)
        self.keep("command_at_half_rate", await http_api.paced(self.live, rate, seconds))

    async def reads(self, seconds: float) -> None:
        rng = random.Random(self.games)
        assert self.live is not None
        viewers = [(t.game_id, s) for t in self.live.stock for s in t.seats]

        def view() -> tuple[str, dict[str, str] | None]:
            game_id, seat = rng.choice(viewers)
            return f"/v1/games/{game_id}/view", seat.auth

        def filler(what: str) -> Any:
            return lambda: (f"/v1/games/{rng.choice(self.filler)}/{what}", None)

        def mine() -> tuple[str, dict[str, str] | None]:
            return "/v1/games?mine=true", {"Authorization": f"Bearer {rng.choice(self.players)}"}

        reads = {
            "view": view,
            "lobby_public": lambda: ("/v1/games", None),
            "lobby_open": lambda: ("/v1/games?status=lobby", None),
            "lobby_mine": mine,
            "history": filler("history"),
            "verify": filler("verify"),
            "leaderboard": lambda: (f"/v1/leaderboard?family={rng.choice(FAMILIES)}", None),
        }
        for name, request in reads.items():
            self.keep(name, await self._timed_reads(request, seconds))

    async def _timed_reads(self, request: Any, seconds: float) -> list[float]:
        latencies: list[float] = []
        stop = time.perf_counter() + seconds

        async def reader() -> None:
            while time.perf_counter() < stop:
                path, headers = request()
                start = time.perf_counter()
                status, _ = await self.load.call("GET", path, None, headers, parse=False)
                latencies.append(time.perf_counter() - start)
                if status != 200:
                    raise RuntimeError(f"GET {path} answered {status}")

        await asyncio.gather(*(reader() for _ in range(READERS)))
        return latencies

    async def close(self) -> None:
        await self.load.close()


async def sweep_scan_s(database_url: str, repeats: int = 5) -> float:
    """The median time of one sweep's scans (workers/sweeper.py): overdue due work, ratings to
    catch up, stalled tournaments, idle games, lost webhook deliveries and bot decisions."""
    from service.events.backends import open_store
    from service.projections import ratings
    from service.projections.due import overdue
    from service.projections.tournaments import stale_running
    from service.scheduling.idle_games import idle_candidates
    from service.tournaments.runner.drivers import STALE_AFTER_S
    from service.webhooks.bot_decisions import stalled
    from service.webhooks.outbox import due_queues
    from service.wiring.settings import Settings

    s = Settings()
    store = open_store(database_url)
    times = []
    try:
        for _ in range(repeats):
            start = time.perf_counter()
            await overdue(store, s.sweep_grace_s)
            await ratings.catch_up(store)
            await stale_running(store, STALE_AFTER_S)
            await idle_candidates(store, s.lobby_ttl_s, s.abandon_after_s)
            await due_queues(store, s.sweep_grace_s)
            await stalled(store, s.webhooks.decision_deadline_s, s.sweep_grace_s)
            times.append(time.perf_counter() - start)
    finally:
        await store.close()
        await store.engine.dispose()
    return sorted(times)[len(times) // 2]
