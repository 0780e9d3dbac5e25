"""Challenges as the rulebooks tell them (RULES §7.3, §8): the worked examples of §8.6 and
the rules around them."""

from __future__ import annotations

import pytest

from cya_rules import RuleSet, RuleViolation, execute, legal_commands, preset
from cya_rules.cards import Edition, card_type
from cya_rules.commands import Challenge, Concede, Discard, EndTurn, Respond
from cya_rules.events import ChallengeConceded, TurnStarted
from cya_rules.ruleset import AdvancedOptions
from cya_rules.state import AwaitingAction, AwaitingChallengeReply

from .table import assert_conserved, kinds, lay_out, run

FILLER = ["piano", "toy_train", "comic_books", "piano", "toy_train"]


@pytest.mark.parametrize(
    ("edition", "filler"),
    [
        (Edition.EN_2022, ["piano", "toy_train", "comic_books"]),
        (Edition.DE_2024, ["baseball_cards", "piggy_bank", "coin_collection"]),
    ],
)
def test_given_cathys_auto_set_when_ezra_plays_auto_gold_auto_then_ezra_takes_five_cards(
    edition: Edition, filler: list[str]
) -> None:
    """[EN22] "Ezra attempts to take Cathy's Auto set. He challenges with an Auto. Cathy
    responds with Gold (Wild). Ezra responds with an Auto. Cathy cannot respond and loses.
    Ezra keeps the three played cards as part of his new set." ([DE24] Tom/Anja; RULES §8.6)"""
    ezra, cathy = 0, 1
    state = lay_out(
        preset("classic", 4, edition),
        hands={
            ezra: ["classic_auto", "classic_auto", *filler],
            cathy: ["gold", *filler, filler[0]],
            2: [*filler, filler[0], filler[1]],
            3: [*filler, filler[1], filler[2]],
        },
        stacks={
            ezra: [["jewels", "jewels"]],
            cathy: [
                ["stocks" if edition is Edition.DE_2024 else "cabin"] * 2,
                ["classic_auto", "classic_auto"],
            ],
        },
        active=ezra,
    )
    autos = [c for c in state.hands[ezra] if card_type(c) == "classic_auto"]
    gold = state.hands[cathy][0]

    events, after = run(
        state,
        (ezra, Challenge(cathy, "top", (autos[0],))),
        (cathy, Respond((gold,))),
        (ezra, Respond((autos[1],))),
    )

    # Cathy holds no Auto and no wild, so her concession is taken for her (RULES §7.9).
    assert ChallengeConceded(cathy, auto=True) in events
    won = after.stacks[ezra][-1]
    assert won.type == "classic_auto"
    assert len(won.cards) == 5 and {autos[0], autos[1], gold} <= set(won.cards)
    assert len(after.stacks[cathy]) == 1
    # §9: the active seat draws first, then the defender who spent a card.
    drawn = [(e.seat, e.count) for e in events if type(e).__name__ == "CardsDrawn"]
    assert drawn == [(ezra, 2), (cathy, 1)]
    assert events[-1] == TurnStarted(cathy)
    assert_conserved(after)


def _scooter_table(**advanced: bool) -> RuleSet:
    return RuleSet(players=4, advanced=AdvancedOptions(**advanced))


