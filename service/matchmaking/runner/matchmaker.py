"""The matchmaker: challenges and seeks kept in the database, paired in one transaction per
kind, and each accepted challenge or match opened as an ordinary game through the pipeline
(`create_game` with its seats, then `Start`), as the HTTP lobby does.

A game's commands carry ids derived from the challenge or match, so opening it again (after a
crash between the commit that matched and the game, found by `repair`) opens the same game.
"""

from __future__ import annotations

import asyncio
import hashlib
import logging
import time
import uuid
from collections.abc import Sequence
from datetime import UTC, datetime, timedelta

import msgspec
from sqlalchemy.exc import IntegrityError

from cya_rules import RuleSet, RuleViolation
from cya_rules.table.seats import BotLevel, HumanSeat
from service.events.event_store import EventStore
from service.matchmaking.challenges import (
    Challenge,
    ChallengeRefused,
    ChallengeStatus,
    check_accept,
    check_cancel,
    check_decline,
    check_new,
    seats_of,
)
from service.matchmaking.news import MatchNews, challenge_news, seek_news
from service.matchmaking.runner import rows
from service.matchmaking.runner.arena import seek_for_arena
from service.matchmaking.runner.pairing import CoalescedPairing
from service.matchmaking.seeks import Kind, Seek, SeekStatus, pair
from service.pipeline import Pipeline
from service.projections.leaderboard import ratings_of
from service.projections.ratings import family_of, ordinal
from service.table.lobby_commands import CreateGame, Start

log = logging.getLogger(__name__)
# The players' news hints (in place of a game id): a challenge of theirs changed, or a seek.
CHALLENGE_NEWS, SEEK_NEWS = "matchmaking-challenge", "matchmaking-seek"
NEWS_KEYS = frozenset({CHALLENGE_NEWS, SEEK_NEWS})
QUICK_PLAY_TURN_CLOCK = 60  # seconds: a matched game must not wait for an absent seeker
REPAIR_AFTER = timedelta(seconds=5)
# How often a tick also looks for games a stopped process left unopened (older than
# REPAIR_AFTER anyway): the ticks between cost one query, seekers or not.
REPAIR_EVERY_S = 1.0
RECENT = timedelta(minutes=1)
OPEN_AT_ONCE = 32  # games this process opens at once


class NotFound(KeyError):
    """No challenge or seek has this id."""


def request_digest(*parts: object) -> str:
    """What an Idempotency-Key's first request asked, to refuse its reuse for another."""
    return hashlib.sha256(msgspec.json.encode(parts)).hexdigest()


def keyed_id(player_id: str, key: str | None) -> str:
    """A new id; with an Idempotency-Key, one derived from (player, key)."""
    if key is None:
        return uuid.uuid4().hex
    return hashlib.sha256(f"{player_id}\0{key}".encode()).hexdigest()[:32]


class KeyReused(Exception):
    """The Idempotency-Key was used for a different request."""


