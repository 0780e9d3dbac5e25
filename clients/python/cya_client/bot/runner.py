"""The bot runner: a bot is one function, `choose(view, legal) -> command`; the runner does the
rest. Per own decision it makes one request: the turn arrives inline in the player's news
stream (`your_turn`), and the command goes out with `POST /commands`. (`play_by_turns` is the
other documented loop: `GET /turn`, one wait, then the command.)

The news stream is read on the calling thread; lobby work that waits (starting a game once
its seats are full, scanning the lobby for open seats) runs on one helper thread.
"""

from __future__ import annotations

import contextlib
import logging
import threading
import time
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field

import msgspec

from cya_client.bot.seeking import Seeking
from cya_client.client import Client
from cya_client.errors import NotYourDecision, ProblemError, RuleViolation, StaleVersion
from cya_client.models import (
    Command,
    GameSummary,
    GameView,
    HumanSeat,
    NewGame,
    News,
    NewsGameFinished,
    NewsGameStarted,
    NewsSeated,
    NewsYourTurn,
    Turn,
)

Choose = Callable[[GameView, list[Command]], Command]
log = logging.getLogger("cya_client.bot")


@dataclass
class GameRecord:
    game_id: str
    seat: int
    started: bool = False
    acted_at: int = -1  # the version of the last turn acted on: older news is stale
    decisions: int = 0
    errors: int = 0
    stale: int = 0  # commands the game had moved past (a clock ran out): not the bot's fault


@dataclass
class GameResult:
    game_id: str
    seat: int
    winners: list[int]
    totals: list[int]
    decisions: int
    errors: int

    @property
    def won(self) -> bool:
        return self.seat in self.winners

    @property
    def score(self) -> int:
        return self.totals[self.seat] if self.seat < len(self.totals) else 0


@dataclass
class Plan:
    """Which games to play: `new` games of `players` seats with `bots`, one after another
    (`parallel` at once); or the game `join`; or, with `accept`, every seat it is given and
    open seats of public games; or games found by quick play (`seek`, of `players` seats,
    `rated` or not), by challenging a player (`challenge`: an id, or `open`; the challenge
    seats two players and `bots`), or by taking challenges (`accept_challenges`). `games`:
    stop after that many finished (None: never)."""

    new: bool = False
    players: int = 4
    bots: list[str] = field(default_factory=list)
    end_mode: str = "quick"
    edition: str | None = None
    games: int | None = None
    parallel: int = 1
    join: str | None = None
    accept: bool = False
    public: bool = True
    seek: bool = False
    rated: bool = False
    challenge: str | None = None
    accept_challenges: bool = False

    @property
    def finds_games(self) -> bool:
        """Its games are those the news says a seek or challenge became."""
        return self.seek or self.challenge is not None or self.accept_challenges

    @property
    def makes_games(self) -> bool:
        """Each game it plays is one it asked for (counted by `Runner.created`)."""
        return self.new or self.seek or self.challenge is not None

    @property
    def open_seats(self) -> int:
        return self.players - 1 - len(self.bots)