def test_given_a_penny_jar_opening_then_the_defender_must_answer_with_a_double() -> None:
    """[EN22] "The Penny Jar … counts as two Wild cards when used to challenge or defend. To
    counter you must play: two assets, two Wilds, one of each, or another Penny Jar. If possible,
    continue the challenge as normal with single cards." (RULES §8.2, §8.4, §8.6)"""
    a, b = 0, 1
    state = lay_out(
        _scooter_table(penny_jar=True),
        hands={
            a: ["penny_jar", "scooter", "piano", "piano", "toy_train"],
            b: ["scooter", "scooter", "silver", "penny_jar", "piano"],
            2: FILLER,
            3: FILLER,
        },
        stacks={a: [["cabin", "cabin"]], b: [["jewels", "jewels"], ["scooter", "gold"]]},
    )
    pj = state.hands[a][0]
    _, state = run(state, (a, Challenge(b, "top", (pj,))))
    assert isinstance(state.pending, AwaitingChallengeReply) and state.pending.required == 2

    s1, s2, silver, pj2, _ = state.hands[b]
    answers = {tuple(sorted(c.cards)) for c in legal_commands(state, b) if isinstance(c, Respond)}
    assert answers == {tuple(sorted(x)) for x in [(s1, s2), (s1, silver), (s2, silver), (pj2,)]}
    with pytest.raises(RuleViolation) as single:
        execute(state, Respond((s1,)), b)
    assert single.value.code == "invalid_play"

    _, state = run(state, (b, Respond((s1, silver))))
    assert isinstance(state.pending, AwaitingChallengeReply)
    assert state.pending.awaiting == a and state.pending.required == 1
    scooter = state.hands[a][0]
    with pytest.raises(RuleViolation):
        execute(state, Respond((scooter, state.hands[a][1])), a)
    _, state = run(state, (a, Respond((scooter,))))
    assert state.pending.awaiting == b and state.pending.required == 1  # type: ignore[union-attr]


def test_given_a_penny_jar_over_bid_answered_by_the_other_penny_jar_then_singles_follow() -> None:
    """RULES §17 A13: a Penny Jar answering a double is an exact double, not a new over-bid."""
    a, b = 0, 1
    state = lay_out(
        _scooter_table(penny_jar=True),
        hands={a: ["penny_jar", "scooter"], b: ["penny_jar", "piano"], 2: FILLER, 3: FILLER},
        stacks={a: [["cabin", "cabin"]], b: [["jewels", "jewels"], ["scooter", "gold"]]},
    )
    _, state = run(
        state,
        (a, Challenge(b, "top", (state.hands[a][0],))),
        (b, Respond((state.hands[b][0],))),
    )
    assert state.pending.required == 1  # type: ignore[union-attr]


def test_given_three_sets_when_a_double_opens_on_the_second_set_then_singles_follow() -> None:
    """RULES §8.6 second-set example: B's stack is [Cabin, Piano, Jewels]; A opens on Piano with
    Piano + Silver; B answers with one Piano; A answers with Gold; B concedes → the Piano set and
    the four pot cards go on top of A's stack; B keeps [Cabin, Jewels]. [EN22] "After the
    challenge is initiated, only one card is played to defend or to continue challenging." """
    a, b = 0, 1
    state = lay_out(
        _scooter_table(second_set_challenge=True),
        hands={
            a: ["piano", "silver", "gold", "toy_train", "toy_train"],
            b: ["piano", "piano", "comic_books", "toy_train", "scooter"],
            2: FILLER,
            3: FILLER,
        },
        stacks={
            a: [["scooter", "scooter"]],
            b: [["cabin", "cabin"], ["piano", "piano"], ["jewels", "jewels"]],
        },
    )
    piano, silver, gold = state.hands[a][:3]
    b_piano = state.hands[b][0]
    piano_set = state.stacks[b][1]

    _events, state = run(state, (a, Challenge(b, "second", (piano, silver))))
    assert state.pending.required == 1  # type: ignore[union-attr]
    _, state = run(state, (b, Respond((b_piano,))), (a, Respond((gold,))), (b, Concede()))

    top = state.stacks[a][-1]
    assert top.type == "piano"
    assert set(top.cards) == {*piano_set.cards, piano, silver, b_piano, gold}
    assert [s.type for s in state.stacks[b]] == ["cabin", "jewels"]
    assert_conserved(state)


