"""A dry run (`preview`) shows the seat nothing its cards and the table do not already tell it
(RULES §15): the same command previewed in two games that differ only in cards hidden from the
seat shows the same events (as a dry run shows them: redacted for a spectator), and says the
same about stopping short."""

from __future__ import annotations

import random
from collections import Counter

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from msgspec.structs import replace

from cya_rules import (
    Event,
    GameState,
    RuleSet,
    StartGame,
    execute,
    legal_commands,
    new_game,
    preset,
    preview,
    redact,
)
from cya_rules.cards import Edition
from cya_rules.commands import SeatCommand
from cya_rules.events import RoundEnded

from .test_properties import choose, rulesets


def hidden_dealt_again(state: GameState, seat: int, rng: random.Random) -> GameState:
    """The game as `seat` sees it, with every card hidden from it dealt again at random: the
    other hands, the draw pile and the face-down cards of the draft piles keep their sizes,
    not their cards."""
    face_down = [pile[1:] if up else pile
                 for pile, up in zip(state.draft_piles, state.draft_face_up, strict=True)]
    others = [i for i in range(state.players) if i != seat]
    cards = [c for i in others for c in state.hands[i]] + list(state.draw_pile)
    cards += [c for part in face_down for c in part]
    rng.shuffle(cards)

    def take(n: int) -> tuple[str, ...]:
        taken = tuple(cards[:n])
        del cards[:n]
        return taken

    hands = tuple(hand if i == seat else take(len(hand)) for i, hand in enumerate(state.hands))
    draw_pile = take(len(state.draw_pile))
    piles = tuple(pile[:1] + take(len(part)) if up else take(len(part))
                  for pile, up, part in zip(state.draft_piles, state.draft_face_up, face_down,
                                            strict=True))
    return replace(state, hands=hands, draw_pile=draw_pile, draft_piles=piles)


def as_shown(events: list[Event]) -> list[Event]:
    return [redact(e, None) for e in events]


def check_previews(state: GameState, seat: int, commands: list[SeatCommand],
                   rng: random.Random) -> Counter[str]:
    """Checks each command's preview at this step. Counts the previews that withheld
    something: a full dry run (`execute`, as dry runs were) would have shown the two games
    differently ("leaks"), or would have shown a round's end ("round ends")."""
    twin = hidden_dealt_again(state, seat, rng)
    withheld: Counter[str] = Counter()
    for command in commands:
        shown, partial = preview(state, command, seat)
        events, _ = execute(state, command, seat)
        assert events[: len(shown)] == shown, "a preview is the start of what happens"
        assert partial or shown == events, "a preview that does not stop short is complete"
        twin_shown, twin_partial = preview(twin, command, seat)
        assert (as_shown(twin_shown), twin_partial) == (as_shown(shown), partial), command
        withheld["leaks"] += as_shown(execute(twin, command, seat)[0]) != as_shown(events)
        # Its seed unlocks the round's shuffle, face-down pile cards included: no preview
        # shows a round's end.
        assert not any(isinstance(e, RoundEnded) for e in shown)
        withheld["round ends"] += any(isinstance(e, RoundEnded) for e in events)
    return withheld


def play_previewing(ruleset: RuleSet, seed: bytes, rng_seed: int,
                    per_step: int = 4) -> Counter[str]:
    """A random game to its end, previewing up to `per_step` legal commands at every step."""
    rng = random.Random(rng_seed)
    _, state = execute(new_game(ruleset), StartGame(seed), None)
    withheld: Counter[str] = Counter()
    while state.status != "finished":
        seat = state.pending_seats()[0]
        legal = legal_commands(state, seat)
        withheld += check_previews(state, seat, rng.sample(legal, min(per_step, len(legal))),
                                   rng)
        _, state = execute(state, choose(legal, rng, aggressive=rng.random() < 0.5), seat)
    return withheld


@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(ruleset=rulesets(), seed=st.binary(min_size=32, max_size=32), rng_seed=st.integers())
def test_a_preview_shows_the_same_whatever_the_hidden_cards(
    ruleset: RuleSet, seed: bytes, rng_seed: int
) -> None:
    play_previewing(ruleset, seed, rng_seed)


def test_a_full_dry_run_would_show_hidden_cards_and_the_preview_does_not() -> None:
    # The twin games are different enough to matter: shown in full, as dry runs once were,
    # the same commands tell them apart (a face-down pile card, another seat's forced
    # answer). Draft games with challenges are where that happens.
    withheld: Counter[str] = Counter()
    for n, (players, edition) in enumerate(
            [(2, Edition.EN_2022), (3, Edition.DE_2024), (2, Edition.DE_2024)]):
        withheld += play_previewing(preset("advanced_all", players, edition), bytes([n]) * 32, n)
    assert withheld["leaks"] > 0 and withheld["round ends"] > 0
