"""Generate `cya_client/models.py` (msgspec structs) from the committed OpenAPI contract.

    python clients/python/scripts/generate_models.py            # rewrite models.py
    python clients/python/scripts/generate_models.py --check    # exit 1 when it is stale

It reads the contract's general shape, not particular names:
- every object schema under `components/schemas` becomes a `msgspec.Struct` (keyword-only);
  a required property with a string `const` (`type`, `kind`, …) becomes the struct's tag, so
  a `oneOf` of such schemas decodes as a tagged union;
- a string `enum` schema becomes a `Literal` alias; an inline one an inline `Literal`;
- `oneOf`/`anyOf` become unions (`null` as `None`), a lone `allOf` reference the referenced
  type, `prefixItems` a tuple, `additionalProperties` a `dict[str, …]`, `date-time` a
  `datetime`;
- an optional property gets its schema's scalar default (the structs omit defaults when
  encoding, so a request body stays minimal), or `UNSET` when it has none;
- a union of tagged structs gets a name when it contains one of the members in
  `UNION_NAMES` (e.g. every command union is `Command`); other unions stay inline.
"""

from __future__ import annotations

import argparse
import json
import keyword
import sys
import textwrap
from collections.abc import Iterable
from pathlib import Path
from typing import Any

HERE = Path(__file__).resolve().parent
PACKAGE = HERE.parent / "cya_client"
CONTRACT = HERE.parents[2] / "openapi" / "openapi.json"
TARGET = PACKAGE / "models.py"

# A union of tagged structs is named after the kind of thing it holds: the key is any one
# member the union always has.
UNION_NAMES = {
    "FormSet": "Command",
    "AwaitingAction": "Pending",
    "GameStarted": "Event",
    "NewsYourTurn": "News",
    "HumanSeat": "SeatHolder",
}
RESERVED = {"Any", "Literal", "TypeAlias", "datetime", "msgspec", "UNSET", "UnsetType"}
WIDTH = 100
Schema = dict[str, Any]


def _ref_name(ref: str) -> str:
    return ref.rsplit("/", 1)[-1]


