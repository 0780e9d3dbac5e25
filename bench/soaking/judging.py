"""One table from its start to its verdicts: wait for the game to end, let every reader
catch up, then read the finished game's `/history` and `/verify` and judge every read."""

from __future__ import annotations

import asyncio
import json
import time
from typing import Any

from .browser import PageResult
from .checks import judge
from .client import GaveUp, Player
from .context import Soak
from .followers import GRACE_S
from .history import Replay
from .reads import BROWSER, Read, Verdict
from .tables import KINDS, Table

GAME_LIMIT_S = 600.0  # a game still running after this long counts as unfinished
DELIVERY_WAIT_S = 60.0  # for a finished game's last webhook messages


async def play_table(soak: Soak, kind: str) -> None:
    soak.games["started"] += 1
    try:
        table = await KINDS[kind](soak)
    except Exception as e:
        soak.games["not set up"] += 1
        soak.problem(f"a {kind} table could not be set up: {e!r}")
        return
    soak.in_play[table.game_id] = (kind, table.creator)
    try:
        await _until_over(soak, table)
        await _judge(soak, table)
    except Exception as e:
        soak.games["not judged"] += 1
        soak.problem(f"{table.game_id[:8]} ({kind}) could not be judged: {e!r}")
    finally:
        soak.in_play.pop(table.game_id, None)
        for task in table.tasks:
            task.cancel()


async def _until_over(soak: Soak, table: Table) -> None:
    until = time.monotonic() + GAME_LIMIT_S
    path = f"/v1/games/{table.game_id}"
    while time.monotonic() < until:
        summary = (await table.creator.get(path, patience_s=300))["summary"]
        if summary["status"] not in ("lobby", "playing"):
            break
        await asyncio.sleep(1.0)
    table.ending.set()
    if table.tasks:
        done, pending = await asyncio.wait(table.tasks, timeout=GRACE_S + 15)
        for task in done:
            if not task.cancelled() and task.exception() is not None:
                soak.problem(f"{table.game_id[:8]} ({table.kind}): a client failed: "
                             f"{task.exception()!r}")
        for task in pending:
            task.cancel()


async def _judge(soak: Soak, table: Table) -> None:
    creator, game = table.creator, table.game_id
    raw = (await creator.api.request("GET", f"/v1/games/{game}/history", creator.key)).content
    replay = Replay(game, raw)
    if not replay.over:
        soak.games["unfinished"] += 1
        soak.problem(f"{game[:8]} ({table.kind}) unfinished at v{replay.version}")
        return
    soak.games["finished"] += 1
    verified = await creator.get(f"/v1/games/{game}/verify")
    if verified["ok"]:
        soak.games["verified"] += 1
    else:
        soak.problem(f"{game[:8]} ({table.kind}) failed /verify: {verified['reason']}")
    reads = list(table.reads)
    for p in table.bots:
        reads.append(soak.hooks.bot_read(p.id, game))
    reads += await _webhook_reads(soak, table, replay)
    for read in reads:
        _verdict(soak, judge(read, replay))
    for person, page in table.pages:
        _verdict(soak, await _page_verdict(person.id, page, raw, replay))


def _verdict(soak: Soak, verdict: Verdict) -> None:
    soak.verdicts.append(verdict)
    soak.problems.extend(verdict.problems())


async def _webhook_reads(soak: Soak, table: Table, replay: Replay) -> list[Read]:
    """Each subscriber's messages of the game, once its `game_finished` came (or the wait is
    over); and what the service's delivery log still owes then. A message may come twice: a
    process killed after sending it, before noting it delivered, owes it again once its
    lease is over (`CYA_WEBHOOKS_LEASE_S`)."""
    reads: list[Read] = []
    until = time.monotonic() + DELIVERY_WAIT_S
    for p in table.subscribers:
        while time.monotonic() < until and not any(
                m.body["type"] == "game_finished"
                for m in soak.hooks.messages.get((p.id, table.game_id), ())):
            await asyncio.sleep(0.5)
        actor = (f"webhook:{p.id}" if p in table.bots else f"player:{p.id}")
        reads += soak.hooks.reads_of(p.id, table.game_id, replay.seated_from(p.id), actor)
        try:
            log, owed = await _owed(soak, p, table.game_id, until)
        except GaveUp as e:
            soak.problem(f"{table.game_id[:8]}: the delivery log could not be read: {e}")
            continue
        soak.games["messages owed"] += len(log)
        for d in owed:
            soak.games["messages undelivered"] += 1
            soak.problem(
                f"{table.game_id[:8]}: {d['type']} v{d['version']} owed: "
                f"{'delivered' if d['delivered_at'] else 'not delivered'} by the log, "
                f"{'received' if d['message_id'] in soak.hooks.seen_ids else 'not received'}")
    return reads


async def _owed(soak: Soak, player: Player, game_id: str, until: float
                ) -> tuple[list[dict[str, Any]], list[dict[str, Any]]]:
    """The game's messages in the player's delivery log, and those of them not delivered by
    the log or not received, once there are none or `until` has come."""
    while True:
        log = (await player.get(f"/v1/webhooks/subscriptions/{soak.subscriptions[player.id]}"
                                "/deliveries", params={"game_id": game_id, "limit": 200})
               )["deliveries"]
        owed = [d for d in log if d["delivered_at"] is None
                or d["message_id"] not in soak.hooks.seen_ids]
        if not owed or time.monotonic() >= until:
            return log, owed
        await asyncio.sleep(1.0)


async def _page_verdict(player_id: str, page: asyncio.Future[PageResult], raw: bytes,
                        replay: Replay) -> Verdict:
    from tests.web.steps import leaks

    read = Read(replay.game_id, BROWSER, "person", player_id, "browser")
    verdict = Verdict(read)
    try:
        result = await asyncio.wait_for(page, GRACE_S + 30)
    except Exception as e:
        verdict.incomplete.append(f"the page failed: {e!r}")
        return verdict
    history = [json.loads(line) for line in raw.splitlines() if line.strip()]
    verdict.leaked += leaks(result.snapshots, history, replay.seat_of(player_id))
    if not result.over or result.shown != replay.version:
        verdict.incomplete.append(f"the page showed v{result.shown} of "
                                  f"{replay.version}, over: {result.over}")
    read.notes.update({"moves": result.moves,
                       "streams opened": result.streams_opened})
    read.notes.update({f"error {e[:80]}": 1 for e in result.errors})
    return verdict
