"""The baseline, in the same run and on the same API processes: bench/http_api.py's
closed-loop commands/s (its 64 four-player games, each request to the next process), before
any stream is open."""

from __future__ import annotations

import asyncio
import statistics

SLICES = 3


async def closed_loop(bases: list[str], seconds: float) -> float:
    import http_api  # bench/, first on the path of a script run from it

    http_api.gc.enable()  # its own runs collect between slices; this process stays short
    load = http_api.Load(bases)
    try:
        games = http_api.Games(load, await http_api.tables(load, 4 * http_api.GAMES))
        await http_api._timed(1.0, games.step, http_api.GAMES)  # warm up
        rates = []
        for _ in range(SLICES):
            await games.restock(2 * http_api.GAMES)
            done, _ = await http_api._timed(seconds, games.step, http_api.GAMES)
            rates.append(done / seconds)
        return statistics.median(rates)
    finally:
        await load.close()


def commands_per_s(bases: list[str], seconds: float) -> float:
    """Measured again, up to twice, if http_api's set-up meets an answer it does not expect
    (it reads every answer as a success; a shared machine's PostgreSQL can refuse one)."""
    for attempt in range(3):
        try:
            return asyncio.run(closed_loop(bases, seconds))
        except (KeyError, TypeError):
            if attempt == 2:
                raise
    raise AssertionError("unreachable")
