"""Draft piles in 2- and 3-player games (RULES §14): the rulebooks' draft examples and
revealed action cards."""

from __future__ import annotations

import pytest

from cya_rules import (
    GameState,
    RuleSet,
    RuleViolation,
    StartGame,
    execute,
    legal_commands,
    new_game,
)
from cya_rules.cards import Edition, Kind, card_table, card_type
from cya_rules.commands import (
    ChallengeDraft,
    ChooseMoveDirection,
    Concede,
    DraftSet,
    PassDraft,
    Respond,
)
from cya_rules.events import (
    CardsDrawn,
    ChallengeConceded,
    PileCardRevealed,
    RevealedActionReturned,
    RevealedMoveApplied,
    RevealedSwapApplied,
    RoundStarted,
)
from cya_rules.ruleset import AdvancedOptions
from cya_rules.state import AwaitingDraftChallenge, AwaitingMoveDirections, StackMove

from .checks import finishes_within
from .table import assert_conserved, kinds, lay_out, run

ACTIONS = AdvancedOptions(action_cards=True)


@pytest.mark.parametrize(
    ("edition", "boat", "other", "filler"),
    [
        (Edition.EN_2022, "scooter", "toy_train", ["piano", "comic_books", "jewels"]),
        (
            Edition.DE_2024,
            "speed_boat",
            "coin_collection",
            ["baseball_cards", "stocks", "bank_account"],
        ),
    ],
)
def test_given_two_matching_tops_when_phil_drafts_and_carla_passes_then_phil_keeps_three(
    edition: Edition, boat: str, other: str, filler: list[str]
) -> None:
    """[EN22] Example 1: "Two Scooters and a Train are on top of the draft piles. Phil plays a
    Scooter from their hand and combines it with the two visible Scooters. Carla does not
    challenge, so Phil adds the set to their stack." ([DE24] Beispiel 1: Motorboot; RULES §14.2)"""
    phil, carla = 0, 1
    state = lay_out(
        RuleSet(players=2, edition=edition),
        hands={phil: [boat, *filler, *filler[:2]], carla: [boat, *filler, *filler[:2]]},
        stacks={carla: [["classic_auto", "classic_auto"]]},
        draft_piles=[[boat, filler[0]], [boat, filler[1]], [other, filler[2]]],
    )
    tops = (state.draft_piles[0][0], state.draft_piles[1][0])
    nexts = (state.draft_piles[0][1], state.draft_piles[1][1])
    hand_boat = state.hands[phil][0]

    _, state = run(state, (phil, DraftSet(hand_boat, tops)))
    assert state.pending == AwaitingDraftChallenge(phil, carla)
    assert PassDraft() in legal_commands(state, carla)
    events, state = run(state, (carla, PassDraft()))

    assert set(state.stacks[phil][-1].cards) == {hand_boat, *tops}
    # "6. Flip the next card face up in the pile(s) used" — after the challenge (§17 A50).
    assert [e for e in events if isinstance(e, PileCardRevealed)] == [
        PileCardRevealed(0, nexts[0]),
        PileCardRevealed(1, nexts[1]),
    ]
    assert state.active == carla
    assert_conserved(state)


@pytest.mark.parametrize(
    ("edition", "plane", "asset"),
    [(Edition.EN_2022, "sport_plane", "jewels"), (Edition.DE_2024, "jewels", "classic_auto")],
)
def test_given_two_wild_tops_when_david_drafts_them_with_one_asset_then_apryl_steals_all_four(
    edition: Edition, plane: str, asset: str
) -> None:
    """[EN22] Example 2: "A Sport Plane, Gold, and Silver are on top of the draft piles. David
    plays a Jewels card from his hand, forming a set with the 2 Wilds. Apryl challenges with a
    Jewels card. He can't defend, so Apryl wins the set." ([DE24] Beispiel 2: Juwelen, Gold,
    Silber; Tom plays an Oldtimer; RULES §14.2, §14.3, §17 A27)"""
    david, apryl = 0, 1
    filler = ["piggy_bank", "piggy_bank", "cash_under_mattress"]
    state = lay_out(
        RuleSet(players=2, edition=edition),
        hands={david: [asset, *filler, *filler[:2]], apryl: [asset, *filler, *filler[:2]]},
        stacks={apryl: [["cash_under_mattress"] * 2]},
        draft_piles=[[plane, filler[2]], ["gold", filler[2]], ["silver", filler[2]]],
    )
    gold, silver = state.draft_piles[1][0], state.draft_piles[2][0]
    hand_card = state.hands[david][0]
    apryl_card = state.hands[apryl][0]

    _, state = run(state, (david, DraftSet(hand_card, (gold, silver))))
    events, state = run(state, (apryl, ChallengeDraft((apryl_card,))))

    assert ChallengeConceded(david, auto=True) in events
    won = state.stacks[apryl][-1]
    assert won.type == asset and set(won.cards) == {hand_card, gold, silver, apryl_card}
    assert state.stacks[david] == ()
    assert_conserved(state)


