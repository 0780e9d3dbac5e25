"""What Litestar leaves out of the OpenAPI document, restated: operation classes for open
routes and optional bodies, and a schema plugin for Structs that refuse unknown fields."""

from __future__ import annotations

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


class StrictStructSchemaPlugin(StructSchemaPlugin):
    """A msgspec Struct that refuses unknown fields (400) says so in its schema
    (`additionalProperties: false`); Litestar's own plugin leaves that out, so generated
    clients would think any extra field welcome. Registered ahead of Litestar's."""

    def is_plugin_supported_field(self, field_definition: FieldDefinition) -> bool:
        return (super().is_plugin_supported_field(field_definition)
                and field_definition.type_.__struct_config__.forbid_unknown_fields)

    def to_openapi_schema(self, field_definition: FieldDefinition,
                          schema_creator: SchemaCreator) -> Schema:
        schema = super().to_openapi_schema(field_definition, schema_creator)
        schema.additional_properties = False
        return schema
