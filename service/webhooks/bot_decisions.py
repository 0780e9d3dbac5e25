"""A bot endpoint's decision: POST the seat's turn (what `GET /turn` answers), signed, and
send the answer's command through the command pipeline as the player's own.

The deadline is the game's turn clock, or `decision_deadline_s` after the decision became
pending in a game without one. Network errors and 5xx answers are tried again within it; an
illegal answer, or none in time, is recorded, and the game's timeout policy applies as for a
human: under a clock the clock's own job applies it; without one, `expire_decision` does at
the default deadline, and the sweep (`stalled`) runs it again for a decision still waiting
past that deadline (its job was lost: a worker killed, Redis flushed). Every attempt is
recorded (`bot_endpoints.record`).
"""

from __future__ import annotations

import asyncio
import logging
from datetime import UTC, datetime, timedelta

import msgspec

from cya_rules import RuleViolation
from cya_rules.commands import SeatCommand
from cya_rules.table.seats import HumanSeat
from service.events.event_store import EventStore
from service.events.records import GameNotFound, IdempotencyKeyReused, VersionConflict
from service.projections.games import unclocked_games_of
from service.scheduling.decision_job import current, take_expired
from service.scheduling.job_names import EXPIRE_DECISION
from service.table.clock import DEADLINE, deadline
from service.table.game import Game
from service.table.turns import turn_of
from service.webhooks import bot_endpoints
from service.webhooks.bot_endpoints import BotAttempt, BotEndpoint
from service.webhooks.deliveries import Deliveries
from service.webhooks.outbound import Answer
from service.webhooks.signing import signed_headers

log = logging.getLogger(__name__)

_encode = msgspec.json.Encoder().encode
_decode_command = msgspec.json.Decoder(SeatCommand).decode
FIRST_PAUSE_S = 0.05  # before the first retry of a network error; doubles each time


def message_id(game_id: str, version: int) -> str:
    """The same for every attempt at one decision (receivers may tell retries apart)."""
    return f"msg_decision_{game_id}_{version}"


def waiting_on(game: Game, version: int, seat: int, player_id: str) -> HumanSeat | None:
    """The player's seat, if the game still stands at `version` waiting for it."""
    pending = game.pending_seat()
    if game.version != version or pending is None or pending[0] != seat:
        return None
    holder = pending[1]
    return holder if isinstance(holder, HumanSeat) and holder.player_id == player_id else None


def decision_deadline(game: Game, default_s: float) -> datetime:
    clock = deadline(game)
    if clock is not None:
        return clock
    since = game.decision_since or game.updated_at or datetime.now(UTC)
    return since + timedelta(seconds=default_s)


async def deliver_decision(ctx: Deliveries, game_id: str, version: int, seat: int,
                           player_id: str) -> str:
    try:
        game = await current(ctx.pipeline, game_id, version)
    except GameNotFound:
        return "moved_on"
    if waiting_on(game, version, seat, player_id) is None:
        return "moved_on"
    async with ctx.store.read() as conn:
        endpoint = await bot_endpoints.endpoint_of(conn, player_id)
    if endpoint is None:
        return "no_endpoint"
    due = decision_deadline(game, ctx.settings.decision_deadline_s)
    verdict = await _ask(ctx, game, seat, endpoint, due)
    if verdict != "acted" and game.lobby is not None and game.lobby.turn_clock is None:
        # No clock will expire this decision: the default deadline does.
        wait = max((due - datetime.now(UTC)).total_seconds(), 0.0)
        await ctx.runner.run(EXPIRE_DECISION, (game_id, version, seat, player_id),
                             delay_s=wait, key=f"{game_id}-{version}")
    return verdict