def test_given_wild_tops_only_when_a_wild_is_drafted_with_them_then_it_is_no_set() -> None:
    """RULES §17 A27: a drafted set needs at least one asset; the hand card may be the wild."""
    state = lay_out(
        RuleSet(players=2),
        hands={0: ["gold", "silver", "piano"], 1: ["piano"]},
        draft_piles=[["silver", "piano"], ["piano", "piano"], ["toy_train", "piano"]],
    )
    gold = state.hands[0][0]
    with pytest.raises(RuleViolation) as err:
        execute(state, DraftSet(gold, (state.draft_piles[0][0],)), 0)
    assert err.value.code == "invalid_set"
    with pytest.raises(RuleViolation):
        execute(state, DraftSet(gold, (state.draft_piles[1][0], state.draft_piles[2][0])), 0)
    _, after = execute(state, DraftSet(gold, (state.draft_piles[1][0],)), 0)
    assert after.stacks[0][-1].type == "piano"


def test_given_three_players_then_a_seat_drafts_an_adjacent_pile_its_neighbour_may_challenge() -> (
    None
):
    """[EN22] "You may only draft from one pile at a time, and only from the pile to your left
    or right. You may not draft from the pile sitting between the other 2 players. When you draft
    a card from a pile, the opponent who sits next to it can choose to challenge it. The other
    opponent may not." (RULES §14.1: pile i lies between seat i and seat i+1)"""
    state = lay_out(
        RuleSet(players=3),
        hands={0: ["piano", "toy_train"], 1: ["piano", "gold"], 2: ["piano", "gold"]},
        stacks={1: [["jewels", "jewels"]], 2: [["jewels", "jewels"]]},
        draft_piles=[["piano", "cabin"], ["piano", "cabin"], ["piano", "cabin"]],
    )
    piano = state.hands[0][0]
    p0, p1, p2 = (pile[0] for pile in state.draft_piles)
    drafts = {c.pile_cards for c in legal_commands(state, 0) if isinstance(c, DraftSet)}
    assert drafts == {(p0,), (p2,)}
    with pytest.raises(RuleViolation) as far:
        execute(state, DraftSet(piano, (p1,)), 0)
    assert far.value.code == "card_not_available"
    with pytest.raises(RuleViolation) as two:
        execute(state, DraftSet(piano, (p0, p2)), 0)
    assert two.value.code == "one_pile_only"

    _, left = execute(state, DraftSet(piano, (p0,)), 0)
    assert left.pending == AwaitingDraftChallenge(0, 1)
    with pytest.raises(RuleViolation) as other:
        execute(left, ChallengeDraft((left.hands[2][1],)), 2)
    assert other.value.code == "not_your_decision"
    _, right = execute(state, DraftSet(piano, (p2,)), 0)
    assert right.pending == AwaitingDraftChallenge(0, 2)


