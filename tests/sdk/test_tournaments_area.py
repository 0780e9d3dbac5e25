"""The SDK's tournaments area against the embedded server (the API process runs the bots and
the tournament): a Swiss tournament of built-in bots created (a retry finds the same one),
followed to its end, its standings read and its verify passed."""

from __future__ import annotations

import time

from cya_client import models

from .conftest import Server, player


def test_given_a_swiss_tournament_of_bots_through_the_sdk_then_it_ends_verified(
        embedded: Server):
    with player(embedded.url, "organiser") as client:
        body = models.NewTournament(
            format="swiss", ruleset=models.RuleSet(players=2, end_mode="quick"), rounds=2,
            entrants=[models.BotEntrant(level="greedy"), models.BotEntrant(level="random"),
                      models.BotEntrant(level="random")])
        created = client.tournaments.create(body)
        deadline = time.monotonic() + 120
        while client.tournaments.get(created.tournament_id).status != "finished":
            assert time.monotonic() < deadline, "the tournament did not finish"
            time.sleep(0.2)

        standings = client.tournaments.standings(created.tournament_id)
        report = client.tournaments.verify(created.tournament_id)
        listed = client.tournaments.list(status="finished")

    assert len(created.seed_hashes) == 2  # 2 rounds of one table (the third has a bye)
    assert report.ok and report.games_verified == 2 and report.seeds_verified == 2
    assert sum(s.points for s in standings.standings) == 2 * 1.0 + 2 * 0.5  # games + byes
    assert created.tournament_id in {t.tournament_id for t in listed.tournaments}


def test_given_a_game_against_a_bot_when_it_ends_then_the_rematch_seats_the_bot_at_once(
        embedded: Server):
    with player(embedded.url, "ann") as client:
        game = client.games.create(models.NewGame(
            ruleset=models.RuleSet(players=2, end_mode="quick"),
            bots=[models.BotSpec(level="greedy", seat=0)]))
        client.games.start(game.game_id)
        client.games.resign(game.game_id)  # the bots play it out
        deadline = time.monotonic() + 60
        while client.games.get(game.game_id).summary.status != "finished":
            assert time.monotonic() < deadline, "the bots' game did not finish"
            time.sleep(0.2)

        rematch = client.games.rematch(game.game_id)
        started = client.games.start(rematch.game_id)

    assert rematch.rematch_of == game.game_id and rematch.invited == [None, None]
    assert [type(s).__name__ for s in rematch.seats] == ["HumanSeat", "BotSeat"]
    assert started.status == "playing"
