"""Imports point down the layer table of ARCHITECTURE.md, checked rather than hoped for.

`service/lobby.py` and `service/game.py` are pure like the domain (the lobby's facts live in
the same log), so the event log and the projections may read them.
"""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2] / "service"
PURE = {"msgspec", "service.domain", "service.lobby", "service.game"}

LAYERS = {
    "domain": sorted((ROOT / "domain").glob("*.py")),
    "model": [ROOT / "lobby.py", ROOT / "game.py"],
    "events": sorted((ROOT / "events").glob("*.py")),
    "projections": sorted((ROOT / "projections").glob("*.py")),
}
FORBIDDEN = {
    "domain": ("service.", "sqlalchemy", "asyncpg", "aiosqlite", "redis", "rq", "litestar"),
    "model": ("service.events", "service.projections", "service.pipeline", "service.http",
              "sqlalchemy", "asyncpg", "redis", "litestar"),
    "events": ("service.projections", "service.pipeline", "service.http", "workers",
               "litestar", "redis"),
    "projections": ("service.pipeline", "service.http", "workers", "litestar", "redis"),
}


def _imports(path: Path) -> set[str]:
    package = "service." + ".".join(path.relative_to(ROOT).with_suffix("").parts[:-1])
    names = set()
    for node in ast.walk(ast.parse(path.read_text())):
        if isinstance(node, ast.Import):
            names.update(a.name for a in node.names)
        elif isinstance(node, ast.ImportFrom):
            if node.level:
                base = package.rstrip(".").split(".")
                base = base[: len(base) - node.level + 1]
                names.add(".".join([*base, node.module] if node.module else base))
            else:
                names.add(node.module or "")
    return names


@pytest.mark.parametrize("layer", LAYERS)
def test_each_layer_imports_only_from_below(layer):
    bad = {
        f"{path.name}: {name}"
        for path in LAYERS[layer]
        for name in _imports(path)
        if name.startswith(FORBIDDEN[layer]) and not (layer == "domain" and
                                                      name.startswith("service.domain"))
    }
    assert not bad