def test_given_a_stack_of_two_when_challenging_its_second_set_then_it_is_the_safe_bottom() -> None:
    """RULES §17 A11: the target of a second-set challenge needs at least three sets."""
    state = lay_out(
        _scooter_table(second_set_challenge=True),
        hands={0: ["piano", "silver"], 1: FILLER, 2: FILLER, 3: FILLER},
        stacks={0: [["scooter", "scooter"]], 1: [["piano", "piano"], ["jewels", "jewels"]]},
    )
    with pytest.raises(RuleViolation) as err:
        execute(state, Challenge(1, "second", state.hands[0]), 0)
    assert err.value.code == "target_protected"


def test_given_a_penny_jar_opening_on_the_second_set_then_a_single_answers_it() -> None:
    """RULES §17 A12: [EN22] lists "a single Penny Jar" among the openings of a second-set
    challenge, after which "only one card is played to defend"."""
    state = lay_out(
        _scooter_table(second_set_challenge=True, penny_jar=True),
        hands={0: ["penny_jar"], 1: ["piano", "piano"], 2: FILLER, 3: FILLER},
        stacks={
            0: [["scooter", "scooter"]],
            1: [["cabin", "cabin"], ["piano", "piano"], ["jewels", "jewels"]],
        },
    )
    _, state = run(state, (0, Challenge(1, "second", state.hands[0])))
    assert state.pending.required == 1  # type: ignore[union-attr]


@pytest.mark.parametrize("edition", [Edition.CLASSIC_2011, Edition.EN_2022])
def test_given_only_one_set_then_it_is_safe_and_a_seat_without_sets_cannot_challenge(
    edition: Edition,
) -> None:
    """[EN11] "You must have at least one set of assets in your own stack" and "The player you
    are challenging must have at least two sets"; [EN22] "The first (bottom) set formed in each
    player's stack is safe" (RULES §7.3)."""
    state = lay_out(
        preset("classic", 4, edition),
        hands={0: ["gold", "gold"], 1: ["gold"], 2: ["silver"], 3: ["silver"]},
        stacks={0: [["jewels", "jewels"]], 1: [["classic_auto", "classic_auto"]]},
    )
    with pytest.raises(RuleViolation) as safe:
        execute(state, Challenge(1, "top", (state.hands[0][0],)), 0)
    assert safe.value.code == "target_protected"
    assert not [c for c in legal_commands(state, 0) if isinstance(c, Challenge)]

    no_set = lay_out(
        preset("classic", 4, edition),
        hands={0: ["gold"], 1: ["gold"], 2: ["silver"], 3: ["silver"]},
        stacks={1: [["jewels", "jewels"], ["classic_auto", "classic_auto"]]},
    )
    with pytest.raises(RuleViolation) as err:
        execute(no_set, Challenge(1, "top", no_set.hands[0]), 0)
    assert err.value.code == "no_own_set"


def _lost_challenge(edition: Edition, **advanced: bool | None) -> tuple[RuleSet, object]:
    rs = RuleSet(players=3, edition=edition, advanced=AdvancedOptions(two_actions=True, **advanced))
    types = ("jewels", "classic_auto")
    state = lay_out(
        rs,
        hands={0: ["jewels", "jewels", "gold"], 1: ["silver", "silver"], 2: ["silver"]},
        stacks={
            0: [[types[1]] * 2],
            1: [[types[1]] * 2, ["jewels", "jewels"]],
            2: [[types[1]] * 2, ["gold", "jewels"]],
        },
    )
    _, state = run(
        state,
        (0, Challenge(1, "top", (state.hands[0][0],))),
        (1, Respond((state.hands[1][0],))),
        (0, Concede()),
    )
    return rs, state