class Generator:
    def __init__(self, contract: Schema) -> None:
        self.contract = contract
        self.schemas: dict[str, Schema] = contract["components"]["schemas"]
        clash = RESERVED & set(self.schemas)
        if clash:
            raise SystemExit(f"schema names clash with the module's imports: {sorted(clash)}")
        self.unions: dict[str, list[str]] = {}  # alias name -> members

    # -- types ------------------------------------------------------------------------------

    def type_of(self, schema: Schema) -> str:
        if "$ref" in schema:
            return _ref_name(schema["$ref"])
        if "const" in schema:
            return f"Literal[{json.dumps(schema['const'])}]"
        if "enum" in schema:
            return "Literal[" + ", ".join(json.dumps(v) for v in schema["enum"]) + "]"
        for key in ("oneOf", "anyOf"):
            if key in schema:
                return self._union(schema[key])
        if "allOf" in schema:
            parts = schema["allOf"]
            if len(parts) == 1:
                return self.type_of(parts[0])
            return "dict[str, Any]"  # an intersection msgspec cannot express
        kind = schema.get("type")
        if isinstance(kind, list):
            return self._union([{**schema, "type": k} for k in kind])
        if kind == "string":
            return "datetime" if schema.get("format") == "date-time" else "str"
        if kind == "integer":
            return "int"
        if kind == "number":
            return "float"
        if kind == "boolean":
            return "bool"
        if kind == "null":
            return "None"
        if kind == "array":
            if "prefixItems" in schema:
                return "tuple[" + ", ".join(self.type_of(s) for s in schema["prefixItems"]) + "]"
            return f"list[{self.type_of(schema.get('items', {}))}]"
        if kind == "object" or "properties" in schema or "additionalProperties" in schema:
            extra = schema.get("additionalProperties")
            value = self.type_of(extra) if isinstance(extra, dict) and extra else "Any"
            return f"dict[str, {value}]"
        return "Any"

    def _union(self, options: Iterable[Schema]) -> str:
        members: list[str] = []
        nullable = False
        for option in options:
            t = self.type_of(option)
            if t == "None":
                nullable = True
            elif t not in members:
                members.append(t)
        refs = [m for m in members if m in self.schemas and self.tag_of(self.schemas[m])]
        named = next((UNION_NAMES[m] for m in refs if m in UNION_NAMES), None)
        if named and len(refs) == len(members):
            known = self.unions.setdefault(named, members)
            if known != members:  # the same kind listed differently: keep both, spelled out
                named = None
            else:
                members = [named]
        return " | ".join(members + (["None"] if nullable else []))

    def tag_of(self, schema: Schema) -> tuple[str, str] | None:
        required = set(schema.get("required", []))
        for name, prop in schema.get("properties", {}).items():
            if name in required and isinstance(prop.get("const"), str):
                return name, prop["const"]
        return None

    # -- defaults ---------------------------------------------------------------------------

    @staticmethod
    def default_of(prop: Schema) -> str:
        if "default" in prop:
            value = prop["default"]
            if isinstance(value, str):
                return json.dumps(value, ensure_ascii=False)
            if value is None or isinstance(value, bool | int | float):
                return repr(value)
            if value == []:
                return "msgspec.field(default_factory=list)"
            if value == {}:
                return "msgspec.field(default_factory=dict)"
        return "UNSET"

    # -- rendering --------------------------------------------------------------------------

    def render(self) -> str:
        aliases: list[str] = []
        structs: list[str] = []
        late: list[str] = []
        for name in sorted(self.schemas):
            schema = self.schemas[name]
            if "properties" in schema or schema.get("type") == "object":
                structs.append(self.struct(name, schema))
                continue
            value = self.type_of(schema)
            if value == name:  # a named union component: emitted with the unions
                continue
            # An alias of structs or unions must follow them: aliases are evaluated at import.
            simple = all(part.startswith(("Literal[", "str", "int", "float", "bool", "None"))
                         for part in value.split(" | "))
            (aliases if simple else late).append(self.alias(name, value, schema))
        for schema in self.path_schemas():  # names the unions only routes use (a stream's item)
            self.type_of(schema)
        unions = [self.alias(name, " | ".join(members), {})
                  for name, members in sorted(self.unions.items())]
        # isort's blank lines after the imports: one before an assignment, two before a class
        gap = "\n\n" if aliases else "\n\n\n"
        body = "\n\n\n".join([*aliases, *structs, *unions, *late])
        return HEADER.rstrip("\n") + gap + body + "\n"

    def path_schemas(self) -> Iterable[Schema]:
        for path in self.contract.get("paths", {}).values():
            for operation in path.values():
                if not isinstance(operation, dict):
                    continue
                answers = list(operation.get("responses", {}).values())
                for part in [operation.get("requestBody", {}), *answers]:
                    for media in part.get("content", {}).values():
                        if "schema" in media:
                            yield media["schema"]

    def alias(self, name: str, value: str, schema: Schema) -> str:
        doc = _comment(schema.get("description", ""), "")
        one_line = f"{name}: TypeAlias = {value}"
        if len(one_line) <= WIDTH:
            return doc + one_line
        if " | " in value and "[" not in value:
            body = "\n    | ".join(value.split(" | "))
            return f"{doc}{name}: TypeAlias = (\n    {body}\n)"
        literal = value.removeprefix("Literal[").removesuffix("]")
        items = "".join(f"    {v.strip()},\n" for v in literal.split(", "))
        return f"{doc}{name}: TypeAlias = Literal[\n{items}]"

    def struct(self, name: str, schema: Schema) -> str:
        tag = self.tag_of(schema)
        options = ["kw_only=True", "omit_defaults=True"]
        if tag:
            options += [f'tag_field="{tag[0]}"', f'tag="{tag[1]}"']
        lines = [f"class {name}(msgspec.Struct, {', '.join(options)}):"]
        description = schema.get("description", "").strip()
        if description:
            lines.append(_docstring(description))
        required = set(schema.get("required", []))
        fields = []
        for prop_name, prop in sorted(schema.get("properties", {}).items()):
            if tag and prop_name == tag[0]:
                continue
            fields.append(self.field(prop_name, prop, prop_name in required))
        if not fields and not description:
            lines.append("    pass")
        return "\n".join(lines + fields)

    def field(self, name: str, prop: Schema, required: bool) -> str:
        attr = name + "_" if keyword.iskeyword(name) or not name.isidentifier() else name
        t = self.type_of(prop)
        out = _comment(prop.get("description", ""), "    ")
        if required:
            value = f'msgspec.field(name="{name}")' if attr != name else None
        else:
            value = self.default_of(prop)
            if value == "UNSET":
                t = (f"{t.removesuffix(' | None')} | UnsetType | None" if t.endswith(" | None")
                     else f"{t} | UnsetType")
            if attr != name:
                value = (f'msgspec.field(name="{name}", default={value})'
                         if not value.startswith("msgspec.field(")
                         else value.replace("msgspec.field(", f'msgspec.field(name="{name}", '))
        return out + f"    {attr}: {t}" + (f" = {value}" if value else "")


def _comment(text: str, indent: str) -> str:
    text = " ".join(text.split())
    if not text:
        return ""
    wrapped = textwrap.wrap(text, WIDTH - len(indent) - 3, break_on_hyphens=False)
    return "".join(f"{indent}#: {line}\n" for line in wrapped)


def _docstring(text: str) -> str:
    paragraphs = [" ".join(p.split()) for p in text.replace('"""', "'''").split("\n\n")]
    body: list[str] = []
    for p in paragraphs:
        body += [*textwrap.wrap(p, WIDTH - 4, break_on_hyphens=False), ""]
    body = body[:-1]
    if len(body) == 1 and len(body[0]) <= WIDTH - 10:
        return f'    """{body[0]}"""'
    inner = "\n".join(f"    {line}".rstrip() for line in body)
    return f'    """\n{inner}\n    """'


HEADER = '''\
"""The API's shapes as msgspec structs: views, commands, events, news, problems, turns.

GENERATED from openapi/openapi.json by clients/python/scripts/generate_models.py: do not edit
by hand; run the script after the contract changes (a test fails while this file is stale).
"""

# ruff: noqa: E501

from __future__ import annotations

from datetime import datetime
from typing import Any, Literal, TypeAlias

import msgspec
from msgspec import UNSET as UNSET
from msgspec import UnsetType as UnsetType
'''


def generate(contract_path: Path = CONTRACT) -> str:
    return Generator(json.loads(contract_path.read_text())).render()


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n", 1)[0])
    parser.add_argument("--contract", type=Path, default=CONTRACT)
    parser.add_argument("--out", type=Path, default=TARGET)
    parser.add_argument("--check", action="store_true", help="exit 1 when --out is stale")
    args = parser.parse_args(argv)
    text = generate(args.contract)
    if args.check:
        stale = not args.out.exists() or args.out.read_text() != text
        if stale:
            print(f"{args.out} is stale: run {Path(__file__).name}", file=sys.stderr)
        return int(stale)
    args.out.write_text(text)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
