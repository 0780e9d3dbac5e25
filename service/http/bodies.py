"""How a request's JSON body becomes its route's type: one rule for every body.

- The body is decoded once, strictly, into the route's type (Litestar's signature model
  passes the result through). Litestar's own decoding is lenient (`0` for `false`, `"4"` for
  `4`), as it must be for query strings; a body that does not fit the schema is refused
  instead, so a client's mistake shows at once rather than being guessed at.
- JSON Schema, and so every `integer` of the contract, counts 2.0 as an integer: a number
  written with a fraction or an exponent is read as an int wherever it is a whole number (every
  integer field, required or optional, at any depth), and `2.5` stays refused.
- Litestar answers 400 to a body msgspec cannot decode, but only for msgspec's own
  DecodeError: msgspec raises UnicodeDecodeError for a body that is not UTF-8 and
  RecursionError for JSON nested too deeply, and both were 500s.
- A route whose body is required answers a request without one with a 400 that says so.
"""

from __future__ import annotations

import functools
from typing import Any

import msgspec
from litestar import Request
from litestar.exceptions import ClientException, SerializationException

from service.http.problems import header, malformed


def _whole_number(literal: str) -> int | float:
    """A JSON number written with a fraction or an exponent (`2.0`, `1e2`): an int if it is a
    whole number. No request body has a field of type `number`, so no float is lost."""
    number = float(literal)
    if number in (float("inf"), float("-inf")):
        raise ValueError("Number out of range")  # as msgspec says it
    return int(number) if number.is_integer() else number


_plain = msgspec.json.Decoder(float_hook=_whole_number)
_encoder = msgspec.json.Encoder()


@functools.cache
def _strict_decoder(annotation: Any) -> msgspec.json.Decoder[Any]:
    return msgspec.json.Decoder(annotation, strict=True)


def decode_body(body: bytes, annotation: Any) -> Any:
    """`body` as `annotation`, with whole numbers as integers and everything else strict.

    The body is read as plain JSON (whole numbers become ints), then decoded strictly into the
    route's type. Re-encoding costs about a microsecond; `msgspec.convert` of the plain value
    would hold it to the same type, but rebuilds a union's type information on every call
    (30 µs for a command)."""
    return _strict_decoder(annotation).decode(_encoder.encode(_plain.decode(body)))


class BodyRequest(Request[Any, Any, Any]):
    """The app's request class: a JSON body is held to its route's type as the document
    states it (see the module's docstring)."""

    @property
    def content_length(self) -> int | None:
        # Litestar's reads it from `headers`, a case-insensitive copy of every header.
        value = header(self, b"content-length")
        try:
            return int(value) if value else None
        except ValueError:
            raise ClientException(f"Invalid content-length: {value!r}") from None

    async def body(self) -> bytes:
        # Litestar drops an empty body and then reports the missing argument as "'data'".
        body = await super().body()
        if not body:
            data = self.route_handler.parsed_data_field
            if data is not None and not (data.has_default or data.is_optional):
                raise malformed(self, "body", "data", "This operation needs a JSON body.")
        return body

    async def json(self) -> Any:
        data = self.route_handler.parsed_data_field
        try:
            if data is None:
                return await super().json()
            return decode_body(await self.body() or b"null", data.annotation)
        except msgspec.ValidationError as exc:
            message, _, where = str(exc).partition(" - at `$")
            raise malformed(self, "body", where.strip(".`") or "data", message) from None
        except msgspec.DecodeError as exc:  # as Litestar's own decoding
            raise SerializationException(str(exc)) from exc
        except UnicodeDecodeError as exc:
            raise SerializationException("The body is not valid UTF-8.") from exc
        except RecursionError as exc:
            raise SerializationException("The body's JSON is nested too deeply.") from exc
