"""Every problem code's exception, raised by a real server's answer: the embedded server, and
one on a database not yet migrated with a tiny rate limit (for 503 and 429)."""

from __future__ import annotations

import sqlite3
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import get_args

import pytest
from cya_client import NO_RETRIES, Client, ProblemError, errors, models
from cya_client.models import Concede, Discard

from tests.processes import running_apis

from .conftest import Server, embedded_env, player, sqlite_url


@dataclass
class Scene:
    server: Server
    broken: str  # a server on an unmigrated database, 3 requests a minute
    ann: Client  # seat 0 of `game`, a two-player game of people, dealt; creator
    bob: Client  # seat 1 of `game`
    carol: Client  # in no game
    game: str
    private: str  # ann's private game against a bot, dealt
    lobby: str  # ann's public game, not dealt, bob seated

    def awaited(self) -> tuple[Client, Client, models.Turn]:
        """The seat whose decision it is, the other, and the turn."""
        turn = self.ann.play.turn(self.game, timeout=0)
        if turn.legal_commands:
            return self.ann, self.bob, turn
        return self.bob, self.ann, self.bob.play.turn(self.game, timeout=0)


def _new(client: Client, bots: list[str], public: bool = True, players: int = 2) -> str:
    return client.games.create(models.NewGame(
        ruleset=models.RuleSet(players=players, end_mode="quick"),
        bots=[models.BotSpec(level=b) for b in bots], public=public)).game_id  # type: ignore[misc]


@pytest.fixture(scope="module")
def scene(embedded: Server, tmp_path_factory: pytest.TempPathFactory) -> Iterator[Scene]:
    folder = tmp_path_factory.mktemp("sdk-broken")
    env = embedded_env(sqlite_url(folder / "never-migrated.sqlite3"),
                       CYA_RATE_LIMIT_PER_MINUTE="3")
    ann, bob, carol = (player(embedded.url, n) for n in ("ann", "bob", "carol"))
    game = _new(ann, [])
    bob.games.join(game)
    ann.games.start(game)
    private = _new(ann, ["random"], public=False)
    ann.games.start(private)
    lobby = _new(ann, [], players=3)
    bob.games.join(lobby)
    with running_apis(env, folder) as apis:
        yield Scene(embedded, apis[0].url, ann, bob, carol, game, private, lobby)


def _damaged(scene: Scene) -> None:
    game = _new(scene.ann, ["random"])
    version = scene.ann.games.start(game).version
    assert scene.server.database is not None and version >= 3
    with sqlite3.connect(scene.server.database) as db:  # someone changed a stored event
        db.execute("UPDATE events SET type = 'bogus' WHERE game_id = ? AND version = ?",
                   (game, version - 1))
    scene.ann.audit.state(game, version)


def _rate_limited(scene: Scene) -> None:
    with Client(scene.broken, "unknown-key", retry=NO_RETRIES) as client:
        for _ in range(10):
            try:
                client.players.me()
            except errors.DatabaseUnavailable:
                continue


def _too_many_reactions(scene: Scene) -> None:
    """Two reactions of one seat at once: the second comes before the server's pace allows
    (without retries: the client would wait out the Retry-After and send it again)."""
    with Client(scene.server.url, scene.ann.api_key, retry=NO_RETRIES) as ann:
        for _ in range(2):
            ann.play.react(scene.game, "oops")


def _tournament(scene: Scene, public: bool = True) -> str:
    """Ann's tournament of two players (who will not play it soon: it stays running)."""
    return scene.ann.tournaments.create(models.NewTournament(
        format="round_robin", ruleset=models.RuleSet(players=2), public=public,
        entrants=[models.PlayerEntrant(player_id=scene.ann.players.me().player_id),
                  models.PlayerEntrant(player_id=scene.bob.players.me().player_id)],
    )).tournament_id


def _delayed_state(scene: Scene) -> None:
    """Carol, a watcher, asks for the state of a game with a spectator delay as it is now."""
    game = scene.ann.games.create(models.NewGame(
        ruleset=models.RuleSet(players=2), spectator_delay=5)).game_id
    scene.bob.games.join(game)
    version = scene.ann.games.start(game).version  # people only: it waits for them
    scene.carol.audit.state(game, version)


def _reused_key(scene: Scene) -> None:
    me, _, turn = scene.awaited()
    me.play.send(scene.game, turn.legal_commands[0], idempotency_key="once")
    me.play.send(scene.game, Concede(), idempotency_key="once")


def _stale(scene: Scene) -> None:
    me, _, turn = scene.awaited()
    me.play.send(scene.game, turn.legal_commands[0], if_match=turn.version - 1)


# A public address: registering it sends nothing (carol sits in no game, so nothing is owed).
PUBLIC_HOOK = "http://93.184.215.14/hook"


def _too_many_subscriptions(scene: Scene) -> None:
    for _ in range(11):
        scene.carol.webhooks.subscribe(PUBLIC_HOOK, ["game_finished"])


def _challenge(scene: Scene, to: Client | None) -> str:
    """Ann's two-player challenge, to `to` or open."""
    return scene.ann.challenges.create(models.NewChallenge(
        ruleset=models.RuleSet(players=2),
        to=None if to is None else to.players.me().player_id)).challenge_id


def _cancelled_challenge(scene: Scene) -> None:
    challenge = _challenge(scene, scene.bob)
    scene.ann.challenges.cancel(challenge)
    scene.bob.challenges.accept(challenge)


def _matched_seek(scene: Scene) -> None:
    kind = models.NewSeek(players=2, edition="classic_2011", rating_range=1000)
    first = scene.carol.matchmaking.seek(kind)
    scene.bob.matchmaking.seek(kind)
    scene.carol.matchmaking.cancel(first.seek_id)


