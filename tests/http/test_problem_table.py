"""Every problem code the service can answer with is in the README's table of errors. The codes
are read from the code itself (every `Problem(status, code, …)` and `forbidden(code, …)`, the
framework's statuses, and the rules answered as 403), so a new one cannot go undocumented."""

from __future__ import annotations

import ast
import re
from pathlib import Path

from service.http.problems import _FORBIDDEN_RULES, _HTTP_CODES

ROOT = Path(__file__).resolve().parents[2]
# Where the code sits among a maker's arguments.
MAKERS = {"Problem": 1, "forbidden": 0, "ChallengeRefused": 1}


def _raised_codes() -> set[str]:
    codes = set(_HTTP_CODES.values()) | {str(rule) for rule in _FORBIDDEN_RULES}
    for source in (ROOT / "service").rglob("*.py"):
        for node in ast.walk(ast.parse(source.read_text(), str(source))):
            if not isinstance(node, ast.Call):
                continue
            name = getattr(node.func, "id", getattr(node.func, "attr", None))
            at = MAKERS.get(name) if isinstance(name, str) else None
            if at is not None and len(node.args) > at:
                code = node.args[at]
                if isinstance(code, ast.Constant) and isinstance(code.value, str):
                    codes.add(code.value)
    return codes


def _readme_codes() -> dict[str, set[str]]:
    """The README's table of errors: each code with the statuses it is listed under."""
    table: dict[str, set[str]] = {}
    for row in re.finditer(r"^\s*\| (\d{3}) \| ([^|]*) \|", (ROOT / "README.md").read_text(),
                           re.MULTILINE):
        for code in re.findall(r"`([a-z_]+)`", row.group(2)):
            table.setdefault(code, set()).add(row.group(1))
    return table


def test_given_every_code_the_service_raises_then_the_readme_lists_it():
    raised, listed = _raised_codes(), _readme_codes()

    assert {"spectator_delay", "player_not_found", "rule_violation", "not_creator"} <= raised
    assert sorted(raised - set(listed)) == []
    assert sorted(set(listed) - raised) == [], "the README lists a code nothing raises"
