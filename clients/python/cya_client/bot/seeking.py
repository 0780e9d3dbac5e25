"""The runner's ways to find opponents without a lobby: quick play (`--seek 4p --rated`),
challenges (`--challenge PLAYER`, or `open`), and taking challenges (`--accept-challenges`: the
ones to you, as the news brings them, and open ones).

What it asks for is pending until the news says what became of it (`matched`,
`challenge_accepted`, `challenge_declined`); the games they become are the runner's to play.
"""

from __future__ import annotations

import logging
import threading

import msgspec

from cya_client.client import Client
from cya_client.errors import ProblemError
from cya_client.models import (
    NewChallenge,
    News,
    NewsChallenge,
    NewsChallengeAccepted,
    NewsChallengeDeclined,
    NewSeek,
    NewsMatched,
)

log = logging.getLogger("cya_client.bot")
OPEN = "open"  # `--challenge open`: anyone may take it


class Seeking:
    def __init__(self, client: Client, *, players: int, rated: bool, edition: str | None,
                 end_mode: str, bots: list[str]) -> None:
        self.client = client
        self.players, self.rated, self.edition = players, rated, edition
        self.end_mode, self.bots = end_mode, bots
        self.pending: set[str] = set()  # seek and challenge ids the news has not settled
        self.expected: set[str] = set()  # games they became, before their own news
        self.declined = 0
        self._lock = threading.Lock()

    def ours(self, game_id: str) -> bool:
        """Whether a game the news names is one of ours: one we were told of, or any while
        something is pending (its news may come before the answer that names it)."""
        with self._lock:
            return game_id in self.expected or bool(self.pending)

    def seek(self) -> None:
        wanted: dict[str, object] = {"players": self.players, "rated": self.rated}
        if self.edition:
            wanted["edition"] = self.edition
        kind = msgspec.convert(wanted, NewSeek)
        with self._lock:
            made = self.client.matchmaking.seek(kind)
            self._settle_or_wait(made.seek_id, made.game_id)

    def challenge(self, to: str) -> None:
        ruleset: dict[str, object] = {"players": 2 + len(self.bots), "end_mode": self.end_mode}
        if self.edition:
            ruleset["edition"] = self.edition
        body = msgspec.convert({"ruleset": ruleset, "rated": self.rated, "bots": self.bots,
                                "to": None if to == OPEN else to}, NewChallenge)
        with self._lock:
            made = self.client.challenges.create(body)
            self._settle_or_wait(made.challenge_id, made.game_id)

    def accept(self, challenge_id: str) -> bool:
        """Take a challenge; False if it is gone (taken, cancelled). Pending while asked: the
        game's first news may come before the answer that names it."""
        with self._lock:
            self.pending.add(challenge_id)
        game_id = None
        try:
            game_id = self.client.challenges.accept(challenge_id).game_id
        except ProblemError as refused:
            log.info("could not accept challenge %s: %s", challenge_id, refused.detail)
        finally:
            with self._lock:  # one step: the game is never unclaimed in between
                if game_id:
                    self.expected.add(game_id)
                self.pending.discard(challenge_id)
        return game_id is not None

    def take_open_challenges(self, want: int) -> int:
        """Accept up to `want` open challenges of others; how many were taken."""
        me = self.client.players.me().player_id
        taken = 0
        for c in self.client.challenges.list():
            if taken >= want:
                break
            if c.challenger != me and self.accept(c.challenge_id):
                taken += 1
        return taken

    def _settle_or_wait(self, ident: str, game_id: str | None) -> None:
        if game_id:
            self.expected.add(game_id)
        else:
            self.pending.add(ident)

    def handle(self, item: News, accept_challenges: bool) -> bool:
        """The news of seeks and challenges; True when it was one."""
        match item:
            case NewsMatched(seek_id=ident, game_id=game_id) | NewsChallengeAccepted(
                    challenge_id=ident, game_id=game_id):
                with self._lock:
                    self.pending.discard(ident)
                    self.expected.add(game_id)
            case NewsChallengeDeclined(challenge_id=ident, reason=reason):
                with self._lock:
                    if ident in self.pending:
                        self.pending.discard(ident)
                        self.declined += 1
                log.warning("challenge %s declined: %s", ident, reason or "no reason given")
            case NewsChallenge(challenge_id=ident):
                if accept_challenges:
                    self.accept(ident)
            case _:
                return False
        return True
