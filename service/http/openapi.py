"""What Litestar leaves out of the OpenAPI document, restated: operation classes for open
routes and optional bodies, and a schema plugin for Structs' docstrings and unknown fields."""

from __future__ import annotations

import inspect
from dataclasses import dataclass
from typing import ClassVar

# Litestar's Struct schema plugin is not exported; the contract test pins what it makes.
from litestar._openapi.schema_generation import SchemaCreator
from litestar._openapi.schema_generation.plugins.struct import StructSchemaPlugin
from litestar.openapi.spec import Operation, RequestBody, Schema
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
    - a tagged Struct's tag field is described (it cannot carry a `msgspec.Meta`)."""

    def to_openapi_schema(self, field_definition: FieldDefinition,
                          schema_creator: SchemaCreator) -> Schema:
        schema = super().to_openapi_schema(field_definition, schema_creator)
        struct = field_definition.type_
        if struct.__doc__:
            schema.description = inspect.cleandoc(struct.__doc__)
        config = struct.__struct_config__
        if config.forbid_unknown_fields:
            schema.additional_properties = False
        tag = (schema.properties or {}).get(config.tag_field or "")
        if isinstance(tag, Schema) and tag.description is None:
            tag.description = f"Always `{config.tag}`: which of its kind this object is."
        return schema
