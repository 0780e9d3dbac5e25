"""Imports point down the layers (docs/architecture.md), held by package rather than by file:
a module added to a package obeys its package's rule without anyone listing it here.

Each package names the packages of ours it may import; a package not in the table fails the
test, so a new room must say where it stands.
"""

from __future__ import annotations

import ast
import re
import sys
from collections.abc import Iterator
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]

TOURNAMENTS = ("service.tournaments", "service.tournaments.runner")
MATCHMAKING = ("service.matchmaking", "service.matchmaking.runner")
# Ours, bottom up. "domain" and "bots" are pure: the standard library and msgspec only.
MAY_IMPORT: dict[str, set[str]] = {
    "cya_rules": set(),
    "cya_rules.bots": {"cya_rules"},
    # The table's events around the rules (seats, lobby, seeds, endings, clocks).
    "cya_rules.table": {"cya_rules"},
    # The log's format: one codec for every event, visibility, the hash chain, receipts.
    "cya_rules.log": {"cya_rules", "cya_rules.table"},
    # The offline verifier (`cya-verify`): not pure, it reads files and, with the `receipts`
    # extra, checks signatures with `cryptography`.
    "cya_rules.verify": {"cya_rules", "cya_rules.table", "cya_rules.log"},
    "service.table": {"cya_rules"},
    "service.ladder": {"cya_rules", "cya_rules.bots"},
    # The tournament's pure core.
    "service.tournaments": {"cya_rules", "cya_rules.bots"},
    # Challenges and seeks as data, and the pairing decision.
    "service.matchmaking": {"cya_rules", "service.table"},
    "service.events": {"cya_rules", "service.table"},
    # The tournaments' read model is rows of their pure core's `tournament_out`.
    "service.projections": {"cya_rules", "service.table", "service.events",
                            "service.tournaments"},
    "service.players": {"service.events"},
    # Redis clients from the one URL (a server, or Sentinel's master): ours, nothing.
    "service.redis_clients": set(),
    # Signed receipts: keys and signing over a chain hash it is handed, into the table's
    # `Receipt` (a shape the pure `Turn` carries).
    "service.receipts": {"service.table", "cya_rules.log"},
    "service.pipeline": {"cya_rules", "service.table", "service.events",
                         "service.projections", "service.redis_clients"},
    "service.audit": {"cya_rules", "cya_rules.verify", "service.table", "service.events",
                      "service.projections"},
    "service.scheduling": {"cya_rules", "cya_rules.bots", "service.table", "service.events",
                           "service.projections", "service.pipeline", "service.redis_clients"},
    # Its runner (a subpackage of the tournament's pure core) drives games through the
    # pipeline, and wakes under RQ by a job named in `service.scheduling.job_names`.
    "service.tournaments.runner": {"cya_rules", "service.table", "service.events",
                                   "service.projections", "service.pipeline", "service.audit",
                                   "service.scheduling", "service.tournaments",
                                   "service.redis_clients"},
    # Its runner keeps challenges and seeks in their tables and opens their games through
    # the pipeline; a seeker's rating is read from the ratings' read model.
    "service.matchmaking.runner": {"cya_rules", "service.table", "service.events",
                                   "service.projections", "service.pipeline",
                                   "service.matchmaking", "service.players"},
    # Bots on webhooks and event webhooks: deliveries are worker jobs through the pipeline.
    "service.webhooks": {"cya_rules", "service.table", "service.events",
                         "service.projections", "service.pipeline", "service.scheduling",
                         "service.redis_clients"},
    "service.wiring": {"cya_rules", "cya_rules.bots", "service.table", "service.events",
                       "service.projections", "service.players", "service.pipeline",
                       "service.audit", "service.scheduling", "service.webhooks",
                       "service.redis_clients", "service.receipts", *TOURNAMENTS, *MATCHMAKING},
    "service.http": {"cya_rules", "cya_rules.bots", "service.table", "service.events",
                     "service.projections", "service.players", "service.pipeline",
                     "service.audit", "service.scheduling", "service.wiring",
                     "service.webhooks", "service.redis_clients", "service.receipts",
                     *TOURNAMENTS, *MATCHMAKING},
    "workers": {"cya_rules", "cya_rules.bots", "service.table", "service.events",
                "service.projections", "service.pipeline", "service.scheduling",
                "service.wiring", "service.webhooks", "service.redis_clients", *TOURNAMENTS,
                *MATCHMAKING},
    # The command line starts every deployable, workers included.
    "service.cli": {"cya_rules", "cya_rules.bots", "service.ladder", "service.table",
                    "service.events", "service.projections", "service.players", "service.pipeline",
                    "service.audit", "service.scheduling", "service.wiring", "workers",
                    "service.webhooks", "service.redis_clients", "service.receipts",
                    *TOURNAMENTS, *MATCHMAKING},
}
# Whoever may import the rules may import their table and log packages (rules/cya_rules/).
for _package, _allowed in MAY_IMPORT.items():
    if not _package.startswith("cya_rules") and "cya_rules" in _allowed:
        _allowed.update(("cya_rules.table", "cya_rules.log"))
