"""Clients that play, through the Python SDK as a bot author would:

- `turn_bot`: the SDK's turn loop, `GET /turn` (a long poll until the decision is the seat's)
  and `POST /commands`, on the async client;
- `run_cya_bot`: the `cya-bot` runner (`cya_client.bot.Runner`), which plays from the
  player's news stream, on a thread of its own as `cya-bot play --join GAME` would.

Both record what they read (every turn, every piece of news) and which turns they acted on.
"""

from __future__ import annotations

import asyncio
import logging
import random
import threading
import time
from typing import Any

import msgspec
from cya_client import (
    AsyncClient,
    Client,
    NotYourDecision,
    RetryPolicy,
    RuleViolation,
    StaleVersion,
)
from cya_client.bot import Plan, Runner
from cya_client.bot.runner import GameRecord
from cya_client.models import News, NewsGameFinished, NewsYourTurn, Turn

from .calls import AsyncTimedTransport, Calls, TimedTransport
from .reads import Read, Wait

# Through a restart of the database or of its API process a client waits: about 90 s of
# retries before an SDK call gives up.
log = logging.getLogger("soak.players")
PATIENT = RetryPolicy(attempts=50, backoff=0.25, max_backoff=2.0)
TURN_WAIT_S = 20.0


def plain(value: Any) -> Any:
    """An SDK model as the JSON it was decoded from."""
    return msgspec.json.decode(msgspec.json.encode(value))


async def turn_bot(url: str, key: str, calls: Calls, read: Read, rng: random.Random,
                   think_s: float) -> None:
    async with AsyncClient(url, key, retry=PATIENT,
                           transport=AsyncTimedTransport(calls, retries=0)) as cya:
        while True:
            started = time.time()
            turn = await cya.play.turn(read.game_id, timeout=TURN_WAIT_S)
            read.waits.append(Wait(started, time.time(), None, turn.version, turn.status,
                                   turn.seat in turn.awaiting))
            read.event(turn.version, plain(turn.view), list(turn.awaiting))
            if turn.status not in ("lobby", "playing"):
                read.finished = True
                return
            if not turn.legal_commands:
                continue
            read.decided.add(turn.version)
            await asyncio.sleep(rng.uniform(0, think_s))
            try:
                await cya.play.send(read.game_id, rng.choice(turn.legal_commands),
                                    if_match=turn.version)
            except (StaleVersion, NotYourDecision):
                read.notes["stale command"] += 1
            except RuleViolation:
                read.notes["refused command"] += 1


class RecordingRunner(Runner):
    """The SDK's runner, noting the news of its game and the turns it acts on."""

    def __init__(self, client: Client, plan: Plan, read: Read, rng: random.Random,
                 think_s: float) -> None:
        super().__init__(client, lambda view, legal: rng.choice(legal), plan)
        self.read, self.rng, self.think_s = read, rng, think_s

    def handle(self, item: News) -> None:
        log.info("news %s %s v%s", type(item).__name__, getattr(item, "game_id", "?"),
                 getattr(item, "version", "?"))
        if getattr(item, "game_id", None) == self.read.game_id:
            if isinstance(item, NewsYourTurn):
                self.read.event(item.turn.version, plain(item.turn.view),
                                list(item.turn.awaiting))
            elif isinstance(item, NewsGameFinished):
                self.read.finished = True
        super().handle(item)

    def decide(self, record: GameRecord, turn: Turn) -> None:
        if turn.version > record.acted_at and turn.legal_commands and turn.view is not None:
            self.read.decided.add(turn.version)
            time.sleep(self.rng.uniform(0, self.think_s))
        super().decide(record, turn)


def run_cya_bot(url: str, key: str, calls: Calls, read: Read, rng: random.Random,
                think_s: float, done: asyncio.Future[None]) -> threading.Thread:
    """The runner on a thread of its own; `done` resolves when it returns (or fails)."""
    loop = asyncio.get_running_loop()

    def play() -> None:
        error: BaseException | None = None
        try:
            with Client(url, key, retry=PATIENT,
                        transport=TimedTransport(calls, retries=0)) as client:
                RecordingRunner(client, Plan(join=read.game_id), read, rng, think_s).run()
        except BaseException as e:  # reported with the game, not lost in the thread
            error = e
        loop.call_soon_threadsafe(_resolve, done, error)

    thread = threading.Thread(target=play, daemon=True, name=f"cya-bot-{read.game_id[:6]}")
    thread.start()
    return thread


def _resolve(done: asyncio.Future[None], error: BaseException | None) -> None:
    if done.done():
        return
    if error is None:
        done.set_result(None)
    else:
        done.set_exception(error)