PROVOKE: dict[type[ProblemError], Callable[[Scene], object]] = {
    errors.MalformedRequest: lambda s: s.ann.games.list(status="bogus"),
    errors.Unauthorized: lambda s: Client(s.server.url, "not-a-key").players.me(),
    errors.NotSeated: lambda s: s.carol.play.turn(s.game, timeout=0),
    errors.PrivateGame: lambda s: s.carol.games.get(s.private),
    errors.NotCreator: lambda s: s.bob.games.add_bot(s.lobby),
    errors.GameNotFinished: lambda s: list(s.ann.audit.history(s.game)),
    errors.GameNotStarted: lambda s: list(s.ann.audit.history(s.lobby)),
    errors.GameNotFound: lambda s: s.ann.games.get("no-such-game"),
    errors.TournamentNotFound: lambda s: s.ann.tournaments.get("no-such-tournament"),
    errors.PrivateTournament: lambda s: s.carol.tournaments.get(_tournament(s, public=False)),
    errors.TournamentNotFinished: lambda s: s.ann.tournaments.verify(_tournament(s)),
    errors.VersionNotFound: lambda s: s.ann.audit.state(s.game, 10_000),
    errors.SpectatorDelay: _delayed_state,
    errors.PlayerNotFound: lambda s: s.ann.ratings.player("no-such-player"),
    errors.NotFound: lambda s: s.ann.request("GET", "/v1/no-such-route"),
    errors.BotEndpointNotFound: lambda s: s.carol.webhooks.bot(),
    errors.SubscriptionNotFound: lambda s: s.carol.webhooks.subscription("sub_none"),
    errors.MessageNotFound: lambda s: s.carol.webhooks.redeliver(
        s.carol.webhooks.subscribe(PUBLIC_HOOK, ["events"]).subscription_id, "msg_none"),
    errors.TooManySubscriptions: _too_many_subscriptions,
    errors.WebhookUrlRefused: lambda s: s.carol.webhooks.register_bot("http://127.0.0.1/"),
    errors.MethodNotAllowed: lambda s: s.ann.request("DELETE", "/v1/players"),
    errors.NotYourDecision: lambda s: s.awaited()[1].play.send(s.game, Concede()),
    errors.StaleVersion: _stale,
    errors.IdempotencyKeyReused: _reused_key,
    errors.BodyTooLarge: lambda s: s.ann.request("POST", "/v1/players",
                                                 content=b'{"name": "' + b"x" * 70_000 + b'"}'),
    errors.RuleViolation: lambda s: s.awaited()[0].play.send(s.game,
                                                             Discard(card="no_such#1")),
    errors.DamagedLog: _damaged,
    # Before the 429: the broken server's 3 requests a minute are its address's, for both.
    errors.DatabaseUnavailable: lambda s: Client(s.broken, retry=NO_RETRIES).players.create(),
    errors.RateLimited: _rate_limited,
    errors.TooManyReactions: _too_many_reactions,
    errors.OwnChallenge: lambda s: s.ann.challenges.accept(_challenge(s, None)),
    errors.NotChallenged: lambda s: s.carol.challenges.accept(_challenge(s, s.bob)),
    errors.NotChallenger: lambda s: s.bob.challenges.cancel(_challenge(s, s.bob)),
    errors.ChallengeNotOpen: _cancelled_challenge,
    errors.OpenChallenge: lambda s: s.bob.challenges.decline(_challenge(s, None)),
    errors.ChallengeYourself: lambda s: _challenge(s, s.ann),
    errors.SeatsMismatch: lambda s: s.ann.challenges.create(models.NewChallenge(
        ruleset=models.RuleSet(players=3))),
    errors.NotYourSeek: lambda s: s.bob.matchmaking.cancel(s.carol.matchmaking.seek(
        models.NewSeek(players=6, edition="de_2024")).seek_id),
    errors.SeekNotWaiting: _matched_seek,
}


# A fault of the server's: no request provokes it on purpose.
UNPROVOKED = {errors.InternalError}


def test_given_every_code_the_client_knows_then_each_is_provoked_below():
    assert set(PROVOKE) == set(errors.BY_CODE.values()) - UNPROVOKED


@pytest.mark.parametrize("expected", list(PROVOKE), ids=lambda cls: cls.CODE)
def test_given_a_real_server_answer_then_its_code_raises_its_own_exception(
        scene: Scene, expected: type[ProblemError]):
    with pytest.raises(ProblemError) as raised:
        PROVOKE[expected](scene)

    problem = raised.value
    assert type(problem) is expected, problem
    assert problem.code == expected.CODE and problem.status >= 400 and problem.detail
    if expected is errors.RuleViolation:
        assert problem.rule and problem.legal_commands
        assert all(isinstance(c, get_args(models.Command)) for c in problem.legal_commands)
    if expected is errors.StaleVersion:
        assert problem.current_version is not None
    if expected is errors.MalformedRequest:
        assert problem.errors
    if expected in (errors.RateLimited, errors.DatabaseUnavailable, errors.TooManyReactions):
        assert problem.retry_after is not None and problem.retry_after >= 1


def test_given_the_problem_fields_then_they_survive_as_the_server_sent_them(scene: Scene):
    with pytest.raises(errors.GameNotFound) as raised:
        scene.ann.games.get("no-such-game")

    assert raised.value.problem.type.endswith("game-not-found")
    assert raised.value.title and raised.value.status == 404
    assert Path(raised.value.problem.type).name == "game-not-found"
