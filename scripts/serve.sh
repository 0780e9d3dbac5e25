#!/usr/bin/env bash
# Installs the service into .venv, migrates the database and serves the API on
# http://127.0.0.1:8000 (docs at /docs). With no settings it runs on its embedded default: an
# SQLite file (./cya.sqlite3) and jobs in-process, so neither PostgreSQL nor Redis is needed.
# Set CYA_DATABASE_URL / CYA_REDIS_URL for production, HOST and PORT as you like. Without
# Redis run one API process (this one): streams and cached views rely on it seeing every write;
# with Redis, start more processes behind a balancer.
set -euo pipefail
cd "$(dirname "$0")/.."
if [ ! -x .venv/bin/python ]; then
  python3 -m venv .venv
fi
.venv/bin/pip install --quiet --upgrade pip
.venv/bin/pip install --quiet -e .
.venv/bin/cya db upgrade
exec .venv/bin/uvicorn --factory service.http.app:app_from_env \
  --host "${HOST:-127.0.0.1}" --port "${PORT:-8000}" --no-access-log
