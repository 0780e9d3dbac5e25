"""Webhooks: your bot endpoint (every seat you hold is played by POSTing its decisions to
it), and event webhook subscriptions with their delivery log. The work is in
`service/webhooks/`; deliveries run on the workers."""

from __future__ import annotations

from typing import Annotated

from litestar import Controller, Response, delete, get, post
from litestar.params import Parameter

from service.http.context import Authed, runtime_of
from service.http.context import authenticate as _authenticate
from service.http.problems import Problem, problem_responses
from service.http.schemas.webhooks import (
    BotAttemptOut,
    BotAttempts,
    BotEndpointIn,
    BotEndpointOut,
    BotEndpointSecret,
    DeliveryAttemptOut,
    DeliveryLog,
    DeliveryOut,
    Redelivery,
    SubscriptionIn,
    SubscriptionList,
    SubscriptionOut,
    SubscriptionSecret,
)
from service.webhooks import bot_endpoints, outbox, subscriptions
from service.webhooks.bot_endpoints import BotEndpoint
from service.webhooks.destinations import UrlRefused, check_url
from service.webhooks.dispatch import Webhooks
from service.webhooks.subscriptions import Subscription

Id = Annotated[str, Parameter(max_length=64, pattern=r"^[0-9A-Za-z_-]{1,64}$",
                              description="The subscription's id.")]
GameFilter = Annotated[str | None, Parameter(max_length=64, pattern=r"^[0-9A-Za-z_-]{1,64}$",
                                             description="Only this game's.")]
Limit = Annotated[int, Parameter(ge=1, le=200, description="At most this many.")]
_NO_ENDPOINT = "You have no bot endpoint."
_OVERLAP = ("The old secret keeps signing beside the new one for an overlap (24 hours unless "
            "the service's `CYA_WEBHOOKS_SECRET_OVERLAP_S` says otherwise): "
            "`webhook-signature` then carries both signatures, so a receiver verifying with "
            "either accepts the request. Rotating again ends the earlier overlap.")


async def _allowed_url(webhooks: Webhooks, url: str) -> str:
    """422 `webhook_url_refused` for a URL the service will not send to."""
    try:
        await check_url(url, webhooks.ctx.settings.allow_private)
    except UrlRefused as exc:
        raise Problem(422, "webhook_url_refused", str(exc)) from None
    return url


def _endpoint_out(e: BotEndpoint) -> BotEndpointOut:
    return BotEndpointOut(e.url, e.created_at, e.secret_rotated_at)


def _sub_out(s: Subscription) -> SubscriptionOut:
    return SubscriptionOut(s.subscription_id, s.url, list(s.event_types),  # type: ignore[arg-type]
                           s.enabled, s.failures, s.disabled_reason, s.created_at)


def _sub_secret(s: Subscription) -> SubscriptionSecret:
    return SubscriptionSecret(**{f: getattr(o, f) for o in [_sub_out(s)]
                                 for f in SubscriptionOut.__struct_fields__}, secret=s.secret)


def _webhooks(request: Authed) -> Webhooks:
    return runtime_of(request).services.webhooks


async def _own(request: Authed, subscription_id: str) -> Subscription:
    async with _webhooks(request).ctx.store.read() as conn:
        sub = await subscriptions.get(conn, subscription_id)
    if sub is None or sub.player_id != request.user.player_id:
        raise Problem(404, "subscription_not_found", "You have no subscription with this id.")
    return sub


