"""The one command pipeline: load → decide → append + project (one transaction) → publish →
schedule. HTTP routes and worker jobs both come through here.

Every entry point reduces to a *decider*: a pure function from the game to its new events and
the game they lead to. `_run` owns everything else: state loading, the version check,
idempotency, the transaction, retries, and the after-commit hooks.
"""

from __future__ import annotations

import hashlib
import logging
import secrets
import time
import uuid
from collections.abc import Awaitable, Callable, Sequence
from datetime import UTC, datetime
from typing import Any

import msgspec
from msgspec.structs import replace

from service.domain import RuleViolation, StartGame, execute, preview
from service.domain.commands import SeatCommand
from service.pipeline.group_commit import Committer
from service.pipeline.hooks import LocalPublisher, NoScheduler, Publisher, Scheduler
from service.pipeline.state_cache import StateCache
from service.store.codec import AnyEvent
from service.store.event_store import (
    AppendRejected,
    DamagedLog,
    EventStore,
    IdempotencyKeyReused,
    StoredEvent,
    VersionConflict,
    visibility_of,
)
from service.store.log_tail import LogTail
from service.table.game import Game, advance, apply, apply_all, apply_at, clocked
from service.table.lobby import CreateGame, LobbyCommand, Start, create, decide_lobby

log = logging.getLogger(__name__)

Decider = Callable[[Game], tuple[list[AnyEvent], Game]]


HINT_PAUSE_S = 5.0


class GameNotFound(KeyError):
    pass


class Outcome(msgspec.Struct, frozen=True, gc=False):
    game_id: str
    version: int  # the game's version after the command
    events: tuple[StoredEvent, ...]
    replayed: bool = False  # a repeated command id: the first outcome, nothing appended
    committed: bool = True  # False for a dry run
    partial: bool = False  # a dry run that stopped before a step hidden from its seat


def fold_stored(game: Game, stored: Sequence[StoredEvent]) -> Game:
    """`game` with stored events folded in, each at the time it was recorded (a rules event
    starts the pending decision's clock, `Game.decision_since`)."""
    for s in stored:
        try:
            game = apply_at(game, s.event, s.recorded_at)
        except Exception as exc:  # the rules cannot replay what is stored
            raise DamagedLog(game.game_id, s.version) from exc
    return advance(game, stored[-1].version, stored[-1].hash, stored[-1].recorded_at)


