"""The committed OpenAPI contract: render it from the app, write it, check it is current.

`python -m service.http.contract` rewrites `openapi/openapi.json`; a test fails when the
committed file differs from what the app generates.
"""

from __future__ import annotations

import json
import sys
import tempfile
from pathlib import Path

from litestar.serialization import encode_json

from service.wiring.settings import Settings

CONTRACT = Path(__file__).resolve().parents[2] / "openapi" / "openapi.json"


def render() -> str:
    from service.http.app import create_app

    with tempfile.TemporaryDirectory() as tmp:  # the schema needs no database, only the app
        app = create_app(Settings(database_url=f"sqlite+aiosqlite:///{tmp}/contract.sqlite3"))
        document = json.loads(encode_json(app.openapi_schema.to_schema()))
    return json.dumps(document, indent=2, sort_keys=True, ensure_ascii=False) + "\n"


def main() -> int:
    text = render()
    if "--check" in sys.argv:
        current = CONTRACT.read_text() if CONTRACT.exists() else ""
        if current != text:
            print(f"{CONTRACT} is stale: run python -m service.http.contract", file=sys.stderr)
            return 1
        return 0
    CONTRACT.parent.mkdir(exist_ok=True)
    CONTRACT.write_text(text)
    print(f"wrote {CONTRACT}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
