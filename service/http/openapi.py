"""What Litestar leaves out of the OpenAPI document, restated: operation classes for open
routes and optional bodies, and a schema plugin for Structs' docstrings and unknown fields."""

from __future__ import annotations

import functools
import inspect
import json
from dataclasses import dataclass
from typing import ClassVar

import msgspec
import msgspec.inspect

# Litestar's Struct schema plugin is not exported; the contract test pins what it makes.
from litestar._openapi.schema_generation import SchemaCreator
from litestar._openapi.schema_generation.plugins.struct import StructSchemaPlugin
from litestar.openapi.spec import (
    Components,
    Link,
    OpenAPI,
    OpenAPIHeader,
    OpenAPIResponse,
    OpenAPIType,
    Operation,
    Reference,
    RequestBody,
    Schema,
)
from litestar.typing import FieldDefinition


@dataclass
class _Restated(Operation):
    public: ClassVar[bool] = False
    optional_body: ClassVar[bool] = False

    def __post_init__(self) -> None:
        if self.public:  # Litestar writes a handler's `security=[]` as `[] or None`
            self.security = []
        if self.optional_body and isinstance(self.request_body, RequestBody):  # all "required"
            self.request_body.required = False


class PublicOperation(_Restated):
    """Open without an API key (else it inherits the document's bearer requirement)."""

    public = True


class OptionalBodyOperation(_Restated):
    """The body may be left out."""

    optional_body = True


class PublicOptionalBodyOperation(_Restated):
    public = optional_body = True


class DocumentedStructSchemaPlugin(StructSchemaPlugin):
    """What Litestar's own plugin for msgspec Structs leaves out, restated (registered ahead
    of it, so it sees every Struct):
    - a Struct's docstring is its schema's description, as in msgspec's own JSON Schema;
    - a Struct that refuses unknown fields (400) says so (`additionalProperties: false`), or
      generated clients would think any extra field welcome;
    - a tagged Struct's tag field is described (it cannot carry a `msgspec.Meta`);
    - a Struct only ever written (not part of a request's body) lists every field as
      required: msgspec writes every field, defaults included, so generated clients need no
      checks for fields that are always there;
    - a tuple of one type (a pair of seats) is an array of that type with its length, not
      `prefixItems`, which generators turn into lists of unions;
    - a field that may be left out says its default in words, not as `default`: TypeScript
      generators (openapi-typescript) take a `default` in a component for "always present",
      and would make a client send it."""

    def to_openapi_schema(self, field_definition: FieldDefinition,
                          schema_creator: SchemaCreator) -> Schema:
        schema = super().to_openapi_schema(field_definition, schema_creator)
        struct = field_definition.type_
        if struct.__doc__:
            schema.description = inspect.cleandoc(struct.__doc__)
        config = struct.__struct_config__
        if config.forbid_unknown_fields:
            schema.additional_properties = False
        if struct in request_structs() or config.omit_defaults:  # fields may be left out
            _defaults_in_words(schema)
        elif schema.properties:  # only ever written, and in full
            schema.required = list(schema.properties)
        for field in (schema.properties or {}).values():
            _fixed_length_arrays(field)
        tag = (schema.properties or {}).get(config.tag_field or "")
        if isinstance(tag, Schema) and tag.description is None:
            tag.description = f"Always `{config.tag}`: which of its kind this object is."
        return schema


def _defaults_in_words(schema: Schema) -> None:
    for field in (schema.properties or {}).values():
        if isinstance(field, Schema) and field.default is not None:
            said = json.dumps(field.default)
            field.description = f"{field.description or ''} Default: `{said}`.".strip()
            field.default = None


@functools.cache
def request_structs() -> frozenset[type]:
    """Every Struct a request body may hold (`schemas.REQUEST_BODIES`, walked)."""
    from service.http.schemas import REQUEST_BODIES

    found: set[type] = set()
    todo: list[msgspec.inspect.Type] = list(msgspec.inspect.multi_type_info(REQUEST_BODIES))
    while todo:
        info = todo.pop()
        if isinstance(info, msgspec.inspect.StructType):
            if info.cls in found:
                continue
            found.add(info.cls)
            todo.extend(f.type for f in info.fields)
        elif isinstance(info, msgspec.inspect.UnionType):
            todo.extend(info.types)
        elif isinstance(info, msgspec.inspect.Metadata):
            todo.append(info.type)
        elif isinstance(info, (msgspec.inspect.ListType, msgspec.inspect.VarTupleType,
                               msgspec.inspect.SetType, msgspec.inspect.FrozenSetType)):
            todo.append(info.item_type)
        elif isinstance(info, msgspec.inspect.TupleType):
            todo.extend(info.item_types)
        elif isinstance(info, msgspec.inspect.DictType):
            todo.extend((info.key_type, info.value_type))
    return frozenset(found)