PURE = {"cya_rules", "cya_rules.bots", "cya_rules.table", "cya_rules.log", "service.table",
        "service.tournaments", "service.matchmaking"}
# Outside libraries that only the edges may use: never the pure packages.
INFRASTRUCTURE = ("sqlalchemy", "asyncpg", "aiosqlite", "alembic", "redis", "rq", "litestar",
                  "uvicorn", "httpx")
OURS = ("service", "workers", "cya_rules")
# Where each top-level package of ours lives: the rules engine is a distribution of its own.
SOURCE_ROOTS = {"service": ROOT, "workers": ROOT, "cya_rules": ROOT / "rules"}
# Database drivers: only the event store (`service/events/`) imports them (each backend names
# its own faults there).
DRIVERS = ("asyncpg", "aiosqlite", "sqlite3", "psycopg", "psycopg2")


def _package_of(module: str) -> str:
    parts = module.split(".")
    if ".".join(parts[:3]) in MAY_IMPORT:  # a subpackage with a place of its own
        return ".".join(parts[:3])
    if ".".join(parts[:2]) in MAY_IMPORT:
        return ".".join(parts[:2])
    return ".".join(parts[:2]) if parts[0] == "service" else parts[0]


def _module_name(path: Path) -> str:
    root = next(r for top, r in SOURCE_ROOTS.items() if path.is_relative_to(r / top))
    parts = path.relative_to(root).with_suffix("").parts
    return ".".join(parts[:-1] if parts[-1] == "__init__" else parts)


def _import_statements(path: Path) -> Iterator[tuple[ast.Import | ast.ImportFrom, str]]:
    """Every import statement of the file, with the module a `from` names (relative ones
    resolved; "" for a plain `import`)."""
    package = _module_name(path).split(".")
    if path.name != "__init__.py":
        package = package[:-1]
    for node in ast.walk(ast.parse(path.read_text())):
        if isinstance(node, ast.Import):
            yield node, ""
        elif isinstance(node, ast.ImportFrom):
            module = node.module or ""
            if node.level:
                base = package[: len(package) - node.level + 1]
                module = ".".join([*base, module] if module else base)
            yield node, module


def _imports(path: Path) -> set[str]:
    """Every module the file imports, relative imports resolved."""
    names: set[str] = set()
    for node, module in _import_statements(path):
        if isinstance(node, ast.Import):
            names.update(a.name for a in node.names)
        else:
            names.add(module)
    return names


def _python_files() -> list[Path]:
    return sorted(p for top in OURS for p in (SOURCE_ROOTS[top] / top).rglob("*.py"))


def test_every_package_of_ours_has_a_place_in_the_layers() -> None:
    packages = {_package_of(_module_name(p)) for p in _python_files()} - {"service"}
    assert packages <= MAY_IMPORT.keys(), packages - MAY_IMPORT.keys()


def test_service_holds_no_loose_modules() -> None:
    assert sorted(p.name for p in (ROOT / "service").glob("*.py")) == ["__init__.py"]


@pytest.mark.parametrize("package", sorted(MAY_IMPORT))
def test_each_package_imports_only_from_below(package: str) -> None:
    allowed = MAY_IMPORT[package] | {package}
    bad = set()
    for path in _python_files():
        if _package_of(_module_name(path)) != package:
            continue
        for name in _imports(path):
            if name.startswith(OURS) and _package_of(name) not in allowed:
                bad.add(f"{path.relative_to(ROOT)}: {name}")
            if package in PURE and name.split(".")[0] in INFRASTRUCTURE:
                bad.add(f"{path.relative_to(ROOT)}: {name} (a pure package)")
    assert not bad, sorted(bad)


def test_only_the_event_store_imports_a_database_driver() -> None:
    bad = {f"{path.relative_to(ROOT)}: {name}" for path in _python_files()
           if _package_of(_module_name(path)) != "service.events"
           for name in _imports(path) if name.split(".")[0] in DRIVERS}
    assert not bad, sorted(bad)


@pytest.mark.parametrize("package", sorted(PURE))
def test_a_pure_package_imports_only_the_standard_library_msgspec_and_ours(package: str) -> None:
    allowed = {*sys.stdlib_module_names, "msgspec", *OURS}
    bad = {f"{path.relative_to(ROOT)}: {name}" for path in _python_files()
           if _package_of(_module_name(path)) == package
           for name in _imports(path) if name.split(".")[0] not in allowed}
    assert not bad, sorted(bad)


