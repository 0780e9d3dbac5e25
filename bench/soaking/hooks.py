"""The soak's webhook receiver, one local HTTP server for every bot endpoint and event
subscription: it verifies every request's signature with the `standardwebhooks` package (as
docs/webhooks.md tells receivers to), answers a bot's decision with a random legal command,
and keeps every event message, first deliveries apart from repeats.

It runs in a thread of its own (uvicorn, its own event loop), as a receiver elsewhere would.
"""

from __future__ import annotations

import json
import random
import threading
import time
from collections import Counter, defaultdict
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from typing import Any

import uvicorn
from standardwebhooks.webhooks import Webhook, WebhookVerificationError

from .reads import BOT_HOOK, HOOK_EVENTS, HOOK_NEWS, Read
from .servers import free_port


@dataclass
class Message:
    id: str
    at: float
    body: dict[str, Any]


@dataclass
class Hooks:
    """Who the receiver answers for: each bot endpoint's and subscription's secret, and what
    came."""

    bots: dict[str, Webhook] = field(default_factory=dict)  # by player id
    subscriptions: dict[str, Webhook] = field(default_factory=dict)  # by the path's token
    owners: dict[str, str] = field(default_factory=dict)  # subscription token -> player id
    decisions: dict[tuple[str, str], Read] = field(default_factory=dict)  # (player, game)
    messages: dict[tuple[str, str], list[Message]] = field(
        default_factory=lambda: defaultdict(list))  # (player, game) -> first deliveries
    seen_ids: set[str] = field(default_factory=set)
    counts: Counter[str] = field(default_factory=Counter)
    rng: random.Random = field(default_factory=lambda: random.Random(7))
    lock: threading.Lock = field(default_factory=threading.Lock)

    def add_bot(self, player_id: str, secret: str) -> None:
        with self.lock:
            self.bots[player_id] = Webhook(secret)

    def add_subscription(self, token: str, player_id: str, secret: str) -> None:
        with self.lock:
            self.subscriptions[token] = Webhook(secret)
            self.owners[token] = player_id

    def bot_read(self, player_id: str, game_id: str) -> Read:
        with self.lock:
            key = (player_id, game_id)
            if key not in self.decisions:
                self.decisions[key] = Read(game_id, BOT_HOOK, "webhook bot", player_id,
                                           "views", to_end=False, finished=True,
                                           actor=f"webhook:{player_id}")
            return self.decisions[key]

    def decide(self, player_id: str, body: bytes, headers: dict[str, str]) -> tuple[int, bytes]:
        try:
            turn = self.bots[player_id].verify(body, headers)
        except (KeyError, WebhookVerificationError):
            self.counts["bad signatures"] += 1
            return 401, b""
        read = self.bot_read(player_id, turn["game_id"])
        read.event(turn["version"], turn["view"], turn["awaiting"])
        read.decided.add(turn["version"])
        self.counts["bot decisions"] += 1
        return 200, json.dumps(self.rng.choice(turn["legal_commands"])).encode()

    def take(self, token: str, body: bytes, headers: dict[str, str]) -> int:
        try:
            message = self.subscriptions[token].verify(body, headers)
        except (KeyError, WebhookVerificationError):
            self.counts["bad signatures"] += 1
            return 401
        ident = headers["webhook-id"]
        with self.lock:
            if ident in self.seen_ids:
                self.counts["repeats"] += 1
                return 204
            self.seen_ids.add(ident)
            key = (self.owners[token], message["game_id"])
            self.messages[key].append(Message(ident, time.time(), message))
        self.counts["messages"] += 1
        return 204

    def reads_of(self, player_id: str, game_id: str, seated_from: int, actor: str
                 ) -> list[Read]:
        """The subscription's messages of one game as two reads: its `events` (every event
        from the commit that seated the player on), and its news."""
        events = Read(game_id, HOOK_EVENTS, "subscriber", player_id, "events",
                      after=seated_from - 1)
        news = Read(game_id, HOOK_NEWS, "subscriber", player_id, "views", to_end=False,
                    actor=actor)
        with self.lock:
            messages = list(self.messages.get((player_id, game_id), ()))
        for m in messages:
            match m.body["type"]:
                case "events":
                    for item in m.body["events"]:
                        events.event(item["version"], item["event"])
                case "your_turn":
                    turn = m.body["turn"]
                    news.event(turn["version"], turn["view"], turn["awaiting"])
                    news.decided.add(turn["version"])
                case "game_finished":
                    news.finished = True
        return [events, news]


def _app(hooks: Hooks) -> Any:
    async def app(scope: dict[str, Any], receive: Any, send: Any) -> None:
        if scope["type"] != "http":
            return
        body = b""
        while True:
            message = await receive()
            body += message.get("body", b"")
            if not message.get("more_body"):
                break
        headers = {k.decode(): v.decode() for k, v in scope["headers"]}
        kind, _, who = scope["path"].strip("/").partition("/")
        out = b""
        if kind == "bot":
            status, out = hooks.decide(who, body, headers)
        else:
            status = hooks.take(who, body, headers)
        await send({"type": "http.response.start", "status": status,
                    "headers": [(b"content-type", b"application/json")]})
        await send({"type": "http.response.body", "body": out})
    return app


@contextmanager
def receiver(hooks: Hooks) -> Iterator[str]:
    port = free_port()
    server = uvicorn.Server(uvicorn.Config(_app(hooks), host="127.0.0.1", port=port,
                                           log_level="warning", lifespan="off"))
    thread = threading.Thread(target=server.run, daemon=True, name="webhook-receiver")
    thread.start()
    while not server.started:
        time.sleep(0.01)
    try:
        yield f"http://127.0.0.1:{port}"
    finally:
        server.should_exit = True
        thread.join(10)
