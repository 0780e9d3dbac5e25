"""The SDK and the `cya-bot` runner send a client seed from the CSPRNG by default, so their
seats add to the deal's randomness (docs/fair-shuffle.md §7); GET /verify names them."""

from __future__ import annotations

from pathlib import Path

from cya_client.bot import Plan, Runner
from cya_client.bot.cli import load_choose
from cya_client.models import NewGame, RuleSet

from .conftest import Server, player

EXAMPLES = Path(__file__).resolve().parents[2] / "clients" / "python" / "examples"


def test_given_the_sdk_then_creating_and_joining_send_a_fresh_seed_each(embedded: Server):
    with player(embedded.url, "ann") as ann, player(embedded.url, "bob") as bob:
        game = ann.games.create(NewGame(ruleset=RuleSet(players=3, end_mode="quick")))
        bob.games.join(game.game_id)
        ann.games.add_bot(game.game_id)
        ann.games.start(game.game_id)

        seeds = ann.audit.verify(game.game_id).seeds

    assert seeds is not None and seeds.commitment_verified and seeds.client_seeds
    by_source = [(s.source, len(bytes.fromhex(s.seed))) for s in seeds.client_seeds]
    assert by_source == [("player", 32), ("player", 32), ("bot", 32)]
    assert len({s.seed for s in seeds.client_seeds}) == 3


def test_given_a_seed_of_ones_own_or_none_then_the_sdk_sends_just_that(embedded: Server):
    with player(embedded.url, "ann") as ann, player(embedded.url, "bob") as bob:
        game = ann.games.create(NewGame(ruleset=RuleSet(players=2), client_seed=None))
        bob.games.join(game.game_id, client_seed=b"bob")
        bob.games.set_client_seed(game.game_id, b"bob, again")
        ann.games.start(game.game_id)

        seeds = bob.audit.verify(game.game_id).seeds

    assert seeds is not None and seeds.client_seeds
    assert [(s.source, s.seed) for s in seeds.client_seeds] == [
        ("none", ""), ("player", b"bob, again".hex())]


def test_given_the_bot_runner_then_its_seat_sends_a_seed_by_default(embedded: Server):
    with player(embedded.url, "runner") as client:
        runner = Runner(client, load_choose(EXAMPLES / "random_bot.py"),
                        Plan(new=True, players=2, bots=["random"], games=1))
        results = runner.run()
        seeds = client.audit.verify(results[0].game_id).seeds

    assert seeds is not None and seeds.client_seeds
    assert sorted(s.source for s in seeds.client_seeds) == ["bot", "player"]
    assert all(len(bytes.fromhex(s.seed)) == 32 for s in seeds.client_seeds)
