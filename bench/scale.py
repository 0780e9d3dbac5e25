"""Cost as the store grows: the API on PostgreSQL stores of 10^3, 10^4 and 10^5 finished games
(about 280 events each, and nine lobby-expired games beside each: 10^6 rows in `games` at the
top), bulk-loaded with COPY from games the engine played (bench/scaling/).

At each size, with bench/http_api.py's client: commands/s, p99 at half rate (the smallest
store's rate, for all), `GET /view`, the public lobby (newest, open games) and `?mine=true`,
`/history` and `/verify` of stored games, `/v1/leaderboard`; one sweep's scans; `cya
projections rebuild` per game; bytes per game. Targets: every p99 at the largest size ≤ 1.25×
its value at the smallest, and rebuild time per game ≤ 1.2×. Prints the curve, draws it
(`--plot`, docs/scale.png), and the figures and targets as one JSON object on its last line;
exits 1 on a miss.

The stores take a while to build (the largest about 10 minutes, 24 GB): `--keep` leaves them
for the next run, which finds and reuses them.

    .venv/bin/pip install -e '.[bench]'
    .venv/bin/python bench/scale.py [--sizes 1000,10000,100000] [--keep]
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import subprocess
import sys
import time
from typing import Any

import http_api
from scaling import measure
from scaling.fill import fill, load_templates
from scaling.partition import partition
from scaling.plot import draw
from scaling.templates import play_templates

PG = http_api.PG
LATENCY_GROWTH, REBUILD_GROWTH = 1.25, 1.2
FILL_VERSION = 1  # bump when the stores' contents change: older ones are built again
DONE = "cya scale store, complete"


async def _admin(sql: str) -> list[Any]:
    import asyncpg

    conn = await asyncpg.connect(f"postgresql://{PG}/postgres")
    try:
        return list(await conn.fetch(sql))
    finally:
        await conn.close()


def _url(name: str, driver: str = "postgresql+asyncpg") -> str:
    return f"{driver}://{PG}/{name}"


async def _complete(name: str) -> float | None:
    """The build time recorded on a complete store of that name, or None."""
    rows = await _admin("SELECT shobj_description(oid, 'pg_database') AS note "
                        f"FROM pg_database WHERE datname = '{name}'")
    note = rows[0]["note"] if rows else None
    if not note or not note.startswith(DONE):
        return None
    return float(note.rsplit(" ", 1)[1])


async def _build(name: str, make: Any) -> float:
    """The database `name`, made by `make(conn)` unless a complete one is there; its build
    time in seconds (recorded on the database, for reuse)."""
    import asyncpg

    from service.events.migrate import upgrade

    known = await _complete(name)
    if known is not None:
        await asyncio.to_thread(upgrade, _url(name))  # a store kept from an older schema
        return known
    await _admin(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)')
    await _admin(f'CREATE DATABASE "{name}"')
    started = time.perf_counter()
    await asyncio.to_thread(upgrade, _url(name))
    conn = await asyncpg.connect(_url(name, "postgresql"))
    try:
        await make(conn)
    finally:
        await conn.close()
    took = time.perf_counter() - started
    await _admin(f"COMMENT ON DATABASE \"{name}\" IS '{DONE} {took:.1f}'")
    return took


async def _bytes_per_game(name: str) -> tuple[float, int]:
    import asyncpg

    conn = await asyncpg.connect(_url(name, "postgresql"))
    try:
        games = await conn.fetchval("SELECT count(*) FROM games")
        total = await conn.fetchval(
            "SELECT sum(pg_total_relation_size(c.oid)) FROM pg_class c "
            "WHERE c.relkind = 'r' AND c.relnamespace = 'public'::regnamespace")
        return total / games, games
    finally:
        await conn.close()


async def _filler(name: str, n: int = 2000) -> list[str]:
    import asyncpg

    conn = await asyncpg.connect(_url(name, "postgresql"))
    try:
        rows = await conn.fetch("SELECT game_id FROM games TABLESAMPLE SYSTEM (5) "
                                f"WHERE status = 'finished' LIMIT {n}")
        if len(rows) < n:
            rows = await conn.fetch("SELECT game_id FROM games WHERE status = 'finished' "
                                    f"ORDER BY random() LIMIT {n}")
        return [r["game_id"] for r in rows]
    finally:
        await conn.close()


def _serve(name: str) -> tuple[subprocess.Popen[bytes], str]:
    port = http_api._free_port()
    env = {**os.environ, "CYA_DATABASE_URL": _url(name), "CYA_SCHEDULER": "none"}
    env.pop("CYA_REDIS_URL", None)
    proc = subprocess.Popen([sys.executable, http_api.__file__, "--serve", str(port)], env=env)
    base = f"http://127.0.0.1:{port}"
    http_api._wait_up(base, proc)
    return proc, base


async def _timed_rounds(stores: list[measure.Store], names: list[str], rounds: int,
                        seconds: float) -> float:
    half = 0.0
    for _ in range(rounds):
        for n, (store, name) in enumerate(zip(stores, names, strict=True)):
            proc, base = _serve(name)
            try:
                await store.start(base)
                rate = await store.commands(seconds)
                if n == 0:
                    half = rate / 2  # the smallest store's half rate, offered to every store
                await store.paced(half, seconds * 2)
                await store.reads(seconds)
            finally:
                await store.close()
                proc.terminate()
                proc.wait(30)
    return half


def _rebuild_s(name: str) -> float:
    env = {**os.environ, "CYA_DATABASE_URL": _url(name)}
    started = time.perf_counter()
    subprocess.run([os.path.join(os.path.dirname(sys.executable), "cya"), "projections",
                    "rebuild"], env=env, check=True, stdout=subprocess.DEVNULL)
    return time.perf_counter() - started


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--sizes", default="1000,10000,100000",
                        help="full games in each store, smallest first")
    parser.add_argument("--templates", type=int, default=400,
                        help="distinct games the engine plays for the stores to copy")
    parser.add_argument("--seconds", type=float, default=2.0, help="length of each slice")
    parser.add_argument("--rounds", type=int, default=3)
    parser.add_argument("--keep", action="store_true", help="keep the stores for the next run")
    parser.add_argument("--plot", default="docs/scale.png", help="where to draw the curve")
    parser.add_argument("--partitions", type=int, default=0,
                        help="the A/B: events, commands and game_views hash partitioned by "
                             "game_id into this many partitions (default 0: none)")
    args = parser.parse_args()
    sizes = [int(s) for s in args.sizes.split(",")]
    return asyncio.run(_run(sizes, args))


async def _run(sizes: list[int], args: Any) -> int:
    import asyncpg

    prefix = f"cya_scale_v{FILL_VERSION}_t{args.templates}"
    templates = f"{prefix}_templates"
    await _build(templates, lambda conn: play_templates(
        _url(templates), args.templates, lobbies=args.templates // 2))
    source = await asyncpg.connect(_url(templates, "postgresql"))
    try:
        full, lobby = await load_templates(source)
    finally:
        await source.close()
    hashed = f"_hash{args.partitions}" if args.partitions else ""
    names = [f"{prefix}_{n}{hashed}" for n in sizes]
    figures: dict[str, dict[str, Any]] = {}
    for n, name in zip(sizes, names, strict=True):
        print(f"store of {n:,} games: building or reusing", file=sys.stderr)
        build_s = await _build(name, lambda conn, n=n: _fill(conn, n, full, lobby,
                                                             args.partitions))
        per_game, rows = await _bytes_per_game(name)
        figures[name] = {"games": n, "games_rows": rows, "build_s": round(build_s, 1),
                         "bytes_per_game": round(per_game),
                         "sweep_scan_ms": round(await measure.sweep_scan_s(_url(name)) * 1000,
                                                2)}
    stores = [measure.Store(n, await _filler(name)) for n, name in zip(sizes, names,
                                                                      strict=True)]
    half = await _timed_rounds(stores, names, args.rounds, args.seconds)
    for name, store in zip(names, stores, strict=True):
        f = figures[name]
        f["commands_per_s"] = round(sum(store.rates) / len(store.rates))
        f["half_rate_per_s"] = round(half)
        for read, values in store.latencies.items():
            f[f"{read}_p99_ms"] = round(http_api.p99(values), 2)
        rebuild = _rebuild_s(name)
        f["rebuild_ms_per_game"] = round(rebuild * 1000 / f["games_rows"], 4)
    if not args.keep:
        for name in [templates, *names]:
            await _admin(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)')
    return _report(sizes, [figures[n] for n in names], args.plot, args.partitions)


async def _fill(conn: Any, n: int, full: Any, lobby: Any, partitions: int) -> None:
    if partitions:
        await partition(conn, partitions)
    await fill(conn, n, full, lobby)


def _report(sizes: list[int], rows: list[dict[str, Any]], plot: str, partitions: int) -> int:
    small, large = rows[0], rows[-1]
    growth = {key: round(large[key] / small[key], 3) for key in small
              if key.endswith(("_p99_ms", "_per_game", "sweep_scan_ms"))
              and key != "bytes_per_game" and small[key]}
    targets = {key: (REBUILD_GROWTH if key.startswith("rebuild") else LATENCY_GROWTH)
               for key in growth if key.endswith("_p99_ms") or key.startswith("rebuild")}
    met = {key: growth[key] <= limit for key, limit in targets.items()}
    for row in rows:
        print(json.dumps(row), file=sys.stderr)
    if plot:
        draw(sizes, rows, plot)
    print(json.dumps({"benchmark": "scale", "sizes": sizes, "partitions": partitions,
                      "stores": rows,
                      "growth_largest_vs_smallest": growth, "targets": targets, "met": met,
                      "ok": all(met.values())}))
    return 0 if all(met.values()) else 1


if __name__ == "__main__":
    raise SystemExit(main())
