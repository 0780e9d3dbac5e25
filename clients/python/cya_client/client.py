"""`Client` and `AsyncClient`: one session, one small client per area of the API.

    from cya_client import Client
    with Client("http://127.0.0.1:8000", api_key=KEY) as cya:
        turn = cya.play.turn(game_id)
        cya.play.send(game_id, turn.legal_commands[0])
"""

from __future__ import annotations

from types import TracebackType
from typing import Any

import httpx

from cya_client.areas.audit import AsyncAudit, Audit
from cya_client.areas.follow import AsyncFollow, Follow
from cya_client.areas.lobby import AsyncGames, Games
from cya_client.areas.matchmaking import (
    AsyncChallenges,
    AsyncMatchmaking,
    Challenges,
    Matchmaking,
)
from cya_client.areas.ops import AsyncOps, Ops
from cya_client.areas.play import AsyncPlay, Play
from cya_client.areas.players import AsyncPlayers, Players
from cya_client.areas.ratings import AsyncRatings, Ratings
from cya_client.areas.rulesets import AsyncRulesets, Rulesets
from cya_client.areas.tournaments import AsyncTournaments, Tournaments
from cya_client.areas.webhooks import AsyncWebhooks, Webhooks
from cya_client.receipts import ReceiptBox
from cya_client.transport import DEFAULT_RETRY, AsyncSession, Call, RetryPolicy, Session

DEFAULT_URL = "http://127.0.0.1:8000"

# Every operation of the contract, by its operationId, and the method that calls it (a test
# holds this to the contract).
OPERATIONS = {
    "createPlayer": "players.create", "getMe": "players.me", "streamMyEvents": "players.news",
    "listGames": "games.list", "createGame": "games.create", "getGame": "games.get",
    "joinGame": "games.join", "addBot": "games.add_bot", "startGame": "games.start",
    "leaveGame": "games.leave", "resignGame": "games.resign",
    "setClientSeed": "games.set_client_seed",
    "rematchGame": "games.rematch", "declineInvitation": "games.decline",
    "sendReaction": "play.react",
    "getTurn": "play.turn", "postCommand": "play.send", "getView": "play.view",
    "getLegalCommands": "play.legal_commands",
    "listEvents": "follow.events", "getHistory": "audit.history",
    "listReceiptKeys": "audit.receipt_keys",
    "getHistoryPage": "audit.history_page", "getStateAt": "audit.state",
    "verifyGame": "audit.verify", "listRulesets": "rulesets.catalogue",
    "getLeaderboard": "ratings.leaderboard", "getPlayer": "ratings.player",
    "createTournament": "tournaments.create", "listTournaments": "tournaments.list",
    "getTournament": "tournaments.get", "getTournamentStandings": "tournaments.standings",
    "verifyTournament": "tournaments.verify",
    "registerBotEndpoint": "webhooks.register_bot", "getBotEndpoint": "webhooks.bot",
    "deleteBotEndpoint": "webhooks.delete_bot", "rotateBotEndpointSecret": "webhooks.rotate_bot",
    "listBotAttempts": "webhooks.bot_attempts",
    "createWebhookSubscription": "webhooks.subscribe",
    "listWebhookSubscriptions": "webhooks.subscriptions",
    "getWebhookSubscription": "webhooks.subscription",
    "deleteWebhookSubscription": "webhooks.unsubscribe",
    "rotateWebhookSubscriptionSecret": "webhooks.rotate",
    "enableWebhookSubscription": "webhooks.enable",
    "listWebhookDeliveries": "webhooks.deliveries",
    "redeliverWebhookMessage": "webhooks.redeliver",
    "createChallenge": "challenges.create", "listOpenChallenges": "challenges.list",
    "getChallenge": "challenges.get", "acceptChallenge": "challenges.accept",
    "declineChallenge": "challenges.decline", "cancelChallenge": "challenges.cancel",
    "seekGame": "matchmaking.seek", "getSeek": "matchmaking.get",
    "cancelSeek": "matchmaking.cancel",
    "getHealth": "ops.health", "getReadiness": "ops.ready", "getMetrics": "ops.metrics",
}


