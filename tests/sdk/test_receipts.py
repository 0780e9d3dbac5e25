"""The SDK keeps the receipts of the games it plays, and they check against the game's
history with the published keys alone (docs/receipts.md)."""

from __future__ import annotations

from pathlib import Path

from cya_client import Client
from cya_client.bot import Plan, Runner
from cya_client.bot.cli import load_choose
from cya_client.receipts import ReceiptBox, agrees, statement_of, verify_receipt

from .conftest import Server

EXAMPLES = Path(__file__).resolve().parents[2] / "clients" / "python" / "examples"


def test_given_a_runner_with_a_receipt_box_then_each_game_keeps_receipts_that_check(
        embedded: Server, tmp_path: Path):
    box = ReceiptBox(tmp_path / "receipts")
    with Client(embedded.url, receipts=box) as client:
        client.api_key = client.players.create("keeper").api_key
        runner = Runner(client, load_choose(EXAMPLES / "random_bot.py"),
                        Plan(new=True, players=3, bots=["random", "greedy"], games=2))
        results = runner.run()
        keys = client.audit.receipt_keys()
        histories = {r.game_id: client.audit.signed_history(r.game_id) for r in results}

    assert len(results) == 2
    for game_id, history in histories.items():
        kept = box.load(game_id)
        decisions = next(r.decisions for r in results if r.game_id == game_id)
        assert len(kept) == decisions  # one per command answer, each a version of its own
        assert all(verify_receipt(r, keys) for r in kept)
        assert all(agrees(r, history.lines, history.receipt_salt) for r in kept)
        assert statement_of(kept[-1], history.lines, history.receipt_salt, keys) is None
        assert history.receipt is not None and verify_receipt(history.receipt, keys)
