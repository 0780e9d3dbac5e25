"""The lobby's life through the pipeline, the scheduling hook, and the read-model queries."""

from __future__ import annotations

import msgspec
import pytest

from cya_rules import GameView, RuleViolation
from cya_rules.table.seats import BotSeat, TimeoutPolicy
from service.pipeline import Pipeline
from service.pipeline.hooks import CommitHooks
from service.projections.due import overdue
from service.projections.games import LobbyFilter, game_access, lobby_page
from service.projections.seat_views import body_from_rows, view_rows
from service.table.clock import DueWork
from service.table.lobby_commands import AddBot, CreateGame, LeaveSeat, Start, TakeSeat

from .scenarios import QUICK4, started_game


class RecordingScheduler:
    """A hand-written fake: remembers what the pipeline asked to schedule."""

    def __init__(self) -> None:
        self.calls: list[tuple[str, DueWork | None]] = []

    def start(self) -> None:
        return None

    async def schedule(self, game_id: str, due: DueWork | None) -> None:
        self.calls.append((game_id, due))

    async def close(self) -> None:
        return None


async def test_a_lobby_fills_and_starts_only_when_full_and_by_its_creator(services):
    p = services.pipeline
    game_id = (await p.create_game(CreateGame(QUICK4), "host")).game_id
    await p.lobby(game_id, TakeSeat(seat=2), "alice")
    await p.lobby(game_id, TakeSeat(), "bob")
    await p.lobby(game_id, LeaveSeat(), "bob")

    with pytest.raises(RuleViolation) as err:
        await p.lobby(game_id, Start(), "host")
    assert err.value.code == "seats_open"
    with pytest.raises(RuleViolation) as err:
        await p.lobby(game_id, AddBot(), "alice")
    assert err.value.code == "not_creator"

    for _ in range(3):
        await p.lobby(game_id, AddBot("greedy"), "host")
    with pytest.raises(RuleViolation):
        await p.lobby(game_id, Start(), "alice")
    started = await p.lobby(game_id, Start(), "host")

    assert [e.type for e in started.events[:2]] == ["game_started", "round_started"]
    game = await p.load(game_id, fresh=True)
    assert game.status == "playing" and game.lobby.seat_of("alice") == 2
    with pytest.raises(RuleViolation) as err:
        await p.lobby(game_id, TakeSeat(), "carol")
    assert err.value.code == "already_started"


@pytest.mark.parametrize(("command", "code"), [
    (CreateGame(QUICK4, turn_clock=0), "invalid_clock"),
    (CreateGame(QUICK4, timeout_policy=TimeoutPolicy(hand_over_after=0)), "invalid_timeout_policy"),
    (CreateGame(QUICK4, seats=(BotSeat("random"),) * 5), "too_many_seats"),
])
async def test_a_game_that_could_not_be_played_as_asked_is_not_created(services, command, code):
    with pytest.raises(RuleViolation) as err:
        await services.pipeline.create_game(command, "host")
    assert err.value.code == code


async def test_creating_twice_with_one_key_finds_the_same_game(services):
    p = services.pipeline
    first = await p.create_game(CreateGame(QUICK4), "host", command_id="create-1")
    again = await p.create_game(CreateGame(QUICK4), "host", command_id="create-1")
    assert again.replayed and again.game_id == first.game_id and again.version == 1


async def test_after_each_commit_the_scheduler_hears_what_is_due(services):
    scheduler = RecordingScheduler()
    p = Pipeline(services.store, hooks=CommitHooks(scheduler))
    game_id = await started_game(p, humans=1, clock=60)
    calls = [c for c in scheduler.calls if c[0] == game_id]
    assert calls[0][1] is None  # in the lobby nothing is due
    due = calls[-1][1]
    game = await p.load(game_id)
    seat = game.state.pending_seats()[0]
    assert due.seat == seat and due.version == game.version
    assert due.kind == ("deadline" if seat == 0 else "bot_turn")


