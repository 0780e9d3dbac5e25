"""What every table of one soak run shares: the API processes (clients spread over them in
turn), the record of calls, the webhook receiver, the browser, and the verdicts so far."""

from __future__ import annotations

import itertools
import random
import uuid
from collections import Counter
from dataclasses import dataclass, field

from .browser import Browser
from .calls import Calls
from .client import Endpoint, Player
from .hooks import Hooks
from .reads import Verdict

EVENT_TYPES = ["seated", "game_started", "your_turn", "game_finished", "events"]


@dataclass
class Soak:
    endpoints: list[Endpoint]
    calls: Calls
    hooks: Hooks
    hook_url: str
    browser: Browser | None
    think_s: float
    rng: random.Random = field(default_factory=lambda: random.Random(36))
    verdicts: list[Verdict] = field(default_factory=list)
    games: Counter[str] = field(default_factory=Counter)
    problems: list[str] = field(default_factory=list)
    subscriptions: dict[str, str] = field(default_factory=dict)  # player id -> subscription id
    in_play: dict[str, tuple[str, Player]] = field(default_factory=dict)  # kind, creator
    _turn: itertools.count[int] = field(default_factory=itertools.count)

    def api(self) -> Endpoint:
        """The next API process, in turn: no balancer, the clients spread themselves."""
        return self.endpoints[next(self._turn) % len(self.endpoints)]

    async def player(self, role: str) -> Player:
        return await Player.create(self.api(), f"{role}-{uuid.uuid4().hex[:6]}")

    async def subscribe(self, player: Player) -> None:
        token = uuid.uuid4().hex
        made = await player.post("/v1/webhooks/subscriptions", {
            "url": f"{self.hook_url}/sub/{token}", "event_types": EVENT_TYPES})
        self.hooks.add_subscription(token, player.id, made["secret"])
        self.subscriptions[player.id] = made["subscription_id"]

    def problem(self, text: str) -> None:
        self.problems.append(text)