async def _ask(ctx: Deliveries, game: Game, seat: int, endpoint: BotEndpoint, due: datetime
               ) -> str:
    body = _encode(turn_of(game, seat))
    msg = message_id(game.game_id, game.version)
    pause = FIRST_PAUSE_S
    while True:
        now = datetime.now(UTC)
        answer = await ctx.outbound.post(
            endpoint.url, body, signed_headers(endpoint.signing_secrets(now), msg, body, now),
            total_s=(due - now).total_seconds())
        retry = answer.kind == "network_error" or (
            answer.kind == "http_error" and (answer.status or 0) >= 500)
        if not answer.ok:
            kind = "late" if answer.kind == "timeout" else answer.kind
            await _record(ctx, game, seat, endpoint, msg, answer, kind, answer.error)
            left = (due - datetime.now(UTC)).total_seconds()
            if not retry or left <= pause:
                return "failed"
            await asyncio.sleep(pause)
            pause *= 2
            continue
        return await _play(ctx, game, seat, endpoint, msg, answer)


async def _play(ctx: Deliveries, game: Game, seat: int, endpoint: BotEndpoint, msg: str,
                answer: Answer) -> str:
    try:
        command = _decode_command(answer.body)
    except msgspec.DecodeError as exc:
        await _record(ctx, game, seat, endpoint, msg, answer, "illegal",
                      f"the answer is not a command: {exc}")
        return "failed"
    try:
        await ctx.pipeline.play(game.game_id, seat, command,
                                command_id=f"webhook:{game.version}",
                                expected_version=game.version,
                                actor=f"webhook:{endpoint.player_id}",
                                player_id=endpoint.player_id)
    except RuleViolation as exc:
        await _record(ctx, game, seat, endpoint, msg, answer, "illegal",
                      f"{exc.code}: {exc.message}")
        return "failed"
    except (VersionConflict, IdempotencyKeyReused) as exc:
        await _record(ctx, game, seat, endpoint, msg, answer, "moved_on", str(exc))
        return "moved_on"
    await _record(ctx, game, seat, endpoint, msg, answer, "accepted", None)
    return "acted"


async def _record(ctx: Deliveries, game: Game, seat: int, endpoint: BotEndpoint, msg: str,
                  answer: Answer, outcome: str, error: str | None) -> None:
    await bot_endpoints.record(ctx.store, BotAttempt(
        endpoint.player_id, game.game_id, game.version, seat, msg, outcome, answer.status,
        round(answer.latency_ms, 3), error, datetime.now(UTC)))


async def expire_decision(ctx: Deliveries, game_id: str, version: int, seat: int,
                          player_id: str) -> str:
    """The default deadline of a decision in a game without a clock: the timeout policy, if
    the game still waits for it."""
    try:
        game = await ctx.pipeline.load(game_id, fresh=True)
    except GameNotFound:
        return "moved_on"
    holder = waiting_on(game, version, seat, player_id)
    if holder is None:
        return "moved_on"
    early = (decision_deadline(game, ctx.settings.decision_deadline_s)
             - datetime.now(UTC)).total_seconds()
    if early > 0:
        await asyncio.sleep(early)
    reason = (f"the bot endpoint gave no legal answer within "
              f"{ctx.settings.decision_deadline_s:g} seconds")
    try:
        await take_expired(ctx.pipeline, game, seat, holder, DEADLINE, reason)
    except (VersionConflict, IdempotencyKeyReused, RuleViolation) as exc:
        log.info("game %s v%d: %r", game_id, version, exc)
        return "moved_on"
    return "timed_out"


async def stalled(store: EventStore, deadline_s: float, grace_s: float, limit: int = 1000
                  ) -> list[tuple[str, int, int, str]]:
    """(game, version, seat, player) of the decisions of bot endpoints in games without a
    clock that still wait `grace_s` past their default deadline: the job that would have
    expired them was lost. (Under a clock, the clock's own due work expires them.)"""
    cutoff = datetime.now(UTC) - timedelta(seconds=deadline_s + grace_s)
    async with store.read() as conn:
        players = await bot_endpoints.players_with_endpoints(conn)
        if not players:
            return []
        games = await unclocked_games_of(store, conn, players, unchanged_before=cutoff,
                                         limit=limit)
    found = []
    for game in games:
        holder = game.seats[game.awaiting[0]] if game.awaiting else None
        if isinstance(holder, HumanSeat) and holder.player_id in players:
            found.append((game.game_id, game.version, game.awaiting[0], holder.player_id))
    return found
