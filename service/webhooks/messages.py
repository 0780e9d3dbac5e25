"""What a commit tells a subscribed player: the same news its own event stream carries
(`service.table.turns`: seated, game_started, your_turn, game_finished), and, for `events`,
the commit's events redacted for the player's seat by the same function that redacts its
event pages (`redacted_for`): never another hand."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Annotated

import msgspec

from cya_rules.docs import doc
from cya_rules.log.codec import AnyEvent
from service.events.records import StoredEvent, redacted_for
from service.table.game import Game
from service.table.turns import (
    NewsGameStarted,
    NewsSeated,
    NewsYourTurn,
    PlayerNews,
    _News,
    game_finished,
    news_id,
    turn_of,
)


class LoggedEvent(msgspec.Struct):
    version: Annotated[int, doc("The event's version: its place in the game's log.")]
    event: Annotated[AnyEvent, doc("The event, redacted for you.")]


class NewsEvents(_News, tag="events"):
    """The events one command appended to a game you sit in, redacted for your seat."""

    events: Annotated[list[LoggedEvent], doc("In log order.")]


WebhookMessage = PlayerNews | NewsEvents
_encode = msgspec.json.Encoder().encode


def messages_of_commit(before: Game, after: Game, stored: Sequence[StoredEvent],
                       player_id: str, types: Sequence[str]) -> list[tuple[str, bytes]]:
    """(type, payload) of each message `player_id` is owed for one commit, in order."""
    seat = after.lobby.seat_of(player_id) if after.lobby is not None else None
    if seat is None:
        return []
    ident, version, game_id = news_id(after), after.version, after.game_id
    found: list[WebhookMessage] = []
    if "events" in types and stored:
        found.append(NewsEvents(ident, game_id, version, seat, [
            LoggedEvent(s.version, redacted_for(s, seat)) for s in stored]))
    if after.status == "lobby" and "seated" in types and before.lobby is not after.lobby:
        found.append(NewsSeated(ident, game_id, version, seat))
    if before.status == "lobby" and after.status != "lobby" and "game_started" in types:
        found.append(NewsGameStarted(ident, game_id, version, seat))
    if after.status == "playing" and "your_turn" in types:
        turn = turn_of(after, seat)
        if turn.mine:
            found.append(NewsYourTurn(ident, game_id, version, seat, turn))
    if not before.over and after.over and after.state is not None and "game_finished" in types:
        found.append(game_finished(after, ident, seat))  # finished, abandoned or expired
    return [(str(type(m).__struct_config__.tag), _encode(m)) for m in found]
