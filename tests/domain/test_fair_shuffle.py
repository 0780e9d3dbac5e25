"""docs/fair-shuffle.md: the worked example, checked against an implementation of the page."""

from __future__ import annotations

import hashlib
import hmac
import re
import struct
from pathlib import Path

import pytest

from cya_rules import RuleSet, StartGame, execute, new_game, preset
from cya_rules.cards import Edition, all_cards
from cya_rules.events import RoundStarted
from cya_rules.rounds import round_deck
from cya_rules.shuffle import SeedStream, commitment, round_seed, shuffled

SEED = bytes(range(32))
FIRST_TEN = [
    "jewels#3", "piggy_bank#5", "toy_train#7", "piggy_bank#3", "piano#3",
    "toy_train#2", "silver#8", "jewels#7", "toy_train#5", "comic_books#5",
]  # fmt: skip


def spec_words(seed: bytes, label: str):
    """The stream exactly as the page defines it, written without the engine's code."""
    k = 0
    while True:
        block = hmac.new(seed, label.encode() + k.to_bytes(8, "big"), hashlib.sha256).digest()
        yield from struct.unpack(">8I", block)
        k += 1


def spec_shuffle(cards: list[str], seed: bytes) -> list[str]:
    words = spec_words(seed, "deck")
    deck = list(cards)
    for i in range(len(deck) - 1, 0, -1):
        n = i + 1
        limit = 2**32 - (2**32 % n)
        w = next(words)
        while w >= limit:
            w = next(words)
        j = w % n
        deck[i], deck[j] = deck[j], deck[i]
    return deck


def test_given_the_example_seed_when_the_2022_deck_is_shuffled_then_the_first_ten_match_the_page():
    deck, _ = round_deck(RuleSet(players=4))
    assert len(deck) == 104 and deck[0] == "comic_books#1" and deck[-1] == "gold#4"
    assert shuffled(deck, SEED)[:10] == FIRST_TEN
    assert spec_shuffle(deck, SEED)[:10] == FIRST_TEN
    assert spec_shuffle(deck, SEED) == shuffled(deck, SEED)


def test_given_the_example_seed_then_commitment_words_and_round_seed_match_the_page():
    assert commitment(SEED) == "630dcd2966c4336691125448bbb25b4ff412a49c732db2c8abc1b8581bd710dd"
    assert list(zip(range(3), spec_words(SEED, "deck"), strict=False)) == [
        (0, 3127628578), (1, 3759272300), (2, 3582514929),
    ]  # fmt: skip
    stream = SeedStream(SEED, "deck")
    assert [stream.uniform(104), stream.uniform(103), stream.uniform(102)] == [74, 33, 39]
    assert SeedStream(SEED, "first-player").uniform(4) == 1
    assert round_seed(bytes(32), 1).hex() == (
        "678319671ae4eea8ddee01339dfb8e9b91049325d44b0f063031dea7cd77491c"
    )


def test_given_a_started_game_then_the_deal_follows_the_documented_order():
    """§2.3 of the page: hands one card at a time from the first player, then the discard."""
    ruleset = RuleSet(players=4)
    master = bytes(32)
    events, _ = execute(new_game(ruleset), StartGame(master), None)
    started = events[1]
    assert isinstance(started, RoundStarted)
    seed = round_seed(master, 1)
    assert started.seed_sha256 == hashlib.sha256(seed).hexdigest()
    order = spec_shuffle(round_deck(ruleset)[0], seed)
    first, n, h = started.first_player, 4, started.hand_size
    for k in range(n * h):
        seat = (first + k) % n
        assert order[k] in started.hands[seat]
    assert started.discard_pile == (order[n * h],)
    assert started.draw_pile == tuple(order[n * h + 1 :])


