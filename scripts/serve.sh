#!/usr/bin/env bash
# Installs the service into .venv, migrates the database and serves the API on
# http://127.0.0.1:8000 (docs at /docs). With no settings it runs on its embedded default: an
# SQLite file (./cya.sqlite3) and jobs in-process, so neither PostgreSQL nor Redis is needed.
# Set CYA_DATABASE_URL / CYA_REDIS_URL for production, HOST and PORT as you like. Without
# Redis run one API process (this one): streams and cached views rely on it seeing every write;
# with Redis, start more processes behind a balancer.
#
# The install runs only when pyproject.toml or rules/pyproject.toml (the rules engine, a package
# of its own) has changed since the last one (their hash is kept in .venv/.cya-pyproject.sha256):
# both are installed editable, so a change to the code needs no install, and a restart serves in
# seconds instead of waiting for pip.
set -euo pipefail
cd "$(dirname "$0")/.."
if [ ! -x .venv/bin/python ]; then
  python3 -m venv .venv
fi
stamp=.venv/.cya-pyproject.sha256
wanted=$(.venv/bin/python -c \
  'import hashlib; print(hashlib.sha256(b"".join(open(p, "rb").read()
   for p in ("pyproject.toml", "rules/pyproject.toml"))).hexdigest())')
if [ "$(cat "$stamp" 2>/dev/null)" != "$wanted" ]; then
  .venv/bin/pip install --quiet --upgrade pip
  .venv/bin/pip install --quiet -e rules -e .
  echo "$wanted" > "$stamp"  # only once the install has succeeded
fi
.venv/bin/cya db upgrade
# Every open event stream and long poll holds a socket: lift the open-file limit to the most
# allowed (a soft 1,024 stopped a process near a thousand streams; see docs/performance.md,
# "Many games at once"). Where the hard limit is lower than wanted, raise it (systemd
# LimitNOFILE=, compose `ulimits`); this only uses what is allowed.
ulimit -n "$(ulimit -Hn)" 2>/dev/null || true
exec .venv/bin/uvicorn --factory service.http.app:app_from_env \
  --host "${HOST:-127.0.0.1}" --port "${PORT:-8000}" --no-access-log