class Matchmaker:
    def __init__(self, pipeline: Pipeline, widen_per_s: float, *, arena_players: int = 0
                 ) -> None:
        self.pipeline = pipeline
        self.store: EventStore = pipeline.store
        self.widen_per_s = widen_per_s
        self.arena_players = arena_players  # 0: no standing arena
        self.pairing = CoalescedPairing(self.pair_kind)
        self._opening: dict[str, asyncio.Task[None]] = {}  # by seek id: its match's game
        self._gate = asyncio.Semaphore(OPEN_AT_ONCE)
        self._repaired_at = -REPAIR_EVERY_S  # monotonic: the first tick repairs

    # Challenges.

    async def challenge(self, challenger: str, challenged: str | None, ruleset: RuleSet,
                        turn_clock: int | None, rated: bool, seat: int,
                        bots: tuple[BotLevel, ...], key: str | None) -> Challenge:
        check_new(challenger, challenged, ruleset, seat, bots)
        now = datetime.now(UTC)
        c = Challenge(keyed_id(challenger, key), challenger, challenged, ruleset, turn_clock,
                      rated, seat, bots, ChallengeStatus.OPEN, now, now)
        request = request_digest(challenged, ruleset, turn_clock, rated, seat, bots)
        try:
            async with self.store.write() as conn:
                await rows.insert_challenge(conn, c, request)
        except IntegrityError:  # the same key again: the first challenge, if it asked this
            async with self.store.read() as conn:
                row = await rows.challenge_row(conn, c.challenge_id)
            if row is None or row.request_sha256 != request:
                raise KeyReused from None
            return rows.challenge_of(row)
        if challenged is not None:
            await self._tell(challenged)
        return c

    async def get_challenge(self, challenge_id: str) -> Challenge:
        async with self.store.read() as conn:
            row = await rows.challenge_row(conn, challenge_id)
        if row is None:
            raise NotFound(challenge_id)
        return rows.challenge_of(row)

    async def open_challenges(self, limit: int) -> list[Challenge]:
        async with self.store.read() as conn:
            return await rows.open_challenges(conn, limit)

    async def accept(self, challenge_id: str, player_id: str) -> Challenge:
        c = await self.get_challenge(challenge_id)
        if c.status == ChallengeStatus.ACCEPTED and c.accepted_by == player_id:
            return await self._open_challenge_game(c)  # a retry: the same game
        check_accept(c, player_id)
        now = datetime.now(UTC)
        async with self.store.write() as conn:
            won = await rows.move_challenge(conn, challenge_id, ChallengeStatus.ACCEPTED, now,
                                            accepted_by=player_id)
        if not won:  # another accept, a decline or a cancel came first
            fresh = await self.get_challenge(challenge_id)
            if fresh.accepted_by != player_id:
                return self._refuse_moved(fresh)
            return await self._open_challenge_game(fresh)  # our own retry won
        accepted = msgspec.structs.replace(c, status=ChallengeStatus.ACCEPTED,
                                           accepted_by=player_id, updated_at=now)
        return await self._open_challenge_game(accepted)

    def _refuse_moved(self, c: Challenge) -> Challenge:
        raise ChallengeRefused(409, "challenge_not_open", f"The challenge is {c.status}.")

    async def decline(self, challenge_id: str, player_id: str, reason: str | None
                      ) -> Challenge:
        return await self._close(challenge_id, player_id, ChallengeStatus.DECLINED, reason)

    async def cancel(self, challenge_id: str, player_id: str) -> Challenge:
        return await self._close(challenge_id, player_id, ChallengeStatus.CANCELLED, None)

    async def _close(self, challenge_id: str, player_id: str, to: ChallengeStatus,
                     reason: str | None) -> Challenge:
        c = await self.get_challenge(challenge_id)
        if c.status == to and (c.challenged if to == ChallengeStatus.DECLINED
                               else c.challenger) == player_id:
            return c  # a retry: already done
        (check_decline if to == ChallengeStatus.DECLINED else check_cancel)(c, player_id)
        now = datetime.now(UTC)
        async with self.store.write() as conn:
            if not await rows.move_challenge(conn, challenge_id, to, now, reason=reason):
                return self._refuse_moved(await self.get_challenge(challenge_id))
        await self._tell(c.challenger)
        return msgspec.structs.replace(c, status=to, reason=reason, updated_at=now)

    async def _open_challenge_game(self, c: Challenge) -> Challenge:
        assert c.accepted_by is not None
        if c.game_id is None:
            command = CreateGame(c.ruleset, seats_of(c, c.accepted_by), c.turn_clock,
                                 rated=c.rated)
            game_id = await self._open_game(command, c.challenger, f"challenge:{c.challenge_id}")
            now = datetime.now(UTC)
            async with self.store.write() as conn:
                await rows.set_challenge_game(conn, c.challenge_id, game_id, now)
            c = msgspec.structs.replace(c, game_id=game_id, updated_at=now)
        await self._tell(c.challenger, c.accepted_by)
        return c

    async def _open_game(self, command: CreateGame, creator: str, key: str) -> str:
        """The game, created and dealt; the same one however often this runs."""
        created = await self.pipeline.create_game(command, creator, key)
        try:
            await self.pipeline.lobby(created.game_id, Start(), creator, f"{key}:start")
        except RuleViolation as exc:  # dealt by an earlier run
            log.info("%s: %r", key, exc)
        return created.game_id

    # Quick play.

    async def seek(self, player_id: str, kind: Kind, rating_range: float, key: str | None
                   ) -> Seek:
        async with self.store.read() as conn:
            ratings = await ratings_of(conn, f"player:{player_id}")
        family = family_of(kind.players)
        rating = next((ordinal(r.mu, r.sigma) for r in ratings if r.family == family), 0.0)
        s = Seek(keyed_id(player_id, key), player_id, kind, rating, rating_range,
                 datetime.now(UTC))
        request = request_digest(kind, rating_range)
        try:
            async with self.store.write() as conn:
                await rows.insert_seek(conn, s, request)
        except IntegrityError:
            async with self.store.read() as conn:
                row = await rows.seek_row(conn, s.seek_id)
            if row is None or row.request_sha256 != request:
                raise KeyReused from None
            return rows.seek_of(row)
        await self.pairing.pair(kind)
        opening = self._opening.get(s.seek_id)
        if opening is not None:  # matched at once: answer with its game
            await asyncio.shield(opening)
        return await self.get_seek(s.seek_id)

    async def get_seek(self, seek_id: str) -> Seek:
        async with self.store.read() as conn:
            row = await rows.seek_row(conn, seek_id)
        if row is None:
            raise NotFound(seek_id)
        return rows.seek_of(row)

    async def cancel_seek(self, seek_id: str, player_id: str) -> Seek:
        s = await self.get_seek(seek_id)
        if s.player_id != player_id:
            raise ChallengeRefused(403, "not_your_seek", "The seek is another player's.")
        async with self.store.write() as conn:
            cancelled = await rows.cancel_seek(conn, seek_id, datetime.now(UTC))
        if not cancelled and s.status != SeekStatus.CANCELLED:
            raise ChallengeRefused(409, "seek_not_waiting",
                                   "The seek was matched already: its game is dealt.")
        return await self.get_seek(seek_id)

    async def pair_kind(self, kind: Kind) -> int:
        """One pairing transaction for the kind; how many matches. Their games open beside
        it (`_opening`): the next pass need not wait for them, and a seeker's own request
        waits for its own game only."""
        now = datetime.now(UTC)
        async with self.store.write() as conn:
            groups = pair(await rows.lock_waiting(conn, kind), now, self.widen_per_s)
            matches = [(uuid.uuid4().hex, g) for g in groups]
            for match_id, group in matches:
                await rows.mark_matched(conn, group, match_id, now)
        for match_id, group in matches:
            task = asyncio.get_running_loop().create_task(self._open_soon(match_id, group))
            for s in group:
                self._opening[s.seek_id] = task
        return len(matches)

    async def _open_soon(self, match_id: str, group: tuple[Seek, ...]) -> None:
        try:
            async with self._gate:  # a burst's pass makes many matches: some at a time
                await self._open_match_game(match_id, group)
        except Exception:  # `tick` opens it again (`rows.unopened_matches`)
            log.warning("match %s: its game did not open", match_id, exc_info=True)
        finally:
            for s in group:
                self._opening.pop(s.seek_id, None)

    async def _open_match_game(self, match_id: str, group: Sequence[Seek]) -> None:
        seekers = sorted(group, key=lambda s: s.seek_id)  # seats in no one's favour
        kind = group[0].kind
        ruleset = RuleSet(players=kind.players, edition=kind.edition,  # type: ignore[arg-type]
                          end_mode=kind.end_mode)  # type: ignore[arg-type]
        command = CreateGame(ruleset, tuple(HumanSeat(s.player_id) for s in seekers),
                             QUICK_PLAY_TURN_CLOCK, rated=kind.rated)
        oldest = min(group, key=lambda s: s.created_at)
        game_id = await self._open_game(command, oldest.player_id, f"match:{match_id}")
        async with self.store.write() as conn:
            await rows.set_match_game(conn, match_id, game_id, datetime.now(UTC))
        await self._tell(*(s.player_id for s in group), key=SEEK_NEWS)

    async def tick(self) -> int:
        """Pair every kind that has seekers waiting (their ranges widen with time), and, at
        most every `REPAIR_EVERY_S`, open the games a stopped process left unopened; how
        many stalled games it opened. With a standing arena, its bots seek first."""
        if self.arena_players:
            await seek_for_arena(self.store, self.arena_players)
        async with self.store.read() as conn:
            kinds = await rows.waiting_kinds(conn)
        for kind in kinds:
            await self.pairing.pair(kind)
        if time.monotonic() - self._repaired_at < REPAIR_EVERY_S:
            return 0
        self._repaired_at = time.monotonic()
        async with self.store.read() as conn:
            before = datetime.now(UTC) - REPAIR_AFTER
            stalled = await rows.unopened_matches(conn, before)
            accepts = await rows.unopened_accepts(conn, before)
        for match_id, group in stalled.items():
            await self._open_match_game(match_id, group)
        for c in accepts:
            await self._open_challenge_game(c)
        return len(stalled) + len(accepts)

    async def news(self, player_id: str, since: datetime | None, *, seeks_only: bool = False
                   ) -> list[MatchNews]:
        """What the player's stream tells of its challenges and seeks changed since `since`;
        from the start of a stream (None), open challenges to it and what became a game in
        the last `RECENT`. `seeks_only`: a seek's hint (one query, not four)."""
        after = since or datetime.now(UTC) - RECENT
        found: list[Challenge] = []
        async with self.store.read() as conn:
            if not seeks_only:
                found = await rows.challenges_of(conn, player_id, after)
            mine = await rows.seeks_of(conn, player_id, after)
            if since is None:
                found += await rows.challenges_of(conn, player_id, None)
        news = [n for c in found if (n := challenge_news(c, player_id)) is not None]
        return news + [n for s, at in mine if (n := seek_news(s, at)) is not None]

    async def _tell(self, *players: str | None, key: str = CHALLENGE_NEWS) -> None:
        told = sorted({p for p in players if p is not None})
        try:
            await self.pipeline.publisher.publish(key, 0, told)
        except Exception:  # a hint: streams also look again on their own (player_feeds)
            log.warning("matchmaking news for %s not published", told, exc_info=True)
