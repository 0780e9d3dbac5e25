"""A seat's turn in one read (`GET /turn`), and the news a player's own event stream carries
(and its event webhooks).

Both are made from one folded game, so the view and the legal commands always belong to the
same version.
"""

from __future__ import annotations

import enum
from datetime import UTC, datetime
from typing import Annotated, Literal

import msgspec

from cya_rules import GameView, legal_commands, player_view
from cya_rules.commands import SeatCommand
from cya_rules.docs import doc
from cya_rules.log.receipts import Receipt
from service.table.clock import deadline
from service.table.game import Game


class GameStatus(enum.StrEnum):
    """Where a game is: `lobby` before the deal (seats may be taken), `playing`, or
    `finished`; or over without a result: `expired` (a lobby never started in time) or
    `abandoned` (a game without a clock that waited on a human too long)."""

    # Alphabetical, as the values a 400 lists (`allowed`) were when this was a Literal.
    ABANDONED = "abandoned"
    EXPIRED = "expired"
    FINISHED = "finished"
    LOBBY = "lobby"
    PLAYING = "playing"


_SEAT = "Your seat."
_VERSION = "The game's version: the number of events in its log."


class Turn(msgspec.Struct, omit_defaults=True):  # no `receipt`: none is written
    """Everything a seat needs to decide, read at one version: `GET /v1/games/{game_id}/turn`,
    and inline in a player's `your_turn` news."""

    game_id: Annotated[str, doc("The game's id.")]
    version: Annotated[int, doc(_VERSION)]
    status: Annotated[GameStatus, doc("`lobby` before the deal, `playing` or `finished`.")]
    seat: Annotated[int, doc(_SEAT)]
    awaiting: Annotated[list[int], doc(
        "The seats whose decision the game waits for: yours when `legal_commands` is not "
        "empty.")]
    deadline: Annotated[datetime | None, doc(
        "When your decision times out (turn clock); null without a clock or when the decision "
        "is not yours.")]
    view: Annotated[GameView | None, doc("The game as you may see it; null before the deal.")]
    legal_commands: Annotated[list[SeatCommand], doc(
        "Every command you may send now, each ready to post to `POST /commands` as it is; "
        "empty while the game waits for another seat or is not being played.")]
    receipt: Annotated[Receipt | None, doc(
        "`GET /turn`: the server's signed receipt for the log at `version` (docs/receipts.md);"
        " keep it. Left out in a `your_turn` news and a bot endpoint's turn, and when the"
        " operator turned receipts off.")] = None

    @property
    def mine(self) -> bool:
        """Whether the game waits for this seat."""
        return self.seat in self.awaiting


def turn_of(game: Game, seat: int) -> Turn:
    pending = game.pending_seat()
    awaiting = [pending[0]] if pending else []
    state = game.state if game.state is not None and game.state.master_seed else None
    return Turn(game.game_id, game.version, GameStatus(game.status), seat, awaiting,
                deadline(game) if seat in awaiting else None,
                None if state is None else player_view(state, seat),
                legal_commands(state, seat) if state is not None and game.status == "playing"
                else [])


# A player's news (`GET /v1/players/me/events`): tagged by `type`, each with an `id` to resume
# after. The id is the time of the game's latest event (microseconds since 1970), the game and
# its version: a stream resumed after it tells again where each game changed since then.


class _News(msgspec.Struct, tag_field="type"):
    id: Annotated[str, doc(
        "Resume after this news with `Last-Event-ID` (SSE) or `?after=` (NDJSON).")]
    game_id: Annotated[str, doc("The game's id.")]
    version: Annotated[int, doc("The game's version the news is as of.")]
    seat: Annotated[int, doc(_SEAT)]


class NewsSeated(_News, tag="seated"):
    """You hold a seat in a game that has not started: you took it, or its creator gave it to
    you. Told again whenever its seats change (another player sits down or leaves), so a
    creator waiting for a full table hears of each seat taken."""


class NewsGameStarted(_News, tag="game_started"):
    """A game you sit in was dealt."""