class Runner:
    def __init__(self, client: Client, choose: Choose, plan: Plan,
                 on_result: Callable[[GameResult], None] | None = None,
                 on_decision: Callable[[GameRecord], None] | None = None,
                 on_start: Callable[[GameRecord], None] | None = None) -> None:
        self.client, self.choose, self.plan = client, choose, plan
        self.on_result, self.on_decision, self.on_start = on_result, on_decision, on_start
        self.games: dict[str, GameRecord] = {}
        self.results: list[GameResult] = []
        self.errors = 0  # failures outside any game (creating, joining)
        self.created = 0
        self.stopping = False  # no new games: finish the ones in play
        self._lock = threading.Lock()
        self._wake = threading.Event()
        self._helper: threading.Thread | None = None
        self._closed = False
        self._me: str | None = None
        self.seeking = Seeking(client, players=plan.players, rated=plan.rated,
                               edition=plan.edition, end_mode=plan.end_mode, bots=plan.bots)

    # -- the loop ---------------------------------------------------------------------------

    def run(self, news: Iterator[News] | None = None) -> list[GameResult]:
        """Play until the plan is done (or `stop()` and the games in play are over)."""
        if self.plan.join:
            self._join(self.plan.join)
        self._helper = threading.Thread(target=self._lobby_work, daemon=True, name="cya-lobby")
        self._helper.start()
        stream = news if news is not None else self.client.players.news()
        try:
            for item in stream:
                self.handle(item)
                if self.done():
                    break
        finally:
            self._closed = True
            self._wake.set()
            close = getattr(stream, "close", None)
            if close is not None:
                close()
        return self.results

    def done(self) -> bool:
        with self._lock:
            active = bool(self.games)
        if self.stopping:
            return not active
        target = self.plan.games
        if self.plan.join:
            return bool(self.results) and not active
        return target is not None and len(self.results) + self.seeking.declined >= target

    def stop(self) -> None:
        """Take no new game; `run` returns once the games in play are over."""
        self.stopping = True
        self._wake.set()

    def handle(self, item: News) -> None:
        takes = self.plan.accept_challenges and self._want_more()
        if self.seeking.handle(item, accept_challenges=takes):
            self._wake.set()  # a seek or challenge settled: the helper may ask again
            return
        match item:
            case NewsSeated(game_id=game_id, seat=seat):
                self._track(game_id, seat)
            case NewsGameStarted(game_id=game_id, seat=seat):
                if record := self._track(game_id, seat):
                    self._started(record)
            case NewsYourTurn(game_id=game_id, seat=seat, turn=turn):
                if record := self._track(game_id, seat):
                    self._started(record)
                    self.decide(record, turn)
            case NewsGameFinished(game_id=game_id):
                self._finished(item)

    def _track(self, game_id: str, seat: int) -> GameRecord | None:
        with self._lock:
            record = self.games.get(game_id)
            found = self.plan.accept or (self.plan.finds_games
                                         and self.seeking.ours(game_id))
            if record is None and found and not self.stopping:
                record = self.games[game_id] = GameRecord(game_id, seat)
            return record

    def _started(self, record: GameRecord) -> None:
        if not record.started:
            record.started = True
            if self.on_start:
                self.on_start(record)

    def _finished(self, item: NewsGameFinished) -> None:
        with self._lock:
            record = self.games.pop(item.game_id, None)
        if record is None:
            return
        result = GameResult(item.game_id, item.seat, list(item.winners), list(item.totals),
                            record.decisions, record.errors)
        self.results.append(result)
        self._wake.set()  # the helper may create the next game
        if self.on_result:
            self.on_result(result)

    # -- one decision -----------------------------------------------------------------------

    def decide(self, record: GameRecord, turn: Turn) -> None:
        """Choose and send one command for `turn`, unless it is stale or not ours."""
        if turn.version <= record.acted_at or not turn.legal_commands or turn.view is None:
            return
        record.acted_at = turn.version
        try:
            command = self.choose(turn.view, list(turn.legal_commands))
        except Exception:
            log.exception("choose() failed in game %s; sending the first legal command",
                          record.game_id)
            record.errors += 1
            command = turn.legal_commands[0]
        self._send(record, turn, command)

    def _send(self, record: GameRecord, turn: Turn, command: Command) -> None:
        try:
            self.client.play.send(record.game_id, command, if_match=turn.version)
            record.decisions += 1
        except (StaleVersion, NotYourDecision):
            record.stale += 1  # the game moved on (a turn clock ran out): its news follows
        except RuleViolation as refused:
            log.warning("game %s refused %s: %s", record.game_id, command, refused.detail)
            record.errors += 1
            if refused.legal_commands:  # keep the game going with a legal command
                self._send(record, turn, refused.legal_commands[0])
        except Exception:
            log.exception("sending a command in game %s failed", record.game_id)
            record.errors += 1
            self._recover(record)
        if self.on_decision:
            self.on_decision(record)

    def _recover(self, record: GameRecord) -> None:
        """After a failed send, the news stream says nothing new: ask for the turn again."""
        try:
            turn = self.client.play.turn(record.game_id, timeout=0)
        except Exception:
            log.exception("game %s: the turn could not be read either", record.game_id)
            return
        record.acted_at = min(record.acted_at, turn.version - 1)
        self.decide(record, turn)

    def play_by_turns(self, game_id: str, seat: int) -> GameResult:
        """The other loop, one game: `GET /turn` (waits until the decision is ours), then
        `POST /commands`; until the game is over."""
        record = self.games.setdefault(game_id, GameRecord(game_id, seat, started=True))
        while True:
            turn = self.client.play.turn(game_id)
            if turn.status not in ("lobby", "playing"):  # over: finished, abandoned, expired
                view = turn.view
                winners = list(view.winners) if view is not None else []
                totals = [s.total for s in view.seats] if view is not None else []
                self._finished(NewsGameFinished(id="", game_id=game_id, version=turn.version,
                                                seat=turn.seat, winners=winners,
                                                totals=totals, status=turn.status,
                                                reason=None, ratings="none"))  # unread here
                return self.results[-1]
            self.decide(record, turn)

    # -- the lobby --------------------------------------------------------------------------

    def _lobby_work(self) -> None:
        while not self._closed:
            try:
                if self.plan.new:
                    self._create_games()
                elif self.plan.accept:
                    self._take_open_seats()
                elif self.plan.seek or self.plan.challenge:
                    self._ask_for_games()
                elif self.plan.accept_challenges and self._want_more():
                    self.seeking.take_open_challenges(self.plan.parallel)
            except Exception:
                log.exception("lobby work failed")
                self.errors += 1
                time.sleep(1.0)
            scans = self.plan.accept or self.plan.accept_challenges
            self._wake.wait(5.0 if scans else 30.0)
            self._wake.clear()

    def _want_more(self) -> bool:
        with self._lock:
            active = len(self.games) + len(self.seeking.pending)
        target = self.plan.games
        made = self.created if self.plan.makes_games else len(self.results) + active
        return (not self.stopping and not self._closed and active < self.plan.parallel
                and (target is None or made < target))

    def _create_games(self) -> None:
        while self._want_more():
            ruleset: dict[str, object] = {"players": self.plan.players,
                                          "end_mode": self.plan.end_mode}
            if self.plan.edition:
                ruleset["edition"] = self.plan.edition
            summary = self.client.games.create(msgspec.convert({
                "ruleset": ruleset, "bots": [{"level": b} for b in self.plan.bots],
                "public": self.plan.public}, NewGame))
            with self._lock:
                self.games[summary.game_id] = GameRecord(summary.game_id,
                                                         self._seat_in(summary))
                self.created += 1
            self._start_when_full(summary)

    def _ask_for_games(self) -> None:
        """Seek or challenge until `parallel` games are in play or asked for."""
        while self._want_more():
            if self.plan.seek:
                self.seeking.seek()
            else:
                assert self.plan.challenge is not None
                self.seeking.challenge(self.plan.challenge)
            self.created += 1

    def _start_when_full(self, summary: GameSummary) -> None:
        game_id, version = summary.game_id, summary.version
        while None in summary.seats and not self._closed:  # wait for players to sit down
            version = self.client.play.view(game_id, wait_for_version=version + 1,
                                            timeout=25).version
            summary = self.client.games.get(game_id).summary
        if not self._closed:
            self.client.games.start(game_id)

    def _seat_in(self, summary: GameSummary) -> int:
        if self._me is None:
            self._me = self.client.players.me().player_id
        return next(i for i, s in enumerate(summary.seats)
                    if isinstance(s, HumanSeat) and s.player_id == self._me)

    def _join(self, game_id: str) -> None:
        try:
            summary = self.client.games.get(game_id).summary
            try:
                seat = self._seat_in(summary)
            except StopIteration:  # not seated yet: take the lowest open seat
                summary = self.client.games.join(game_id)
                seat = self._seat_in(summary)
        except KeyboardInterrupt:
            # Ctrl-C while joining: the server may have seated us before its answer came.
            # Ask once, so that the seat is left or resigned rather than orphaned.
            with contextlib.suppress(Exception):
                summary = self.client.games.get(game_id).summary
                self._record(game_id, self._seat_in(summary), summary.status != "lobby")
            raise
        self._record(game_id, seat, summary.status != "lobby")

    def _record(self, game_id: str, seat: int, started: bool) -> None:
        with self._lock:
            self.games[game_id] = GameRecord(game_id, seat, started=started)

    def _take_open_seats(self) -> None:
        for game in self.client.games.iterate(status="lobby"):
            if not self._want_more():
                return
            if None not in game.seats or game.game_id in self.games:
                continue
            try:
                self._seat_in(game)
                continue  # already ours: its news brings it
            except StopIteration:
                pass
            try:
                self.client.games.join(game.game_id)  # its `seated` news tracks it
            except ProblemError as refused:  # taken meanwhile, or started
                log.info("could not join %s: %s", game.game_id, refused.detail)
