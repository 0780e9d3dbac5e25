"""docs/fair-shuffle.md §7, every seat adds to the randomness: the page's example recomputed
from its own text by an implementation written from the page, the engine held to it, and the
derivation's properties."""

from __future__ import annotations

import hashlib
import hmac
import random
import re
from pathlib import Path

import pytest
from hypothesis import given
from hypothesis import strategies as st

from cya_rules import RuleSet, RuleViolation, StartGame, execute, new_game, preset
from cya_rules.client_seeds import (
    MAX_CLIENT_SEED,
    ClientSeed,
    bot_seed,
    deal_key,
    seats_message,
)
from cya_rules.events import GameStarted, RoundStarted
from cya_rules.legal import legal_commands
from cya_rules.replay import audit
from cya_rules.shuffle import round_seed
from tests.domain.test_fair_shuffle import page_deck, spec_shuffle

PAGE = (Path(__file__).parents[2] / "docs" / "fair-shuffle.md").read_text()
SECTION = PAGE[PAGE.index("## 7. Every seat adds to the randomness"):]


def block(name: str) -> list[list[str]]:
    found = re.search(rf"```{name}\n(.*?)```", SECTION, re.S)
    assert found, f"no {name} block on the page"
    return [line.split() for line in found.group(1).strip().split("\n")]


def _hmac(key: bytes, message: bytes) -> bytes:
    return hmac.new(key, message, hashlib.sha256).digest()


def spec_seats(seeds: list[bytes]) -> bytes:
    """§7.5 as written: "seats:" || uint8(n) || for each seat uint8(len) || seed."""
    out = b"seats:" + bytes([len(seeds)])
    for seed in seeds:
        out += bytes([len(seed)]) + seed
    return out


def page_example() -> dict[str, object]:
    lines = block("client-seeds")
    master = bytes.fromhex(lines[0][1])
    seats: list[tuple[str, bytes]] = []
    out: dict[str, object] = {"master": master, "rounds": {}}
    for words in lines[1:]:
        if words[0] == "seat":
            seats.append((words[2], bytes.fromhex(words[3]) if len(words) > 3 else b""))
        elif words[0] == "round":
            out["rounds"][int(words[1])] = bytes.fromhex(words[2])  # type: ignore[index]
        else:
            out[words[0]] = bytes.fromhex(words[1])
    out["seats_list"] = seats
    return out


def test_given_only_the_page_then_its_client_seed_example_is_recomputed() -> None:
    ex = page_example()
    master = ex["master"]
    assert isinstance(master, bytes)
    seats = ex["seats_list"]
    assert [source for source, _ in seats] == ["player", "none", "bot"]  # type: ignore[attr-defined]
    # A bot's seed: HMAC-SHA-256(M, "bot:" || decimal(seat)); none: the empty value.
    assert seats[2][1] == _hmac(master, b"bot:2")  # type: ignore[index]
    assert seats[1][1] == b""  # type: ignore[index]
    message = spec_seats([seed for _, seed in seats])  # type: ignore[attr-defined]
    assert message == ex["seats"]
    key = _hmac(master, message)
    assert key == ex["key"]
    for n, seed in ex["rounds"].items():  # type: ignore[attr-defined]
        assert _hmac(key, f"round:{n}".encode()) == seed
    # "the 104 classic cards of en_2022 … shuffle to … on top"
    para = SECTION[SECTION.index("With round 1's seed"):]
    top = re.findall(r"`([a-z_]+#\d+)`", para[: para.index("on top")])
    assert len(top) == 5
    deck = page_deck("en_2022", advanced=False)
    assert spec_shuffle(deck, ex["rounds"][1])[:5] == top  # type: ignore[index]


def test_given_the_page_then_its_length_prefix_example_holds() -> None:
    rows = block("client-seeds-prefix")
    master = page_example()["master"]
    assert isinstance(master, bytes)
    keys = set()
    for a, b, message, key in rows:
        seeds = [a.encode(), b.encode()]
        assert spec_seats(seeds).hex() == message
        assert _hmac(master, bytes.fromhex(message)).hex() == key
        assert deal_key(master, [ClientSeed(i, s, "player") for i, s in enumerate(seeds)]
                        ).hex() == key
        keys.add(key)
    assert len(rows) == 2 and len(keys) == 2  # ("ab", "c") != ("a", "bc")


def test_given_the_page_example_then_the_engine_derives_the_same_seeds() -> None:
    ex = page_example()
    master = ex["master"]
    assert isinstance(master, bytes)
    seeds = tuple(ClientSeed(i, seed, source)  # type: ignore[arg-type]
                  for i, (source, seed) in enumerate(ex["seats_list"]))  # type: ignore[arg-type]
    assert bot_seed(master, 2) == seeds[2].seed
    assert seats_message([c.seed for c in seeds]) == ex["seats"]
    assert deal_key(master, seeds) == ex["key"]
    ruleset = RuleSet(players=3).for_new_game()
    events, state = execute(new_game(ruleset), StartGame(master, seeds), None)
    started, dealt = events[0], events[1]
    assert isinstance(started, GameStarted) and started.client_seeds == seeds
    assert isinstance(dealt, RoundStarted)
    assert dealt.seed_sha256 == hashlib.sha256(ex["rounds"][1]).hexdigest()  # type: ignore[index]
    assert state.round_seed == ex["rounds"][1]  # type: ignore[index]


