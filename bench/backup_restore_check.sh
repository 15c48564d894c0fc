#!/usr/bin/env bash
# Backups tested end to end (docs/deploy.md "Backups"): on a throwaway PostgreSQL (as the
# postgres user, a mktemp directory, a free port — like .ci/run), migrate and load the demo
# (events, leagues, uploaded screenshots and evidence in a throwaway MEDIA_ROOT), count
# every table's rows and checksum the media; `make backup`; drop the database and delete
# the media; `make restore`; count and checksum again: both must be equal. Stops the server
# and removes everything it created, also on failure. Needs root and PostgreSQL's binaries.
set -euo pipefail
cd "$(dirname "$0")/.."
PY=${PY:-.venv/bin/python}

PGVER=$(ls /usr/lib/postgresql | sort -V | tail -1)
PGBIN=/usr/lib/postgresql/$PGVER/bin
WORK=$(mktemp -d /tmp/arbitro-backup.XXXXXX)
chmod 755 "$WORK"
PGDATA=$WORK/pg
mkdir "$PGDATA" && chown postgres:postgres "$PGDATA"
PORT=$($PY -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])')
cleanup() {
  su postgres -c "$PGBIN/pg_ctl -D $PGDATA -m fast stop" >/dev/null 2>&1 || true
  rm -rf "$WORK"
}
trap cleanup EXIT

su postgres -c "$PGBIN/initdb -D $PGDATA -A trust -U postgres" >/dev/null
su postgres -c "$PGBIN/pg_ctl -D $PGDATA -o '-p $PORT -k /tmp -c listen_addresses=127.0.0.1' -l $PGDATA/log -w start" >/dev/null
PSQL="$PGBIN/psql -h 127.0.0.1 -p $PORT -U postgres -v ON_ERROR_STOP=1 -qAt"
$PSQL -d postgres -c 'CREATE DATABASE arbitro'

export DATABASE_URL=postgres://postgres@127.0.0.1:$PORT/arbitro
export MEDIA_ROOT=$WORK/media
export DJANGO_SETTINGS_MODULE=config.settings.dev
echo "== PostgreSQL $PGVER on port $PORT; demo data"
$PY manage.py migrate --noinput -v 0
$PY manage.py load_demo >/dev/null

# Every table of the schema with its exact row count, and the media's checksums.
COUNT_SQL="SELECT table_name || ' ' || (xpath('/row/c/text()', query_to_xml(format('SELECT count(*) AS c FROM %I.%I', table_schema, table_name), false, true, '')))[1]::text FROM information_schema.tables WHERE table_schema = 'public' AND table_type = 'BASE TABLE' ORDER BY table_name"
snapshot() {
  $PSQL -d arbitro -c "$COUNT_SQL" >"$1.rows"
  (cd "$MEDIA_ROOT" && find . -type f -print0 | sort -z | xargs -0 -r sha256sum) >"$1.media"
}
snapshot "$WORK/before"
echo "tables: $(wc -l <"$WORK/before.rows"), rows: $(awk '{s+=$2} END {print s}' "$WORK/before.rows"), media files: $(wc -l <"$WORK/before.media")"

echo "== make backup"
OUTPUT=$(make --no-print-directory backup BACKUP_DIR="$WORK/backups" MEDIA_ROOT="$MEDIA_ROOT" PG_DUMP="$PGBIN/pg_dump")
read -r DUMP MEDIA <<<"$OUTPUT"
ls -l "$DUMP" "$MEDIA" | awk '{print $5, $9}'

echo "== drop the database, delete the media"
$PSQL -d postgres -c 'DROP DATABASE arbitro' -c 'CREATE DATABASE arbitro'
rm -rf "$MEDIA_ROOT"
echo "tables left: $($PSQL -d arbitro -c "SELECT count(*) FROM information_schema.tables WHERE table_schema = 'public'")"

echo "== make restore"
time make --no-print-directory restore DUMP="$DUMP" MEDIA="$MEDIA" MEDIA_ROOT="$MEDIA_ROOT" PG_RESTORE="$PGBIN/pg_restore"
snapshot "$WORK/after"

echo "== compare"
diff -u "$WORK/before.rows" "$WORK/after.rows"
diff -u "$WORK/before.media" "$WORK/after.media"
$PY manage.py migrate --check >/dev/null
echo "row counts equal in all $(wc -l <"$WORK/after.rows") tables ($(awk '{s+=$2} END {print s}' "$WORK/after.rows") rows), $(wc -l <"$WORK/after.media") media files identical, migrations up to date: OK"
