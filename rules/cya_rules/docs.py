"""Descriptions for the published schemas: a field is `Annotated[T, doc("...")]`, a type's
docstring describes the type (both reach the OpenAPI contract; neither changes decoding)."""

from __future__ import annotations

import msgspec


def doc(text: str) -> msgspec.Meta:
    return msgspec.Meta(description=text)
