"""What each viewer may see (RULES §15): views and redacted events are the only way hidden
cards leave the domain."""

from __future__ import annotations

from cya_rules import (
    RuleSet,
    StartGame,
    execute,
    new_game,
    player_view,
    preset,
    redact,
    spectator_view,
    visibility,
)
from cya_rules.commands import Discard
from cya_rules.events import CardsDrawn, GameStarted, RoundStarted

from .checks import card_ids_in
from .table import lay_out

SEED = bytes(range(32))


def test_given_a_deal_then_each_seat_sees_its_own_hand_and_only_counts_of_the_rest() -> None:
    """RULES §15: own hand — owner only; other hands and the draw pile — counts only; the round
    seed stays on the server (its commitment is public)."""
    events, state = execute(new_game(preset("advanced_all", 3)), StartGame(SEED), None)
    started = next(e for e in events if isinstance(e, GameStarted))
    deal = next(e for e in events if isinstance(e, RoundStarted))
    assert visibility(started) == visibility(deal) == "server"
    assert redact(started, 0).seed is None  # type: ignore[union-attr]

    for seat in range(3):
        mine = redact(deal, seat)
        assert isinstance(mine, RoundStarted)
        assert mine.draw_pile is None and mine.draft_piles is None
        assert [bool(h) for h in mine.hands] == [i == seat for i in range(3)]
        view = player_view(state, seat)
        assert view.hand == state.hands[seat]
        assert view.draw_count == len(state.draw_pile)
        assert [s.hand_count for s in view.seats] == [6, 6, 6]  # hand_size_six
        others = {c for i, h in enumerate(state.hands) if i != seat for c in h}
        assert not card_ids_in(view) & (others | set(state.draw_pile))
        # Draft piles show their face-up top and their size only.
        assert [p.top for p in view.draft_piles] == [p[0] for p in state.draft_piles]
        assert [p.count for p in view.draft_piles] == [10, 10, 10]

    spectator = spectator_view(state)
    assert spectator.hand is None
    assert not card_ids_in(spectator) & {c for h in state.hands for c in h}


def test_given_cards_drawn_then_only_the_drawer_sees_which() -> None:
    """RULES §15: "cards drawn — drawer only; others see how many"."""
    _, state = execute(new_game(RuleSet(players=4)), StartGame(SEED), None)
    seat = state.active
    events, _ = execute(state, Discard(state.hands[seat][0]), seat)
    drawn = next(e for e in events if isinstance(e, CardsDrawn))
    assert visibility(drawn) == seat
    assert redact(drawn, seat) == drawn
    other = redact(drawn, (seat + 1) % 4)
    assert isinstance(other, CardsDrawn) and other.cards is None and other.count == 1
    assert redact(drawn, None).cards is None  # type: ignore[union-attr]


def test_given_hidden_set_composition_then_a_view_shows_type_count_and_top_only() -> None:
    """RULES §15, §17 A45 option: "show only type, card count and top card"."""
    rs = RuleSet(players=4, public_set_composition=False)
    state = lay_out(rs, hands={0: ["piano"]}, stacks={1: [["jewels", "gold"]]})
    seat_view = player_view(state, 0).seats[1]
    assert seat_view.stack[0].cards is None and seat_view.stack_value is None
    assert seat_view.stack[0].count == 2 and seat_view.stack[0].top.startswith("jewels#")
