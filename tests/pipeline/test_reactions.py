"""Table talk, decided alone: a seated player's preset reaction is one public event that moves
nothing else, at one per seat per interval and a cap per game, by the times the log records."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta

import pytest

from cya_rules import RuleViolation, preset
from cya_rules.log.codec import default_codec
from cya_rules.log.visibility import visibility_of
from cya_rules.table.seats import BotSeat, HumanSeat
from cya_rules.table.talk import (
    REACTION_INTERVAL_S,
    REACTIONS_PER_SEAT,
    ReactionSent,
    ReactionTooSoon,
    Talk,
)
from service.pipeline.deciders import creation, lobby_command, reaction
from service.table.game import Game, apply_at
from service.table.lobby_commands import CreateGame, Start, create

NOW = datetime(2026, 12, 6, 20, 0, tzinfo=UTC)
SEED = bytes(32)


def lobby() -> Game:
    created = create(CreateGame(preset("classic", 3), seats=(HumanSeat("ann"), HumanSeat("bob"),
                                                             BotSeat("random"))), "ann", SEED)
    return creation(Game("g"), created).game


def dealt() -> Game:
    return lobby_command(lobby(), Start(), "ann", lambda: SEED).game


def test_given_a_dealt_game_when_a_player_reacts_then_one_public_event_changes_nothing_else():
    game = dealt()

    decided = reaction(game, "bob", "nice_steal", NOW)

    assert decided.events == [ReactionSent(1, "nice_steal")]
    assert visibility_of(decided.events[0]) == "public"
    assert decided.game.state is game.state and decided.game.lobby is game.lobby
    assert decided.game.talk == Talk((0, 1), (None, NOW))
    # The stored form names the seat and the reaction, nothing more.
    assert default_codec.encode(decided.events[0]) == (
        b'{"type":"reaction_sent","seat":1,"reaction":"nice_steal"}')


def test_given_a_reaction_when_the_same_seat_reacts_too_soon_then_it_is_refused_with_the_wait():
    game = reaction(dealt(), "ann", "oops", NOW).game

    with pytest.raises(ReactionTooSoon) as soon:
        reaction(game, "ann", "oops", NOW + timedelta(seconds=2))
    other = reaction(game, "bob", "oops", NOW + timedelta(seconds=2))
    later = reaction(game, "ann", "oops", NOW + timedelta(seconds=REACTION_INTERVAL_S))

    assert soon.value.code == "too_many_reactions"
    assert soon.value.retry_after == pytest.approx(REACTION_INTERVAL_S - 2)
    assert other.events == [ReactionSent(1, "oops")]
    assert later.events == [ReactionSent(0, "oops")]


def test_given_a_seat_at_its_cap_then_its_reactions_are_refused_for_good():
    game, at = dealt(), NOW
    for _ in range(REACTIONS_PER_SEAT):
        game = reaction(game, "ann", "good_game", at).game
        at += timedelta(seconds=REACTION_INTERVAL_S)

    with pytest.raises(ReactionTooSoon) as capped:
        reaction(game, "ann", "good_game", at + timedelta(hours=1))

    assert capped.value.retry_after is None


def test_given_the_log_then_folding_it_at_its_recorded_times_keeps_the_pace():
    game = dealt()
    game = apply_at(game, ReactionSent(0, "well_played"), NOW)

    with pytest.raises(ReactionTooSoon):
        reaction(game, "ann", "oops", NOW + timedelta(seconds=1))


@pytest.mark.parametrize(("who", "game", "code"), [
    ("ann", lobby, "not_started"),       # before the deal there is no table to talk to
    ("eve", dealt, "not_seated"),        # watchers and strangers do not talk
    ("nobody", dealt, "not_seated"),
])
def test_given_no_seat_or_no_deal_then_a_reaction_is_refused(who, game, code):
    with pytest.raises(RuleViolation) as refused:
        reaction(game(), who, "good_game", NOW)

    assert refused.value.code == code
