#!/usr/bin/env bash
# Installs the project with its test dependencies into .venv and runs the whole test suite.
# The suite uses the local PostgreSQL (127.0.0.1:5432) and Redis (127.0.0.1:6379).
set -euo pipefail
cd "$(dirname "$0")/.."
python3 -m venv .venv
.venv/bin/pip install --quiet --upgrade pip
.venv/bin/pip install --quiet -e rules -e '.[test]' -e clients/python
.venv/bin/ruff check .
.venv/bin/mypy --strict service workers rules/cya_rules
# The SDK on its own terms (clients/python/pyproject.toml): strict, examples included.
(cd clients/python && ../../.venv/bin/mypy --strict cya_client examples scripts)
# The TypeScript SDK (clients/typescript): its pinned packages from the committed lockfile, its
# types current with the contract, and the compiler's checks; its tests run within pytest
# (tests/sdk/test_typescript.py).
(cd clients/typescript && npm ci --no-audit --no-fund --loglevel=error && npm run check)
# Two workers (pytest-xdist): 15 minutes on two cores, against 22 one test at a time. Each test
# claims its own PostgreSQL database or schema and Redis database, so the workers never meet.
# `-n 0` after it runs the tests in this process (for a debugger, or `-s` output as it comes).
exec .venv/bin/pytest -n 2 "$@"
