"""Who sees an event of the log in full, and the event as someone else sees it: by the event's
own class and content, never by a stored column, which a hand-edited row could make wrong.
The history's `visibility` must be this (`cya_rules.verify`)."""

from __future__ import annotations

from typing import get_args

from cya_rules import redact, visibility
from cya_rules.log.codec import AnyEvent
from cya_rules.table.lobby import LobbyEvent, SeedCarrier, seed_visibility, without_seeds
from cya_rules.table.talk import TalkEvent
from cya_rules.table.timeouts import TimeoutEvent
from cya_rules.views import Viewer

# Looked up by class: `isinstance` against the two unions tried each of their classes in
# turn, a third of a microsecond per event.
# Seats, clocks and reactions: public facts, but for the seeds of the deal some carry
# (table/seeds.py).
_PUBLIC_SERVICE_EVENTS = frozenset(
    (*get_args(LobbyEvent), *get_args(TimeoutEvent), TalkEvent)) - frozenset(
    get_args(SeedCarrier))


def visibility_of(event: AnyEvent) -> str:
    if type(event) in _PUBLIC_SERVICE_EVENTS:
        return "public"
    if isinstance(event, SeedCarrier):
        return seed_visibility(event)
    return str(visibility(event))  # type: ignore[arg-type]  # a game event (mypy cannot tell)


def shown_to(event: AnyEvent, viewer: Viewer) -> AnyEvent:
    """`event` as `viewer` (a seat, or None for a spectator) may see it."""
    visible_to = visibility_of(event)
    if visible_to == "public" or (viewer is not None and visible_to == str(viewer)):
        return event
    if isinstance(event, SeedCarrier):
        return without_seeds(event)
    return redact(event, viewer)  # type: ignore[arg-type]  # other lobby events are public
