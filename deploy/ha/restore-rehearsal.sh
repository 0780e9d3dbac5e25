#!/bin/bash
# A rehearsal of the runbook's restore to a point in time (deploy/README.md), steps 2 and 3,
# on a throwaway PostgreSQL of its own in a temporary folder: archive WAL, take a base backup,
# commit rows before a target time and a mistake after it, then restore the backup into a new
# data directory replaying the archive up to the target. Prints what the restored server holds:
# rows 1-200 and not the mistake (rows 201-300 added, 1-50 deleted).
#   sudo deploy/ha/restore-rehearsal.sh     (as root it runs PostgreSQL as `postgres`)
set -euo pipefail
B=$(ls -d /usr/lib/postgresql/*/bin | sort -V | tail -1)
D=$(mktemp -d /tmp/cya-pitr-XXXX); chmod 755 "$D"
P1=${P1:-55431}; P2=${P2:-55432}
if [ "$(id -u)" = 0 ]; then chown postgres "$D"; as() { runuser -u postgres -- "$@"; }; else as() { "$@"; }; fi
cleanup() {
  for data in "$D/primary" "$D/restored"; do
    [ -f "$data/postmaster.pid" ] && as "$B/pg_ctl" -D "$data" -m immediate -w stop >/dev/null 2>&1
  done
  rm -rf "$D"
}
trap cleanup EXIT
as mkdir -p $D/archive $D/backup
as $B/initdb -D $D/primary -U postgres -A trust --no-sync >/dev/null
cat >> $D/primary/postgresql.conf <<CONF
port = $P1
listen_addresses = '127.0.0.1'
unix_socket_directories = '$D'
wal_level = replica
archive_mode = on
archive_command = 'test ! -f $D/archive/%f && cp %p $D/archive/%f'
CONF
as $B/pg_ctl -D $D/primary -l $D/primary.log -w start >/dev/null
Q() { as $B/psql -h 127.0.0.1 -p $1 -U postgres -qAt -c "$2"; }
Q $P1 "CREATE TABLE events (n int, at timestamptz DEFAULT clock_timestamp())"
Q $P1 "INSERT INTO events (n) SELECT generate_series(1, 100)"
as $B/pg_basebackup -h 127.0.0.1 -p $P1 -U postgres -D $D/backup -Ft -z -Xs -c fast
Q $P1 "INSERT INTO events (n) SELECT generate_series(101, 200)"   # after the backup, before the target
sleep 1
TARGET=$(Q $P1 "SELECT now()")
sleep 1
Q $P1 "INSERT INTO events (n) SELECT generate_series(201, 300)"   # the mistake: after the target
Q $P1 "DELETE FROM events WHERE n <= 50"
Q $P1 "SELECT pg_switch_wal()" >/dev/null
sleep 2   # the archiver copies the last segment
as $B/pg_ctl -D $D/primary -m fast -w stop >/dev/null
as mkdir -m 700 $D/restored
as tar -xzf $D/backup/base.tar.gz -C $D/restored
as tar -xzf $D/backup/pg_wal.tar.gz -C $D/restored/pg_wal
cat >> $D/restored/postgresql.auto.conf <<CONF
port = $P2
restore_command = 'cp $D/archive/%f %p'
recovery_target_time = '$TARGET'
recovery_target_action = 'promote'
CONF
as touch $D/restored/recovery.signal
as $B/pg_ctl -D $D/restored -l $D/restored.log -w start >/dev/null
for _ in $(seq 1 30); do [ "$(Q $P2 'SELECT pg_is_in_recovery()')" = f ] && break; sleep 0.5; done
echo "target $TARGET"
echo "restored: rows $(Q $P2 'SELECT count(*) FROM events'), n from $(Q $P2 'SELECT min(n) FROM events') to $(Q $P2 'SELECT max(n) FROM events'); in recovery: $(Q $P2 'SELECT pg_is_in_recovery()')"
grep -E "recovery stopping|starting point-in-time|restored log file" $D/restored.log | head -5
# KEEP_RESTORED=DIR: keep the restored data directory (stopped, its recovery settings cleared)
# in DIR, to rehearse taking it back under Patroni (steps 3 and 4).
if [ -n "${KEEP_RESTORED:-}" ]; then
  as "$B/pg_ctl" -D "$D/restored" -m fast -w stop >/dev/null
  as sed -i -e '/^port = /d' -e '/^restore_command/d' -e '/^recovery_target/d' \
    "$D/restored/postgresql.auto.conf"
  mv "$D/restored" "$KEEP_RESTORED"
fi
