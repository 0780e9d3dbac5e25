"""Keeping a wild secret (RULES §15, §17 A45, §18 version 3). [EN11]: "A pair consists of
either two matching asset cards, or an asset card with a wild card tucked behind it"; "If you
use a wild card to complete a set, try to keep that a secret!" """

from __future__ import annotations

from msgspec import UNSET

from cya_rules import RuleSet, execute, player_view, redact, spectator_view, visibility
from cya_rules.cards import Edition, card_type
from cya_rules.commands import FormSet
from cya_rules.events import SetFormed
from cya_rules.state import GameState

from .checks import card_ids_in, hidden_from
from .table import lay_out

CLASSIC = RuleSet(players=4, edition=Edition.CLASSIC_2011).for_new_game()


def _formed(state: GameState, source: str, *hand: str) -> tuple[SetFormed, GameState]:
    events, after = execute(state, FormSet(source, hand), 0)  # type: ignore[arg-type]
    formed = next(e for e in events if isinstance(e, SetFormed))
    return formed, after


def test_given_a_new_classic_2011_game_then_its_sets_are_hidden_by_default() -> None:
    """Hidden is classic_2011's default since version 3; the other editions keep theirs."""
    assert CLASSIC.public_set_composition is False
    assert RuleSet(players=4).for_new_game().public_set_composition is True
    assert RuleSet(players=4, edition=Edition.DE_2024).for_new_game().sets_public
    # A game of an older version reads the absent option as it was then: shown.
    assert RuleSet(players=4, edition=Edition.CLASSIC_2011, rules_version=2).sets_public
    assert RuleSet(players=4, edition=Edition.CLASSIC_2011).public_set_composition is UNSET


def test_given_an_asset_and_a_wild_from_hand_then_only_the_former_seat_sees_the_wild() -> None:
    """"an asset card with a wild card tucked behind it": the others see the asset only."""
    state = lay_out(CLASSIC, hands={0: ["gold", "jewels", "stocks"]})
    gold, jewels, _ = state.hands[0]

    formed, after = _formed(state, "hand", gold, jewels)

    assert formed.secret and visibility(formed) == 0
    assert redact(formed, 0) == formed
    for viewer in (1, 2, 3, None):
        shown = redact(formed, viewer)
        assert isinstance(shown, SetFormed) and shown.cards == (jewels,)
        assert gold in hidden_from(after, viewer)
        view = player_view(after, viewer) if viewer is not None else spectator_view(after)
        assert gold not in card_ids_in(view)
        assert view.seats[0].stack[0].top == jewels and view.seats[0].stack_value is None
    assert gold not in hidden_from(after, 0)


def test_given_a_pair_with_the_discard_then_its_top_never_tells_a_wild_from_an_asset() -> None:
    """With an asset taken from the discard pile, the hand card is the secret one whether it is
    a wild or an asset: the face-up top is the discard pile's card either way."""
    wild = lay_out(CLASSIC, hands={0: ["silver", "stocks"]}, discard=["jewels#5"])
    asset = lay_out(CLASSIC, hands={0: ["jewels", "stocks"]}, discard=["jewels#5"])

    seen = []
    for state in (wild, asset):
        taken = state.discard_pile[-1]
        formed, after = _formed(state, "discard", state.hands[0][0])
        shown = redact(formed, 1)
        assert isinstance(shown, SetFormed) and shown.cards == (taken,)
        assert spectator_view(after).seats[0].stack[0].top == taken
        seen.append((shown, spectator_view(after).seats[0]))
    assert seen[0] == seen[1]  # the same for the wild as for the asset


def test_given_a_wild_taken_from_the_discard_then_nothing_is_secret_and_all_is_shown() -> None:
    """The discard pile is public; the hand card must then be the asset on top."""
    state = lay_out(CLASSIC, hands={0: ["jewels", "stocks"]}, discard=["gold"])
    jewels = state.hands[0][0]

    formed, after = _formed(state, "discard", jewels)

    assert redact(formed, 1) == formed and formed.face_up() == formed.cards
    assert after.set_secrets == frozenset()
    assert card_type(spectator_view(after).seats[0].stack[0].top) == "jewels"


def test_given_a_game_of_version_2_with_hidden_sets_then_its_events_name_both_cards() -> None:
    """Games created before version 3 keep what they recorded and showed (§18): the option
    hid the views only, and their logs must still replay and verify."""
    rs = RuleSet(players=4, edition=Edition.CLASSIC_2011, public_set_composition=False,
                 rules_version=2)
    state = lay_out(rs, hands={0: ["gold", "jewels", "stocks"]})
    gold, jewels, _ = state.hands[0]

    formed, after = _formed(state, "hand", gold, jewels)

    assert not formed.secret and visibility(formed) == "public"
    assert redact(formed, None) == formed
    assert spectator_view(after).seats[0].stack[0].cards is None


def test_given_the_game_is_over_then_every_set_is_shown() -> None:
    """[EN11] "After the last card has been played, each player adds total face value of their
    cards": the scoring reveals the sets; a finished game's views show them."""
    from msgspec.structs import replace

    state = lay_out(CLASSIC, hands={0: ["gold", "jewels", "stocks"]})
    gold, jewels, _ = state.hands[0]
    _, after = _formed(state, "hand", gold, jewels)

    finished = replace(after, status="finished")

    assert spectator_view(after).seats[0].stack[0].cards is None
    assert set(spectator_view(finished).seats[0].stack[0].cards or ()) == {gold, jewels}
    assert spectator_view(finished).seats[0].stack_value is not None
