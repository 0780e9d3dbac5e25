"""The shapes of a game's events as a client reads them: one event, a page of the log, the
stream (`routes/follow.py`)."""

from __future__ import annotations

from datetime import datetime
from typing import Annotated

import msgspec

from cya_rules.docs import doc
from cya_rules.log.codec import AnyEvent
from service.http.schemas.descriptions import DEADLINE_DOC, GAME_ID_DOC
from service.receipts import Receipt


class EventOut(msgspec.Struct):
    """One event of a game's log, redacted for you: in event pages, the stream, command results."""

    version: Annotated[int, doc("The event's version: its place in the game's log, from 1.")]
    event: Annotated[AnyEvent, doc("The event, redacted for you; `type` says which it is.")]


class StreamEvent(EventOut):
    """One event of a game's stream (`GET /events` as Server-Sent Events): the event, and whose
    decision the game waits for after it."""

    awaiting: Annotated[list[int], doc("The seats whose decision the game waits for after "
                                       "this event; empty when it waits for none.")]
    deadline: Annotated[datetime | None, doc(DEADLINE_DOC)]
    receipt: Annotated[Receipt | None, doc(
        "The server's signed receipt for the log at this event's version (docs/receipts.md):"
        " keep it. Null only when the operator turned receipts off.")]


class EventPage(msgspec.Struct):
    """A page of the log as you may see it, as `GET /v1/games/{game_id}/events` returns it."""

    game_id: Annotated[str, doc(GAME_ID_DOC)]
    version: Annotated[int, doc("The game's current version: the number of events in its log.")]
    events: Annotated[
        list[EventOut],
        doc("The events after `?after=`, oldest first, at most `?limit=` of them."),
    ]
    next_after: Annotated[
        int,
        doc("Pass it as `?after=` for the next page: the last version on this page, or `after`"
            " itself when the page is empty."),
    ]
    awaiting: Annotated[list[int], doc(
        "The seats whose decision the game waits for at `version`; empty when it waits for "
        "none.")]
    deadline: Annotated[datetime | None, doc(DEADLINE_DOC)]
    receipt: Annotated[Receipt | None, doc(
        "The server's signed receipt for the log at `next_after`, the version this page brings"
        " you to (docs/receipts.md): keep it. Null when no event is at `next_after` (0, or"
        " past the log's end), or when the operator turned receipts off.")]
