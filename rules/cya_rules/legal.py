"""`legal_commands(state, seat)`: every command the seat may send now, ready to post."""

from __future__ import annotations

from functools import cache, lru_cache
from itertools import combinations
from typing import get_args

from . import commands
from .cards import MOVE, SWAP, Edition, Kind, card_table
from .challenge import draft_challenge_error, plays, target_error
from .commands import SeatCommand
from .draft import face_up_top_cards
from .sets import Table, formable_pairs, pair_type
from .state import (
    AwaitingAction,
    AwaitingChallengeReply,
    AwaitingDraftChallenge,
    AwaitingMoveDirections,
    Direction,
    GameState,
)

DIRECTIONS: tuple[Direction, ...] = get_args(Direction)


def legal_commands(state: GameState, seat: int) -> list[SeatCommand]:
    p = state.pending
    table = card_table(state.ruleset.edition)
    if isinstance(p, AwaitingAction) and p.seat == seat:
        return _turn_commands(state, table, seat, p.actions_taken)
    if isinstance(p, AwaitingChallengeReply) and p.awaiting == seat:
        replies: list[SeatCommand] = [
            commands.Respond(cards)
            for cards in plays(table, state.hands[seat], p.set_type, p.required)
        ]
        return [*replies, commands.Concede()]
    if isinstance(p, AwaitingDraftChallenge) and p.eligible == seat:
        out: list[SeatCommand] = []
        if state.draft and draft_challenge_error(state, seat, p.drafter) is None:
            hand = state.hands[seat]
            out = [commands.ChallengeDraft(c) for c in plays(table, hand, state.draft.set.type, 1)]
        return [*out, commands.PassDraft()]
    if isinstance(p, AwaitingMoveDirections) and p.awaiting[0] == seat:
        return [commands.ChooseMoveDirection(direction) for direction in DIRECTIONS]
    return []


def _turn_commands(state: GameState, table: Table, seat: int, taken: int) -> list[SeatCommand]:
    hand = state.hands[seat]
    formable = formable_pairs(table)
    out: list[SeatCommand] = [
        commands.FormSet("hand", pair) for pair in combinations(hand, 2) if pair in formable
    ]
    if state.discard_pile:
        top = state.discard_pile[-1]
        out += [commands.FormSet("discard", (c,)) for c in hand if pair_type(table, c, top)]
    out += [commands.Discard(c) for c in hand]
    out += _challenges(state, table, seat)
    if state.ruleset.uses_draft_piles:
        out += _drafts(state, table, seat)
    out += _advanced(state, table, seat)
    if taken:
        out.append(commands.EndTurn())
    return out


def _challenges(state: GameState, table: Table, seat: int) -> list[SeatCommand]:
    out: list[SeatCommand] = []
    if not state.stacks[seat]:
        return out
    positions = ("top", "second") if state.ruleset.advanced.second_set_challenge else ("top",)
    for target in range(state.players):
        if target == seat:
            continue
        sets = len(state.stacks[target])
        for position in positions:
            # The commonest refusal, checked before `target_error` builds its RuleViolation.
            if sets < (2 if position == "top" else 3):
                continue
            if target_error(state, seat, target, position):
                continue
            asked = 1 if position == "top" else 2
            set_type = state.stacks[target][-asked].type
            for cards in plays(table, state.hands[seat], set_type, asked):
                out.append(commands.Challenge(target, position, cards))  # type: ignore[arg-type]
    return out


def _drafts(state: GameState, table: Table, seat: int) -> list[SeatCommand]:
    needs = draft_needs(state.ruleset.edition, face_up_top_cards(state, seat),
                        state.players == 3)
    out: list[SeatCommand] = []
    for h in state.hands[seat]:  # the same sets as group_type(table, (h, *combo)) accepts
        info = table[h]
        if info.kind is Kind.ASSET:
            out += [commands.DraftSet(h, combo) for combo, need in needs
                    if need == info.type or need == ""]
        elif info.kind is Kind.WILD:
            out += [commands.DraftSet(h, combo) for combo, need in needs if need]
    return out


@lru_cache(maxsize=4096)  # the tops change seldom: a search meets the same ones often
def draft_needs(edition: Edition, tops: tuple[str, ...], one: bool
                ) -> tuple[tuple[tuple[str, ...], str | None], ...]:
    """Each choice of pile cards from `tops` (one only with 3 players, §14), and what hand
    card completes it (§17 A27): an asset or a wild where the choice has that asset type, any
    asset ("") where it is all wilds, none (None) where it cannot lie in one set (an action
    card, two asset types). Half the tops a search meets are new (each deal flips its own)."""
    groups = _pile_groups(edition)
    sizes = (1,) if one else range(1, len(tops) + 1)
    out = []
    for k in sizes:
        for combo in combinations(tops, k):
            need: str | None = ""
            for c in combo:  # `group_type(table, combo)`, "" where it is all wilds
                group = groups[c]
                if group != "" and need is not None:
                    need = group if need == "" or need == group else None
            out.append((combo, need))
    return tuple(out)


@cache
def _pile_groups(edition: Edition) -> dict[str, str | None]:
    """Each card's `draft_needs` alone: its type if an asset, "" if a wild, None if not."""
    return {c: info.type if info.kind is Kind.ASSET else "" if info.kind is Kind.WILD else None
            for c, info in card_table(edition).items()}


def _advanced(state: GameState, table: Table, seat: int) -> list[SeatCommand]:
    adv = state.ruleset.advanced
    hand, stacks = state.hands[seat], state.stacks
    out: list[SeatCommand] = []
    if adv.improve_set and stacks[seat]:
        top_type = stacks[seat][-1].type
        out += [
            commands.ImproveSet(c)
            for c in hand if table[c].kind is Kind.ASSET and table[c].type == top_type
        ]
    if adv.action_cards:
        for c in hand:
            if table[c].type == SWAP and stacks[seat]:
                out += [commands.PlaySwap(c, t) for t in range(state.players)
                        if t != seat and stacks[t]]
            elif table[c].type == MOVE:
                out += [
                    commands.PlayMove(c, t, direction)
                    for t in range(state.players)
                    if len(stacks[t]) >= 2
                    for direction in DIRECTIONS
                ]
    return out
