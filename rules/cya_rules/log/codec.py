"""Events to stored bytes and back: msgspec codecs built once, plus schema upcasting.

Schemas evolve additively (new fields with defaults) and need nothing here. A change that
cannot be additive bumps the class's `SCHEMA_VERSION` and registers an upcaster from the old
version: a function from the old JSON object to the next version's.
"""

from __future__ import annotations

import typing
from collections.abc import Callable, Mapping
from typing import Any

import msgspec

from cya_rules import Event
from cya_rules.table.lobby import LobbyEvent
from cya_rules.table.talk import TalkEvent
from cya_rules.table.timeouts import TimeoutEvent

AnyEvent = Event | LobbyEvent | TimeoutEvent | TalkEvent
Upcaster = Callable[[dict[str, Any]], dict[str, Any]]

EVENT_CLASSES: dict[str, type[Any]] = {
    cls.__struct_config__.tag: cls
    for cls in (*typing.get_args(Event), *typing.get_args(LobbyEvent),
                *typing.get_args(TimeoutEvent), TalkEvent)
}

# (type, schema version it reads) -> upcaster to schema version + 1, for a schema that changed
# incompatibly; tests exercise the mechanism with a registry of their own too.
UPCASTERS: dict[tuple[str, int], Upcaster] = {
    # A revealed Move's moves were [seat, direction] pairs: objects, for generated clients.
    ("revealed_move_applied", 1): lambda old: {
        **old, "moves": [{"seat": seat, "direction": way} for seat, way in old["moves"]]},
}


class EventCodec:
    def __init__(self, upcasters: Mapping[tuple[str, int], Upcaster] = UPCASTERS) -> None:
        self._encoder = msgspec.json.Encoder()
        self._decoder: msgspec.json.Decoder[AnyEvent] = msgspec.json.Decoder(AnyEvent)
        self._upcasters = upcasters

    def encode(self, event: AnyEvent) -> bytes:
        return self._encoder.encode(event)

    def encode_any(self, value: Any) -> bytes:
        return self._encoder.encode(value)

    @staticmethod
    def type_of(event: AnyEvent) -> str:
        return type(event).__struct_config__.tag  # type: ignore[return-value]

    @staticmethod
    def schema_version(event_type: str) -> int:
        cls = EVENT_CLASSES.get(event_type)
        if cls is None:
            raise ValueError(f"no event type {event_type!r}")
        return int(cls.SCHEMA_VERSION)

    def decode(self, event_type: str, schema_version: int, data: bytes | str) -> AnyEvent:
        """The event a row holds; a ValueError (or msgspec's) when the row is not a valid
        event of its `type` (readers of the raw log dispatch on the column)."""
        current = self.schema_version(event_type)
        if schema_version == current:
            return self._checked(event_type, self._decoder.decode(data))
        if schema_version > current:
            raise ValueError(f"{event_type} v{schema_version} is newer than this code (v{current})")
        obj: dict[str, Any] = msgspec.json.decode(data)
        for v in range(schema_version, current):
            try:
                obj = self._upcasters[(event_type, v)](obj)
            except KeyError:
                raise ValueError(f"no upcaster for {event_type} v{v}") from None
        return self._checked(event_type, msgspec.convert(obj, AnyEvent))

    def _checked(self, event_type: str, event: AnyEvent) -> AnyEvent:
        found = self.type_of(event)
        if found != event_type:
            raise ValueError(f"the row's type is {event_type!r}, its data a {found!r}")
        return event


default_codec = EventCodec()