def test_uniform_rejects_words_that_would_bias_the_result():
    # For n = 3, limit = 2**32 - 1: the single word 0xFFFFFFFF must be skipped.
    class Fixed(SeedStream):
        def __init__(self, words: list[int]) -> None:
            self._words = iter(words)

    assert Fixed([0xFFFFFFFF, 7]).uniform(3) == 1


# From here on the page's own text is the only source: its deck lists, its seed, its examples.
PAGE = (Path(__file__).parents[2] / "docs" / "fair-shuffle.md").read_text()


def page_deck(edition: str, advanced: bool) -> list[str]:
    """The canonical order as §2 of the page lists it: `type copies` lines, in order."""
    block = re.search(rf"```deck {edition}\n(.*?)```", PAGE, re.S)
    assert block, f"no deck list for {edition}"
    cards, part = [], "classic"
    for line in block.group(1).split("\n"):
        line = line.strip()
        if line == "advanced:":
            part = "advanced"
        elif line and (part == "classic" or advanced):
            card_type, copies = line.split()
            cards += [f"{card_type}#{n}" for n in range(1, int(copies) + 1)]
    return cards


def page_two_player_removed(edition: str) -> set[str]:
    """§2: "a 2-player game of en_2022 or de_2024 removes every `cabin` (en_2022) or `home`
    (de_2024), `silver#7`, `silver#8` and `gold#4"."""
    rule = PAGE[PAGE.index("Cards the game leaves out"):]
    rule = rule[: rule.index("round_started.removed")]
    every = {"en_2022": "cabin", "de_2024": "home"}[edition]
    assert "removes every" in rule and f"`{every}` (`{edition}`)" in rule
    named = set(re.findall(r"`([a-z_]+#\d+)`", rule))
    return named | {c for c in page_deck(edition, True) if c.startswith(f"{every}#")}


def page_seed() -> bytes:
    found = re.search(r"Seed \(hex\): `([0-9a-f]{64})`", PAGE)
    assert found
    return bytes.fromhex(found.group(1))


@pytest.mark.parametrize("edition", list(Edition))
def test_given_the_page_then_its_deck_lists_are_the_engines_card_order(edition: Edition) -> None:
    assert page_deck(edition.value, advanced=True) == list(all_cards(edition))


def test_given_only_the_page_then_its_example_deals_are_recomputed() -> None:
    """A reader with nothing but docs/fair-shuffle.md gets the page's example decks."""
    seed = page_seed()
    rows = re.findall(r"^  \| (\d+) \| `([a-z_]+#\d+)` \|$", PAGE, re.M)
    assert [int(p) for p, _ in rows] == list(range(10))
    en_2022 = page_deck("en_2022", advanced=False)
    assert len(en_2022) == 104
    assert spec_shuffle(en_2022, seed)[:10] == [card for _, card in rows]

    others = PAGE[PAGE.index("The same seed on the 110 cards"):]
    others = others[: others.index("\n- ")]
    classic_top, de_top = (re.findall(r"`([a-z_]+#\d+)`", part)
                           for part in others.split("; on the 99 cards"))
    classic = page_deck("classic_2011", advanced=False)
    assert len(classic) == 110
    assert spec_shuffle(classic, seed)[:5] == classic_top
    removed = page_two_player_removed("de_2024")
    de_2p = [c for c in page_deck("de_2024", advanced=True) if c not in removed]
    assert len(de_2p) == 99 and de_top[:2] == [de_2p[0], de_2p[-1]]  # "from … to …"
    assert spec_shuffle(de_2p, seed)[:5] == de_top[2:]


def test_given_the_page_then_the_engine_deals_the_decks_it_describes() -> None:
    """The engine's round deck is the page's list less the cards it says are left out."""
    for edition in (Edition.EN_2022, Edition.DE_2024):
        deck, removed = round_deck(preset("advanced_all", 2, edition))
        assert set(removed) == page_two_player_removed(edition.value)
        assert deck == [c for c in page_deck(edition.value, True) if c not in set(removed)]