def test_given_a_swap_under_the_drafted_card_when_it_is_revealed_then_the_top_sets_swap() -> None:
    """[EN22] "When an action card is revealed during play, its effect applies immediately …
    Swap: The two affected players Swap their top set of assets with each other. … After the
    action card is resolved it is discarded from play. Action cards revealed in a draft pile do
    not count as a player's action." (RULES §14.6)"""
    state = lay_out(
        RuleSet(players=2, advanced=ACTIONS),
        hands={0: ["scooter", "piano"], 1: ["toy_train"]},
        stacks={0: [["jewels", "jewels"]], 1: [["piano", "piano"]]},
        draft_piles=[["scooter", "swap", "comic_books"], ["toy_train"], ["toy_train"]],
    )
    scooter, swap, comic = state.draft_piles[0]
    events, state = execute(state, DraftSet(state.hands[0][0], (scooter,)), 0)

    assert kinds(events)[:5] == [
        "SetDrafted",
        "DraftChallengePassed",
        "PileCardRevealed",
        "RevealedSwapApplied",
        "PileCardRevealed",
    ]
    assert RevealedSwapApplied(0, swap, (0, 1)) in events
    assert [s.type for s in state.stacks[0]] == ["jewels", "piano"]
    assert [s.type for s in state.stacks[1]] == ["scooter"]
    assert swap in state.out_of_play
    assert state.draft_piles[0] == (comic,) and state.draft_face_up[0]
    assert state.active == 1  # the revealed Swap was no second action
    assert_conserved(state)


def test_given_a_revealed_swap_and_a_seat_without_sets_then_it_goes_back_into_the_pile() -> None:
    """[EN22] "If one, or both players, do not have a set, return the action card to the middle
    of the stack, face-down, and flip another card." (RULES §14.6, §17 A31, A32)"""
    state = lay_out(
        RuleSet(players=2, advanced=ACTIONS),
        hands={0: ["scooter", "piano"], 1: ["toy_train"]},
        draft_piles=[["scooter", "swap", "comic_books", "piano"], ["toy_train"], ["toy_train"]],
    )
    scooter, swap, comic, piano = state.draft_piles[0]
    events, state = execute(state, DraftSet(state.hands[0][0], (scooter,)), 0)

    returned = [e for e in events if isinstance(e, RevealedActionReturned)]
    assert returned == [RevealedActionReturned(0, swap, 1)]
    assert PileCardRevealed(0, comic) in events
    assert state.draft_piles[0] == (comic, swap, piano)  # interior position, top face up
    assert state.draft_face_up[0]
    assert_conserved(state)


def test_given_a_revealed_move_then_each_seat_chooses_for_the_other_active_seat_first() -> None:
    """[EN22] "Move: The two players affected each decide whether their opponent must move their
    top set to the bottom or their bottom set to the top." (RULES §14.6: choices collected active
    seat first, then applied together)"""
    state = lay_out(
        RuleSet(players=2, advanced=ACTIONS),
        hands={0: ["scooter", "piano"], 1: ["toy_train"]},
        stacks={0: [["jewels", "jewels"]], 1: [["piano", "piano"], ["sport_plane", "gold"]]},
        draft_piles=[["scooter", "move", "comic_books"], ["toy_train"], ["toy_train"]],
    )
    scooter, move, _ = state.draft_piles[0]
    _, state = execute(state, DraftSet(state.hands[0][0], (scooter,)), 0)
    assert isinstance(state.pending, AwaitingMoveDirections)
    assert state.pending_seats() == (0,)
    with pytest.raises(RuleViolation):
        execute(state, ChooseMoveDirection("top_to_bottom"), 1)

    _, state = execute(state, ChooseMoveDirection("top_to_bottom"), 0)  # for seat 1's stack
    events, state = execute(state, ChooseMoveDirection("bottom_to_top"), 1)  # for seat 0's

    assert RevealedMoveApplied(0, move, (StackMove(1, "top_to_bottom"),
                                         StackMove(0, "bottom_to_top"))) in events
    assert [s.type for s in state.stacks[0]] == ["scooter", "jewels"]
    assert [s.type for s in state.stacks[1]] == ["sport_plane", "piano"]
    assert move in state.out_of_play
    assert_conserved(state)


def test_given_an_action_card_on_a_pile_at_setup_then_it_is_pushed_into_the_middle() -> None:
    """[EN22] "Action cards revealed before the start of the round are placed face-down randomly
    in the middle of its draft pile and the next card in the draft pile is then revealed."
    (RULES §14.5, §17 A32: never the top, never the bottom)"""
    rs = RuleSet(players=2, advanced=ACTIONS)
    table = card_table(rs.edition)
    for n in range(200):
        events, state = execute(new_game(rs), StartGame(n.to_bytes(32, "big")), None)
        deal = next(e for e in events if isinstance(e, RoundStarted))
        if deal.pushed_back:
            break
    else:
        pytest.fail("no seed in 200 pushed an action card back")
    for pushed in deal.pushed_back:
        pile = state.draft_piles[pushed.pile]
        assert pushed.card in pile[1:-1]
    for pile in state.draft_piles:
        assert table[pile[0]].kind is not Kind.ACTION
        assert card_type(pile[0]) not in ("swap", "move")


