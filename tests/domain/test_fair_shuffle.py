"""docs/fair-shuffle.md: the worked example, checked against an implementation of the page."""

from __future__ import annotations

import hashlib
import hmac
import struct

from service.domain import RuleSet, StartGame, execute, new_game
from service.domain.events import RoundStarted
from service.domain.rounds import round_deck
from service.domain.shuffle import SeedStream, commitment, round_seed, shuffled

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
