"""The job body for every kind of due work: take the decision the game waits for.

A job names (game, version, kind, seat) as the `due_work` row said after that version's
commit. It acts only if the game still stands at that version, and posts its command under an
id derived from those same facts, so a job that runs twice (a retry, a sweep, two workers)
acts once: the second copy finds the version moved on, or finds its command id already
recorded with the same body (the bot's choice is seeded by the same facts, so it is the same;
a searching bot that ran out of time may choose otherwise, and the copy that commits second
is refused like any stale command).
"""

from __future__ import annotations

import asyncio
import functools
import logging
import random
from collections.abc import Callable
from datetime import UTC, datetime, timedelta
from typing import Literal

import msgspec

from cya_rules import RuleViolation, legal_commands, player_view
from cya_rules.bots import LEVELS, choose
from cya_rules.commands import SeatCommand
from cya_rules.log.codec import AnyEvent
from cya_rules.table.seats import BotSeat, HumanSeat, SeatHolder
from cya_rules.table.timeouts import ClockRestarted, DecisionTimedOut, SeatHandedToBot
from service.events.records import GameNotFound, IdempotencyKeyReused, VersionConflict
from service.pipeline import Outcome, Pipeline
from service.pipeline.deciders import expired_clock, restarted_clock
from service.scheduling.timeout_streaks import consecutive_timeouts
from service.table.clock import BOT_TURN, DEADLINE, deadline
from service.table.game import Game

Result = Literal["acted", "moved_on", "replayed", "early", "restarted"]
# The longest a job started before its deadline waits for it; one earlier than that leaves the
# decision to the sweeper, which hands it out again once it is overdue.
EARLY_WAIT_MAX_S = 5.0
# A searching bot stops this long before the turn clock runs out, to leave time for the
# commit; and it always thinks at least a little, even past a clock that has run out.
COMMIT_MARGIN_S = 0.25
MIN_THINK_S = 0.02
# A clock's expiry taken later than this restarts the clock once instead (`ClockRestarted`).
OUTAGE_GRACE_S = 2.0

log = logging.getLogger(__name__)

_encode = msgspec.json.Encoder().encode


def command_id_for(version: int, kind: str) -> str:
    return f"due:{version}:{kind}"


def bot_choice(game: Game, seat: int, level: str, kind: str,
               now: datetime | None = None) -> SeatCommand:
    """Seeded by (game, version, kind): every copy of a job picks the same move (a searching
    level does when it finishes its iterations within its time)."""
    assert game.state is not None
    rng = random.Random(f"{game.game_id}:{game.version}:{kind}")
    view, legal = player_view(game.state, seat), legal_commands(game.state, seat)
    return choose(level, view, legal, rng, thinking_budget(game, now))


def thinking_budget(game: Game, now: datetime | None = None) -> float | None:
    """Seconds a searching bot may think: what is left of the turn clock since the decision
    began, less the commit's margin; None without a turn clock (its own budget then)."""
    lobby = game.lobby
    if lobby is None or lobby.turn_clock is None or game.decision_since is None:
        return None
    ends = game.decision_since + timedelta(seconds=lobby.turn_clock)
    left = _seconds_until(ends, now) - COMMIT_MARGIN_S
    return max(MIN_THINK_S, left)


async def choose_off_loop(game: Game, seat: int, level: str, kind: str) -> SeatCommand:
    """A searching level thinks in a thread, so the event loop (the API's, in the embedded
    runner) keeps serving meanwhile."""
    if LEVELS[level].searches:
        return await asyncio.to_thread(bot_choice, game, seat, level, kind)
    return bot_choice(game, seat, level, kind)


async def current(pipeline: Pipeline, game_id: str, version: int) -> Game:
    """The game as of the log's end, as far as a job for `version` needs it. A worker's cache
    trails the other processes' writes: fold only the events it has not seen instead of the
    whole log, and skip the read when the cache already stands at `version` (if the log moved
    on meanwhile, the append's version check says so)."""
    cached = pipeline.cache.get(game_id) if pipeline.cache is not None else None
    if cached is not None and cached.version >= version:
        return cached
    return await pipeline.load(game_id, fresh=True)  # brings a cached game forward


