"""Setup of a round, end of turn and end of round (RULES §5, §9, §10)."""

from __future__ import annotations

from .cards import EDITIONS, Kind, all_cards, card_ids, card_table
from .client_seeds import MASTER_SEED, client_seeds_problem
from .commands import StartGame
from .decision import Decision
from .draft import pushback_position
from .errors import RuleCode, RuleViolation
from .events import (
    CardsDrawn,
    GameEnded,
    GameStarted,
    PileCard,
    RoundEnded,
    RoundStarted,
    TurnStarted,
)
from .ruleset import LaterRoundsStart, RuleSet
from .scoring import game_winners, round_winner, stack_value
from .shuffle import SeedStream, commitment, round_seed, shuffled
from .state import GameState

DRAFT_PILES = 3
DRAFT_PILE_SIZE = 10


def round_deck(ruleset: RuleSet) -> tuple[list[str], list[str]]:
    """(the round's deck in canonical order, the edition's cards left out of it) — §5.1."""
    es = EDITIONS[ruleset.edition]
    out: set[str] = set()
    adv = ruleset.advanced
    for spec in es.advanced:  # §17 A40: Swap/Move iff action_cards, Penny Jar iff penny_jar
        if spec.kind is Kind.ACTION and not adv.action_cards:
            out.update(card_ids(spec))
        if spec.kind is Kind.WILD and not adv.penny_jar:
            out.update(card_ids(spec))
    # §17 A46: advanced cards in play stay in the 2-player deck.
    if ruleset.players == 2:
        by_type = {spec.type: spec for spec in es.classic}
        for card_type, count in es.two_player_removed:  # the highest-numbered copies
            out.update(card_ids(by_type[card_type])[-count:])
    cards = all_cards(ruleset.edition)
    return [c for c in cards if c not in out], [c for c in cards if c in out]


def start_game(d: Decision, cmd: StartGame, actor: int | None) -> None:
    if actor is not None:
        raise RuleViolation(RuleCode.SERVER_ONLY, "Only the server starts a game.")
    if d.state.master_seed:
        raise RuleViolation(RuleCode.ALREADY_STARTED, "The game has already started.")
    if len(cmd.seed) != MASTER_SEED:
        raise RuleViolation(RuleCode.INVALID_SEED, "The master seed must be 32 bytes.")
    if cmd.client_seeds is not None:
        if not d.state.ruleset.since(4):
            raise RuleViolation(RuleCode.INVALID_SEED, "Client seeds came with rules version 4.")
        problem = client_seeds_problem(cmd.client_seeds, d.state.players)
        if problem:
            raise RuleViolation(RuleCode.INVALID_SEED, problem[0].upper() + problem[1:] + ".")
    d.emit(GameStarted(d.state.ruleset, cmd.seed, cmd.client_seeds))
    start_round(d, 1)


def _first_player(s: GameState, round_no: int, seed: bytes) -> int:
    rs, n = s.ruleset, s.players
    if round_no == 1:
        if isinstance(rs.first_player, int):
            return rs.first_player
        return SeedStream(seed, "first-player").uniform(n)  # no dealer is modelled (§17 A42)
    rotated = (s.first_player + 1) % n  # §17 A8
    if rs.later_rounds_start == LaterRoundsStart.POOREST:
        order = [(rotated + i) % n for i in range(n)]
        return min(order, key=lambda seat: s.totals[seat])  # ties broken by rotation order
    return rotated


def start_round(d: Decision, round_no: int) -> None:
    """Every round reshuffles the whole deck with a new seed (§17 A52)."""
    d.emit(deal(d.state, round_no, round_seed(d.state.master_seed, round_no)))


def deal(s: GameState, round_no: int, seed: bytes) -> RoundStarted:
    """The deal a round seed gives, in the canonical order of §5.3 / §17 A51. The audit
    checks every logged deal against this, from the revealed seed."""
    rs = s.ruleset
    table = card_table(rs.edition)
    deck, removed = round_deck(rs)
    order = shuffled(deck, seed)
    first = _first_player(s, round_no, seed)
    piles: list[list[str]] = []
    pushed: list[PileCard] = []
    pos = 0
    if rs.uses_draft_piles:
        for i in range(DRAFT_PILES):
            pile = order[pos : pos + DRAFT_PILE_SIZE]
            pos += DRAFT_PILE_SIZE
            # §14.5: a revealed action card goes back into the middle of its pile.
            while table[pile[0]].kind is Kind.ACTION:
                card, rest = pile[0], pile[1:]
                rest.insert(pushback_position(seed, len(pushed), len(rest)), card)
                pile = rest
                pushed.append(PileCard(i, card))
            piles.append(pile)
    n, hand_size = s.players, rs.hand_size
    hands: list[list[str]] = [[] for _ in range(n)]
    for _ in range(hand_size):
        for j in range(n):
            hands[(first + j) % n].append(order[pos])
            pos += 1
    # §17 A6, A44: the discard flip happens in draft games too, and stays up whatever it shows.
    discard = order[pos]
    draw_pile = tuple(order[pos + 1 :])
    return RoundStarted(
        round_no=round_no,
        seed_sha256=commitment(seed),
        first_player=first,
        hand_size=hand_size,
        removed=tuple(removed),
        discard_pile=(discard,),
        pushed_back=tuple(pushed),
        draft_tops=tuple(p[0] for p in piles),
        draft_counts=tuple(len(p) for p in piles),
        hand_counts=tuple(len(h) for h in hands),
        draw_count=len(draw_pile),
        hands=tuple(tuple(h) for h in hands),
        draft_piles=tuple(tuple(p) for p in piles),
        draw_pile=draw_pile,
    )


def end_of_turn(d: Decision) -> None:
    """§9 replenish, then §10 round end or the next turn.

    Drawing is automatic: the active seat first, then every seat below H clockwise — which
    includes defenders and out-of-turn draft challengers (§17 A15, A29). A draw pile that runs
    out mid-way leaves later seats short (§17 A16)."""
    s = d.state
    n, hand_size, active = s.players, s.ruleset.hand_size, s.active
    for j in range(n if s.draw_pile else 0):
        seat = (active + j) % n
        missing = hand_size - len(s.hands[seat])
        if missing > 0 and s.draw_pile:
            drawn = s.draw_pile[:missing]
            d.emit(CardsDrawn(seat, len(drawn), drawn))
            s = d.state
    hands = s.hands
    for j in range(1, n + 1):  # seats with empty hands are skipped (§10, §17 A17)
        seat = (active + j) % n
        if hands[seat]:
            d.emit(TurnStarted(seat))
            return
    end_round(d)


def end_round(d: Decision) -> None:
    s = d.state
    scores = tuple(stack_value(d.table, stack) for stack in s.stacks)
    totals = tuple(t + sc for t, sc in zip(s.totals, scores, strict=True))
    d.emit(RoundEnded(s.round_no, scores, totals, round_winner(scores), s.round_seed))
    s = d.state
    winners = game_winners(s.ruleset, s.totals, s.round_wins, len(s.round_scores))
    if winners is not None:
        d.emit(GameEnded(winners, s.totals))
    else:
        start_round(d, s.round_no + 1)
