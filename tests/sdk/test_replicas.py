"""The SDK against the production shape: two API processes on PostgreSQL and Redis and a
`cya worker` moving the built-in bots, at the default rate limit. The runner reads its news
from one process and sends its commands to the other, as a balancer may route them."""

from __future__ import annotations

import threading
from collections.abc import Iterator
from pathlib import Path

import pytest
from cya_client import Client
from cya_client.bot import Plan, Runner
from cya_client.bot.cli import load_choose
from cya_client.transport import CountingTransport

from service.wiring.settings import Settings
from tests.processes import running_apis
from tests.workers import conftest as shared
from tests.workers.conftest import Workers, worker_env

# The workers' fixtures: a database and a Redis index per test, `cya worker` processes.
pg_template, database_url, redis_db = shared.pg_template, shared.database_url, shared.redis_db
settings, workers = shared.settings, shared.workers

EXAMPLES = Path(__file__).resolve().parents[2] / "clients" / "python" / "examples"


@pytest.fixture
def replicas(settings: Settings, workers: Workers, tmp_path: Path) -> Iterator[list[str]]:
    workers.start()
    with running_apis(worker_env(settings), tmp_path, count=2) as apis:
        yield [api.url for api in apis]


def _player(url: str, name: str, transport: CountingTransport | None = None) -> Client:
    client = Client(url, transport=transport)
    client.api_key = client.players.create(name).api_key
    return client


def test_given_two_api_processes_then_the_runner_plays_20_games_without_error_or_429(
        replicas: list[str]):
    counted = CountingTransport()
    commands = _player(replicas[1], "runner", counted)
    news = Client(replicas[0], commands.api_key, transport=counted)
    runner = Runner(commands, load_choose(EXAMPLES / "greedy_bot.py"),
                    Plan(new=True, players=4, bots=["greedy", "random", "random"], games=20))

    results = runner.run(news.players.news())

    assert len(results) == 20 and runner.errors == 0
    assert [r.errors for r in results] == [0] * 20
    assert 429 not in counted.statuses and set(counted.statuses) <= {200, 201}
    decisions = sum(r.decisions for r in results)
    assert counted.requests["POST /v1/games/{game_id}/commands"] == decisions > 20 * 5
    assert commands.audit.verify(results[-1].game_id).ok


def test_given_two_api_processes_then_two_sdk_bots_play_each_other(replicas: list[str]):
    host, guest = _player(replicas[0], "host"), _player(replicas[1], "guest")
    hosting = Runner(host, load_choose(EXAMPLES / "random_bot.py"),
                     Plan(new=True, players=3, bots=["random"], games=1))
    accepting = Runner(guest, load_choose(EXAMPLES / "greedy_bot.py"),
                       Plan(accept=True, games=1))
    threads = [threading.Thread(target=r.run, daemon=True) for r in (accepting, hosting)]

    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(120)

    assert not any(t.is_alive() for t in threads)
    (mine,), (theirs,) = hosting.results, accepting.results
    assert mine.game_id == theirs.game_id and mine.totals == theirs.totals
    assert mine.decisions > 0 and theirs.decisions > 0 and mine.seat != theirs.seat
    assert hosting.errors == accepting.errors == 0