def _fixed_length_arrays(schema: object) -> None:
    if not isinstance(schema, Schema):
        return
    items = schema.prefix_items
    if items and all(i.to_schema() == items[0].to_schema() for i in items):
        schema.items, schema.prefix_items = items[0], None
        schema.min_items = schema.max_items = len(items)
    for inner in (schema.items, *(schema.one_of or ()), *(schema.any_of or ())):
        _fixed_length_arrays(inner)


_TEXT = Schema(type=OpenAPIType.STRING)
_INTEGER = Schema(type=OpenAPIType.INTEGER)
RESPONSE_HEADERS = {
    "RateLimit-Limit": OpenAPIHeader(schema=_INTEGER, description=(
        "Requests your key may make in the current window. Not sent on waiting calls (long "
        "polls, `/turn` with a timeout, streams), which spend nothing.")),
    "RateLimit-Remaining": OpenAPIHeader(schema=_INTEGER, description=(
        "Requests left in the current window.")),
    "RateLimit-Reset": OpenAPIHeader(schema=_INTEGER, description=(
        "Seconds until the current window ends.")),
    "RateLimit-Policy": OpenAPIHeader(schema=_TEXT, description=(
        "The limit and its window in seconds, e.g. `1200; w=60`.")),
    "Retry-After": OpenAPIHeader(schema=_INTEGER, required=True, description=(
        "Seconds to wait before trying again.")),
}
_LIMITED = tuple(h for h in RESPONSE_HEADERS if h.startswith("RateLimit-"))
UNLIMITED = frozenset({"getHealth", "getReadiness", "getMetrics"})


def document_response_headers(openapi: OpenAPI) -> None:
    """Every answer of a rate-limited operation carries the RateLimit headers; a 429 or a 503
    says when to come back. Litestar documents none of them."""
    components = openapi.components
    if isinstance(components, Components):
        components.headers = {**(components.headers or {}), **RESPONSE_HEADERS}
    for item in (openapi.paths or {}).values():
        for operation in (item.get, item.post, item.put, item.patch, item.delete):
            if operation is None:
                continue
            for code, response in (operation.responses or {}).items():
                if not isinstance(response, OpenAPIResponse):
                    continue
                names = [] if operation.operation_id in UNLIMITED else list(_LIMITED)
                names += ["Retry-After"] if code in ("429", "503") else []
                response.headers = {**(response.headers or {}), **{
                    name: Reference(ref=f"#/components/headers/{name}") for name in names}}


# Enums written out where used (a Literal in a Struct): named once each, so a generated client
# has one type for them rather than one per field. The values name the enum; a new value
# leaves it written out again, and the contract test says so.
NAMED_ENUMS = {
    frozenset({"random", "greedy", "expert", "ismcts"}): (
        "BotLevel", "How a bot plays: `random` (any legal move), `greedy` (the move its"
                    " heuristics score best), `expert` (a hand-written player that counts cards)"
                    " or `ismcts` (information-set Monte Carlo tree search: the strongest)."
                    " GET /v1/rulesets describes each level."),
    frozenset({"top_to_bottom", "bottom_to_top"}): ("Direction", "Which way a stack moves: "
                                                    "its top set to the bottom, or its bottom "
                                                    "set to the top."),
    frozenset({"stack_top", "stack_second", "draft"}): ("ChallengeKind", "What a challenge "
                                                        "is for: a stack's top set, its second "
                                                        "set, or a drafted set."),
    frozenset({"hand", "discard"}): ("SetSource", "Where a set's cards came from: two from "
                                                  "the hand, or one from the hand and the "
                                                  "discard pile's top."),
}


def name_enums(openapi: OpenAPI) -> None:
    components = openapi.components
    if not isinstance(components, Components) or not components.schemas:
        return
    named: dict[str, Schema] = {}
    for name, schema in list(components.schemas.items()):
        components.schemas[name] = _named(schema, named)  # type: ignore[assignment]
    components.schemas.update(named)


