"""A small client for the tests: players, games, and playing a game to its end."""

from __future__ import annotations

import random
from dataclasses import dataclass
from typing import Any

import httpx


@dataclass
class Player:
    player_id: str
    key: str

    @property
    def auth(self) -> dict[str, str]:
        return {"Authorization": f"Bearer {self.key}"}


class Api:
    def __init__(self, client: httpx.AsyncClient) -> None:
        self.http = client

    async def player(self, name: str = "p") -> Player:
        r = await self.http.post("/v1/players", json={"name": name})
        assert r.status_code == 201, r.text
        body = r.json()
        return Player(body["player_id"], body["api_key"])

    async def get(self, who: Player, path: str, **kw: Any) -> httpx.Response:
        return await self.http.get(path, headers={**who.auth, **kw.pop("headers", {})}, **kw)

    async def post(self, who: Player, path: str, body: Any = None, **kw: Any) -> httpx.Response:
        return await self.http.post(path, json=body, headers={**who.auth,
                                                              **kw.pop("headers", {})}, **kw)

    async def game(self, creator: Player, others: list[Player], *, start: bool = True,
                   ruleset: dict[str, Any] | None = None, **extra: Any) -> str:
        rules = ruleset or {"players": len(others) + 1, "end_mode": "quick"}
        r = await self.post(creator, "/v1/games", {"ruleset": rules, **extra})
        assert r.status_code == 201, r.text
        game_id = r.json()["game_id"]
        for p in others:
            r = await self.post(p, f"/v1/games/{game_id}/seats")
            assert r.status_code == 200, r.text
        if start:
            r = await self.post(creator, f"/v1/games/{game_id}/start")
            assert r.status_code == 200, r.text
        return game_id

    async def seat_of(self, game_id: str, seats: dict[int, Player], awaiting: int) -> Player:
        return seats[awaiting]

    async def step(self, game_id: str, seats: dict[int, Player], rng: random.Random
                   ) -> dict[str, Any] | None:
        """One random legal command by the seat the game waits for; None once it is over."""
        some = next(iter(seats.values()))
        view = (await self.get(some, f"/v1/games/{game_id}/view")).json()
        if view["status"] == "finished":
            return None
        seat = view["awaiting"][0]
        who = seats[seat]
        legal = (await self.get(who, f"/v1/games/{game_id}/legal-commands")).json()["commands"]
        r = await self.post(who, f"/v1/games/{game_id}/commands", rng.choice(legal))
        assert r.status_code == 200, r.text
        return r.json()  # type: ignore[no-any-return]

    async def play_out(self, game_id: str, seats: dict[int, Player], rng: random.Random,
                       limit: int = 5000) -> int:
        for n in range(limit):
            if await self.step(game_id, seats, rng) is None:
                return n
        raise AssertionError(f"{game_id} did not finish in {limit} commands")

    async def seats(self, game_id: str, players: list[Player]) -> dict[int, Player]:
        out = {}
        for p in players:
            r = await self.get(p, f"/v1/games/{game_id}/view")
            out[r.json()["seat"]] = p
        return out
