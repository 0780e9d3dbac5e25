"""The one command pipeline: load → decide → append + project (one transaction) → publish →
schedule. HTTP routes and worker jobs both come through here.

Every entry point reduces to a *decider* (`deciders.py`): a pure function from the game to its
new events and the game they lead to. The pipeline owns everything else: loading the game,
the version check, idempotency, the transaction, retries, and the after-commit hooks.
"""

from __future__ import annotations

import contextlib
import functools
import hashlib
import secrets
import uuid
from collections.abc import Callable, Sequence
from datetime import UTC, datetime
from typing import NamedTuple

from msgspec.structs import replace

from cya_rules import RuleViolation
from cya_rules.commands import SeatCommand
from cya_rules.log.visibility import visibility_of
from cya_rules.table.talk import Reaction
from service.events.event_store import EventStore
from service.events.records import (
    AppendRejected,
    Batch,
    DamagedLog,
    GameNotFound,
    IdempotencyKeyReused,
    ReadModelRows,
    StoredEvent,
    VersionConflict,
)
from service.pipeline import deciders
from service.pipeline.deciders import Decided, Decider
from service.pipeline.hooks import CommitHints, CommitHooks, Publisher, Scheduler
from service.pipeline.outcome import Outcome, OutcomeStatus
from service.pipeline.publishers import LocalPublisher
from service.pipeline.state_cache import StateCache
from service.projections.rows import read_model_rows
from service.table.game import Game, advance, apply_at, clocked
from service.table.lobby_commands import CreateGame, LobbyCommand, TakeSeat, create


class _Command(NamedTuple):
    """What one command asks of the pipeline, the same for every attempt at it."""

    game_id: str
    decide: Decider
    body_sha: str  # of the command's body, for a command id's repeats ("" without an id)
    actor: str
    command_id: str | None
    expected_version: int | None
    creating: bool = False
    dry_run: bool = False


class _Prepared(NamedTuple):
    """A commit, ready: its events, the game they lead to, and every row written with them
    (the read models' and the outbox's)."""

    batch: Batch
    after: Game
    rows: ReadModelRows


