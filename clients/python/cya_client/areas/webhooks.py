"""Webhooks: your bot endpoint (every seat you hold is played by POSTing its decisions to it)
and event webhook subscriptions with their delivery log. Verify what the server sends with
the `standardwebhooks` package and the secret these calls show once."""

from __future__ import annotations

from collections.abc import Sequence

from cya_client.areas.base import Area, AsyncArea
from cya_client.models import (
    BotAttempts,
    BotEndpointIn,
    BotEndpointOut,
    BotEndpointSecret,
    DeliveryLog,
    Redelivery,
    SubscriptionIn,
    SubscriptionList,
    SubscriptionOut,
    SubscriptionSecret,
)
from cya_client.transport import Call

_GONE = frozenset({204})
_SUBS = "/v1/webhooks/subscriptions"


def register_bot(url: str) -> Call[BotEndpointSecret]:
    return Call("POST", "/v1/webhooks/bot", BotEndpointSecret, body=BotEndpointIn(url=url))


def bot() -> Call[BotEndpointOut]:
    return Call("GET", "/v1/webhooks/bot", BotEndpointOut)


def delete_bot() -> Call[bytes]:
    return Call("DELETE", "/v1/webhooks/bot", bytes, ok=_GONE)


def rotate_bot() -> Call[BotEndpointSecret]:
    return Call("POST", "/v1/webhooks/bot/rotate", BotEndpointSecret, ok=frozenset({200}))


def bot_attempts(game_id: str | None, before: int | None, limit: int) -> Call[BotAttempts]:
    params = {"game_id": game_id, "before": before, "limit": limit}
    return Call("GET", "/v1/webhooks/bot/attempts", BotAttempts,
                params={k: v for k, v in params.items() if v is not None})


def subscribe(url: str, event_types: Sequence[str]) -> Call[SubscriptionSecret]:
    return Call("POST", _SUBS, SubscriptionSecret,
                body=SubscriptionIn(url=url, event_types=list(event_types)))  # type: ignore[arg-type]


def subscriptions() -> Call[SubscriptionList]:
    return Call("GET", _SUBS, SubscriptionList)


def subscription(subscription_id: str) -> Call[SubscriptionOut]:
    return Call("GET", f"{_SUBS}/{subscription_id}", SubscriptionOut)


def unsubscribe(subscription_id: str) -> Call[bytes]:
    return Call("DELETE", f"{_SUBS}/{subscription_id}", bytes, ok=_GONE)


def rotate(subscription_id: str) -> Call[SubscriptionSecret]:
    return Call("POST", f"{_SUBS}/{subscription_id}/rotate", SubscriptionSecret)


def enable(subscription_id: str) -> Call[SubscriptionOut]:
    return Call("POST", f"{_SUBS}/{subscription_id}/enable", SubscriptionOut)


def deliveries(subscription_id: str, game_id: str | None, limit: int) -> Call[DeliveryLog]:
    params = {"game_id": game_id, "limit": limit}
    return Call("GET", f"{_SUBS}/{subscription_id}/deliveries", DeliveryLog,
                params={k: v for k, v in params.items() if v is not None})


def redeliver(subscription_id: str, message_id: str) -> Call[Redelivery]:
    return Call("POST", f"{_SUBS}/{subscription_id}/deliveries/{message_id}/redeliver",
                Redelivery, ok=frozenset({202}))


class Webhooks(Area):
    def register_bot(self, url: str) -> BotEndpointSecret:
        return self._s.run(register_bot(url))

    def bot(self) -> BotEndpointOut:
        return self._s.run(bot())

    def delete_bot(self) -> None:
        self._s.run(delete_bot())

    def rotate_bot(self) -> BotEndpointSecret:
        return self._s.run(rotate_bot())

    def bot_attempts(self, game_id: str | None = None, before: int | None = None,
                     limit: int = 50) -> BotAttempts:
        return self._s.run(bot_attempts(game_id, before, limit))

    def subscribe(self, url: str, event_types: Sequence[str]) -> SubscriptionSecret:
        return self._s.run(subscribe(url, event_types))

    def subscriptions(self) -> SubscriptionList:
        return self._s.run(subscriptions())

    def subscription(self, subscription_id: str) -> SubscriptionOut:
        return self._s.run(subscription(subscription_id))

    def unsubscribe(self, subscription_id: str) -> None:
        self._s.run(unsubscribe(subscription_id))

    def rotate(self, subscription_id: str) -> SubscriptionSecret:
        return self._s.run(rotate(subscription_id))

    def enable(self, subscription_id: str) -> SubscriptionOut:
        return self._s.run(enable(subscription_id))

    def deliveries(self, subscription_id: str, game_id: str | None = None,
                   limit: int = 50) -> DeliveryLog:
        return self._s.run(deliveries(subscription_id, game_id, limit))

    def redeliver(self, subscription_id: str, message_id: str) -> Redelivery:
        return self._s.run(redeliver(subscription_id, message_id))


class AsyncWebhooks(AsyncArea):
    async def register_bot(self, url: str) -> BotEndpointSecret:
        return await self._s.run(register_bot(url))

    async def bot(self) -> BotEndpointOut:
        return await self._s.run(bot())

    async def delete_bot(self) -> None:
        await self._s.run(delete_bot())

    async def rotate_bot(self) -> BotEndpointSecret:
        return await self._s.run(rotate_bot())

    async def bot_attempts(self, game_id: str | None = None, before: int | None = None,
                           limit: int = 50) -> BotAttempts:
        return await self._s.run(bot_attempts(game_id, before, limit))

    async def subscribe(self, url: str, event_types: Sequence[str]) -> SubscriptionSecret:
        return await self._s.run(subscribe(url, event_types))

    async def subscriptions(self) -> SubscriptionList:
        return await self._s.run(subscriptions())

    async def subscription(self, subscription_id: str) -> SubscriptionOut:
        return await self._s.run(subscription(subscription_id))

    async def unsubscribe(self, subscription_id: str) -> None:
        await self._s.run(unsubscribe(subscription_id))

    async def rotate(self, subscription_id: str) -> SubscriptionSecret:
        return await self._s.run(rotate(subscription_id))

    async def enable(self, subscription_id: str) -> SubscriptionOut:
        return await self._s.run(enable(subscription_id))

    async def deliveries(self, subscription_id: str, game_id: str | None = None,
                         limit: int = 50) -> DeliveryLog:
        return await self._s.run(deliveries(subscription_id, game_id, limit))

    async def redeliver(self, subscription_id: str, message_id: str) -> Redelivery:
        return await self._s.run(redeliver(subscription_id, message_id))
