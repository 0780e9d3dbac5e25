#!/usr/bin/env bash
# Installs the project with its test dependencies into .venv and runs the whole test suite.
# The suite uses the local PostgreSQL (127.0.0.1:5432) and Redis (127.0.0.1:6379).
set -euo pipefail
cd "$(dirname "$0")/.."
python3 -m venv .venv
.venv/bin/pip install --quiet --upgrade pip
.venv/bin/pip install --quiet -e '.[test]'
.venv/bin/ruff check .
.venv/bin/mypy --strict service workers
exec .venv/bin/pytest "$@"
