"""Bots as policies: the greedy bot beats random bots, and no policy ever steps outside `legal`."""

from __future__ import annotations

import random
from collections.abc import Sequence

import pytest

from cya_rules import (
    Edition,
    EndMode,
    GameState,
    GameView,
    RuleSet,
    SeatCommand,
    legal_commands,
    player_view,
    preset,
)
from cya_rules.bots import POLICIES, Policy, greedy_policy, play_game, random_policy
from cya_rules.bots.trials import head_to_head
from cya_rules.commands import Challenge, ChooseMoveDirection, Discard, Respond
from cya_rules.state import (
    AwaitingAction,
    AwaitingChallengeReply,
    AwaitingMoveDirections,
    CardSet,
    Pending,
    Play,
)


def sole_win_rate(ruleset: RuleSet, games: int, level: str = "greedy") -> float:
    """Share of games the bot at `level` wins alone against random bots in the other seats.

    Its seat rotates with the game number; a shared win counts as a loss.
    """
    sole, _ = head_to_head(ruleset, games, level)
    return sole / games


def quick(name: str, players: int, edition: Edition = Edition.EN_2022) -> RuleSet:
    return preset(name, players, edition, end_mode=EndMode.QUICK)


def test_given_three_random_bots_when_greedy_plays_1000_quick_games_then_it_wins_over_60pc() -> (
    None
):
    rate = sole_win_rate(quick("classic", 4), games=1000)

    assert rate > 0.60, f"greedy won {rate:.1%} alone (random baseline: 25%)"


def test_given_a_random_bot_when_greedy_drafts_in_2_player_advanced_games_then_it_wins_most() -> (
    None
):
    rate = sole_win_rate(quick("advanced_all", 2), games=300)

    assert rate > 0.55, f"greedy won {rate:.1%} alone (random baseline: 50%)"


def test_given_three_random_bots_when_greedy_plays_classic_2011_then_it_wins_most() -> None:
    rate = sole_win_rate(quick("classic", 4, Edition.CLASSIC_2011), games=300)

    assert rate > 0.55, f"greedy won {rate:.1%} alone (random baseline: 25%)"


def test_given_random_bots_only_when_one_is_measured_then_it_wins_near_the_baseline() -> None:
    # Guards the harness itself: a bug that favoured the measured seat would inflate every rate.
    rate = sole_win_rate(quick("classic", 4), games=400, level="random")

    assert 0.15 < rate < 0.35


def checked(policy: Policy) -> Policy:
    """The policy, failing the test the moment it returns a command outside `legal`."""

    def play(view: GameView, legal: Sequence[SeatCommand], rng: random.Random) -> SeatCommand:
        command = policy(view, legal, rng)
        assert command in legal, f"{command} is not among the legal commands"
        return command

    return play


@pytest.mark.parametrize(
    "ruleset",
    [
        quick("classic", 4),
        quick("classic", 4, Edition.CLASSIC_2011),
        quick("advanced_all", 2),
        quick("advanced_all", 3, Edition.DE_2024),
        quick("advanced_all", 5),
        preset("advanced_all", 3, end_mode=EndMode.QUICK, public_set_composition=False),
    ],
    ids=["en4", "classic2011", "adv2", "de_adv3", "adv5", "adv3_hidden_sets"],
)
def test_given_any_rules_when_bots_play_then_every_command_is_legal(ruleset: RuleSet) -> None:
    for game in range(20):
        policies = [
            checked(greedy_policy if (seat + game) % 2 else random_policy)
            for seat in range(ruleset.players)
        ]
        # Greedy against itself too: it must also answer challenges and windows it opened.
        mirror = [checked(greedy_policy)] * ruleset.players

        _, mixed = play_game(ruleset, bytes([game]) * 32, policies, rng_seed=game)
        _, greedy_only = play_game(ruleset, bytes([game + 100]) * 32, mirror, rng_seed=game)

        assert mixed.status == greedy_only.status == "finished"


