"""domain.replay on forged logs whose hash chain would be rebuilt to match: the shuffle
checks alone must catch a forged draw, deal or seed (RULES §15)."""

from __future__ import annotations

from msgspec.structs import replace

from cya_rules import EndMode, preset
from cya_rules.bots import play_game, random_policy
from cya_rules.events import CardsDrawn, GameStarted, RoundEnded, RoundStarted
from cya_rules.replay import audit
from cya_rules.views import redact

RULESET = preset("advanced_all", 3, end_mode=EndMode.HIGHEST_AFTER_3_ROUNDS)


def _log():
    events, state = play_game(RULESET, bytes(range(32)), [random_policy] * 3, rng_seed=7)
    assert state.status == "finished"
    return events


def _first(log, cls, after=0):
    return next(i for i, e in enumerate(log) if isinstance(e, cls) and i > after)


def test_an_honest_game_passes_every_check():
    result = audit(_log())
    assert result.finding is None
    assert result.rounds_verified >= 3 and result.draws_verified > 0


def test_a_draw_of_cards_not_on_top_of_the_pile_is_named():
    log = _log()
    i = _first(log, CardsDrawn, after=_first(log, RoundStarted))
    drawn = log[i]
    log[i] = replace(drawn, cards=tuple(reversed(drawn.cards)) if drawn.count > 1
                     else ("gold#1",))
    assert audit(log).finding.index == i


def test_a_stacked_deal_is_named_at_its_round_start():
    log = _log()
    i = _first(log, RoundStarted)
    dealt = log[i]
    pile = dealt.draw_pile
    log[i] = replace(dealt, draw_pile=(pile[1], pile[0], *pile[2:]))
    finding = audit(log).finding
    assert finding.index == i and "draw_pile" in finding.reason


def test_without_the_master_seed_the_deal_is_checked_when_the_seed_is_revealed():
    log = _log()
    log[0] = redact(log[0], None)  # an auditor outside the server never has the master seed
    assert isinstance(log[0], GameStarted) and log[0].seed is None
    assert audit(log).finding is None
    i = _first(log, RoundStarted)
    log[i] = replace(log[i], first_player=(log[i].first_player + 1) % 3)
    assert audit(log).finding.index == i


def test_a_revealed_seed_that_breaks_its_commitment_is_named():
    log = _log()
    i = _first(log, RoundEnded)
    log[i] = replace(log[i], seed=bytes(32))
    finding = audit(log).finding
    assert finding.index == i and "commitment" in finding.reason
