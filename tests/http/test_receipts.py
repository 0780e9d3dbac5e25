"""Signed receipts over HTTP (docs/receipts.md): every command answer, event page, stream
item, turn and history carries one; each verifies with the published key alone and agrees with
the game's history once it is open; the bare chain hash is never sent while the game runs; a
history rewritten in the database is caught, and the statement about it checks with the public
key alone."""

from __future__ import annotations

import asyncio
import json
import random
from typing import Any

import httpx
import msgspec
import sqlalchemy as sa
from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PrivateKey
from cya_client.models import Receipt, ReceiptKeys
from cya_client.receipts import (
    agrees,
    chain_hashes,
    check_statement,
    history_lines,
    receipt_message,
    statement_of,
    verify_receipt,
)

from cya_rules.log.chain import event_hash
from service.events.engine import create_engine
from service.events.migrate import upgrade
from service.events.tables import events
from service.receipts.keyring import new_key_ring_document, rotated
from service.wiring.settings import Settings

from .api import Api, Player
from .conftest import serve, stop


def _receipt(raw: Any) -> Receipt:
    return msgspec.convert(raw, Receipt)


async def _sse(api: Api, who: Player, game_id: str) -> list[dict[str, Any]]:
    """Every item of a finished game's stream (it ends after `game_ended`)."""
    items = []
    async with api.http.stream("GET", f"/v1/games/{game_id}/events",
                               headers={**who.auth, "Accept": "text/event-stream"}) as r:
        async for line in r.aiter_lines():
            if line.startswith("data:"):
                items.append(json.loads(line[5:].strip()))
    return items


async def _played(api: Api) -> tuple[str, dict[int, Player], list[tuple[str, int, Any]],
                                     list[bytes]]:
    """A two-seat game played to its end, keeping every receipt each path answered with, as
    (path, the version the answer brought the reader to, receipt), and every body sent while
    the game ran."""
    alice, bob = await api.player("alice"), await api.player("bob")
    game_id = await api.game(alice, [bob], public=True)
    seats = await api.seats(game_id, [alice, bob])
    watcher = await api.player("watcher")
    rng, got, bodies = random.Random(3), [], []
    after = {0: 0, 1: 0}
    while True:
        view = (await api.get(alice, f"/v1/games/{game_id}/view")).json()
        if view["status"] == "finished":
            break
        who = seats[view["awaiting"][0]]
        turn = await api.get(who, f"/v1/games/{game_id}/turn", params={"timeout": 0})
        got.append(("turn", turn.json()["version"], turn.json()["receipt"]))
        legal = turn.json()["legal_commands"]
        command = rng.choice(legal)
        dry = await api.post(who, f"/v1/games/{game_id}/commands", command,
                             params={"dry_run": "true"})
        assert dry.status_code == 200 and dry.json()["receipt"] is None  # nothing stored
        answer = await api.post(who, f"/v1/games/{game_id}/commands", command)
        assert answer.status_code == 200, answer.text
        got.append(("command", answer.json()["version"], answer.json()["receipt"]))
        for seat, reader in seats.items():  # pages of a few events, as a poller reads them
            page = await api.get(reader, f"/v1/games/{game_id}/events",
                                 params={"after": after[seat], "limit": 3})
            got.append(("page", page.json()["next_after"], page.json()["receipt"]))
            after[seat] = page.json()["next_after"]
            bodies.append(page.content)
        spectator = await api.get(watcher, f"/v1/games/{game_id}/events",
                                  params={"after": max(after[0] - 2, 0)})
        got.append(("watcher page", spectator.json()["next_after"],
                    spectator.json()["receipt"]))
        bodies += [turn.content, answer.content, dry.content, spectator.content]
    while True:  # the rest of the log, then a page past its end
        page = await api.get(alice, f"/v1/games/{game_id}/events", params={"after": after[0]})
        if not page.json()["events"]:
            got.append(("empty page", after[0], page.json()["receipt"]))
            break
        got.append(("page", page.json()["next_after"], page.json()["receipt"]))
        after[0] = page.json()["next_after"]
    for item in await _sse(api, bob, game_id):
        got.append(("stream", item["version"], item["receipt"]))
    history = await api.get(alice, f"/v1/games/{game_id}/history")
    got.append(("history", len(history_lines(history.content)),
                json.loads(history.headers["Cya-Receipt"])))
    page = (await api.get(alice, f"/v1/games/{game_id}/history/page",
                          params={"limit": 5})).json()
    got.append(("history page", page["version"], page["receipt"]))
    assert page["receipt_salt"] == history.headers["Cya-Receipt-Salt"]
    return game_id, seats, got, bodies