class Pipeline:
    def __init__(
        self,
        store: EventStore,
        *,
        cache: StateCache | None = None,
        publisher: Publisher | None = None,
        scheduler: Scheduler | None = None,
        conflict_retries: int = 8,
        catch_up_first: bool = False,
        master_seeds: Callable[[], bytes] = lambda: secrets.token_bytes(32),
    ) -> None:
        self.store = store
        self.committer = Committer(store)
        # Replays and benchmarks pass fixed seeds; the server's are secret and fresh.
        self.master_seeds = master_seeds
        self.cache = cache
        self.publisher: Publisher = publisher or LocalPublisher()
        self.scheduler: Scheduler = scheduler or NoScheduler()
        self.retries = conflict_retries
        # Other processes write this log too: decide on the game as of the log's end, one read
        # of the events past the cached version. Decided on a cached game that is behind, a
        # command's append fails, fails the group it was written with (whose every command is
        # then written alone), and is decided again.
        self.catch_up_first = catch_up_first
        self.tail = LogTail(store)  # every catch-up's read; its pool opens at the first
        self._hints_paused_until = {"publish": 0.0, "schedule": 0.0}  # `_after_commit`

    async def close(self) -> None:
        await self.committer.close()
        await self.tail.close()

    # Entry points.

    async def create_game(
        self, command: CreateGame, creator: str, command_id: str | None = None
    ) -> Outcome:
        # A repeated creation must find the same game, so its id comes from the key.
        if command_id is None:
            game_id = uuid.uuid4().hex
        else:
            game_id = hashlib.sha256(f"{creator}\0{command_id}".encode()).hexdigest()[:32]
        event = create(command, creator)
        body = self.store.codec.encode_any(command) + creator.encode()
        return await self._run(game_id, lambda g: ([event], apply(g, event)), body,
                               f"player:{creator}", command_id, 0, creating=True)

    async def lobby(
        self,
        game_id: str,
        command: LobbyCommand,
        player_id: str,
        command_id: str | None = None,
        expected_version: int | None = None,
    ) -> Outcome:
        def decide(game: Game) -> tuple[list[AnyEvent], Game]:
            if game.status != "lobby" or game.lobby is None:
                raise RuleViolation("already_started", "The game has already started (to give "
                                    "up a seat in a running game, POST /resign).")
            new: list[AnyEvent] = list(decide_lobby(game.lobby, command, player_id))
            if isinstance(command, Start):
                assert game.state is not None
                events, state = execute(game.state, StartGame(self.master_seeds()), None)
                return new + list(events), replace(apply_all(game, new), state=state)
            return new, apply_all(game, new)

        body = self.store.codec.encode_any(command) + player_id.encode()
        return await self._run(game_id, decide, body, f"player:{player_id}", command_id,
                               expected_version)

    async def play(
        self,
        game_id: str,
        seat: int,
        command: SeatCommand,
        command_id: str | None = None,
        expected_version: int | None = None,
        *,
        actor: str | None = None,
        player_id: str | None = None,
        dry_run: bool = False,
    ) -> Outcome:
        """`player_id`: the player the seat must still belong to, checked on the state the
        command is decided on (a retry's fresh state included): another process may have
        handed the seat to a bot since the caller looked.

        `dry_run`: decide without committing, and only as far as the seat may see
        (`domain.preview`): a dry run must not become a peek at other hands or hidden piles."""
        partial = False

        def decide(game: Game) -> tuple[list[AnyEvent], Game]:
            nonlocal partial
            if game.status == "lobby" or game.state is None:
                raise RuleViolation("not_started", "The game has not started.")
            if player_id is not None and not game.held_by(seat, player_id):
                raise RuleViolation("not_seated", "The seat is no longer yours.")
            if dry_run:
                shown, partial = preview(game.state, command, seat)
                return list(shown), game
            events, state = execute(game.state, command, seat)
            return list(events), replace(game, state=state)

        body = self.store.codec.encode_any(command) + f"\0{seat}".encode()
        # A dry run commits nothing, so its key names nothing: it must not answer with the
        # committed outcome of an earlier command sent with that key.
        outcome = await self._run(game_id, decide, body, actor or f"seat:{seat}",
                                  None if dry_run else command_id, expected_version,
                                  dry_run=dry_run)
        return replace(outcome, partial=True) if partial and not outcome.committed else outcome

    async def take(
        self,
        game_id: str,
        decide: Decider,
        body: bytes,
        actor: str,
        command_id: str | None = None,
        expected_version: int | None = None,
    ) -> Outcome:
        """A decision of the service's own model (an expired clock, a resignation): the
        caller's decider, the same transaction, idempotency and after-commit hooks as every
        other command."""
        return await self._run(game_id, decide, body, actor, command_id, expected_version)

    async def load(self, game_id: str, *, fresh: bool = False) -> Game:
        """The game from the cache, or (`fresh`, or not cached) as of the log's end: a cached
        game is brought forward by the events after its version, which is all another process
        can have added (the log only grows), instead of folding the whole log again."""
        cached = self.cache.get(game_id) if self.cache is not None else None
        if cached is not None and not fresh:
            return cached
        if cached is not None:
            return self.catch_up(cached, await self.tail.after(game_id, cached.version))
        stored = await self.store.read_events(game_id)
        if not stored:
            raise GameNotFound(game_id)
        return self.catch_up(Game(game_id, created_at=stored[0].recorded_at), stored)

    async def at_version(self, game_id: str, version: int) -> Game:
        """The game as it stood at `version`, folded from the log (not cached): an audit's
        replay, or what a repeated command's first request answered."""
        stored = await self.store.read_events(game_id, 0, version)
        if not stored:
            raise GameNotFound(game_id)
        return fold_stored(Game(game_id, created_at=stored[0].recorded_at), stored)

    def catch_up(self, game: Game, newer: Sequence[StoredEvent]) -> Game:
        """`game` with the log's events after its version folded in (cached)."""
        if not newer:
            return game
        game = fold_stored(game, newer)
        if self.cache is not None:
            self.cache.put(game)
        return game

    # The pipeline.

    async def _run(
        self,
        game_id: str,
        decide: Decider,
        body: bytes,
        actor: str,
        command_id: str | None,
        expected_version: int | None,
        *,
        creating: bool = False,
        dry_run: bool = False,
    ) -> Outcome:
        # Only a command with an id is compared with a repeat of it (`_replay`).
        body_sha = hashlib.sha256(body).hexdigest() if command_id is not None else ""
        fresh = self.catch_up_first and not creating
        for _ in range(self.retries + 1):
            game = Game(game_id) if creating else await self.load(game_id, fresh=fresh)
            if expected_version is not None and game.version != expected_version:
                if not fresh and not creating:
                    fresh = True  # the cache may be behind another process's writes
                    continue
                return await self._conflict(game_id, command_id, body_sha, expected_version,
                                            game.version)
            try:
                new_events, after = decide(game)
            except RuleViolation:
                if self.cache is not None and not fresh and not creating:
                    fresh = True  # judged on cached state: another process may have moved on
                    continue
                replay = await self._replay(game_id, command_id, body_sha)
                if replay is not None:
                    return replay
                raise
            if dry_run or not new_events:
                return self._unsaved(game, new_events)
            at = datetime.now(UTC)
            batch = self.store.prepare(
                game_id, game.version, game.last_hash, new_events, command_id=command_id,
                body_sha256=body_sha, actor=actor, recorded_at=at,
            )
            after = advance(clocked(game, after, at), batch.stored[-1].version,
                            batch.stored[-1].hash, at)
            try:
                due = await self.committer.commit(
                    batch, after, lobby_unchanged=not creating and after.lobby is game.lobby)
            except AppendRejected:
                # Someone appended first: the same command (return its outcome) or another.
                replay = await self._replay(game_id, command_id, body_sha)
                if replay is not None:
                    return replay
                if expected_version is not None or creating:
                    raise await self._stale(game_id, game.version) from None
                fresh = True
                continue
            if self.cache is not None:
                self.cache.put(after)
            await self._after_commit(game_id, after.version, due)
            return Outcome(game_id, after.version, tuple(batch.stored))
        raise await self._stale(game_id, game.version)  # lost every race: others keep writing

    async def _stale(self, game_id: str, expected: int) -> VersionConflict:
        """The conflict, naming the version the game is at now (the 409 tells the client)."""
        async with self.store.read() as conn:
            current = await self.store.current_version(conn, game_id)
        return VersionConflict(game_id, expected, current)

    async def _after_commit(self, game_id: str, version: int, due: dict[str, Any] | None
                            ) -> None:
        """Tell the streams and the workers. Both are hints that may fail (Redis away) without
        failing the committed command, which a client would only retry: streams re-read the
        log on a timer, and the sweeper enqueues every overdue `due_work` row.

        After a hint fails, that hint is skipped for `HINT_PAUSE_S`: a Redis that stops
        answering held every command for its timeout (a second), and the RQ enqueue, which
        blocks, held the whole process."""
        await self._hint("publish", lambda: self.publisher.publish(game_id, version),
                         "could not publish version %d of game %s; streams will poll",
                         version, game_id)
        await self._hint("schedule", lambda: self.scheduler.schedule(game_id, due),
                         "could not schedule the due work of game %s; the sweeper will",
                         game_id)

    async def _hint(self, name: str, send: Callable[[], Awaitable[None]], failed: str,
                    *args: object) -> None:
        if time.monotonic() < self._hints_paused_until[name]:
            return
        try:
            await send()
        except Exception as exc:
            self._hints_paused_until[name] = time.monotonic() + HINT_PAUSE_S
            # One line: a Redis that is away fails every hint the same way.
            log.warning(failed + " (%s: %s)", *args, type(exc).__name__, exc)
            log.debug("the hint's failure", exc_info=True)

    async def _conflict(self, game_id: str, command_id: str | None, body_sha: str,
                        expected: int, current: int) -> Outcome:
        replay = await self._replay(game_id, command_id, body_sha)
        if replay is not None:
            return replay
        raise VersionConflict(game_id, expected, current)

    async def _replay(self, game_id: str, command_id: str | None, body_sha: str) -> Outcome | None:
        if command_id is None:
            return None
        async with self.store.read() as conn:
            record = await self.store.find_command(conn, game_id, command_id)
            if record is None:
                return None
            if record.body_sha256 != body_sha:
                raise IdempotencyKeyReused(game_id, command_id)
            stored = await self.store.load(conn, game_id, record.first_version - 1,
                                           record.last_version)
        return Outcome(game_id, record.last_version, tuple(stored), replayed=True)

    def _unsaved(self, game: Game, new_events: list[AnyEvent]) -> Outcome:
        codec, at = self.store.codec, datetime.now(UTC)
        stored = tuple(
            StoredEvent(game.game_id, game.version + 1 + i, codec.type_of(ev),
                        codec.schema_version(codec.type_of(ev)), ev,
                        visibility_of(ev), None, None, at, "")
            for i, ev in enumerate(new_events)
        )
        return Outcome(game.game_id, game.version + len(stored), stored, committed=False)
