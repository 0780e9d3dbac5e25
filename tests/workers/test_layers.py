"""Due work sits in the service layer and never reaches up: `service/` imports neither the
workers nor the HTTP layer (the RQ job is named by its dotted path), and the timeout events
are as pure as the lobby's."""

from __future__ import annotations

import ast
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]


def _imported(path: Path) -> set[str]:
    names: set[str] = set()
    for node in ast.walk(ast.parse(path.read_text())):
        if isinstance(node, ast.Import):
            names.update(a.name for a in node.names)
        elif isinstance(node, ast.ImportFrom) and node.module and not node.level:
            names.add(node.module)
    return names


def test_given_the_due_work_modules_then_none_imports_workers_or_http() -> None:
    for path in (ROOT / "service" / "due").glob("*.py"):
        bad = {n for n in _imported(path) if n.startswith(("workers", "service.http", "litestar"))}
        assert not bad, (path.name, bad)


def test_given_the_timeout_events_then_they_import_only_msgspec_and_the_lobby() -> None:
    path = ROOT / "service" / "timeouts.py"
    tree = ast.parse(path.read_text())
    relative = {n.module for n in ast.walk(tree) if isinstance(n, ast.ImportFrom) and n.level}
    assert relative <= {"lobby", "domain.docs"}  # the lobby, and the pure domain's `doc`
    assert _imported(path) <= {"__future__", "typing", "msgspec", "msgspec.structs"}
