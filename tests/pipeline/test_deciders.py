"""The pipeline's deciders, each alone: a game in, the events a command causes and the game
they lead to out, with no database, cache or clock (the pipeline adds those)."""

from __future__ import annotations

import hashlib

import pytest

from cya_rules import RuleViolation, legal_commands, preset
from cya_rules.client_seeds import ClientSeed, bot_seed, deal_key
from cya_rules.events import GameStarted
from cya_rules.table.lobby import GameCreated, SeatResigned, SeatTaken
from cya_rules.table.seats import BotSeat, HumanSeat
from cya_rules.table.timeouts import DecisionTimedOut
from service.pipeline.deciders import (
    creation,
    expired_clock,
    lobby_command,
    resignation,
    seat_command,
    seat_command_preview,
)
from service.table.game import Game, apply_all
from service.table.lobby_commands import CreateGame, Start, TakeSeat, create

RULES = preset("classic", 3)
SEED = bytes(32)


def lobby(*seats: HumanSeat | BotSeat | None) -> Game:
    created = create(CreateGame(RULES, seats=seats), "ann", SEED)
    return creation(Game("g"), created).game


def dealt() -> Game:
    game = lobby(HumanSeat("ann"), HumanSeat("bob"), BotSeat("random"))
    return lobby_command(game, Start(), "ann", lambda: SEED).game


def test_given_a_creation_then_its_event_opens_the_lobby():
    created = create(CreateGame(RULES, seats=(HumanSeat("ann"),)), "ann", SEED)

    decided = creation(Game("g"), created)

    assert decided.events == [created] and isinstance(created, GameCreated)
    assert created.seed_sha256 == hashlib.sha256(SEED).hexdigest() and created.client_seeds
    assert decided.game.status == "lobby" and decided.game.lobby.seat_of("ann") == 0


def test_given_an_open_seat_when_a_player_takes_it_then_the_lobby_seats_them():
    decided = lobby_command(lobby(HumanSeat("ann")), TakeSeat(), "bob", lambda: SEED)

    assert decided.events == [SeatTaken(1, HumanSeat("bob"))]
    assert decided.game.lobby.seat_of("bob") == 1


def test_given_a_full_lobby_when_its_creator_starts_it_then_the_committed_seed_deals():
    """The master seed was drawn at creation (rules version 4): the start draws none, and
    the deal mixes in every seat's client seed (ann sent none; the bots' come from it)."""
    decided = lobby_command(lobby(HumanSeat("ann"), BotSeat(), BotSeat()), Start(), "ann",
                            lambda: pytest.fail("drawn at the start"))

    started = decided.events[0]
    assert decided.game.status == "playing" and isinstance(started, GameStarted)
    assert started.seed == SEED
    assert started.client_seeds == (ClientSeed(0, b"", "none"),
                                    ClientSeed(1, bot_seed(SEED, 1), "bot"),
                                    ClientSeed(2, bot_seed(SEED, 2), "bot"))
    assert decided.game.state.master_seed == deal_key(SEED, started.client_seeds)
    assert [type(e).__name__ for e in decided.events][:2] == ["GameStarted", "RoundStarted"]


def test_given_a_lobby_command_that_is_not_a_start_then_no_seed_is_drawn():
    lobby_command(lobby(HumanSeat("ann")), TakeSeat(), "bob", lambda: pytest.fail("drawn"))


def test_given_a_dealt_game_then_the_lobby_refuses_seat_changes():
    with pytest.raises(RuleViolation) as refused:
        lobby_command(dealt(), TakeSeat(), "carol", lambda: SEED)
    assert refused.value.code == "already_started"


def test_given_a_seat_command_then_the_rules_decide_it_for_that_seat():
    game = dealt()
    seat = game.state.pending_seats()[0]
    command = legal_commands(game.state, seat)[0]

    decided = seat_command(game, seat, command, None)

    assert decided.events and decided.game.state is not game.state and not decided.partial


def test_given_a_seat_no_longer_its_players_then_its_command_is_refused():
    game = dealt()
    seat = game.state.pending_seats()[0]
    command = legal_commands(game.state, seat)[0]

    with pytest.raises(RuleViolation) as refused:
        seat_command(game, seat, command, "somebody-else")
    assert refused.value.code == "not_seated"


def test_given_a_lobby_then_seat_commands_are_refused():
    game = dealt()
    command = legal_commands(game.state, game.state.pending_seats()[0])[0]

    with pytest.raises(RuleViolation) as refused:
        seat_command(lobby(HumanSeat("ann")), 0, command, None)
    assert refused.value.code == "not_started"


def test_given_a_preview_then_the_game_stays_as_it_was():
    game = dealt()
    seat = game.state.pending_seats()[0]
    command = legal_commands(game.state, seat)[0]

    decided = seat_command_preview(game, seat, command, None)

    assert decided.events and decided.game is game


def test_given_a_running_game_when_a_player_resigns_then_a_bot_of_the_policy_takes_the_seat():
    game = dealt()

    decided = resignation(game, "bob")

    assert decided.events == [SeatResigned(1, "bob", "random")]
    assert decided.game.is_bot(1) and decided.game.lobby.seat_of("bob") is None


@pytest.mark.parametrize(("game", "player", "code"), [
    (lobby(HumanSeat("ann")), "ann", "not_started"),
    (dealt(), "carol", "not_seated"),
])
def test_given_no_running_seat_then_resigning_is_refused(game, player, code):
    with pytest.raises(RuleViolation) as refused:
        resignation(game, player)
    assert refused.value.code == code


def test_given_an_expired_clock_then_its_marks_come_first_and_the_bots_move_follows():
    game = dealt()
    seat = game.state.pending_seats()[0]
    command = legal_commands(game.state, seat)[0]
    mark = DecisionTimedOut(seat, "ann", "action", 1, "random", "no decision in time")

    decided = expired_clock(game, seat, [mark], command)

    assert decided.events[0] == mark and len(decided.events) > 1
    assert decided.game.state == seat_command(game, seat, command, None).game.state
    assert decided.game.lobby == apply_all(game, [mark]).lobby