@pytest.mark.parametrize("package", sorted(PURE))
def test_a_pure_package_has_ruff_ban_the_infrastructure(package: str) -> None:
    """ruff says so at the line, as the editor shows it; this test says so in the suite."""
    top = package.split(".")[0]
    config = (SOURCE_ROOTS[top] / package.replace(".", "/") / "ruff.toml").read_text()
    assert "[lint.flake8-tidy-imports.banned-api]" in config
    for library in INFRASTRUCTURE:
        assert f'"{library}".msg' in config, library


# The read models' tables, and the log read directly: written by the store's commit and read
# through `service/projections/` (or the event store's own API), never by a query elsewhere.
PROJECTION_TABLES = {"games", "game_views", "due_work", "ratings", "rating_changes",
                     "tournaments", "tournament_games", "events"}
# The state a package keeps for itself, not a projection of any log: it queries its own tables.
OWN_TABLES: dict[str, set[str]] = {
    "service.players": {"players"},
    "service.webhooks": {"bot_endpoints", "bot_attempts", "webhook_subscriptions",
                         "webhook_messages", "webhook_attempts"},
    # The tournament's own event log (appended and loaded by `runner/log.py`).
    "service.tournaments.runner": {"tournament_events"},
    # Challenges and seeks: the things themselves, not a projection of a log.
    "service.matchmaking.runner": {"challenges", "seeks"},
}
TABLES = "service.events.tables"
READERS = ("service.events", "service.projections")


def _defined_tables() -> set[str]:
    """The names `service/events/tables.py` binds to an `sa.Table(...)`."""
    tree = ast.parse((ROOT / "service/events/tables.py").read_text())
    return {t.id for node in tree.body if isinstance(node, ast.Assign)
            and isinstance(node.value, ast.Call) and isinstance(node.value.func, ast.Attribute)
            and node.value.func.attr == "Table"
            for t in node.targets if isinstance(t, ast.Name)}


_TABLE_NAMES = _defined_tables()


def _names_from_tables(path: Path) -> set[str]:
    """The names the file takes from `service.events.tables`, directly or through a package
    that re-exports it; a whole-module import (`import service.events.tables`, `from
    service.events import tables`) or a star takes every one of them ("*")."""
    names: set[str] = set()
    for node, module in _import_statements(path):
        if isinstance(node, ast.Import):
            names.update("*" for a in node.names if a.name == TABLES)
        else:
            for alias in node.names:
                if module == TABLES:
                    names.add(alias.name)
                elif f"{module}.{alias.name}" == TABLES:
                    names.add("*")
                elif TABLES.startswith(f"{module}.") and alias.name in _TABLE_NAMES:
                    names.add(alias.name)  # a table re-exported by `service.events` (or `service`)
    return names


def test_the_guarded_tables_exist() -> None:
    """A renamed table must be renamed here too, or the rule below would hold nothing."""
    owned = set().union(*OWN_TABLES.values())
    assert PROJECTION_TABLES | owned <= _TABLE_NAMES, (PROJECTION_TABLES | owned) - _TABLE_NAMES
    assert not PROJECTION_TABLES & owned


def test_only_the_event_store_and_projections_read_the_projection_tables() -> None:
    """Every read of a read model is a named function in `service/projections/`; the log is
    read through `service/events/event_store.py`. Outside them a package imports from
    `service.events.tables` only its own tables (OWN_TABLES)."""
    bad = set()
    for path in _python_files():
        package = _package_of(_module_name(path))
        if package in READERS:
            continue
        for name in _names_from_tables(path):
            if name == "*" or name in PROJECTION_TABLES or (
                    name in _TABLE_NAMES and name not in OWN_TABLES.get(package, set())):
                bad.add(f"{path.relative_to(ROOT)}: {name}")
    assert not bad, sorted(bad)


def test_the_architecture_doc_names_real_files_and_every_layer() -> None:
    """docs/architecture.md is the map a newcomer reads: every path and module it names
    exists, and its layer table has a row for every package here."""
    doc = (ROOT / "docs" / "architecture.md").read_text()
    paths = set(re.findall(
        r"`((?:service|workers|rules|tests|bench|clients|deploy|docs)/[\w/.\-]+)`", doc))
    modules = set(re.findall(r"`(\w+\.py)`", doc))
    ours = {p.name for p in _python_files()}
    rows = set(re.findall(r"^\| `((?:service|workers|rules)[\w/]*)/` \|", doc, re.M))
    wanted = {str((SOURCE_ROOTS[p.split(".")[0]] / p.replace(".", "/")).relative_to(ROOT))
              for p in MAY_IMPORT}

    assert [p for p in paths if not (ROOT / p).exists()] == []
    assert sorted(modules - ours) == []
    assert wanted <= rows, wanted - rows
