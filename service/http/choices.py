"""The values a field takes when they are a fixed set, for a 400 that refuses one of them.

msgspec and Litestar say only "Invalid enum value 'smart'"; a client should not have to open
the contract to learn that `random`, `greedy`, `expert` and `ismcts` are the levels there are.
"""

from __future__ import annotations

import re
from typing import Any

import msgspec.inspect as mi

_STEP = re.compile(r"\[\d+\]|[^.\[\]]+")


def choices_at(annotation: Any, path: str) -> list[str] | None:
    """The values `annotation` allows at `path` (a validation error's path, such as
    `bots[0].level`; empty for the value itself): an enum's or literal's values, or the tags of
    a tagged union at its tag field. None where the values are not a fixed set."""
    try:
        found = [mi.type_info(annotation)]
    except (TypeError, ValueError):  # not a type msgspec knows
        return None
    tags: list[str] = []
    for step in _STEP.findall(path):
        inner: list[mi.Type] = []
        tags = []
        for t in _alternatives(found):
            if step.startswith("["):
                if isinstance(t, mi.ListType | mi.SetType | mi.FrozenSetType | mi.VarTupleType):
                    inner.append(t.item_type)
            elif isinstance(t, mi.StructType):
                if t.tag_field == step and t.tag is not None:
                    tags.append(str(t.tag))
                inner += [f.type for f in t.fields if f.encode_name == step]
            elif isinstance(t, mi.DictType):
                inner.append(t.value_type)
        found = inner
    values = tags + [str(v) for t in _alternatives(found) for v in _values(t)]
    return list(dict.fromkeys(values)) or None


def _alternatives(types: list[mi.Type]) -> list[mi.Type]:
    """The types with each union spread into its members, and constraints and docs taken
    off."""
    spread: list[mi.Type] = []
    for t in types:
        if isinstance(t, mi.UnionType):
            spread += _alternatives(list(t.types))
        elif isinstance(t, mi.Metadata):
            spread += _alternatives([t.type])
        else:
            spread.append(t)
    return spread


def _values(t: mi.Type) -> list[Any]:
    if isinstance(t, mi.LiteralType):
        return list(t.values)
    if isinstance(t, mi.EnumType):
        return [member.value for member in t.cls]
    return []