class _Retry(NamedTuple):
    """Decide again on the game as of the log's end; `version`: the game's as this attempt
    loaded it."""

    version: int


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
        hooks: CommitHooks | Callable[[Pipeline], CommitHooks] | None = None,
        conflict_retries: int = 8,
        catch_up_first: bool = False,
        master_seeds: Callable[[], bytes] = lambda: secrets.token_bytes(32),
    ) -> None:
        """`hooks`: what the pipeline tells of its commits (None: nothing), or the function that
        builds them with it when the work they start runs its commands (a bot's move in this
        process)."""
        self.store = store
        # Replays and benchmarks pass fixed seeds; the server's are secret and fresh.
        self.master_seeds = master_seeds
        self.cache = cache
        self.publisher: Publisher = publisher or LocalPublisher()
        self.retries = conflict_retries
        # Other processes write this log too: decide on the game as of the log's end, one read
        # of the events past the cached version. Decided on a cached game that is behind, a
        # command's append fails, fails the group it was written with (whose every command is
        # then written alone), and is decided again.
        self.catch_up_first = catch_up_first
        # Last, once the rest is set: a hook built here keeps the pipeline for later.
        self.hooks = (CommitHooks() if hooks is None else
                      hooks if isinstance(hooks, CommitHooks) else hooks(self))
        self.scheduler: Scheduler = self.hooks.scheduler
        self.hints = CommitHints(self.publisher, self.scheduler,
                                 listeners=self.hooks.listeners)

    # Entry points.

    async def create_game(
        self, command: CreateGame, creator: str, command_id: str | None = None,
        *, master_seed: bytes | None = None,
    ) -> Outcome:
        """`master_seed`: the deal's seed, for a game the service itself opens (a tournament's
        table, dealt from the seed the tournament committed to: no client seeds); never a
        client's. Otherwise a fresh secret one, committed to in `game_created`."""
        # A repeated creation must find the same game, so its id comes from the key.
        if command_id is None:
            game_id = uuid.uuid4().hex
        else:
            game_id = hashlib.sha256(f"{creator}\0{command_id}".encode()).hexdigest()[:32]
        opening = create(command, creator, master_seed or self.master_seeds(),
                         client_seeds=master_seed is None)
        decide = functools.partial(deciders.creation, created=opening)
        # A client seed is the client's random draw, not part of what it asks: a repeat of the
        # key with a fresh one is the same command, answered with the first outcome.
        body = self.store.codec.encode_any(replace(command, client_seed=None)) + creator.encode()
        return await self._run(game_id, decide, body, f"player:{creator}", command_id, 0,
                               creating=True)

    async def lobby(self, game_id: str, command: LobbyCommand, player_id: str,
                    command_id: str | None = None, expected_version: int | None = None,
                    ) -> Outcome:
        """`Start` deals from the master seed committed to at creation (a game created before
        rules version 4, with none: a fresh secret one)."""
        decide = functools.partial(deciders.lobby_command, command=command,
                                   player_id=player_id, master_seed=self.master_seeds)
        asked = replace(command, client_seed=None) if isinstance(command, TakeSeat) else command
        body = self.store.codec.encode_any(asked) + player_id.encode()  # as in `create_game`
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
        """`player_id`: the player the seat must still belong to (`deciders.seat_command`).
        `dry_run`: decide without committing, as far as the seat may see."""
        decide = functools.partial(
            deciders.seat_command_preview if dry_run else deciders.seat_command,
            seat=seat, command=command, player_id=player_id)
        body = self.store.codec.encode_any(command) + f"\0{seat}".encode()
        # A dry run commits nothing, so its key names nothing: it must not answer with the
        # committed outcome of an earlier command sent with that key.
        return await self._run(game_id, decide, body, actor or f"seat:{seat}",
                               None if dry_run else command_id, expected_version,
                               dry_run=dry_run)

    async def resign(self, game_id: str, player_id: str, command_id: str | None = None
                     ) -> Outcome:
        decide = functools.partial(deciders.resignation, player_id=player_id)
        body = b"resign\0" + player_id.encode()
        return await self._run(game_id, decide, body, f"player:{player_id}", command_id, None)

    async def react(self, game_id: str, player_id: str, reaction: Reaction,
                    command_id: str | None = None) -> Outcome:
        """A preset reaction to the table (`table.talk`), decided at the time it is asked."""
        decide = functools.partial(deciders.reaction, player_id=player_id, reaction=reaction,
                                   now=datetime.now(UTC))
        body = f"react\0{reaction}\0{player_id}".encode()
        return await self._run(game_id, decide, body, f"player:{player_id}", command_id, None)

    async def take(self, game_id: str, decide: Decider, body: bytes, actor: str,
                   command_id: str | None = None, expected_version: int | None = None
                   ) -> Outcome:
        """A decision of the service's own (an expired clock): the caller's decider, the same
        transaction, idempotency and after-commit hooks as every other command."""
        return await self._run(game_id, decide, body, actor, command_id, expected_version)

    async def load(self, game_id: str, *, fresh: bool = False) -> Game:
        """The game from the cache, or (`fresh`, or not cached) as of the log's end: a cached
        game is brought forward by the events after its version, which is all another process
        can have added (the log only grows), instead of folding the whole log again."""
        cached = self.cache.get(game_id) if self.cache is not None else None
        if cached is not None and not fresh:
            return cached
        if cached is not None:
            return self.catch_up(cached, await self.store.tail(game_id, cached.version))
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

    def heard(self, game_id: str, events: Sequence[StoredEvent]) -> None:
        """Events a feed of this process took (committed here, carried by another process's
        publish, or read from the log): a cached game just behind them moves forward, and a
        command on a game followed here is then decided without the catch-up read
        (`StateCache.current`; a commit whose publish is still on its way makes the decision
        stale, and the append refuses it: it is decided again on the log's end)."""
        if self.cache is None or not events:
            return
        self.cache.follow(game_id, events[-1].version)
        cached = self.cache.get(game_id)
        if cached is not None and cached.version == events[0].version - 1:
            with contextlib.suppress(DamagedLog):  # the next command reads and reports it
                self.catch_up(cached, events)

    def unfollowed(self, game_id: str) -> None:
        """No feed of this process follows the game any more."""
        if self.cache is not None:
            self.cache.unfollow(game_id)

    def catch_up(self, game: Game, newer: Sequence[StoredEvent]) -> Game:
        """`game` with the log's events after its version folded in (cached)."""
        if not newer:
            return game
        game = fold_stored(game, newer)
        if self.cache is not None:
            self.cache.put(game)
        return game

    # The pipeline.

    async def _run(self, game_id: str, decide: Decider, body: bytes, actor: str,
                   command_id: str | None, expected_version: int | None, *,
                   creating: bool = False, dry_run: bool = False) -> Outcome:
        # Only a command with an id is compared with a repeat of it (`_replay`).
        body_sha = hashlib.sha256(body).hexdigest() if command_id is not None else ""
        command = _Command(game_id, decide, body_sha, actor, command_id, expected_version,
                           creating, dry_run)
        fresh = (self.catch_up_first and not creating
                 and (self.cache is None or self.cache.current(game_id) is None))
        for _ in range(self.retries + 1):
            attempt = await self._attempt(command, fresh)
            if isinstance(attempt, Outcome):
                return attempt
            fresh = True
        raise await self._stale(game_id, attempt.version)  # lost every race: others keep writing

    async def _attempt(self, command: _Command, fresh: bool) -> Outcome | _Retry:
        """Decide the command once on the game as loaded: its outcome (committed, replayed or
        previewed), or decide again on fresh state."""
        creating = command.creating
        game = Game(command.game_id) if creating else await self.load(command.game_id,
                                                                      fresh=fresh)
        # A cached game may be behind another process's writes: a verdict on it is retried.
        trust_cache = fresh or creating
        expected = command.expected_version
        if expected is not None and game.version != expected:
            if not trust_cache:
                return _Retry(game.version)
            replay = await self._replay(command)  # a repeat of a command that took effect
            if replay is not None:
                return replay
            raise VersionConflict(command.game_id, expected, game.version)
        try:
            decided = command.decide(game)
        except RuleViolation:
            if self.cache is not None and not trust_cache:
                return _Retry(game.version)
            replay = await self._replay(command)
            if replay is not None:
                return replay
            raise
        if command.dry_run or not decided.events:
            return self._unsaved(game, decided)
        return await self._commit(command, game, decided)

    async def _commit(self, command: _Command, game: Game, decided: Decided
                      ) -> Outcome | _Retry:
        """Prepare → commit → cache → notify: what follows from a commit is a listener
        (`CommitHooks`), never a branch here."""
        batch, after, rows = await self._prepare(command, game, decided)
        try:
            await self.store.commit(batch, rows)
        except AppendRejected:
            return await self._lost_race(command, game)
        if self.cache is not None:
            self.cache.put(after)
        await self.hints.notify(game, after, batch.stored, rows.due)
        return Outcome(command.game_id, after.version, tuple(batch.stored))

    async def _prepare(self, command: _Command, game: Game, decided: Decided) -> _Prepared:
        at = datetime.now(UTC)
        batch = self.store.prepare(
            command.game_id, game.version, game.last_hash, decided.events,
            command_id=command.command_id, body_sha256=command.body_sha, actor=command.actor,
            recorded_at=at,
        )
        last = batch.stored[-1]
        after = advance(clocked(game, decided.game, at), last.version, last.hash, at)
        rows = read_model_rows(after, lobby_changed=command.creating
                               or after.lobby is not game.lobby)
        # Like a projection, not a hint: a commit whose messages cannot be told (the
        # subscriptions unread, the database away) must not happen, since nothing would ever
        # owe them again. The command fails instead (a 503 the client retries).
        messages = await self.hooks.outbox.owed(game, after, batch.stored)
        return _Prepared(batch, after, replace(rows, messages=messages))

    async def _lost_race(self, command: _Command, game: Game) -> Outcome | _Retry:
        """Someone appended first: the same command (return its outcome) or another."""
        replay = await self._replay(command)
        if replay is not None:
            return replay
        if command.expected_version is not None or command.creating:
            raise await self._stale(command.game_id, game.version) from None
        return _Retry(game.version)

    async def _stale(self, game_id: str, expected: int) -> VersionConflict:
        """The conflict, naming the version the game is at now (the 409 tells the client)."""
        async with self.store.read() as conn:
            current = await self.store.current_version(conn, game_id)
        return VersionConflict(game_id, expected, current)

    async def _replay(self, command: _Command) -> Outcome | None:
        if command.command_id is None:
            return None
        async with self.store.read() as conn:
            record = await self.store.find_command(conn, command.game_id, command.command_id)
            if record is None:
                return None
            if record.body_sha256 != command.body_sha:
                raise IdempotencyKeyReused(command.game_id, command.command_id)
            stored = await self.store.load(conn, command.game_id, record.first_version - 1,
                                           record.last_version)
        return Outcome(command.game_id, record.last_version, tuple(stored),
                       OutcomeStatus.REPLAYED)

    def _unsaved(self, game: Game, decided: Decided) -> Outcome:
        codec, at = self.store.codec, datetime.now(UTC)
        stored = tuple(
            StoredEvent(game.game_id, game.version + 1 + i, codec.type_of(ev),
                        codec.schema_version(codec.type_of(ev)), ev,
                        visibility_of(ev), None, None, at, "")
            for i, ev in enumerate(decided.events)
        )
        status = OutcomeStatus.PREVIEWED_IN_PART if decided.partial else OutcomeStatus.PREVIEWED
        return Outcome(game.game_id, game.version + len(stored), stored, status)
