"""Round scores and the four ways a game ends (RULES §11, §12)."""

from __future__ import annotations

from collections.abc import Mapping

from .cards import CardInfo
from .ruleset import EndMode, RuleSet, TiePolicy
from .state import CardSet

MILLION = 1_000_000


def stack_value(table: Mapping[str, CardInfo], stack: tuple[CardSet, ...]) -> int:
    return sum(table[c].value for card_set in stack for c in card_set.cards)


def round_winner(scores: tuple[int, ...]) -> int | None:
    """The unique highest round score; a shared top score wins no round (§12.5, §17 A23).
    Only first_to_2_round_wins counts round wins; totals are kept in every mode (§17 A53)."""
    best = max(scores)
    leaders = [seat for seat, score in enumerate(scores) if score == best]
    return leaders[0] if len(leaders) == 1 else None


def game_winners(
    ruleset: RuleSet, totals: tuple[int, ...], round_wins: tuple[int, ...], rounds_played: int
) -> tuple[int, ...] | None:
    """The winners once the game's end condition holds after a round, else None (play on)."""
    # Compared by value: a RuleSet built in code may carry the plain strings (§3).
    mode = ruleset.end_mode
    if mode == EndMode.FIRST_TO_2_ROUND_WINS:
        done = tuple(seat for seat, wins in enumerate(round_wins) if wins >= 2)
        return done or None
    # §17 A24–A26: ≥ $1M ends to_million (highest total wins, in every edition); quick is one
    # round's score; highest_after_3_rounds sums three rounds.
    if mode == EndMode.TO_MILLION and max(totals) < MILLION:
        return None
    if mode == EndMode.HIGHEST_AFTER_3_ROUNDS and rounds_played < 3:
        return None
    best = max(totals)
    leaders = tuple(seat for seat, total in enumerate(totals) if total == best)
    # §12.5, §17 A23: a shared top total plays another full round unless wins are shared.
    if len(leaders) > 1 and ruleset.tie_policy == TiePolicy.EXTRA_ROUND:
        return None
    return leaders