def test_given_two_swaps_over_one_card_and_a_seat_without_sets_then_the_flips_still_end() -> None:
    """RULES §14.6, §17 A31: a revealed Swap that cannot apply goes back into the middle of its
    pile "and flip another card"; the flips must end. With [Swap, Swap, Comics] face down, the
    only interior position (§17 A32) puts the first Swap back under the second, which cannot
    apply either: a Swap whose next card is another Swap goes out of play instead."""
    state = lay_out(
        RuleSet(players=2, advanced=ACTIONS),
        hands={0: ["scooter", "piano"], 1: ["toy_train"]},
        draft_piles=[["scooter", "swap", "swap", "comic_books"], ["toy_train"], ["toy_train"]],
    )
    scooter, swap_a, swap_b, comic = state.draft_piles[0]

    with finishes_within(5):
        events, state = execute(state, DraftSet(state.hands[0][0], (scooter,)), 0)

    assert [e for e in events if isinstance(e, PileCardRevealed)][-1] == PileCardRevealed(0, comic)
    assert state.draft_piles[0][0] == comic and state.draft_face_up[0]
    assert swap_a in state.out_of_play and swap_b in state.draft_piles[0][1:]
    assert_conserved(state)


def _two_player_draft(rs: RuleSet, seat1_stacks: list[list[str]]) -> GameState:
    return lay_out(
        rs,
        hands={0: ["scooter", "scooter", "piano"], 1: ["scooter", "gold", "toy_train"]},
        stacks={0: [["jewels", "jewels"]], 1: seat1_stacks},
        draft_piles=[["scooter", "piano"], ["scooter", "toy_train"], ["comic_books", "piano"]],
    )


def test_given_a_lost_draft_challenge_then_the_challenger_may_not_challenge_the_next_draft() -> (
    None
):
    """[EN22] "If you challenge and lose, you can't challenge the same player until your next
    turn." (RULES §13.2, §17 A30: also for out-of-turn draft challenges)"""
    rs = RuleSet(players=2, advanced=AdvancedOptions(two_actions=True))
    state = _two_player_draft(rs, [["piano", "piano"]])
    s1, s2 = state.hands[0][:2]
    c1, gold = state.hands[1][:2]
    _, state = run(
        state,
        (0, DraftSet(s1, (state.draft_piles[0][0],))),
        (1, ChallengeDraft((c1,))),
        (0, Respond((s2,))),
        (1, Concede()),
    )
    assert (1, 0) in state.blocked
    assert state.stacks[0][-1].type == "scooter"
    piano = state.hands[0][0]
    events, state = execute(state, DraftSet(piano, (state.draft_piles[0][0],)), 0)
    # Seat 1 still holds Gold, but may not challenge: the window closes by itself.
    assert gold in state.hands[1]
    assert kinds(events)[:2] == ["SetDrafted", "DraftChallengePassed"]


def test_given_a_draft_challenger_spent_a_card_then_it_draws_after_the_active_seat() -> None:
    """RULES §9, §14.3, §17 A29: "The challenger's spent cards are refilled at end of turn after
    the active seat"."""
    state = _two_player_draft(RuleSet(players=2), [["piano", "piano"]])
    s1 = state.hands[0][0]
    c1 = state.hands[1][0]
    events, state = run(
        state,
        (0, DraftSet(s1, (state.draft_piles[0][0],))),
        (1, ChallengeDraft((c1,))),
        (0, Concede()),
    )
    assert state.stacks[1][-1].type == "scooter"
    assert [e.seat for e in events if isinstance(e, CardsDrawn)] == [0, 1]
    assert [len(h) for h in state.hands] == [6, 6]


