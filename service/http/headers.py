"""Request headers the hot routes read straight from the ASGI scope.

Litestar reads a declared header parameter from `request.headers`: a case-insensitive copy of
every header, built for each request (about a tenth of a cached `GET /view`). A `RawHeader` is
read with `header` instead, held to the same constraints with the same 400, and documented as
Litestar documents a header parameter (`RawHeadersOperation`), so the contract does not
change. With the body's length read the same way (`BodyRequest`), no command or view builds
that copy.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from typing import Any, ClassVar

from litestar import Request
from litestar.enums import ParamType
from litestar.openapi.spec import OpenAPIType, Operation, Schema
from litestar.openapi.spec import Parameter as OpenAPIParameter

from service.http.problems import header, malformed


@dataclass(frozen=True)
class RawHeader:
    name: str  # as sent and documented
    max_length: int
    min_length: int = 0
    pattern: str | None = None
    description: str | None = None
    raw_name: bytes = field(init=False)  # as ASGI gives it
    key: str = field(init=False)  # as a 400 names it, as Litestar names a declared parameter

    def __post_init__(self) -> None:
        lowered = self.name.lower()
        object.__setattr__(self, "raw_name", lowered.encode("latin-1"))
        object.__setattr__(self, "key", lowered.replace("-", "_"))

    def read(self, request: Request[Any, Any, Any]) -> str | None:
        value = header(request, self.raw_name)
        if value is None:
            return None
        # Litestar's messages (msgspec's), word for word.
        if len(value) < self.min_length:
            raise malformed(request, "header", self.key,
                            f"Expected `str` of length >= {self.min_length}")
        if len(value) > self.max_length:
            raise malformed(request, "header", self.key,
                            f"Expected `str` of length <= {self.max_length}")
        if self.pattern is not None and re.search(self.pattern, value) is None:
            raise malformed(request, "header", self.key,
                            f"Expected `str` matching regex {self.pattern!r}")
        return value

    def parameter(self) -> OpenAPIParameter:
        return OpenAPIParameter(
            name=self.name, param_in=ParamType.HEADER, required=False,
            description=self.description,
            schema=Schema(type=OpenAPIType.STRING, description=self.description,
                          min_length=self.min_length or None, max_length=self.max_length,
                          pattern=self.pattern))


@dataclass
class RawHeadersOperation(Operation):
    """An operation whose route reads `raw_headers` itself: they are documented right after
    the path parameters."""

    raw_headers: ClassVar[tuple[RawHeader, ...]] = ()

    def __post_init__(self) -> None:
        declared = list(self.parameters or [])
        paths = sum(1 for p in declared if isinstance(p, OpenAPIParameter)
                    and p.param_in == ParamType.PATH)
        self.parameters = [*declared[:paths], *(h.parameter() for h in self.raw_headers),
                           *declared[paths:]]


IDEMPOTENCY_KEY = RawHeader(
    "Idempotency-Key", min_length=1, max_length=128,
    description="Send the same key again to get the first result instead of acting twice.")
