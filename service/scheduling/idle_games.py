"""Games nobody plays any more: a lobby never started within `lobby_ttl_s` expires; a running
game without a turn clock whose pending decision is a human's, untaken for `abandon_after_s`,
ends abandoned. Each by an event with its reason in the game's own log (`table.endings`),
through the pipeline like any command, found by the sweepers (in-process, or `cya worker`'s,
which hands each game to a job: `workers.jobs.end_idle_game`).

A game with a clock never waits long on anyone (its clock hands the seat to a bot), and a bot's
pending move is due work, so neither is abandoned here.
"""

from __future__ import annotations

import functools
from datetime import UTC, datetime, timedelta

from cya_rules import RuleCode, RuleViolation
from cya_rules.log.codec import AnyEvent
from cya_rules.table.endings import GameAbandoned, LobbyExpired
from cya_rules.table.seats import HumanSeat
from service.events.event_store import EventStore
from service.events.records import GameNotFound, IdempotencyKeyReused, VersionConflict
from service.pipeline import Pipeline
from service.pipeline.deciders import Decided
from service.projections.games import idle_game_ids
from service.table.game import Game, apply_all

DAY_S = 86_400


async def idle_candidates(store: EventStore, lobby_ttl_s: float, abandon_after_s: float,
                          *, now: datetime | None = None, limit: int = 500) -> list[str]:
    """Games whose row says they may be idle past their limit (`ending` checks each)."""
    now = now or datetime.now(UTC)
    return await idle_game_ids(
        store, lobby_created_before=now - timedelta(seconds=lobby_ttl_s),
        unclocked_unchanged_before=now - timedelta(seconds=abandon_after_s), limit=limit)


def _span(seconds: float) -> str:
    if seconds >= DAY_S and seconds % DAY_S == 0:
        days = int(seconds // DAY_S)
        return f"{days} day{'s' * (days != 1)}"
    if seconds >= 3600 and seconds % 3600 == 0:
        return f"{int(seconds // 3600)} hours"
    return f"{seconds:g} seconds"


def ending(game: Game, lobby_ttl_s: float, abandon_after_s: float, now: datetime
           ) -> list[AnyEvent]:
    """The decider: the event that ends `game` as idle, or a refusal if it is not (any more)."""
    lobby = game.lobby
    if lobby is None or game.created_at is None:
        raise RuleViolation(RuleCode.NOT_STARTED, "No such game.")
    if game.status == "lobby":
        if now - game.created_at >= timedelta(seconds=lobby_ttl_s):
            return [LobbyExpired(f"not started within {_span(lobby_ttl_s)} of its creation")]
    elif game.status == "playing" and lobby.turn_clock is None:
        pending = game.pending_seat()
        since = game.decision_since or game.updated_at
        if (pending is not None and isinstance(pending[1], HumanSeat) and since is not None
                and now - since >= timedelta(seconds=abandon_after_s)):
            return [GameAbandoned(pending[0], pending[1].player_id,
                                  f"no human acted for {_span(abandon_after_s)}: the game "
                                  f"has no turn clock and waited on seat {pending[0]} since "
                                  f"{since.isoformat(timespec='seconds')}")]
    raise RuleViolation(RuleCode.GAME_NOT_OVER, "The game is not idle.")


def _decide(game: Game, lobby_ttl_s: float, abandon_after_s: float, now: datetime) -> Decided:
    events = ending(game, lobby_ttl_s, abandon_after_s, now)
    return Decided(events, apply_all(game, events))


async def end_if_idle(pipeline: Pipeline, game_id: str, lobby_ttl_s: float,
                      abandon_after_s: float, *, now: datetime | None = None) -> bool:
    """End the game if it is idle past its limit; whether it did. Idempotent: the command's
    id names the version it ends, and a game that moved on is left alone."""
    now = now or datetime.now(UTC)
    try:
        game = await pipeline.load(game_id, fresh=True)
        ending(game, lobby_ttl_s, abandon_after_s, now)
    except (RuleViolation, GameNotFound):
        return False
    decide = functools.partial(_decide, lobby_ttl_s=lobby_ttl_s,
                               abandon_after_s=abandon_after_s, now=now)
    try:
        await pipeline.take(game_id, decide, f"idle\0{game.version}".encode(), "service:idle",
                            f"idle:{game.version}", game.version)
    except (RuleViolation, VersionConflict, IdempotencyKeyReused):
        return False  # someone acted meanwhile, or another sweeper ended it
    return True
