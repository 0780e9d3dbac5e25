#!/bin/sh
# Run once by Patroni on the first primary, with a superuser's connection URL: the service's
# role and database (its tables come from `cya db upgrade`, the compose file's `migrate`).
set -eu
psql "$1" -v ON_ERROR_STOP=1 -c "CREATE ROLE cya LOGIN PASSWORD 'cya'" \
  -c "CREATE DATABASE cya OWNER cya"
