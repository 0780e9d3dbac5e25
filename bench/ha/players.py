"""The load a failover is judged under: a few clients, each playing one game after another
against a bot (seat 1, moved by the workers), through the HTTP API as any client would.

A client keeps one `Idempotency-Key` per command until it gets an answer that is not a 503,
waiting as `Retry-After` says: a command that the dying primary committed but never
acknowledged is answered as replayed, never applied twice. Every answer is tallied; every
2xx command's events (its acknowledgement) are kept, to be found in the game's final log.
"""

from __future__ import annotations

import asyncio
import random
import time
import uuid
from collections import Counter
from dataclasses import dataclass, field
from typing import Any

import httpx

RULESET = {"players": 2, "end_mode": "quick"}
POLL_S = 5  # a long poll's wait for the bot's move
PROBE_S = 0.2
PATIENCE_S = 90.0  # how long one call keeps retrying 503s and lost connections
STALE = (409, 422)  # the game moved on under a command (a bot's move, a clock): not an error


@dataclass
class Ack:
    """A 2xx command: what the service said it committed."""

    game_id: str
    sent_at: float
    answered_at: float
    events: list[tuple[int, str]]  # (version, type)


@dataclass
class Tally:
    acks: list[Ack] = field(default_factory=list)
    unavailable: int = 0  # 503 database_unavailable with Retry-After: the answer while it fails
    problems: list[str] = field(default_factory=list)  # any other 5xx, or a 503 without both
    lost_connections: int = 0  # to the API process itself (none is killed here)
    stale: int = 0
    statuses: Counter[int] = field(default_factory=Counter)
    games: list[str] = field(default_factory=list)
    finished: list[str] = field(default_factory=list)
    probes: list[str] = field(default_factory=list)  # games opened by the prober (lobbies)


class Player:
    def __init__(self, url: str, tally: Tally, rng: random.Random) -> None:
        self.url, self.tally, self.rng = url, tally, rng
        self.http = httpx.AsyncClient(base_url=f"{url}/v1", timeout=POLL_S + 10)
        self.auth: dict[str, str] = {}

    async def call(self, method: str, path: str, *, headers: dict[str, str] | None = None,
                   **kwargs: Any) -> httpx.Response:
        """The call, again after every 503 (as Retry-After says) and every lost connection,
        until another answer; each answer is tallied."""
        deadline = time.monotonic() + PATIENCE_S
        while True:
            try:
                answer = await self.http.request(method, path,
                                                 headers={**self.auth, **(headers or {})},
                                                 **kwargs)
            except httpx.TransportError:
                self.tally.lost_connections += 1
                answer = None
            if answer is not None:
                self.tally.statuses[answer.status_code] += 1
                if answer.status_code != 503 and answer.status_code < 500:
                    return answer
                self._judge_5xx(method, path, answer)
            if time.monotonic() > deadline:
                raise TimeoutError(f"{method} {path}: no answer but 503s for {PATIENCE_S} s")
            retry_after = float(answer.headers.get("Retry-After", 1)) if answer else 0.5
            await asyncio.sleep(min(retry_after, 1.0))

    def _judge_5xx(self, method: str, path: str, answer: httpx.Response) -> None:
        code = ""
        if answer.headers.get("content-type", "").startswith("application/problem+json"):
            code = answer.json().get("code", "")
        if answer.status_code == 503 and code == "database_unavailable" \
                and answer.headers.get("Retry-After"):
            self.tally.unavailable += 1
        else:
            self.tally.problems.append(f"{method} {path}: {answer.status_code} {code} "
                                       f"{answer.text[:200]}")

    async def join(self) -> None:
        answer = await self.call("POST", "/players", json={"name": "failover"})
        self.auth = {"Authorization": f"Bearer {answer.json()['api_key']}"}

    async def play_games_until(self, stop: asyncio.Event) -> None:
        await self.join()
        while not stop.is_set():
            await self.play_one()

    async def probe_until(self, stop: asyncio.Event) -> None:
        """A write every `PROBE_S`, each a command of its own (a new lobby): when writes are
        back is the first one answered 2xx among those sent after a kill, whatever the
        players happen to wait for (a bot's move, a long poll)."""
        await self.join()
        while not stop.is_set():
            game = await self.command("POST", "/games", None, {"ruleset": RULESET})
            if "game_id" in game:
                self.tally.probes.append(game["game_id"])
            await asyncio.sleep(PROBE_S)

    async def play_one(self) -> None:
        game = (await self.command("POST", "/games", None,
                                   {"ruleset": RULESET, "bots": [{"level": "random"}]}))
        game_id = game["game_id"]
        self.tally.games.append(game_id)
        await self.command("POST", f"/games/{game_id}/start", game_id, None)
        while True:
            legal = (await self.call("GET", f"/games/{game_id}/legal-commands")).json()
            if legal["commands"]:
                await self.command("POST", f"/games/{game_id}/commands", game_id,
                                   self.rng.choice(legal["commands"]))
                continue
            view = (await self.call("GET", f"/games/{game_id}/view", params={
                "wait_for_version": legal["version"] + 1, "timeout": POLL_S})).json()
            if view["status"] not in ("lobby", "playing"):
                self.tally.finished.append(game_id)
                return

    async def command(self, method: str, path: str, game_id: str | None,
                      body: dict[str, Any] | None) -> dict[str, Any]:
        """A write, its key kept through every retry; its events noted when acknowledged."""
        sent_at = time.time()
        answer = await self.call(method, path, json=body,
                                 headers={"Idempotency-Key": uuid.uuid4().hex})
        found: dict[str, Any] = answer.json() if answer.content else {}
        if answer.status_code in STALE:
            self.tally.stale += 1
        elif answer.is_success:
            events = [(e["version"], e["event"]["type"]) for e in found.get("events", [])]
            self.tally.acks.append(Ack(game_id or found["game_id"], sent_at, time.time(),
                                       events))
        else:
            self.tally.problems.append(f"{method} {path}: {answer.status_code} "
                                       f"{answer.text[:200]}")
        return found

    async def close(self) -> None:
        await self.http.aclose()
