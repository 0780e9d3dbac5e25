"""Running a simulation: its games in this process, or spread over `parallel` processes that
each load the bot's file. Results come back in game order whatever the processes, so a seed
gives the same table either way."""

from __future__ import annotations

import multiprocessing
from collections.abc import Callable
from pathlib import Path

from cya_client.bot.runner import Choose, GameResult
from cya_client.simulate.games import Game, Settings, play, schedule

OnResult = Callable[[GameResult], None]


def simulate(choose: Choose, settings: Settings,
             on_result: OnResult | None = None) -> list[GameResult]:
    """Play every game of `settings` in this process."""
    results = []
    for game in schedule(settings):
        results.append(play(settings, game, choose))
        if on_result is not None:
            on_result(results[-1])
    return results


def simulate_file(bot: Path, function: str, settings: Settings, parallel: int = 1,
                  on_result: OnResult | None = None) -> list[GameResult]:
    """Play every game of `settings` with the function `function` of the file `bot`, over
    `parallel` processes (each imports the file once)."""
    from cya_client.bot.loading import load_choose

    if parallel <= 1:
        return simulate(load_choose(bot, function), settings, on_result)
    games = schedule(settings)
    chunks = [games[i:i + _CHUNK] for i in range(0, len(games), _CHUNK)]
    results: list[GameResult] = []
    ctx = multiprocessing.get_context("spawn")  # a fresh interpreter: no forked threads
    with ctx.Pool(parallel, initializer=_load, initargs=(bot, function, settings)) as pool:
        for batch in pool.imap_unordered(_play_chunk, chunks):
            for result in batch:
                results.append(result)
                if on_result is not None:
                    on_result(result)
    return sorted(results, key=_number)


_CHUNK = 8  # games a task: few enough to spread the tail, enough to hide the pickling
_WORKER: tuple[Choose, Settings] | None = None


def _load(bot: Path, function: str, settings: Settings) -> None:
    global _WORKER
    from cya_client.bot.loading import load_choose

    _WORKER = load_choose(bot, function), settings


def _play_chunk(games: list[Game]) -> list[GameResult]:
    assert _WORKER is not None
    choose, settings = _WORKER
    return [play(settings, game, choose) for game in games]


def _number(result: GameResult) -> int:
    return int(result.game_id.rsplit("-", 1)[1])