class Client:
    """A sync client. `api_key` may be set later (`client.api_key = ...`)."""

    def __init__(self, base_url: str = DEFAULT_URL, api_key: str | None = None, *,
                 retry: RetryPolicy = DEFAULT_RETRY, timeout: float = 30.0,
                 transport: httpx.BaseTransport | None = None,
                 receipts: ReceiptBox | None = None) -> None:
        """`receipts`: where to keep the receipts the answers carry (docs/receipts.md)."""
        self.session = Session(base_url, api_key, retry=retry, timeout=timeout,
                               transport=transport, receipts=receipts)
        self.players = Players(self.session)
        self.games = Games(self.session)
        self.play = Play(self.session)
        self.follow = Follow(self.session)
        self.audit = Audit(self.session)
        self.rulesets = Rulesets(self.session)
        self.ratings = Ratings(self.session)
        self.tournaments = Tournaments(self.session)
        self.challenges = Challenges(self.session)
        self.matchmaking = Matchmaking(self.session)
        self.webhooks = Webhooks(self.session)
        self.ops = Ops(self.session)

    @property
    def api_key(self) -> str | None:
        return self.session.api_key

    @api_key.setter
    def api_key(self, key: str | None) -> None:
        self.session.api_key = key

    def request(self, method: str, path: str, *, body: Any = None,
                content: bytes | None = None, idempotent: bool = False) -> bytes:
        """Any route, raw: the answer's bytes, or the problem raised."""
        return self.session.run(Call(method, path, bytes, body=content or body,
                                     idempotent=idempotent, ok=frozenset(range(200, 300))))

    def close(self) -> None:
        self.session.close()

    def __enter__(self) -> Client:
        return self

    def __exit__(self, kind: type[BaseException] | None, error: BaseException | None,
                 trace: TracebackType | None) -> None:
        self.close()


class AsyncClient:
    """An async client, the same areas with `async` methods and async generators."""

    def __init__(self, base_url: str = DEFAULT_URL, api_key: str | None = None, *,
                 retry: RetryPolicy = DEFAULT_RETRY, timeout: float = 30.0,
                 transport: httpx.AsyncBaseTransport | None = None,
                 receipts: ReceiptBox | None = None) -> None:
        self.session = AsyncSession(base_url, api_key, retry=retry, timeout=timeout,
                                    transport=transport, receipts=receipts)
        self.players = AsyncPlayers(self.session)
        self.games = AsyncGames(self.session)
        self.play = AsyncPlay(self.session)
        self.follow = AsyncFollow(self.session)
        self.audit = AsyncAudit(self.session)
        self.rulesets = AsyncRulesets(self.session)
        self.ratings = AsyncRatings(self.session)
        self.tournaments = AsyncTournaments(self.session)
        self.challenges = AsyncChallenges(self.session)
        self.matchmaking = AsyncMatchmaking(self.session)
        self.webhooks = AsyncWebhooks(self.session)
        self.ops = AsyncOps(self.session)

    @property
    def api_key(self) -> str | None:
        return self.session.api_key

    @api_key.setter
    def api_key(self, key: str | None) -> None:
        self.session.api_key = key

    async def request(self, method: str, path: str, *, body: Any = None,
                      content: bytes | None = None, idempotent: bool = False) -> bytes:
        return await self.session.run(Call(method, path, bytes, body=content or body,
                                           idempotent=idempotent,
                                           ok=frozenset(range(200, 300))))

    async def aclose(self) -> None:
        await self.session.aclose()

    async def __aenter__(self) -> AsyncClient:
        return self

    async def __aexit__(self, kind: type[BaseException] | None, error: BaseException | None,
                        trace: TracebackType | None) -> None:
        await self.aclose()