# The derivation's properties.

seed_bytes = st.binary(max_size=MAX_CLIENT_SEED)
seat_seeds = st.lists(seed_bytes, min_size=2, max_size=6)
masters = st.binary(min_size=32, max_size=32)


def as_seeds(seeds: list[bytes]) -> tuple[ClientSeed, ...]:
    return tuple(ClientSeed(i, s, "player" if s else "none") for i, s in enumerate(seeds))


@given(masters, seat_seeds, seat_seeds)
def test_different_client_seeds_give_different_deal_keys(master, a, b) -> None:
    """The encoding is injective, so two different contributions (however their bytes run
    together) never share a key but by an HMAC collision."""
    if a != b:
        assert seats_message(a) != seats_message(b)
        assert deal_key(master, as_seeds(a)) != deal_key(master, as_seeds(b))


@given(masters, seat_seeds, st.data())
def test_any_one_seat_changing_its_seed_changes_every_round_seed(master, seeds, data) -> None:
    seat = data.draw(st.integers(0, len(seeds) - 1))
    other = data.draw(seed_bytes.filter(lambda s: s != seeds[seat]))
    changed = [*seeds[:seat], other, *seeds[seat + 1:]]
    k1, k2 = deal_key(master, as_seeds(seeds)), deal_key(master, as_seeds(changed))
    assert all(round_seed(k1, n) != round_seed(k2, n) for n in (1, 2, 3))


@given(masters, seat_seeds)
def test_seat_order_matters_and_no_client_seeds_keep_the_master(master, seeds) -> None:
    assert deal_key(master, None) == master  # versions 1–3, a tournament's table
    if len(set(seeds)) > 1:
        swapped = [seeds[-1], *seeds[1:-1], seeds[0]]
        if swapped != seeds:
            assert deal_key(master, as_seeds(seeds)) != deal_key(master, as_seeds(swapped))


@pytest.mark.parametrize(("seeds", "why"), [
    ((ClientSeed(0, b"x", "player"),), "every seat"),
    ((ClientSeed(1, b"x", "player"), ClientSeed(0, b"", "none")), "in order"),
    ((ClientSeed(0, b"x" * 65, "player"), ClientSeed(1, b"", "none")), "64 bytes"),
    ((ClientSeed(0, b"", "player"), ClientSeed(1, b"", "none")), "source is none"),
])
def test_given_bad_client_seeds_then_the_start_is_refused(seeds, why) -> None:
    with pytest.raises(RuleViolation, match=why):
        execute(new_game(preset("classic", 2).for_new_game()), StartGame(bytes(32), seeds),
                None)


def test_given_an_older_rules_version_then_client_seeds_are_refused() -> None:
    seeds = as_seeds([b"a", b"b"])
    with pytest.raises(RuleViolation, match="version 4"):
        execute(new_game(RuleSet(players=2, rules_version=3)), StartGame(bytes(32), seeds), None)


def played(ruleset: RuleSet, start: StartGame, seed: int = 7) -> list:
    """A whole game of random legal commands: its full log."""
    rng = random.Random(seed)
    events, state = execute(new_game(ruleset), start, None)
    log = list(events)
    while state.status != "finished":
        seat = state.pending_seats()[0]
        events, state = execute(state, rng.choice(legal_commands(state, seat)), seat)
        log += events
    return log


def test_given_an_old_version_game_then_it_replays_and_verifies_unchanged() -> None:
    """Version 3: the round seeds are the master seed's alone (§4), as they always were."""
    master = bytes(range(32))
    log = played(RuleSet(players=3, end_mode="quick", rules_version=3), StartGame(master))
    dealt = log[1]
    assert isinstance(log[0], GameStarted) and log[0].client_seeds is None
    assert isinstance(dealt, RoundStarted)
    assert dealt.seed_sha256 == hashlib.sha256(round_seed(master, 1)).hexdigest()
    result = audit(log)
    assert result.finding is None and result.rounds_verified >= 1


def test_given_a_version_4_game_then_its_rounds_derive_from_the_client_seeds_too() -> None:
    master = bytes(range(32))
    seeds = as_seeds([b"alice", b"", bot_seed(master, 2)])
    ruleset = RuleSet(players=3, end_mode="quick").for_new_game()
    log = played(ruleset, StartGame(master, seeds))
    dealt = log[1]
    assert isinstance(dealt, RoundStarted)
    key = deal_key(master, seeds)
    assert dealt.seed_sha256 == hashlib.sha256(round_seed(key, 1)).hexdigest()
    assert dealt.seed_sha256 != hashlib.sha256(round_seed(master, 1)).hexdigest()
    result = audit(log)
    assert result.finding is None and result.rounds_verified >= 1


def test_given_a_client_seed_changed_in_game_started_then_the_audit_names_the_deal() -> None:
    master = bytes(range(32))
    seeds = as_seeds([b"alice", b"bob"])
    log = played(RuleSet(players=2, end_mode="quick").for_new_game(), StartGame(master, seeds))
    started = log[0]
    assert isinstance(started, GameStarted)
    forged = GameStarted(started.ruleset, started.seed, as_seeds([b"alicE", b"bob"]))
    result = audit([forged, *log[1:]])
    assert result.finding is not None and result.finding.index == 1
    assert "deal differs" in result.finding.reason