async def test_given_a_game_then_every_path_carries_a_receipt_that_verifies_and_agrees(api):
    game_id, seats, got, _ = await _played(api)
    keys = msgspec.convert((await api.http.get("/v1/receipt-keys")).json(), ReceiptKeys)
    history = await api.get(seats[0], f"/v1/games/{game_id}/history")
    lines, salt = history_lines(history.content), history.headers["Cya-Receipt-Salt"]

    paths = {path for path, _, _ in got}
    assert paths == {"turn", "command", "page", "watcher page", "empty page", "stream",
                     "history", "history page"}
    for path, version, raw in got:
        assert raw is not None, path
        receipt = _receipt(raw)
        assert (receipt.game_id, receipt.version) == (game_id, version), path
        assert receipt.key_id == keys.signing_key_id
        assert verify_receipt(receipt, keys), path
        assert agrees(receipt, lines, salt), path
    streamed = [v for path, v, _ in got if path == "stream"]
    assert streamed == list(range(1, len(lines) + 1))  # one per item, for its version


async def test_given_a_running_game_then_no_chain_hash_or_salt_is_ever_sent(api):
    # The chain hash covers hidden cards: a reader holding the hashes around another seat's
    # draw could try every card until one matches. Receipts carry a seal of it instead.
    game_id, seats, _, bodies = await _played(api)
    history = await api.get(seats[0], f"/v1/games/{game_id}/history")
    hashes = chain_hashes(game_id, history_lines(history.content))
    salt = history.headers["Cya-Receipt-Salt"]

    sent = b"".join(bodies)
    assert [h for h in hashes if h.encode() in sent] == []
    assert salt.encode() not in sent


async def test_given_a_receipt_then_it_verifies_for_its_own_game_version_and_seal_only(api):
    _, _, got, _ = await _played(api)
    other_id, other_seats, _, _ = await _played(api)
    keys = msgspec.convert((await api.http.get("/v1/receipt-keys")).json(), ReceiptKeys)
    receipt = _receipt(next(raw for path, _, raw in got if path == "command"))
    other = await api.get(other_seats[0], f"/v1/games/{other_id}/history")

    changed = [msgspec.structs.replace(receipt, game_id=other_id),
               msgspec.structs.replace(receipt, version=receipt.version + 1),
               msgspec.structs.replace(receipt, chain_seal="0" * 64),
               msgspec.structs.replace(receipt, salt_commitment="1" * 64)]
    assert verify_receipt(receipt, keys)
    assert [verify_receipt(r, keys) for r in changed] == [False] * 4
    moved = msgspec.structs.replace(receipt, game_id=other_id)  # as if signed for the other
    try:  # its salt is this game's: the other history's salt is refused
        agrees(moved, history_lines(other.content), other.headers["Cya-Receipt-Salt"])
        raise AssertionError("another game's salt was taken for this receipt's")
    except ValueError:
        pass


async def test_given_a_log_rewritten_in_the_database_then_the_statement_proves_two_stories(
        api, live):
    # Someone with write access rewrites an event and every hash after it: the chain is
    # consistent with itself, `/verify` of the chain alone cannot tell. A receipt kept from
    # before can: the statement made from it checks with the public key alone.
    game_id, seats, got, _ = await _played(api)
    keys = msgspec.convert((await api.http.get("/v1/receipt-keys")).json(), ReceiptKeys)
    before = await api.get(seats[0], f"/v1/games/{game_id}/history")
    rows = [json.loads(line) for line in history_lines(before.content)]
    target = next(r for r in rows[4:] if r["visibility"] == "public"
                  and isinstance(r["data"].get("seat"), int))
    engine = create_engine(live.settings.database_url)
    try:
        async with engine.begin() as conn:
            prev = rows[target["version"] - 2]["hash"]
            for row in rows[target["version"] - 1:]:
                data = dict(row["data"])
                if row["version"] == target["version"]:
                    data["seat"] = 1 - data["seat"]  # the other seat did it
                text = json.dumps(data, separators=(",", ":"))
                prev = event_hash(prev, game_id, row["version"], row["type"],
                                  row["schema_version"], row["visibility"], row["command_id"],
                                  row["actor"], text.encode())
                await conn.execute(sa.update(events).where(
                    events.c.game_id == game_id, events.c.version == row["version"])
                    .values(data=text, hash=prev))
    finally:
        await engine.dispose()
    after = await api.get(seats[0], f"/v1/games/{game_id}/history")
    lines, salt = history_lines(after.content), after.headers["Cya-Receipt-Salt"]
    chain_hashes(game_id, lines)  # consistent with itself
    kept = next(_receipt(raw) for path, v, raw in got
                if path == "command" and v >= target["version"])
    end = msgspec.json.decode(after.headers["Cya-Receipt"], type=Receipt)

    statement = statement_of(kept, lines, salt, keys, history_receipt=end)

    assert statement is not None
    public_only = json.loads(json.dumps(statement))  # as a third party receives it
    assert check_statement(public_only) == "two_stories"
    for forged in ({**public_only, "history_chain_hash": chain_hashes(
                       game_id, history_lines(before.content))[kept.version - 1]},
                   {**public_only, "receipt_salt": "00" * 32},
                   {**public_only, "receipt": {**public_only["receipt"], "version": 1}}):
        try:
            check_statement(forged)
            raise AssertionError("a forged statement checked out")
        except ValueError:
            pass
    assert statement_of(kept, history_lines(before.content),
                        before.headers["Cya-Receipt-Salt"], keys) is None  # they agreed


