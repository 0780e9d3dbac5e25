"""Lobby listing benchmark on the local PostgreSQL (a fresh database, dropped after):
`GET /v1/games` through the app in this process, on a games table of 300,000 rows, with the
lobby indexes (migration 0007) and, as the baseline in the same run, after dropping them.

(a) `?mine=true` (the caller's games: created or seated), median ms        — target ≤ 10 ms
(b) the public lobby, newest first, no filter, median ms                   — target ≤ 10 ms

The rows are synthetic (inserted by one SQL statement), shaped as the projection writes them:
50,000 creators, each game seating its creator and one other player. Prints the figures and
targets as one JSON object on its last line; exits 1 when a target is missed.

    .venv/bin/python bench/lobby.py [--games N]
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import statistics
import time
import uuid
from typing import Any

import asyncpg
from litestar.testing import AsyncTestClient

from service.events.migrate import upgrade
from service.http.api_settings import HttpSettings
from service.http.app import create_app
from service.wiring.settings import Settings

PG = os.environ.get("CYA_BENCH_PG", "postgres@127.0.0.1:5432")
TARGETS = {"mine_ms": 10.0, "newest_ms": 10.0}
REQUESTS = 40
LOBBY_INDEXES = ("ix_games_created", "ix_games_creator", "ix_games_seats")

# Seats as msgspec's compact JSON, as `projections.rows` writes them.
_FILL = """
INSERT INTO games
SELECT md5(i::text), (ARRAY['lobby', 'playing', 'finished'])[1 + i % 3],
       md5((i % 50000)::text), i % 5 <> 0,
       '{"players":4,"edition":"classic_2011","end_mode":"quick"}'::json, 4,
       ('[{"kind":"human","player_id":"' || md5((i % 50000)::text) ||
       '"},{"kind":"human","player_id":"' || md5((i % 49999 + 7)::text) ||
       '"},{"kind":"bot","level":"random"},null]')::json,
       NULL, '{"bot_level":"random","hand_over_after":3}'::json, 10, '[0]'::json, NULL,
       now() - make_interval(secs => i), now()
FROM generate_series(1, $1) AS i
"""


async def _sql(database: str, sql: str, *args: Any) -> None:
    conn = await asyncpg.connect(f"postgresql://{PG}/{database}")
    try:
        await conn.execute(sql, *args)
    finally:
        await conn.close()


async def _median_ms(client: AsyncTestClient[Any], auth: dict[str, str],
                     params: dict[str, str]) -> float:
    timings = []
    for _ in range(REQUESTS):
        start = time.perf_counter()
        r = await client.get("/v1/games", params=params, headers=auth)
        timings.append(time.perf_counter() - start)
        assert r.status_code == 200 and r.json()["games"], r.text
    return statistics.median(timings) * 1000


async def run(url: str, name: str, games: int) -> dict[str, float]:
    await _sql(name, _FILL, games)
    await _sql(name, "ANALYZE games")
    app = create_app(Settings(database_url=url), HttpSettings(rate_limit_per_minute=0))
    figures: dict[str, float] = {}
    async with AsyncTestClient(app) as client:
        key = (await client.post("/v1/players", json={"name": "bench"})).json()["api_key"]
        auth = {"Authorization": f"Bearer {key}"}
        # A player with games: seat the bench's player in some, by rewriting their seats.
        me = (await client.get("/v1/players/me", headers=auth)).json()["player_id"]
        await _sql(name, "UPDATE games SET seats = replace(seats::text, md5('123'), $1)::json"
                         " WHERE seats::text LIKE '%' || md5('123') || '%'", me)
        await _sql(name, "ANALYZE games")
        for label in ("", "_without_indexes"):
            if label:
                for index in LOBBY_INDEXES:
                    await _sql(name, f"DROP INDEX {index}")
                await _sql(name, "ANALYZE games")
            figures["mine_ms" + label] = await _median_ms(client, auth, {"mine": "true"})
            figures["newest_ms" + label] = await _median_ms(client, auth, {})
    return {k: round(v, 2) for k, v in figures.items()}


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--games", type=int, default=300_000)
    args = parser.parse_args()
    name = f"cya_bench_lobby_{uuid.uuid4().hex[:10]}"
    url = f"postgresql+asyncpg://{PG}/{name}"
    asyncio.run(_sql("postgres", f'CREATE DATABASE "{name}"'))
    try:
        upgrade(url)
        figures = asyncio.run(run(url, name, args.games))
    finally:
        asyncio.run(_sql("postgres", f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)'))
    met = {k: figures[k] <= target for k, target in TARGETS.items()}
    print(json.dumps({"benchmark": "lobby", "games": args.games, **figures, "targets": TARGETS,
                      "met": met, "ok": all(met.values())}))
    return 0 if all(met.values()) else 1


if __name__ == "__main__":
    raise SystemExit(main())
