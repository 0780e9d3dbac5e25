"""The SDK and the bot runner against the embedded server (SQLite; the API process moves the
bots), at the default rate limit."""

from __future__ import annotations

import asyncio
import random
import threading
from pathlib import Path

from cya_client import AsyncClient, models
from cya_client.bot import Plan, Runner
from cya_client.bot.cli import load_choose
from cya_client.models import NewsGameFinished, NewsYourTurn
from cya_client.transport import CountingTransport

from .conftest import Server, player

EXAMPLES = Path(__file__).resolve().parents[2] / "clients" / "python" / "examples"
QUICK_4P = Plan(new=True, players=4, bots=["greedy", "random", "random"], games=20)


def test_given_the_runner_and_three_built_in_bots_then_20_games_end_without_error_or_429(
        embedded: Server):
    counted = CountingTransport()
    with player(embedded.url, "runner", counted) as client:
        runner = Runner(client, load_choose(EXAMPLES / "random_bot.py"), QUICK_4P)

        results = runner.run()

    assert len(results) == 20 and runner.errors == 0
    assert [r.errors for r in results] == [0] * 20
    assert 429 not in counted.statuses and set(counted.statuses) <= {200, 201}
    decisions = sum(r.decisions for r in results)
    assert decisions > 20 * 5
    # One request per own decision (the command; the turn comes with the news), plus each
    # game's creation and start and the one news stream.
    assert counted.requests["POST /v1/games/{game_id}/commands"] == decisions
    assert counted.total <= decisions + 2 * 20 + 3


def _in_thread(runner: Runner) -> threading.Thread:
    thread = threading.Thread(target=runner.run, daemon=True)
    thread.start()
    return thread


def test_given_two_sdk_bots_then_one_creates_games_and_the_other_takes_their_open_seats(
        embedded: Server):
    host, guest = player(embedded.url, "host"), player(embedded.url, "guest")
    hosting = Runner(host, load_choose(EXAMPLES / "greedy_bot.py"),
                     Plan(new=True, players=2, games=2))
    accepting = Runner(guest, load_choose(EXAMPLES / "random_bot.py"),
                       Plan(accept=True, games=2))

    threads = [_in_thread(accepting), _in_thread(hosting)]
    for thread in threads:
        thread.join(120)

    assert not any(t.is_alive() for t in threads)
    assert [r.game_id for r in hosting.results] == [r.game_id for r in accepting.results]
    for a, b in zip(hosting.results, accepting.results, strict=True):
        assert {a.seat, b.seat} == {0, 1} and a.winners == b.winners and a.decisions > 0
        assert a.totals == b.totals and (a.won != b.won or len(a.winners) == 2)
    assert hosting.errors == accepting.errors == 0
    summary = host.games.get(hosting.results[0].game_id).summary
    assert {getattr(s, "player_id", None) for s in summary.seats} == {
        host.players.me().player_id, guest.players.me().player_id}
    assert host.audit.verify(hosting.results[0].game_id).ok


async def test_given_the_async_client_then_a_game_is_played_followed_and_audited(
        embedded: Server):
    async with AsyncClient(embedded.url) as client:
        client.api_key = (await client.players.create("async")).api_key
        game = await client.games.create(models.NewGame(
            ruleset=models.RuleSet(players=2, end_mode="quick"),
            bots=[models.BotSpec(level="greedy")]))
        news = client.players.news()
        await client.games.start(game.game_id)
        rng, sent = random.Random(4), 0
        async for item in news:  # the whole loop: news in, one command out
            if isinstance(item, NewsYourTurn) and item.game_id == game.game_id:
                await client.play.send(game.game_id, rng.choice(item.turn.legal_commands),
                                       if_match=item.version)
                sent += 1
            if isinstance(item, NewsGameFinished) and item.game_id == game.game_id:
                break
        await news.aclose()  # type: ignore[attr-defined]

        streamed = [e async for e in client.follow.stream(game.game_id)]
        history = [line async for line in client.audit.history(game.game_id)]
        page = await client.follow.events(game.game_id, limit=5)
        turn = await client.play.turn(game.game_id, timeout=5)
        verified = await client.audit.verify(game.game_id)

    assert sent > 0 and turn.status == "finished" and verified.ok
    assert [e.version for e in streamed] == list(range(1, len(history) + 1))
    assert isinstance(streamed[-1].event, models.GameEnded) and streamed[-1].awaiting == []
    assert history[-1].type == "game_ended" and len(page.events) == 5


def test_given_the_sync_client_then_every_read_of_a_finished_game_decodes(embedded: Server):
    with player(embedded.url, "reader") as client:
        game = client.games.create(models.NewGame(
            ruleset=models.RuleSet(players=2, end_mode="quick"),
            bots=[models.BotSpec(level="random")]))
        client.games.start(game.game_id)
        rng = random.Random(9)
        while (turn := client.play.turn(game.game_id)).status != "finished":
            if turn.legal_commands:
                client.play.send(game.game_id, rng.choice(turn.legal_commands))

        view = client.play.view(game.game_id)
        unchanged = client.play.view_if_changed(game.game_id, view.version)
        state = client.audit.state(game.game_id, 3)
        mine = client.games.list(mine=True)
        lobby = list(client.games.iterate(status="finished", limit=2))
        legal = client.play.legal_commands(game.game_id)

        assert unchanged is None and view.status == "finished"
        assert state.version == 3 and state.view is not None
        assert game.game_id in {g.game_id for g in mine.games}
        assert game.game_id in {g.game_id for g in lobby} and legal.commands == []
        assert client.players.me().name == "reader"
        assert client.rulesets.catalogue().current_rules_version >= 1
        assert client.ops.health().status == "ok" and client.ops.ready().status == "ok"
        assert "cya_" in client.ops.metrics() or "http" in client.ops.metrics()
        assert len(list(client.audit.history(game.game_id))) == view.version


def test_given_a_runner_asked_to_stop_then_it_finishes_the_game_in_play(embedded: Server):
    with player(embedded.url, "stopper") as client:
        runner = Runner(client, load_choose(EXAMPLES / "random_bot.py"),
                        Plan(new=True, players=4, bots=["random"] * 3, games=5),
                        on_start=lambda record: runner.stop())

        results = asyncio.run(asyncio.to_thread(runner.run))

    assert len(results) == 1 and results[0].decisions > 0
