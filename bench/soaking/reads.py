"""What the soak's clients read, as they read it: each client's reading of one game by one
path is a `Read`, judged once the game is over (`checks.py`)."""

from __future__ import annotations

import time
from collections import Counter
from dataclasses import dataclass, field
from typing import Any

# The read paths, as the report names them.
STREAM, PAGES, VIEW, TURN, NEWS = "stream", "pages", "view", "turn", "news"
BOT_HOOK, HOOK_EVENTS, HOOK_NEWS, SUMMARY, BROWSER = (
    "bot webhook", "webhook events", "webhook news", "summary", "browser")


@dataclass
class Seen:
    """One item a read delivered: an event, or a view (the body as decoded JSON)."""

    version: int
    body: Any
    at: float = field(default_factory=time.time)
    awaiting: list[int] | None = None


@dataclass
class Wait:
    """One long poll: what it waited for, and what it answered when."""

    started: float
    ended: float
    asked: int | None  # `/view`: wait_for_version; `/turn`: None (waits for the seat's turn)
    version: int
    status: str
    mine: bool = False


@dataclass
class Read:
    game_id: str
    path: str
    who: str  # the kind of caller, for the report: "creator", "invited", "watcher", ...
    caller: str | None  # the player id; None: a watcher without a key
    kind: str  # "events", "views" or "summaries"
    seen: list[Seen] = field(default_factory=list)
    after: int = 0  # events: the read began after this version
    to_end: bool = True  # views: the read must reach the game's last version
    finished: bool = False  # the read saw the game end
    waits: list[Wait] = field(default_factory=list)
    actor: str | None = None  # whose decisions the read must have announced (the log's actor)
    decided: set[int] = field(default_factory=set)  # versions of turns the client acted on
    notes: Counter[str] = field(default_factory=Counter)  # e.g. connections that closed empty

    def event(self, version: int, body: Any, awaiting: list[int] | None = None) -> None:
        self.seen.append(Seen(version, body, awaiting=awaiting))

    @property
    def last(self) -> int:
        return self.seen[-1].version if self.seen else self.after


@dataclass
class Verdict:
    read: Read
    incomplete: list[str] = field(default_factory=list)
    out_of_order: list[str] = field(default_factory=list)
    leaked: list[str] = field(default_factory=list)
    skipped: str | None = None

    @property
    def ok(self) -> bool:
        return not (self.incomplete or self.out_of_order or self.leaked)

    def problems(self) -> list[str]:
        r = self.read
        where = f"{r.game_id[:8]} {r.path} ({r.who})"
        return ([f"{where} incomplete: {p}" for p in self.incomplete[:3]]
                + [f"{where} out of order: {p}" for p in self.out_of_order[:3]]
                + [f"{where} leaked: {p}" for p in self.leaked[:3]])