# -- keys: kept across a restart, rotated, and receipts turned off --------------------------


async def _one_command(url: str) -> tuple[Receipt, ReceiptKeys]:
    async with httpx.AsyncClient(base_url=url, timeout=30) as client:
        api = Api(client)
        alice, bob = await api.player("alice"), await api.player("bob")
        game_id = await api.game(alice, [bob])
        seats = await api.seats(game_id, [alice, bob])
        answer = await api.step(game_id, seats, random.Random(1))
        assert answer is not None
        keys = msgspec.convert((await client.get("/v1/receipt-keys")).json(), ReceiptKeys)
        return msgspec.convert(answer["receipt"], Receipt), keys


async def test_given_the_embedded_default_then_a_restart_keeps_the_key_and_old_receipts_verify(
        tmp_path):
    url = f"sqlite+aiosqlite:///{tmp_path / 'cya.sqlite3'}"
    await asyncio.to_thread(upgrade, url)  # it runs a loop of its own
    first = serve(Settings(database_url=url))
    try:
        before, keys_before = await _one_command(first.url)
    finally:
        stop(first)
    kept = tmp_path / "cya.sqlite3-receipt-keys.json"
    assert kept.exists() and kept.stat().st_mode & 0o077 == 0  # its owner's alone

    second = serve(Settings(database_url=url))
    try:
        after, keys_after = await _one_command(second.url)
    finally:
        stop(second)

    assert keys_after == keys_before and after.key_id == before.key_id
    assert verify_receipt(before, keys_after)


async def test_given_a_rotated_key_then_old_receipts_verify_with_the_retired_key_and_new_ones_use_the_new(  # noqa: E501
        tmp_path):
    url = f"sqlite+aiosqlite:///{tmp_path / 'cya.sqlite3'}"
    await asyncio.to_thread(upgrade, url)  # it runs a loop of its own
    ring = new_key_ring_document()
    first = serve(Settings(database_url=url, receipt_keys=ring.decode()))
    try:
        old, _ = await _one_command(first.url)
    finally:
        stop(first)

    second = serve(Settings(database_url=url, receipt_keys=rotated(ring).decode()))
    try:
        new, keys = await _one_command(second.url)
    finally:
        stop(second)

    assert new.key_id == keys.signing_key_id != old.key_id
    retired = next(k for k in keys.keys if k.key_id == old.key_id)
    assert retired.retired_at is not None and keys.keys[0].retired_at is None
    assert verify_receipt(old, keys) and verify_receipt(new, keys)
    # A receipt made with a key of the right id but another secret is a forgery.
    forger = Ed25519PrivateKey.generate()
    forged = msgspec.structs.replace(new, signature=forger.sign(receipt_message(new)).hex())
    assert not verify_receipt(forged, keys)


async def test_given_receipts_turned_off_then_answers_carry_null_and_the_keys_stay_listed(
        tmp_path):
    url = f"sqlite+aiosqlite:///{tmp_path / 'cya.sqlite3'}"
    await asyncio.to_thread(upgrade, url)  # it runs a loop of its own
    live = serve(Settings(database_url=url, receipts=False))
    try:
        async with httpx.AsyncClient(base_url=live.url, timeout=30) as client:
            api = Api(client)
            alice, bob = await api.player("alice"), await api.player("bob")
            game_id = await api.game(alice, [bob])
            seats = await api.seats(game_id, [alice, bob])
            answer = await api.step(game_id, seats, random.Random(1))
            page = await api.get(alice, f"/v1/games/{game_id}/events")
            turn = await api.get(alice, f"/v1/games/{game_id}/turn", params={"timeout": 0})
            keys = await client.get("/v1/receipt-keys")
    finally:
        stop(live)

    assert answer is not None and answer["receipt"] is None
    assert page.json()["receipt"] is None and "receipt" not in turn.json()
    assert keys.status_code == 200 and keys.json()["keys"]
