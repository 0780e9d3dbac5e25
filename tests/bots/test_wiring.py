"""The registry of levels is the one the lobby, the contract and the workers offer; a searching
bot on a worker thinks no longer than the turn clock leaves it."""

from __future__ import annotations

import random
import time
from datetime import UTC, datetime, timedelta
from typing import get_args

from cya_rules import EndMode, legal_commands, player_view, preset
from cya_rules.bots import LEVELS, Ismcts, choose
from cya_rules.table.lobby import Lobby
from cya_rules.table.seats import BotLevel, BotSeat, TimeoutPolicy
from service.http.openapi import NAMED_ENUMS
from service.http.routes.rulesets import build_catalogue
from service.scheduling.decision_job import COMMIT_MARGIN_S, MIN_THINK_S, thinking_budget
from service.table.game import Game

from .positions import position


def test_given_the_registry_then_the_lobby_contract_and_catalogue_offer_its_levels() -> None:
    assert set(get_args(BotLevel)) == set(LEVELS)
    assert frozenset(LEVELS) in NAMED_ENUMS
    assert [info.level for info in build_catalogue().bot_levels] == list(LEVELS)


def test_given_a_short_budget_when_ismcts_chooses_then_it_stops_in_time() -> None:
    state, seat = position(preset("advanced_all", 2, end_mode=EndMode.QUICK), 5, 40)
    legal = legal_commands(state, seat)
    assert len(legal) > 1

    started = time.perf_counter()
    command = choose("ismcts", player_view(state, seat), legal, random.Random(0), budget_s=0.03)

    assert command in legal
    assert time.perf_counter() - started < 0.03 * 2 + 0.05  # one iteration past the budget


def test_given_a_turn_clock_then_the_budget_is_what_is_left_of_it_less_the_commit() -> None:
    since = datetime(2026, 1, 1, tzinfo=UTC)
    lobby = Lobby(creator="host", public=True, turn_clock=5, timeout_policy=TimeoutPolicy(),
                  seats=(BotSeat("ismcts"), BotSeat("greedy")))
    game = Game(game_id="g", version=3, lobby=lobby, decision_since=since)

    assert thinking_budget(game, since + timedelta(seconds=1)) == 4 - COMMIT_MARGIN_S
    assert thinking_budget(game, since + timedelta(seconds=9)) == MIN_THINK_S
    assert thinking_budget(Game(game_id="g", version=3), since) is None
    assert Ismcts().within(0.01).budget_s == 0.01
    assert Ismcts().within(9.0).budget_s == Ismcts().budget_s
