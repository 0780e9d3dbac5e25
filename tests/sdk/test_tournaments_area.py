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
