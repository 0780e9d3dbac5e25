"""`Webhooks`: the pipeline's outbox and commit listener, and the body of every delivery job.

Before each commit it tells the pipeline the messages the commit owes the enabled
subscriptions of the game's human players: they are written to the outbox in the commit's own
transaction. When it cannot tell (the subscriptions cannot be read), it raises and the command
fails: nothing else would ever owe those messages. After the commit, a `deliver_events` job
is started per (subscription, game) that got messages, and a pending decision of a player
with a bot endpoint becomes a `deliver_decision` job. Who has an endpoint, and the enabled
subscriptions, are cached for `KNOWN_FOR_S` (one query per interval, not one per commit): a
change made through another process is seen within it. A periodic sweep hands out again the
messages whose job was lost.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import time
from collections.abc import Awaitable, Callable, Sequence
from datetime import UTC, datetime
from typing import Any

from cya_rules.table.seats import HumanSeat
from service.events.event_store import EventStore
from service.events.records import StoredEvent
from service.pipeline import Pipeline
from service.scheduling.job_names import DELIVER_DECISION, DELIVER_EVENTS, EXPIRE_DECISION
from service.table.game import Game
from service.webhooks import bot_endpoints, outbox, subscriptions
from service.webhooks.bot_decisions import deliver_decision, expire_decision, stalled
from service.webhooks.deliveries import Deliveries
from service.webhooks.event_delivery import deliver_events, queue_key
from service.webhooks.messages import messages_of_commit
from service.webhooks.outbound import Outbound
from service.webhooks.runners import InProcessRunner, Runner
from service.webhooks.settings import WebhookSettings
from service.webhooks.subscriptions import Subscription

log = logging.getLogger(__name__)

KNOWN_FOR_S = 2.0
MAX_TO_KICK = 10_000
# The body of each webhook job, by its name (`service.scheduling.job_names.WEBHOOK_JOBS`).
JOB_BODIES: dict[str, Callable[..., Awaitable[object]]] = {
    DELIVER_DECISION: deliver_decision,
    EXPIRE_DECISION: expire_decision,
    DELIVER_EVENTS: deliver_events,
}


class Webhooks:
    def __init__(self, pipeline: Pipeline, settings: WebhookSettings,
                 runner: Runner | None = None) -> None:
        """`runner`: who runs the delivery jobs (RQ's), or None for this process."""
        self.runs_here = runner is None
        self.ctx = Deliveries(pipeline, settings, Outbound(settings),
                              runner or InProcessRunner(self.run_job))
        self._bots: set[str] = set()
        self._subscriptions: dict[str, list[Subscription]] = {}  # enabled, by player
        self._known_at = -KNOWN_FOR_S
        self._sweeper: asyncio.Task[None] | None = None
        # (game, version) -> the subscriptions its commit owes messages, until it is told.
        self._to_kick: dict[tuple[str, int], list[str]] = {}

    # The outbox (`service.pipeline.hooks.CommitOutbox`).

    async def owed(self, before: Game, after: Game, stored: Sequence[StoredEvent]
                   ) -> list[dict[str, Any]]:
        humans = _humans(after)
        if not humans:
            return []
        await self._know()
        now = datetime.now(UTC)
        rows: list[dict[str, Any]] = []
        for sub in (s for p in humans for s in self._subscriptions.get(p, ())):
            owed = messages_of_commit(before, after, stored, sub.player_id, sub.event_types)
            rows.extend(outbox.row(sub.subscription_id, after.game_id, after.version, i,
                                   kind, payload, now) for i, (kind, payload) in enumerate(owed))
        if rows:
            if len(self._to_kick) >= MAX_TO_KICK:  # listeners skipped (a failing hint), or
                # commits refused: the sweep starts what is left here
                del self._to_kick[next(iter(self._to_kick))]
            self._to_kick[(after.game_id, after.version)] = list(
                dict.fromkeys(r["subscription_id"] for r in rows))
        return rows

    # The commit listener (`service.pipeline.hooks.CommitListener`).

    async def committed(self, before: Game, after: Game, stored: Sequence[StoredEvent]
                        ) -> None:
        # The messages first: the bot's decision below leads to the next commit, whose
        # messages must come after these.
        for sub_id in self._to_kick.pop((after.game_id, after.version), ()):
            await self.kick(sub_id, after.game_id)
        humans = _humans(after)
        if not humans:
            return
        await self._know()
        pending = after.pending_seat()
        if pending is not None and isinstance(pending[1], HumanSeat) and (
                pending[1].player_id in self._bots):
            await self.ctx.runner.run(
                DELIVER_DECISION, (after.game_id, after.version, pending[0],
                                     pending[1].player_id),
                key=f"{after.game_id}-{after.version}")

    async def _know(self) -> None:
        if time.monotonic() - self._known_at < KNOWN_FOR_S:
            return
        async with self.ctx.store.read() as conn:
            self._bots = await bot_endpoints.players_with_endpoints(conn)
            by_player: dict[str, list[Subscription]] = {}
            for sub in await subscriptions.enabled(conn):
                by_player.setdefault(sub.player_id, []).append(sub)
            self._subscriptions = by_player
        self._known_at = time.monotonic()

    def forget(self) -> None:
        """An endpoint or subscription changed here: look again at the next commit."""
        self._known_at = -KNOWN_FOR_S

    async def kick(self, subscription_id: str, game_id: str) -> None:
        await self.ctx.runner.run(DELIVER_EVENTS, (subscription_id, game_id),
                                  key=queue_key(subscription_id, game_id))

    # The jobs.

    async def run_job(self, job: str, args: tuple[Any, ...]) -> object:
        body = JOB_BODIES.get(job)
        if body is None:
            raise ValueError(f"no webhook job {job!r}")
        return await body(self.ctx, *args)

    async def sweep(self, grace_s: float = 5.0) -> int:
        return await sweep_lost(self.ctx.store, self.ctx.runner,
                                self.ctx.settings.decision_deadline_s, grace_s)

    def start(self) -> None:
        """Inside the process's event loop: when it runs the jobs itself (the embedded
        default), the deliveries whose job was lost are handed out again from now on."""
        interval = self.ctx.settings.sweep_interval_s
        if self.runs_here and self._sweeper is None and interval > 0:
            self._sweeper = asyncio.get_running_loop().create_task(self._sweep_forever(interval))

    async def _sweep_forever(self, interval: float) -> None:
        while True:
            await asyncio.sleep(interval)
            with contextlib.suppress(Exception):
                await self.sweep(grace_s=interval)

    async def close(self) -> None:
        if self._sweeper is not None:
            self._sweeper.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await self._sweeper
            self._sweeper = None
        await self.ctx.runner.close()
        await self.ctx.outbound.close()


async def sweep_lost(store: EventStore, runner: Runner, deadline_s: float, grace_s: float
                     ) -> int:
    """The work whose job was lost, handed out again (in-process, or by a worker's sweeper):
    a delivery for every queue whose messages wait past their time by `grace_s`, and the
    expiry of every bot endpoint's decision left waiting past its deadline."""
    queues = await outbox.due_queues(store, grace_s)
    for sub_id, game_id in queues:
        await runner.run(DELIVER_EVENTS, (sub_id, game_id), key=queue_key(sub_id, game_id))
    decisions = await stalled(store, deadline_s, grace_s)
    for game_id, version, seat, player_id in decisions:
        await runner.run(EXPIRE_DECISION, (game_id, version, seat, player_id),
                         key=f"{game_id}-{version}")
    return len(queues) + len(decisions)


def _humans(game: Game) -> list[str]:
    if game.lobby is None:
        return []
    return [s.player_id for s in game.lobby.seats if isinstance(s, HumanSeat)]