class RecordingListener:
    """A hand-written fake: remembers each commit it is told of, or fails at each."""

    def __init__(self, name: str, told: list[tuple[str, int, int]], *, fails: bool = False
                 ) -> None:
        self.name, self.told, self.fails = name, told, fails

    async def committed(self, before, after, stored) -> None:
        self.told.append((self.name, before.version, after.version))
        assert [s.version for s in stored] == list(range(before.version + 1, after.version + 1))
        if self.fails:
            raise RuntimeError("a listener that fails")


async def test_after_each_commit_the_listeners_are_told_in_order_and_a_failing_one_silences_none(
        services):
    told: list[tuple[str, int, int]] = []
    scheduler = RecordingScheduler()
    listeners = (RecordingListener("failing", told, fails=True),
                 RecordingListener("second", told), RecordingListener("third", told))
    p = Pipeline(services.store, hooks=CommitHooks(scheduler, listeners=listeners))

    game_id = await started_game(p, humans=1)
    version = (await p.load(game_id)).version

    # The failing one is told of the first commit, then left alone for a while (a hint that
    # fails is paused); the others hear of every commit, in order, each once.
    assert told[:3] == [("failing", 0, 1), ("second", 0, 1), ("third", 0, 1)]
    later = told[3:]
    commits = [(v, w) for _, v, w in later[::2]]
    assert later == [(name, v, w) for v, w in commits for name in ("second", "third")]
    assert [v for v, _ in commits] == [1] + [w for _, w in commits[:-1]]
    assert commits[-1][1] == version
    assert len([c for c in scheduler.calls if c[0] == game_id]) == 1 + len(commits)


async def test_reads_serve_the_stored_views_the_lobby_and_due_work(services):
    p = services.pipeline
    game_id = await started_game(p)
    # Three games of one creator (started_game's, "p0"), one of them private.
    waiting = (await p.create_game(CreateGame(QUICK4, seats=(BotSeat(),)), "p0")).game_id
    await p.create_game(CreateGame(QUICK4, public=False), "p0")
    game = await p.load(game_id)

    store = services.store
    seat_version, seat_view = body_from_rows(game_id, 1, await view_rows(store, game_id, 1))
    _, spectator = body_from_rows(game_id, None, await view_rows(store, game_id, None))
    async with store.read() as conn:
        lobby, _ = await lobby_page(store, conn, LobbyFilter(status="lobby"))
        everything, more = await lobby_page(store, conn, LobbyFilter(mine="p0"), limit=2)
        older, _ = await lobby_page(store, conn, LobbyFilter(mine="p0"), after=(
            everything[-1].row.created_at, everything[-1].game_id))
        access = await game_access(conn, game_id)
    now_due = await overdue(store, grace_s=-1)

    assert seat_version == game.version == access.version
    assert _view_in(seat_view).hand == game.state.hands[1]
    assert _view_in(spectator).hand is None
    assert [g.game_id for g in lobby] == [waiting]
    assert len(everything) == 2 and more and len(older) == 1
    assert [(d.game_id, d.kind) for d in now_due] == [(game_id, "bot_turn")]


async def test_recorded_versions_are_each_asked_games_row_and_leave_out_the_unknown(services):
    p = services.pipeline
    started = await started_game(p)
    waiting = (await p.create_game(CreateGame(QUICK4), "p0")).game_id
    versions = {g: (await p.load(g, fresh=True)).version for g in (started, waiting)}

    found = await services.store.recorded_versions([started, "no-such-game", waiting])
    one = await services.store.recorded_versions([waiting])

    assert found == versions and versions[started] > versions[waiting]
    assert one == {waiting: versions[waiting]}
    assert await services.store.recorded_versions([]) == {}


def _view_in(body: bytes) -> GameView:
    """The view a `GET /view` body carries."""
    return msgspec.convert(msgspec.json.decode(body)["view"], GameView)