class NewsYourTurn(_News, tag="your_turn"):
    """A game waits for your decision; `turn` holds all you need to make it."""

    turn: Annotated[Turn, doc("Your turn, as `GET /turn` answers it.")]


# What a game does to its players' ratings, which a process counts a moment after the game
# finishes (`service/projections/ratings.py`, after the commit): said, not left to a null.
RatingsState = Literal["none", "pending", "counted"]
RATINGS_DOC = (
    "What the game does to its seats' ratings: `none` (an unrated game, or one over without a "
    "result, which ratings leave out); `pending` (a rated game that finished: its rating "
    "changes are counted a moment after it ends, then `GET /v1/games/{game_id}` lists them in "
    "`rating_changes`); `counted` (`rating_changes` holds them).")


def ratings_state(rated: bool, status: str, counted: bool = False) -> RatingsState:
    """`counted`: the game's rating changes were read (and found)."""
    if not rated or status != GameStatus.FINISHED:
        return "none"
    return "counted" if counted else "pending"


class NewsGameFinished(_News, tag="game_finished"):
    """A game you sat in is over: finished with a result, or ended without one (`status`
    `abandoned` or `expired`, `reason` says why; `winners` is then empty)."""

    winners: Annotated[list[int], doc("The winning seats (more than one: a shared win).")]
    totals: Annotated[list[int], doc("Each seat's total, by seat.")]
    # Added later without defaults: news is only ever encoded here, never decoded back.
    status: Annotated[GameStatus, doc(
        "How it ended: `finished` (played to its end), `abandoned` (a game without a clock "
        "that waited on a human too long) or `expired` (a lobby never started in time).")]
    reason: Annotated[str | None, doc(
        "Why it ended without a result, in words (e.g. `no human acted for 7 days`); null "
        "when it finished.")]
    ratings: Annotated[RatingsState, doc(
        RATINGS_DOC + " Here `pending` or `none`: the news is told before the count.")]


PlayerNews = NewsSeated | NewsGameStarted | NewsYourTurn | NewsGameFinished


def game_finished(game: Game, ident: str, seat: int) -> NewsGameFinished:
    """The news of a game that is over, as `seat` hears it: which ending, and its result."""
    assert game.state is not None and game.lobby is not None
    return NewsGameFinished(ident, game.game_id, game.version, seat, list(game.state.winners),
                            list(game.state.totals), GameStatus(game.status),
                            game.lobby.end_reason, ratings_state(game.lobby.rated, game.status))


def news_id(game: Game) -> str:
    at = game.updated_at or datetime.now(UTC)
    return f"{round(at.timestamp() * 1_000_000)}.{game.game_id}.{game.version}"


def news_time(news_id: str) -> datetime:
    """The time a news id names (held to its pattern before)."""
    return datetime.fromtimestamp(int(news_id.split(".", 1)[0]) / 1_000_000, UTC)


class Told(dict[str, set[tuple[str, int]]]):
    """What a stream has told its player, per game: (news type, version)."""


def news_for(game: Game, player_id: str, told: Told) -> list[PlayerNews]:
    """What `player_id` has not yet been told of `game` as it stands: nothing when it holds no
    seat there."""
    seat = game.lobby.seat_of(player_id) if game.lobby is not None else None
    if seat is None:
        return []
    said = told.setdefault(game.game_id, set())
    ident = news_id(game)
    out: list[PlayerNews] = []

    def tell(kind: str, news: PlayerNews, once: bool = True) -> None:
        key = (kind, 0 if once else game.version)
        if key not in said:
            said.add(key)
            out.append(news)

    if game.status == "lobby":
        # Again at each change of the lobby: a seat taken or left, the table full.
        tell("seated", NewsSeated(ident, game.game_id, game.version, seat), once=False)
    elif game.status == "playing":
        tell("game_started", NewsGameStarted(ident, game.game_id, game.version, seat))
        turn = turn_of(game, seat)
        if turn.mine:
            tell("your_turn", NewsYourTurn(ident, game.game_id, game.version, seat, turn),
                 once=False)
    elif game.state is not None:  # over: finished, abandoned or expired
        tell("game_finished", game_finished(game, ident, seat))
    return out
