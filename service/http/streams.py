"""What every event stream shares: choosing it over JSON by `Accept`, its messages encoded
ahead, and its heartbeat."""

from __future__ import annotations

from litestar.datastructures.headers import Accept, MediaTypeHeader
from litestar.response.sse import ServerSentEventMessage


class EncodedMessages(ServerSentEventMessage):
    """One or more stream messages encoded already, written as they are (Litestar's own
    `encode` builds each message anew in a StringIO)."""

    def __init__(self, encoded: bytes) -> None:
        super().__init__(data=None)
        self.encoded = encoded

    def encode(self) -> bytes:
        return self.encoded


# A heartbeat is a comment alone: Litestar's message defaults to an empty `data:` line, which
# EventSource clients would receive as an empty `message` event. Encoded once: every open
# stream sends one each heartbeat interval it is idle (20,000 streams, 1,333 a second).
HEARTBEAT = EncodedMessages(ServerSentEventMessage(comment="heartbeat", data=None).encode())

_JSON, _STREAM = MediaTypeHeader("application/json"), MediaTypeHeader("text/event-stream")


def prefers_stream(accept: str | None) -> bool:
    """Whether `Accept` ranks the event stream above JSON: q-values honoured (`q=0` refuses a
    type), ties to the type named first, and JSON for `*/*` or a header naming neither."""
    if not accept or "text/" not in accept:  # names neither the stream nor text/*
        return False
    for entry in Accept(accept):  # best first
        media = MediaTypeHeader(entry)
        if media.priority[0] <= 0:
            continue
        if media.match(_JSON):
            return False
        if media.match(_STREAM):
            return True
    return False