def _named(schema: Schema | Reference, named: dict[str, Schema]) -> Schema | Reference:
    if not isinstance(schema, Schema):
        return schema
    if schema.enum and frozenset(map(str, schema.enum)) in NAMED_ENUMS:
        name, text = NAMED_ENUMS[frozenset(map(str, schema.enum))]
        named[name] = Schema(type=schema.type, enum=schema.enum, description=text)
        return Schema(all_of=[Reference(ref=f"#/components/schemas/{name}")],
                      description=schema.description)
    if schema.properties:
        schema.properties = {k: _named(v, named) for k, v in schema.properties.items()}
    if isinstance(schema.items, Schema):
        schema.items = _named(schema.items, named)
    for group in ("one_of", "any_of", "all_of", "prefix_items"):
        members = getattr(schema, group)
        if members:
            setattr(schema, group, [_named(m, named) for m in members])
    return schema


# Routes that only read a game: open without a key, to watch public games.
WATCHABLE = frozenset({"listGames", "getGame", "getView", "listEvents", "getHistory",
                       "getHistoryPage", "getStateAt", "verifyGame", "getLeaderboard",
                       "getPlayer", "listTournaments", "getTournament",
                       "getTournamentStandings", "verifyTournament"})


def document_optional_keys(openapi: OpenAPI) -> None:
    for item in (openapi.paths or {}).values():
        if item.get is not None and item.get.operation_id in WATCHABLE:
            item.get.security = [{"apiKey": []}, {}]


def name_stream_items(openapi: OpenAPI) -> None:
    """The game event stream's item (an event with `awaiting` and `deadline`) as a component,
    `StreamEvent`, so generators make a type of it."""
    events = (openapi.paths or {}).get("/v1/games/{game_id}/events")
    ok = (events.get.responses or {}).get("200") if events and events.get else None
    if not isinstance(ok, OpenAPIResponse) or not ok.content:
        return
    stream = ok.content.get("text/event-stream")
    if stream is None or not isinstance(stream.schema, Schema):
        return
    assert isinstance(openapi.components, Components) and openapi.components.schemas is not None
    openapi.components.schemas["StreamEvent"] = stream.schema
    stream.schema = Reference(ref="#/components/schemas/StreamEvent")


_GAME = "$response.body#/game_id"
_SAME_GAME = "$request.path.game_id"
# The flows a client follows, so a tool (a stateful fuzzer, a generator) knows how the
# operations chain: (operation, status) -> {link name: (operation it leads to, its game_id)}.
LINKS: dict[tuple[str, str], dict[str, tuple[str, str]]] = {
    ("createGame", "201"): {"StartIt": ("startGame", _GAME), "JoinIt": ("joinGame", _GAME),
                            "AddABot": ("addBot", _GAME), "ReadIt": ("getGame", _GAME)},
    ("joinGame", "200"): {"WaitForYourTurn": ("getTurn", _GAME)},
    ("startGame", "200"): {"WaitForYourTurn": ("getTurn", _GAME),
                           "FollowIt": ("listEvents", _GAME)},
    ("getTurn", "200"): {"SendACommand": ("postCommand", _SAME_GAME),
                         "ReadTheView": ("getView", _SAME_GAME)},
    ("postCommand", "200"): {"WaitForYourTurn": ("getTurn", _GAME)},
    ("resignGame", "200"): {"Watch": ("getView", _GAME)},
    ("getView", "200"): {"YourTurn": ("getTurn", _SAME_GAME),
                         "Verify": ("verifyGame", _SAME_GAME)},
}


def document_links(openapi: OpenAPI) -> None:
    for item in (openapi.paths or {}).values():
        for operation in (item.get, item.post):
            if operation is None:
                continue
            for code, response in (operation.responses or {}).items():
                links = LINKS.get((operation.operation_id or "", code))
                if links and isinstance(response, OpenAPIResponse):
                    response.links = {name: Link(operation_id=target,
                                                 parameters={"game_id": game_id})
                                      for name, (target, game_id) in links.items()}


def finish_document(openapi: OpenAPI) -> None:
    """What Litestar cannot say of the whole document: response headers, named enums, routes
    open to anonymous watchers."""
    document_response_headers(openapi)
    name_enums(openapi)
    document_optional_keys(openapi)
    name_stream_items(openapi)
    document_links(openapi)
