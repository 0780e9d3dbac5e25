"""Ratings are a projection of the finished rated games: they equal OpenSkill (Plackett–Luce)
applied directly to the games' results in the order the games finished, a rebuild gives the
same table, and a seat given up is its player's loss."""

from __future__ import annotations

import random

import pytest
import sqlalchemy as sa
from openskill.models import PlackettLuce

from cya_rules import legal_commands, player_view, preset
from cya_rules.bots import random_policy
from cya_rules.table.seats import BotSeat, HumanSeat
from service.events.tables import rating_changes
from service.events.tables import ratings as ratings_table
from service.pipeline import Pipeline
from service.pipeline.rematch import offer_rematch
from service.projections import ratings
from service.projections.rebuild import rebuild
from service.table.lobby_commands import CreateGame, Start

FOUR = preset("classic", 4)
TWO = preset("classic", 2)


async def _rated_game(p: Pipeline, ruleset, seats, seed: int, *, resign: str | None = None
                      ) -> str:
    created = await p.create_game(CreateGame(ruleset, seats=seats, rated=True), "host")
    game_id = created.game_id
    await p.lobby(game_id, Start(), "host")
    rng = random.Random(seed)
    for n in range(100_000):
        game = await p.load(game_id)
        if game.status == "finished":
            return game_id
        if resign is not None and n == 5:
            await p.resign(game_id, resign)
        seat = game.state.pending_seats()[0]
        command = random_policy(player_view(game.state, seat), legal_commands(game.state, seat),
                                rng)
        await p.play(game_id, seat, command, actor=f"seat:{seat}")
    raise AssertionError("the game did not end")


def _expected(results: list[tuple[int, list[tuple[str, int]]]]) -> dict[tuple[str, str], tuple]:
    """OpenSkill applied to each game's (identity, rank) seats in order, written out here
    from the model itself (an identity twice in a game keeps its seats' mean)."""
    model, table = PlackettLuce(), {}
    for players, seats in results:
        family = "2p" if players == 2 else "3-6p"
        priors = [table.get((family, i), (model.mu, model.sigma, 0)) for i, _ in seats]
        rated = model.rate([[model.rating(mu=m, sigma=s)] for m, s, _ in priors],
                           ranks=[r for _, r in seats])
        by_identity: dict[str, list] = {}
        for (identity, _), (_, _, count), team in zip(seats, priors, rated, strict=True):
            by_identity.setdefault(identity, []).append((team[0].mu, team[0].sigma, count + 1))
        for identity, outs in by_identity.items():
            table[(family, identity)] = (sum(o[0] for o in outs) / len(outs),
                                         sum(o[1] for o in outs) / len(outs), outs[0][2])
    return table


def _ranks(game) -> list[int]:
    """1 for the winners, then by total: what the rules' result says, read independently."""
    totals, winners = game.state.totals, set(game.state.winners)
    return [1 if s in winners else 1 + len(winners) + sum(
        1 for o in range(len(totals)) if o not in winners and totals[o] > totals[s])
        for s in range(len(totals))]


async def _table(services) -> dict[tuple[str, str], tuple]:
    async with services.store.read() as conn:
        rows = (await conn.execute(sa.select(ratings_table))).all()
    return {(r.family, r.identity): (r.mu, r.sigma, r.games) for r in rows}


@pytest.mark.parametrize("settings", [True], indirect=True, ids=["cache"])
async def test_given_rated_games_then_ratings_are_openskill_over_their_results(services):
    p = services.pipeline
    lineups = [
        (FOUR, (HumanSeat("ann"), BotSeat("greedy"), BotSeat("random"), BotSeat("random"))),
        (FOUR, (BotSeat("greedy"), HumanSeat("ann"), HumanSeat("bob"), BotSeat("random"))),
        (TWO, (HumanSeat("bob"), BotSeat("greedy"))),
        (FOUR, (HumanSeat("bob"), BotSeat("random"), HumanSeat("ann"), BotSeat("greedy"))),
    ]
    results = []
    for n, (rules, seats) in enumerate(lineups):
        game_id = await _rated_game(p, rules, seats, seed=n)
        game = await p.load(game_id)
        results.append((rules.players, [
            (f"player:{s.player_id}" if isinstance(s, HumanSeat) else f"bot:{s.level}", r)
            for s, r in zip(seats, _ranks(game), strict=True)]))
    unrated = await p.create_game(CreateGame(FOUR, seats=(BotSeat(),) * 4), "host")

    table = await _table(services)

    expected = _expected(results)
    assert table.keys() == expected.keys()
    for key, (mu, sigma, count) in expected.items():
        assert table[key][0] == pytest.approx(mu) and table[key][1] == pytest.approx(sigma)
        assert table[key][2] == count
    async with services.store.read() as conn:
        counted = set((await conn.scalars(sa.select(rating_changes.c.game_id))).all())
    assert unrated.game_id not in counted and len(counted) == len(lineups)

    await rebuild(services.store)  # every read model again from the logs

    assert await _table(services) == table


@pytest.mark.parametrize("settings", [True], indirect=True, ids=["cache"])
async def test_given_a_player_who_resigned_then_it_is_rated_last(services):
    p = services.pipeline
    seats = (HumanSeat("ann"), HumanSeat("bob"), BotSeat("greedy"), BotSeat("random"))

    game_id = await _rated_game(p, FOUR, seats, seed=7, resign="bob")

    async with services.store.read() as conn:
        rows = {r.identity: r for r in (await conn.execute(sa.select(rating_changes).where(
            rating_changes.c.game_id == game_id))).all()}
    assert rows["player:bob"].rank == 4 and rows["player:bob"].seat == 1
    assert rows["player:bob"].mu_after < rows["player:bob"].mu_before


@pytest.mark.parametrize("settings", [True], indirect=True, ids=["cache"])
async def test_given_a_game_that_finished_before_one_already_counted_then_all_count_in_order(
        services):
    # Two processes may count games out of order: here the first game's count failed while a
    # later one's went through. The table must still be what replaying every game in order of
    # finishing gives, and only the games counted after the late one are counted again.
    p = services.pipeline
    await _rated_game(p, TWO, (HumanSeat("ann"), BotSeat("greedy")), seed=1)
    second = await _rated_game(p, TWO, (HumanSeat("ann"), BotSeat("random")), seed=2)
    third = await _rated_game(p, TWO, (HumanSeat("bob"), BotSeat("random")), seed=3)
    in_order = await _table(services)
    async with services.store.write() as conn:  # as if only the later two had been counted
        await ratings._clear(conn)
        await ratings._count(services.store, conn, [second, third])
    assert await _table(services) != in_order

    assert await ratings.catch_up(services.store) == 3  # the late one, and the two after it
    caught_up = await _table(services)
    await ratings.rebuild(services.store)

    assert caught_up == in_order == await _table(services)
    assert await ratings.catch_up(services.store) == 0


@pytest.mark.parametrize("settings", [True], indirect=True, ids=["cache"])
async def test_given_a_counted_game_whose_row_is_written_again_then_it_stays_counted(services):
    # A rematch offered after the end rewrites the whole games row: the ratings' flag is not
    # the command's to write, so the game is not counted twice.
    p = services.pipeline
    game_id = await _rated_game(p, TWO, (HumanSeat("ann"), BotSeat("greedy")), seed=4)
    counted = await _table(services)
    await offer_rematch(p, game_id, "ann")
    assert (await p.load(game_id)).lobby.rematch is not None

    assert await ratings.catch_up(services.store) == 0
    assert await _table(services) == counted
