"""The ismcts level's choices are pinned: published ladder results hold for the level only while
a speed-up leaves every choice, and every random number it draws, as it was. The pins were
recorded on commit 175b1aa, before the rollouts were made faster (issue 41); a change that
moves them changes the level's strength, and its ladder figures must be measured again. The
level stops a search once its answer is out of reach (`stop_when_decided`): its choices are
pinned as they are; the whole search's random numbers are pinned with the stop turned off."""

from __future__ import annotations

import hashlib
import random

from cya_rules import EndMode, legal_commands, player_view, preset
from cya_rules.bots import LEVELS, Ismcts
from cya_rules.cards import Edition

from .positions import position

RULESETS = [
    preset("advanced_all", 2, end_mode=EndMode.QUICK),
    preset("classic", 4, end_mode=EndMode.QUICK),
    preset("advanced_all", 3, Edition.DE_2024),
    preset("advanced_all", 5),
]

PINNED = [
    "FormSet(source='hand', hand_cards=('piano#4', 'piano#9'))",
    "FormSet(source='hand', hand_cards=('piggy_bank#5', 'piggy_bank#3'))",
    "FormSet(source='discard', hand_cards=('home#5',))",
    "PlayMove(card='move#2', target_seat=3, direction='bottom_to_top')",
    "FormSet(source='hand', hand_cards=('toy_train#4', 'toy_train#5'))",
    "Challenge(target_seat=0, position='top', cards=('sport_plane#4',))",
    "EndTurn()",
    "PlayMove(card='move#1', target_seat=2, direction='top_to_bottom')",
    "Discard(card='scooter#1')",
    "Discard(card='piano#9')",
    "FormSet(source='hand', hand_cards=('piggy_bank#7', 'piggy_bank#2'))",
    "Respond(cards=('scooter#7',))",
    "Respond(cards=('sport_plane#6',))",
    "FormSet(source='hand', hand_cards=('cash_under_mattress#7', 'cash_under_mattress#4'))",
    "Challenge(target_seat=0, position='top', cards=('speed_boat#4',))",
    "Discard(card='cash_under_mattress#6')",
    "Respond(cards=('sport_plane#4',))",
    "FormSet(source='hand', hand_cards=('baseball_cards#4', 'baseball_cards#1'))",
    "Discard(card='sport_plane#4')",
    "Discard(card='scooter#1')",
]
# sha256 of the rng states after every search, in order
PINNED_RNG = "46a1d7d33bbc61aa6f7dd39809fd0a1080efc7bbf6b9de166e674a901f096b9d"


def choices(stop_when_decided: bool) -> tuple[list[str], str]:
    """The level's command (repr) at 20 positions with a choice, and a digest of the rng states
    the searches leave. Without the CPU cap, which a slow machine could hit: the same search."""
    level = LEVELS["ismcts"].policy
    assert isinstance(level, Ismcts) and level.stop_when_decided
    bot = Ismcts(None, level.iterations, level.prior, level.rollout_steps, cpu_cap_s=None,
                 stop_when_decided=stop_when_decided)
    chosen: list[str] = []
    digest = hashlib.sha256()
    seed = 0
    while len(chosen) < 20:
        state, seat = position(RULESETS[seed % len(RULESETS)], seed, 7 + 11 * seed % 90)
        seed += 1
        legal = legal_commands(state, seat)
        if len(legal) < 2:
            continue
        rng = random.Random(seed)
        chosen.append(repr(bot.search(player_view(state, seat), legal, rng).command))
        digest.update(repr(rng.getstate()).encode())
    return chosen, digest.hexdigest()


def test_given_pinned_positions_when_the_default_ismcts_searches_then_it_chooses_as_pinned(
) -> None:
    chosen, _ = choices(stop_when_decided=True)

    assert chosen == PINNED


def test_given_pinned_positions_when_the_whole_search_runs_then_it_draws_as_pinned() -> None:
    chosen, rng_digest = choices(stop_when_decided=False)

    assert chosen == PINNED
    assert rng_digest == PINNED_RNG