def test_given_en_2022_two_actions_when_a_challenge_is_lost_then_that_seat_is_blocked() -> None:
    """[EN22] "If you challenge and lose, you can't challenge the same player until your next
    turn." (RULES §13.2, §17 A37: on with two actions in en_2022)."""
    _, state = _lost_challenge(Edition.EN_2022)
    assert isinstance(state.pending, AwaitingAction) and state.pending.actions_taken == 1
    jewel = state.hands[0][0]
    with pytest.raises(RuleViolation) as err:
        execute(state, Challenge(1, "top", (jewel,)), 0)
    assert err.value.code == "rechallenge_blocked"
    targets = {c.target_seat for c in legal_commands(state, 0) if isinstance(c, Challenge)}
    assert targets == {2}


def test_given_a_blocked_challenger_when_its_next_turn_starts_then_the_block_is_lifted() -> None:
    """RULES §8.5 step 4: the block lasts "until your next turn" (§17 A30)."""
    _, state = _lost_challenge(Edition.EN_2022)
    _, state = run(state, (0, EndTurn()))
    while state.active != 0:
        seat = state.active
        _, state = run(state, (seat, Discard(state.hands[seat][0])))
        if state.pending.__class__ is AwaitingAction and state.active == seat:
            _, state = run(state, (seat, EndTurn()))
    assert (0, 1) not in state.blocked


@pytest.mark.parametrize(
    ("edition", "option", "blocked"),
    [
        (Edition.DE_2024, None, False),  # the sentence is absent from [DE24]
        (Edition.EN_2022, False, False),  # switched off explicitly
        (Edition.DE_2024, True, True),  # switched on explicitly
    ],
)
def test_given_the_rechallenge_toggle_then_it_decides_whether_a_loss_blocks(
    edition: Edition, option: bool | None, blocked: bool
) -> None:
    """RULES §3: `no_rechallenge_after_loss` defaults to two_actions for en_2022 and to
    false for de_2024 (§17 A37)."""
    _, state = _lost_challenge(edition, no_rechallenge_after_loss=option)
    assert ((0, 1) in state.blocked) is blocked
    targets = {c.target_seat for c in legal_commands(state, 0) if isinstance(c, Challenge)}
    assert (1 in targets) is not blocked


def test_given_a_defended_second_set_then_it_stays_in_its_place_with_the_pot() -> None:
    """[DE24] "behält er sein Set einfach" (RULES §8.5 step 3, §17 A41: a defended set stays in
    its position)."""
    a, b = 0, 1
    state = lay_out(
        _scooter_table(second_set_challenge=True),
        hands={
            a: ["piano", "silver", "toy_train"],
            b: ["piano", "comic_books"],
            2: FILLER,
            3: FILLER,
        },
        stacks={
            a: [["scooter", "scooter"]],
            b: [["cabin", "cabin"], ["piano", "piano"], ["jewels", "jewels"]],
        },
    )
    piano, silver = state.hands[a][:2]
    b_piano = state.hands[b][0]
    events, state = run(
        state, (a, Challenge(b, "second", (piano, silver))), (b, Respond((b_piano,)))
    )
    assert ChallengeConceded(a, auto=True) in events
    assert [s.type for s in state.stacks[b]] == ["cabin", "piano", "jewels"]
    assert len(state.stacks[b][1].cards) == 5
    assert [s.type for s in state.stacks[a]] == ["scooter"]


def test_given_a_defender_with_an_empty_hand_then_the_challenge_is_won_at_once() -> None:
    """[EN22] "You may run out of cards before others, but your sets can still be stolen"
    (RULES §10, §17 A43: the defender concedes automatically)."""
    state = lay_out(
        _scooter_table(),
        hands={0: ["piano", "toy_train"], 1: [], 2: FILLER, 3: FILLER},
        stacks={0: [["scooter", "scooter"]], 1: [["jewels", "jewels"], ["piano", "gold"]]},
        rest="discard",
    )
    events, state = execute(state, Challenge(1, "top", (state.hands[0][0],)), 0)
    assert kinds(events)[:2] == ["ChallengeOpened", "ChallengeConceded"]
    assert state.stacks[0][-1].type == "piano" and len(state.stacks[1]) == 1