class WebhooksController(Controller):
    path = "/v1/webhooks"
    tags = ["webhooks"]
    before_request = staticmethod(_authenticate)

    @post("/bot", operation_id="registerBotEndpoint", status_code=201,
          summary="Register your bot endpoint (its secret shown once)",
          description="While it is registered, every seat you hold is played by POSTing each "
          "decision (the body `GET /turn` answers) to the URL, signed per Standard Webhooks; "
          "the answer's body is the command. Replaces an endpoint you had, with a new secret.",
          responses=problem_responses(400, 401, 422, 429))
    async def register_bot(self, request: Authed, data: BotEndpointIn) -> BotEndpointSecret:
        webhooks = _webhooks(request)
        url = await _allowed_url(webhooks, data.url)
        e = await bot_endpoints.register(webhooks.ctx.store, request.user.player_id, url)
        webhooks.forget()
        return BotEndpointSecret(e.url, e.created_at, e.secret_rotated_at, e.secret)

    @get("/bot", operation_id="getBotEndpoint", summary="Your bot endpoint",
         responses=problem_responses(401, 404, 429))
    async def get_bot(self, request: Authed) -> BotEndpointOut:
        async with _webhooks(request).ctx.store.read() as conn:
            e = await bot_endpoints.endpoint_of(conn, request.user.player_id)
        if e is None:
            raise Problem(404, "bot_endpoint_not_found", _NO_ENDPOINT)
        return _endpoint_out(e)

    @delete("/bot", operation_id="deleteBotEndpoint", status_code=204,
            summary="Delete your bot endpoint: your seats are yours to play again",
            responses=problem_responses(401, 404, 429))
    async def delete_bot(self, request: Authed) -> None:
        webhooks = _webhooks(request)
        if not await bot_endpoints.delete(webhooks.ctx.store, request.user.player_id):
            raise Problem(404, "bot_endpoint_not_found", _NO_ENDPOINT)
        webhooks.forget()

    @post("/bot/rotate", operation_id="rotateBotEndpointSecret", status_code=200,
          summary="A new secret for your bot endpoint (shown once)",
          description=_OVERLAP, responses=problem_responses(401, 404, 429))
    async def rotate_bot(self, request: Authed) -> BotEndpointSecret:
        webhooks = _webhooks(request)
        e = await bot_endpoints.rotate(webhooks.ctx.store, request.user.player_id,
                                       webhooks.ctx.settings.secret_overlap_s)
        if e is None:
            raise Problem(404, "bot_endpoint_not_found", _NO_ENDPOINT)
        return BotEndpointSecret(e.url, e.created_at, e.secret_rotated_at, e.secret)

    @get("/bot/attempts", operation_id="listBotAttempts",
         summary="Every decision POSTed to your bot endpoint, and what came of it",
         responses=problem_responses(400, 401, 429))
    async def bot_attempts(
        self, request: Authed, game_id: GameFilter = None,
        before: Annotated[int | None, Parameter(ge=1, description=(
            "Only attempts older than this `attempt_id`: the previous page's "
            "`next_before`."))] = None,
        limit: Limit = 50,
    ) -> BotAttempts:
        async with _webhooks(request).ctx.store.read() as conn:
            found = await bot_endpoints.attempts_of(conn, request.user.player_id,
                                                    game_id=game_id, before=before,
                                                    limit=limit)
        out = [BotAttemptOut(a.attempt_id, a.game_id, a.version, a.seat, a.message_id,
                             a.outcome, a.status_code, a.latency_ms, a.error, a.at)
               for a in found]
        return BotAttempts(out, out[-1].attempt_id if len(out) == limit else None)

    @post("/subscriptions", operation_id="createWebhookSubscription", status_code=201,
          summary="Subscribe a URL to event types of your games (its secret shown once)",
          responses=problem_responses(400, 401, 409, 422, 429))
    async def subscribe(self, request: Authed, data: SubscriptionIn) -> SubscriptionSecret:
        webhooks = _webhooks(request)
        url = await _allowed_url(webhooks, data.url)
        try:
            sub = await subscriptions.create(webhooks.ctx.store, request.user.player_id, url,
                                             list(data.event_types))
        except subscriptions.TooMany:
            raise Problem(409, "too_many_subscriptions", "A player may have at most "
                          f"{subscriptions.MAX_PER_PLAYER} subscriptions.") from None
        webhooks.forget()
        return _sub_secret(sub)

    @get("/subscriptions", operation_id="listWebhookSubscriptions",
         summary="Your event webhook subscriptions", responses=problem_responses(401, 429))
    async def subscriptions(self, request: Authed) -> SubscriptionList:
        async with _webhooks(request).ctx.store.read() as conn:
            subs = await subscriptions.of_player(conn, request.user.player_id)
        return SubscriptionList([_sub_out(s) for s in subs])

    @get("/subscriptions/{subscription_id:str}", operation_id="getWebhookSubscription",
         summary="One subscription", responses=problem_responses(400, 401, 404, 429))
    async def subscription(self, request: Authed, subscription_id: Id) -> SubscriptionOut:
        return _sub_out(await _own(request, subscription_id))

    @delete("/subscriptions/{subscription_id:str}", operation_id="deleteWebhookSubscription",
            status_code=204, summary="Delete a subscription and its undelivered messages",
            responses=problem_responses(400, 401, 404, 429))
    async def unsubscribe(self, request: Authed, subscription_id: Id) -> None:
        await _own(request, subscription_id)
        await subscriptions.delete(_webhooks(request).ctx.store, subscription_id)
        _webhooks(request).forget()

    @post("/subscriptions/{subscription_id:str}/rotate", status_code=200,
          operation_id="rotateWebhookSubscriptionSecret",
          summary="A new secret for a subscription (shown once)",
          description=_OVERLAP, responses=problem_responses(400, 401, 404, 429))
    async def rotate(self, request: Authed, subscription_id: Id) -> SubscriptionSecret:
        await _own(request, subscription_id)
        webhooks = _webhooks(request)
        sub = await subscriptions.rotate(webhooks.ctx.store, subscription_id,
                                         webhooks.ctx.settings.secret_overlap_s)
        assert sub is not None
        return _sub_secret(sub)

    @post("/subscriptions/{subscription_id:str}/enable", status_code=200,
          operation_id="enableWebhookSubscription",
          summary="Enable a subscription again (after sustained failure disabled it)",
          description="Its failures are forgotten and its waiting messages are due at once.",
          responses=problem_responses(400, 401, 404, 429))
    async def enable(self, request: Authed, subscription_id: Id) -> SubscriptionOut:
        await _own(request, subscription_id)
        webhooks = _webhooks(request)
        for game_id in await subscriptions.enable(webhooks.ctx.store, subscription_id):
            await webhooks.kick(subscription_id, game_id)
        webhooks.forget()
        return _sub_out(await _own(request, subscription_id))

    @get("/subscriptions/{subscription_id:str}/deliveries",
         operation_id="listWebhookDeliveries",
         summary="The delivery log: messages owed, newest first, with every attempt",
         responses=problem_responses(400, 401, 404, 429))
    async def deliveries(self, request: Authed, subscription_id: Id,
                         game_id: GameFilter = None, limit: Limit = 50) -> DeliveryLog:
        await _own(request, subscription_id)
        async with _webhooks(request).ctx.store.read() as conn:
            log = await outbox.log_of(conn, subscription_id, game_id=game_id, limit=limit)
        return DeliveryLog([DeliveryOut(
            m.message_id, m.type, m.game_id, m.version,  # type: ignore[arg-type]
            m.created_at, m.delivered_at, m.next_attempt_at,
            [DeliveryAttemptOut(a.ok, a.status_code, a.latency_ms, a.error, a.at)
             for a in attempts]) for m, attempts in log])

    @post("/subscriptions/{subscription_id:str}/deliveries/{message_id:str}/redeliver",
          operation_id="redeliverWebhookMessage", status_code=202,
          summary="Deliver a message again",
          description="The message is owed again, after any earlier message of its game that "
          "still waits, and sent with the same `webhook-id`.",
          responses=problem_responses(400, 401, 404, 429))
    async def redeliver(
        self, request: Authed, subscription_id: Id,
        message_id: Annotated[str, Parameter(max_length=128,
                                             pattern=r"^[0-9A-Za-z_-]{1,128}$",
                                             description="The message's id.")],
    ) -> Response[Redelivery]:
        await _own(request, subscription_id)
        webhooks = _webhooks(request)
        game_id = await outbox.redeliver(webhooks.ctx.store, subscription_id, message_id)
        if game_id is None:
            raise Problem(404, "message_not_found", "The subscription has no such message.")
        await webhooks.kick(subscription_id, game_id)
        return Response(Redelivery(message_id, game_id), status_code=202)
