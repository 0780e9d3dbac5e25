"""domain.replay replays the rules: a forged log whose hash chain was rebuilt to match, and
whose shuffles still check out, is caught at the first event the rules do not lead to
(a rewritten score, turn, pile card or set; an event cut out or added)."""

from __future__ import annotations

import msgspec
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from msgspec.structs import replace

from cya_rules import EndMode, execute, legal_commands, new_game, preset
from cya_rules.bots import play_game, random_policy
from cya_rules.cards import card_table
from cya_rules.events import Event, GameEnded, RoundEnded, TurnStarted
from cya_rules.evolve import evolve
from cya_rules.replay import audit

from .test_properties import rulesets


def _game(ruleset, rng_seed: int) -> list[Event]:
    events, state = play_game(ruleset, rng_seed.to_bytes(32, "big"),
                              [random_policy] * ruleset.players, rng_seed=rng_seed)
    assert state.status == "finished"
    return events


def _forged(value: object, cards: list[str], k: int) -> object:
    """Another value of the same kind, or None when this field is not one to forge."""
    if isinstance(value, bool):
        return not value
    if isinstance(value, int):
        return value + 1 + k % 2
    if isinstance(value, str) and value in cards:
        return cards[(cards.index(value) + 1 + k) % len(cards)]
    if isinstance(value, tuple) and value:
        forged = _forged(value[k % len(value)], cards, k)
        if forged is None:
            return None
        return (*value[:k % len(value)], forged, *value[k % len(value) + 1:])
    return None


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(ruleset=rulesets(), rng_seed=st.integers(0, 2**16), where=st.floats(0, 1),
       k=st.integers(0, 50))
def test_given_one_forged_field_then_the_audit_names_that_event_or_a_later_one(
        ruleset, rng_seed, where, k):
    log = _game(ruleset, rng_seed)
    assert audit(log).finding is None  # honest games pass
    cards = sorted(card_table(ruleset.edition))
    # The first event after `where` of the log that has a field to forge.
    for i in range(1 + int(where * (len(log) - 2)), len(log)):
        event = log[i]
        fields = [(f, _forged(getattr(event, f), cards, k)) for f in event.__struct_fields__]
        fields = [(f, v) for f, v in fields if v is not None]
        if fields:
            name, value = fields[k % len(fields)]
            break
    else:
        return
    try:
        log[i] = replace(event, **{name: value})
    except (msgspec.ValidationError, TypeError, ValueError):
        return

    finding = audit(log).finding

    if finding is None:  # only a forged choice the rules allow may pass: another legal move
        assert _a_legal_choice(log, i), (
            f"{type(event).__name__}.{name} forged at {i} went unnoticed")
        return
    assert finding.index >= i


def _a_legal_choice(log: list[Event], i: int) -> bool:
    """Whether `log[i]` is what some legal command of its seat starts with, in the game as the
    log before it leaves it. Such a forgery is a game the rules allow (a Move of another
    stack that changes nothing, say: hypothesis found one), which no audit can tell from the
    true one: the players' choices are theirs."""
    state = new_game(log[0].ruleset)
    for event in log[:i]:
        state = evolve(state, event)
    seat = getattr(log[i], "seat", None)
    if seat is None:
        return False
    return any(execute(state, command, seat)[0][:1] == [log[i]]
               for command in legal_commands(state, seat))


RULESET = preset("advanced_all", 3, end_mode=EndMode.HIGHEST_AFTER_3_ROUNDS)


def test_given_rewritten_results_then_the_audit_names_them():
    log = _game(RULESET, 7)
    ended = max(i for i, e in enumerate(log) if isinstance(e, RoundEnded))
    forged = list(log)
    forged[ended] = replace(log[ended], scores=tuple(reversed(log[ended].scores)))
    assert audit(forged).finding.index == ended
    forged = list(log)
    forged[-1] = replace(log[-1], winners=(9,))
    assert isinstance(log[-1], GameEnded) and audit(forged).finding.index == len(log) - 1


def test_given_a_turn_given_to_another_seat_then_the_audit_names_it():
    log = _game(RULESET, 8)
    i = next(i for i, e in enumerate(log) if isinstance(e, TurnStarted))
    log[i] = replace(log[i], seat=(log[i].seat + 1) % 3)
    assert audit(log).finding.index == i


def test_given_events_cut_out_or_added_then_the_audit_names_where():
    log = _game(RULESET, 9)
    i = next(i for i, e in enumerate(log) if isinstance(e, TurnStarted))
    assert audit(log[:i] + log[i + 1:]).finding.index == i  # the turn never started
    assert audit([*log, log[-1]]).finding.index == len(log)  # nothing comes after the end
    assert "after the game ended" in audit([*log, log[-1]]).finding.reason


def test_given_the_log_cut_inside_a_commands_events_then_the_audit_says_so():
    log = _game(RULESET, 10)
    # The final command's events end with the game's end: cut the last one off.
    finding = audit(log[:-1]).finding
    assert finding is not None and finding.index == len(log) - 2
    assert "partway through the events of one command" in finding.reason


def test_given_an_event_the_rules_cannot_apply_then_the_reason_says_what_it_means():
    log = _game(RULESET, 11)
    i = next(i for i, e in enumerate(log) if getattr(e, "card", None) is not None)
    log[i] = replace(log[i], card="no_such_card#1")
    finding = audit(log).finding
    assert finding is not None and finding.index <= i
    assert finding.reason.startswith("the event contradicts the game before it")
    assert "Error(" not in finding.reason  # not a Python repr