@pytest.mark.parametrize(("requires_set", "window"), [(True, False), (False, True)])
def test_given_a_would_be_challenger_without_sets_then_the_option_decides(
    requires_set: bool, window: bool
) -> None:
    """RULES §14.3, §17 A28: the challenger must own a set unless
    `draft_challenge_requires_own_set` is off."""
    rs = RuleSet(players=2, draft_challenge_requires_own_set=requires_set)
    state = _two_player_draft(rs, [])
    _, state = execute(state, DraftSet(state.hands[0][0], (state.draft_piles[0][0],)), 0)
    assert isinstance(state.pending, AwaitingDraftChallenge) is window


def test_given_first_set_protection_then_a_drafted_first_set_opens_no_window() -> None:
    """RULES §14.3, §17 A28 option `draft_set_first_set_protected`."""
    rs = RuleSet(players=2, draft_set_first_set_protected=True)
    state = lay_out(
        rs,
        hands={0: ["scooter", "piano"], 1: ["scooter", "gold"]},
        stacks={1: [["piano", "piano"]]},
        draft_piles=[["scooter", "piano"], ["toy_train"], ["toy_train"]],
    )
    events, state = execute(state, DraftSet(state.hands[0][0], (state.draft_piles[0][0],)), 0)
    assert "DraftChallengePassed" not in kinds(events)
    assert state.stacks[0][-1].type == "scooter"


def test_given_a_revealed_move_then_a_revealed_swap_under_it_both_resolve_in_turn() -> None:
    """RULES §14.6: "After resolving … flip the pile's next card; if that is again an action card,
    resolve it too (chain)"; a stack under two sets needs no Move choice; an emptied pile stays
    empty (§17 A33)."""
    state = lay_out(
        RuleSet(players=2, advanced=ACTIONS),
        hands={0: ["scooter", "piano"], 1: ["toy_train"]},
        stacks={0: [["jewels", "jewels"]], 1: [["piano", "piano"], ["sport_plane", "gold"]]},
        draft_piles=[["scooter", "move", "swap"], ["toy_train"], ["toy_train"]],
    )
    scooter, move, swap = state.draft_piles[0]
    events, state = execute(state, DraftSet(state.hands[0][0], (scooter,)), 0)
    assert isinstance(state.pending, AwaitingMoveDirections)
    assert state.pending.awaiting == (0, 1)  # both stacks hold two sets now
    _, state = execute(state, ChooseMoveDirection("bottom_to_top"), 0)
    events, state = execute(state, ChooseMoveDirection("top_to_bottom"), 1)
    assert kinds(events)[:4] == [
        "MoveDirectionChosen",
        "RevealedMoveApplied",
        "PileCardRevealed",
        "RevealedSwapApplied",
    ]
    # Move: seat 1 [piano, plane] -> [plane, piano]; seat 0 [jewels, scooter] -> [scooter, jewels].
    # Swap then exchanges the tops: seat 0 gets piano, seat 1 gets jewels.
    assert [s.type for s in state.stacks[0]] == ["scooter", "piano"]
    assert [s.type for s in state.stacks[1]] == ["sport_plane", "jewels"]
    assert state.draft_piles[0] == () and {move, swap} <= set(state.out_of_play)
    assert_conserved(state)


def test_given_three_players_then_a_revealed_swap_acts_on_the_two_seats_beside_its_pile() -> None:
    """[EN22] "its effect applies immediately … to the two players it rests between in a
    three-player game." (RULES §14.1, §14.6)"""
    state = lay_out(
        RuleSet(players=3, advanced=ACTIONS),
        hands={0: ["scooter", "piano"], 1: ["toy_train"], 2: ["toy_train"]},
        stacks={0: [["jewels", "jewels"]], 1: [["piano", "piano"]], 2: [["cabin", "cabin"]]},
        draft_piles=[["toy_train"], ["toy_train"], ["scooter", "swap", "comic_books"]],
    )
    events, state = execute(state, DraftSet(state.hands[0][0], (state.draft_piles[2][0],)), 0)
    if isinstance(state.pending, AwaitingDraftChallenge):
        events, state = execute(state, PassDraft(), 2)
    swapped = next(e for e in events if isinstance(e, RevealedSwapApplied))
    assert swapped.seats == (0, 2)
    assert state.stacks[0][-1].type == "cabin" and state.stacks[2][-1].type == "scooter"
    assert state.stacks[1][-1].type == "piano"