async def take_due_decision(
    pipeline: Pipeline, game_id: str, version: int, kind: str, seat: int,
    *, now: datetime | None = None, outage_grace_s: float = OUTAGE_GRACE_S,
    lateness: Callable[[float], None] | None = None,
) -> Result:
    """`now`: the time the job runs at (tests let a clock run out without waiting for it).
    `outage_grace_s`: how late an expiry may be taken before the clock restarts instead.
    `lateness`: told how late past its deadline each expiry this job takes was committed
    (`clock_lateness.py`)."""
    try:
        game = await current(pipeline, game_id, version)
    except GameNotFound:
        return "moved_on"
    controller = _waiting_on(game, version, seat)
    if kind == DEADLINE and controller is not None:
        # A clock never expires before the deadline the player was shown, whatever started
        # this job early (another machine's clock, a scheduler that keeps whole seconds).
        early = _seconds_until(deadline(game), now)
        if early > EARLY_WAIT_MAX_S:
            log.warning("game %s v%d: a deadline job %.1f s early; the sweeper will take it",
                        game_id, version, early)
            return "early"
        if early > 0:
            await asyncio.sleep(early)
            game = await pipeline.load(game_id, fresh=True)
            controller = _waiting_on(game, version, seat)
    if controller is None:
        log.info("game %s at v%d (due v%d %s): moved on", game_id, game.version, version, kind)
        return "moved_on"
    try:
        if kind == BOT_TURN and isinstance(controller, BotSeat):
            outcome = await pipeline.play(
                game_id, seat, await choose_off_loop(game, seat, controller.level, kind),
                command_id=command_id_for(version, kind), expected_version=version,
                actor=f"bot:{controller.level}",
            )
        elif kind == DEADLINE and isinstance(controller, HumanSeat):
            late = -_seconds_until(deadline(game), now)
            restarts = late > outage_grace_s and not game.clock_restarted
            outcome = await (restart_clock(pipeline, game, seat, controller, late) if restarts
                             else take_expired(pipeline, game, seat, controller, kind))
            if lateness is not None and not outcome.replayed:  # its first copy told it
                lateness(-_seconds_until(deadline(game), now))
            if restarts:
                return "restarted"
        else:
            return "moved_on"
    except (VersionConflict, IdempotencyKeyReused, RuleViolation) as exc:
        # Another copy of this job, or the seat's own player, got there first.
        log.info("game %s v%d %s: %r", game_id, version, kind, exc)
        return "moved_on"
    return "replayed" if outcome.replayed else "acted"


def _waiting_on(game: Game, version: int, seat: int) -> SeatHolder | None:
    """Who controls `seat`, if the game still stands at `version` waiting for it."""
    pending = game.pending_seat()
    if game.version != version or pending is None or pending[0] != seat:
        return None
    return pending[1]


def _seconds_until(at: datetime | None, now: datetime | None) -> float:
    return 0.0 if at is None else (at - (now or datetime.now(UTC))).total_seconds()


async def take_expired(pipeline: Pipeline, game: Game, seat: int, human: HumanSeat,
                       kind: str, reason: str | None = None) -> Outcome:
    """The game's timeout policy for a decision not taken in time: marked timed out, then the
    policy's bot decides (and the seat is handed over after a streak). `reason`: why, when it
    is not the turn clock (a bot endpoint that gave no legal answer, `service.webhooks`)."""
    assert game.lobby is not None and game.state is not None
    policy = game.lobby.timeout_policy
    streak = await consecutive_timeouts(pipeline.store, game.game_id, seat, human.player_id) + 1
    marks: list[AnyEvent] = [DecisionTimedOut(
        seat, human.player_id, _decision_name(game), streak, policy.bot_level,
        reason=reason or f"no decision within the {game.lobby.turn_clock}-second turn clock",
    )]
    if policy.hand_over_after is not None and streak >= policy.hand_over_after:
        marks.append(SeatHandedToBot(
            seat, human.player_id, policy.bot_level,
            reason=f"{streak} consecutive timeouts (the game hands a seat over after "
                   f"{policy.hand_over_after})",
        ))
    command = await choose_off_loop(game, seat, policy.bot_level, kind)
    decide = functools.partial(expired_clock, seat=seat, marks=marks, command=command)
    body = _encode((kind, seat, marks, command))
    return await pipeline.take(game.game_id, decide, body, f"timeout:{seat}",
                               command_id_for(game.version, kind), game.version)


async def restart_clock(pipeline: Pipeline, game: Game, seat: int, human: HumanSeat,
                        late_s: float) -> Outcome:
    """The clock ran out `late_s` seconds before the service took its expiry: the service was
    not acting (its database, or every worker, down), and a player whose commands it refused
    meanwhile must not lose the decision for it. The clock starts over, once per decision."""
    assert game.lobby is not None
    restart = ClockRestarted(
        seat, human.player_id, round(late_s, 3),
        reason=f"the {game.lobby.turn_clock}-second turn clock ran out {late_s:.1f} s before "
               "the service could act on it",
    )
    body = _encode(("clock_restarted", seat))
    return await pipeline.take(game.game_id, functools.partial(restarted_clock, restart=restart),
                               body, f"timeout:{seat}", command_id_for(game.version, "restart"),
                               game.version)


def _decision_name(game: Game) -> str:
    assert game.state is not None
    return str(type(game.state.pending).__struct_config__.tag)
