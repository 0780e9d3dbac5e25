"""The receipt keys and signer alone (service/receipts/), and the SDK's side of the same
bytes (cya_client.receipts): no server."""

from __future__ import annotations

import json
from concurrent.futures import ThreadPoolExecutor

import msgspec
import pytest
from cya_client.models import Receipt as ClientReceipt
from cya_client.receipts import ReceiptBox, seal_of, verify_receipt
from cya_client.receipts import receipt_message as client_message

from cya_rules.log.chain import event_hash
from service.receipts import KeyRing, KeyRingError, ReceiptSigner, load_key_ring, receipt_message
from service.receipts.keyring import new_key_ring_document, rotated

GAME = "3f2a9c1e6b7d4e0f8a5c2b1d9e8f7a6b"


def _client(receipt: object) -> ClientReceipt:
    return msgspec.convert(msgspec.to_builtins(receipt), ClientReceipt)


def test_given_a_receipt_then_the_sdk_signs_over_the_same_bytes_and_verifies_it():
    ring = KeyRing.from_document(new_key_ring_document())
    receipt = ReceiptSigner(ring).receipt(GAME, 12, "ab" * 32)

    keys = {k.key_id: k.public_key for k in ring.public_keys}
    assert client_message(_client(receipt)) == receipt_message(
        GAME, 12, receipt.salt_commitment, receipt.chain_seal, receipt.key_id)
    assert client_message(_client(receipt)).startswith(b"cya-receipt-v1\n")
    assert verify_receipt(_client(receipt), keys)


def test_given_many_readers_of_one_version_then_it_is_signed_once():
    signer = ReceiptSigner(KeyRing.from_document(new_key_ring_document()))

    receipts = {signer.receipt(GAME, 5, "cd" * 32) for _ in range(100)}

    assert len(receipts) == 1 and signer.signed == 1
    signer.receipt(GAME, 6, "ef" * 32)
    assert signer.signed == 2


def test_given_two_processes_with_one_ring_then_their_receipts_are_the_same_bytes():
    # Ed25519 is deterministic: whichever API process answers, the receipt is the same.
    document = new_key_ring_document()
    one, two = (ReceiptSigner(KeyRing.from_document(document)) for _ in range(2))

    assert one.receipt(GAME, 9, "12" * 32) == two.receipt(GAME, 9, "12" * 32)


def test_given_a_hidden_draw_then_its_receipt_does_not_give_the_card_away():
    # A reader who holds the chain hash before another seat's draw knows everything about the
    # draw but the card: with the bare hash after it, trying each card would find it. The seal
    # is keyed with the game's salt, which stays secret until the history opens.
    signer = ReceiptSigner(KeyRing.from_document(new_key_ring_document()))
    before = "77" * 32
    cards = [f"jewels#{n}".encode() for n in range(1, 9)]

    def after(card: bytes) -> str:
        return event_hash(before, GAME, 40, "card_drawn", 1, "1", None, None,
                          b'{"type":"card_drawn","seat":1,"card":"' + card + b'"}')

    receipt = signer.receipt(GAME, 40, after(cards[5]))

    assert receipt.chain_seal not in {after(c) for c in cards}
    assert seal_of(signer.salt(GAME).hex(), after(cards[5])) == receipt.chain_seal


def test_given_a_ring_then_exactly_one_key_signs_and_ids_come_from_the_keys():
    document = new_key_ring_document()
    twice = rotated(rotated(document))
    ring = KeyRing.from_document(twice)

    assert len(ring.public_keys) == 3 and ring.public_keys[0].key_id == ring.signing_key_id
    assert [k.retired_at is None for k in ring.public_keys] == [True, False, False]
    entries = json.loads(twice)["keys"]
    assert ["private_key" in k for k in entries] == [True, False, False]  # retired: public only
    for bad in (b"{}", b'{"seal_secret": "' + b"00" * 32 + b'", "keys": []}', b"not json"):
        with pytest.raises(KeyRingError):
            KeyRing.from_document(bad)


def test_given_processes_starting_together_then_they_all_read_the_one_ring_written(tmp_path):
    path = str(tmp_path / "keys" / "ring.json")

    with ThreadPoolExecutor(8) as pool:
        rings = list(pool.map(lambda _: load_key_ring(None, path), range(16)))

    assert len({r.signing_key_id for r in rings}) == 1
    assert load_key_ring(None, path).signing_key_id == rings[0].signing_key_id


def test_given_receipts_then_the_box_keeps_one_per_version_in_a_file_per_game(tmp_path):
    signer = ReceiptSigner(KeyRing.from_document(new_key_ring_document()))
    box = ReceiptBox(tmp_path / "receipts")
    for version in (1, 2, 2, 3, 1):
        box.keep(_client(signer.receipt(GAME, version, f"{version:064x}")))
    box.keep(_client(signer.receipt("other", 1, "00" * 32)))
    box.keep(None)

    assert [r.version for r in box.load(GAME)] == [1, 2, 3]
    assert [r.version for r in ReceiptBox(tmp_path / "receipts").load(GAME)] == [1, 2, 3]
    assert sorted(p.name for p in (tmp_path / "receipts").iterdir()) == [
        f"{GAME}.receipts.ndjson", "other.receipts.ndjson"]
    with pytest.raises(ValueError):
        box.path("../escape")
