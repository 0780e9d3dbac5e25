"""Bot endpoints as a bot author writes them: a handler that takes the turn and answers a
command. One plays well, one is too slow, one fails, one answers nonsense, one checks
signatures."""

from __future__ import annotations

import asyncio
import json
import random
import time

from standardwebhooks.webhooks import Webhook, WebhookVerificationError

from .servers import Answer


def first_legal(body: bytes) -> bytes:
    turn = json.loads(body)
    return json.dumps(turn["legal_commands"][0]).encode()


async def plays_well(headers: dict[str, str], body: bytes) -> Answer:
    turn = json.loads(body)
    rng = random.Random(turn["version"])
    return 200, json.dumps(rng.choice(turn["legal_commands"])).encode()


def hangs(asked: list[float]):  # type: ignore[no-untyped-def]
    """Notes when each request arrives, then answers a minute later, past any deadline."""
    async def behaviour(headers: dict[str, str], body: bytes) -> Answer:
        asked.append(time.monotonic())
        await asyncio.sleep(60)
        return 200, first_legal(body)
    return behaviour


def slow(seconds: float):  # type: ignore[no-untyped-def]
    async def behaviour(headers: dict[str, str], body: bytes) -> Answer:
        await asyncio.sleep(seconds)
        return 200, first_legal(body)
    return behaviour


async def fails(headers: dict[str, str], body: bytes) -> Answer:
    return 500, b'{"error": "boom"}'


async def answers_nonsense(headers: dict[str, str], body: bytes) -> Answer:
    return 200, b'{"type": "take_everything"}'


class Verifying:
    """Verifies every request with the standardwebhooks package; 401 when it fails."""

    def __init__(self) -> None:
        self.secret = ""
        self.refused: list[str] = []

    async def __call__(self, headers: dict[str, str], body: bytes) -> Answer:
        try:
            turn = Webhook(self.secret).verify(body, headers)
        except WebhookVerificationError as exc:
            self.refused.append(str(exc))
            return 401, b'{"error": "bad signature"}'
        return 200, json.dumps(turn["legal_commands"][0]).encode()