def test_given_the_same_seeds_when_greedy_plays_twice_then_the_games_are_identical() -> None:
    ruleset = quick("advanced_all", 2)
    policies = [greedy_policy, random_policy]

    first, _ = play_game(ruleset, bytes(32), policies, rng_seed=7)
    second, _ = play_game(ruleset, bytes(32), policies, rng_seed=7)

    assert first == second


def test_given_the_registry_then_it_names_each_level() -> None:
    assert set(POLICIES) == {"random", "greedy", "expert", "ismcts"}
    assert POLICIES["greedy"] is greedy_policy


# Scenes: one decision of the greedy bot (seat 0) in a hand-made position.


def scene(
    hands: tuple[tuple[str, ...], ...],
    stacks: tuple[tuple[CardSet, ...], ...],
    pending: Pending | None = None,
    ruleset: RuleSet | None = None,
) -> SeatCommand:
    """Greedy's choice as seat 0 (by default of a 4-player en_2022 game); unlisted cards are
    unseen."""
    players = len(hands)
    state = GameState(
        ruleset=ruleset or quick("classic", players),
        pending=pending or AwaitingAction(seat=0),
        hands=hands,
        stacks=stacks,
        totals=(0,) * players,
        round_wins=(0,) * players,
    )
    return greedy_policy(player_view(state, 0), legal_commands(state, 0), random.Random(0))


FIVE = ("comic_books#9", "piano#9", "toy_train#9", "jewels#9", "scooter#9")  # opponents' hands


def test_given_no_pair_and_nothing_to_steal_when_greedy_acts_then_it_discards_the_cheapest() -> (
    None
):
    hand = ("cabin#1", "comic_books#1", "jewels#1", "scooter#1", "sport_plane#1")

    command = scene((hand, FIVE, FIVE, FIVE), ((), (), (), ()))

    assert command == Discard("comic_books#1")


def test_given_three_matching_cards_when_a_rival_exposes_a_rich_set_then_greedy_steals_it() -> None:
    hand = ("cabin#3", "cabin#4", "gold#1", "piano#1", "scooter#1")
    rival = (CardSet("piano", ("piano#2", "piano#3")), CardSet("cabin", ("cabin#1", "gold#2")))

    command = scene(
        (hand, FIVE, FIVE, FIVE), ((CardSet("jewels", ("jewels#1", "jewels#2")),), rival, (), ())
    )

    # It opens with a Cabin, keeping the Gold (worth more in hand) for the fight.
    assert command == Challenge(1, "top", ("cabin#3",))


def test_given_a_rich_set_is_challenged_when_greedy_can_answer_then_it_defends_cheaply() -> None:
    hand = ("cabin#3", "gold#1", "piano#1", "scooter#1")
    mine = (CardSet("piano", ("piano#2", "piano#3")), CardSet("cabin", ("cabin#1", "gold#2")))
    rival = (CardSet("jewels", ("jewels#1", "jewels#2")),)
    pot = (Play(1, ("silver#1",)),)
    pending = AwaitingChallengeReply("stack_top", 1, 0, 1, "cabin", pot, awaiting=0, required=1)

    command = scene((hand, FIVE[:4], FIVE, FIVE), (mine, rival, (), ()), pending)

    assert command == Respond(("cabin#3",))


def test_given_a_revealed_move_when_greedy_picks_the_rivals_direction_then_it_exposes_riches() -> (
    None
):
    rival = (
        CardSet("cabin", ("cabin#1", "gold#1")),
        CardSet("piano", ("piano#1", "piano#2")),
        CardSet("jewels", ("jewels#1", "jewels#2")),
    )
    mine = (CardSet("scooter", ("scooter#1", "scooter#2")),)
    pending = AwaitingMoveDirections(pile=0, card="move#1", awaiting=(0, 1), choices=())

    command = scene((FIVE, FIVE), (mine, rival), pending, quick("advanced_all", 2))

    # Bottom to top leaves the Piano set the safe one and puts the Cabin set up for a steal.
    assert command == ChooseMoveDirection("bottom_to_top")
