# Árbitro — developer commands. `make run` and `make test` are the README's two commands;
# each installs what it needs on a fresh machine first.
PY ?= .venv/bin/python
PYTHON_BIN ?= $(shell command -v python3.13 || ls $$HOME/.pyenv/versions/3.13*/bin/python3.13 2>/dev/null | tail -1 || echo python3)
HOST ?= 127.0.0.1
PORT ?= 8000

.PHONY: venv system-deps run demo test lint format bench messages

venv: .venv/.installed

.venv/.installed: pyproject.toml
	test -x $(PY) || $(PYTHON_BIN) -m venv .venv
	$(PY) -m pip install --quiet --upgrade pip
	$(PY) -m pip install --quiet -e '.[dev]'
	touch $@

# Chromium (browser tests) from Debian's packages, when missing and we may install it.
system-deps:
	@if ! command -v chromium >/dev/null 2>&1; then \
	  if [ "$$(id -u)" = 0 ] && command -v apt-get >/dev/null 2>&1; then \
	    echo "Installing Chromium for the browser tests…"; \
	    apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq chromium >/dev/null; \
	  else echo "Chromium is missing: install Debian's 'chromium' package to run the browser tests."; exit 1; fi; \
	fi

demo: venv
	$(PY) manage.py migrate --noinput
	$(PY) manage.py load_demo

# For one machine only: DEBUG pages, the development server, a random secret key made on
# first run in var/secret_key (config/secret.py). The venue's network: docs/deploy.md.
# The notifications' worker (db_worker) runs beside the server; Ctrl+C stops both.
run: demo
	@echo ""
	@echo "  Árbitro is running at http://$(HOST):$(PORT)/  (Ctrl+C to stop)"
	@case "$(HOST)" in 127.*|localhost|::1) ;; *) \
	  echo "  WARNING: make run is for this machine only (debug pages, development server)."; \
	  echo "  To serve the venue's network, deploy as docs/deploy.md says."; ;; esac
	@echo "  Notifications: the queue's worker runs beside it (manage.py db_worker); e-mails"
	@echo "  are printed here (console mailer). docs/notifications.md"
	@echo ""
	@$(PY) manage.py db_worker --no-reload --interval 1 & worker=$$!; \
	trap 'kill $$worker 2>/dev/null; wait $$worker 2>/dev/null' EXIT INT TERM; \
	$(PY) manage.py runserver $(HOST):$(PORT)

test: venv system-deps
	$(PY) manage.py makemigrations --check --dry-run
	$(PY) -m pytest

lint: venv
	.venv/bin/ruff check .
	.venv/bin/ruff format --check .
	.venv/bin/lint-imports

format: venv
	.venv/bin/ruff check --fix .
	.venv/bin/ruff format .

# Spanish/English catalogues (needs GNU gettext: apt-get install gettext).
messages: venv
	$(PY) manage.py makemessages -l es -l en --no-obsolete --ignore=.venv --ignore=staticfiles --ignore=test-artifacts
	$(PY) manage.py compilemessages --ignore=.venv

bench: venv
	$(PY) bench/standings_bench.py
	$(PY) bench/standings_db_bench.py
	$(PY) bench/seating_bench.py
	$(PY) bench/public_pages_bench.py
	$(PY) bench/deck_bench.py
	$(PY) bench/notify_bench.py
	$(PY) bench/rankings_bench.py

# Event-day load test (docs/performance.md "Event-day load"): throwaway PostgreSQL + Redis,
# gunicorn, locust headless; about 3 minutes. Needs root, PostgreSQL and redis-server.
# Ends with "Targets (issues 7 and 17)": MET or MISSED per target, and a note when the machine was
# busy. Report, CSVs and logs in var/bench-load/. Knobs (environment): LOAD_STEADY,
# LOAD_WORKERS, LOAD_THREADS, LOAD_SAT_USERS, LOAD_SAT_SECONDS, LOAD_SCOREKEEPER_WAIT,
# LOAD_SERVER_CPUS / LOAD_LOCUST_CPUS (taskset lists), LOAD_FAST_CACHE=0 (A/B only).
.PHONY: bench-load
bench-load: venv
	$(PY) bench/load_run.py

# Backups (docs/deploy.md "Backups"): the database (pg_dump custom format) and the uploaded
# screenshots and evidence (MEDIA_ROOT), side by side with one timestamp.
#   make backup  DATABASE_URL=postgres://… [MEDIA_ROOT=/srv/arbitro/media] [BACKUP_DIR=…]
#   make restore DATABASE_URL=postgres://… DUMP=…/arbitro-STAMP.dump [MEDIA=…/media-STAMP.tar.gz]
# Tested end to end by bench/backup_restore_check.sh.
BACKUP_DIR ?= var/backups
MEDIA_ROOT ?= media
PG_DUMP ?= pg_dump
PG_RESTORE ?= pg_restore
.PHONY: backup restore
backup:
	@test -n "$$DATABASE_URL" || { echo "set DATABASE_URL=postgres://user:password@host:port/name"; exit 1; }
	@mkdir -p "$(BACKUP_DIR)"
	@stamp=$$(date -u +%Y%m%dT%H%M%SZ); \
	$(PG_DUMP) --format=custom --no-owner --dbname="$$DATABASE_URL" --file="$(BACKUP_DIR)/arbitro-$$stamp.dump" && \
	mkdir -p "$(MEDIA_ROOT)" && tar -czf "$(BACKUP_DIR)/media-$$stamp.tar.gz" -C "$(MEDIA_ROOT)" . && \
	echo "$(BACKUP_DIR)/arbitro-$$stamp.dump $(BACKUP_DIR)/media-$$stamp.tar.gz"
restore:
	@test -n "$$DATABASE_URL" || { echo "set DATABASE_URL=postgres://user:password@host:port/name"; exit 1; }
	@test -f "$(DUMP)" || { echo "set DUMP=path/to/arbitro-STAMP.dump"; exit 1; }
	$(PG_RESTORE) --clean --if-exists --no-owner --single-transaction --exit-on-error --dbname="$$DATABASE_URL" "$(DUMP)"
	@if [ -n "$(MEDIA)" ]; then mkdir -p "$(MEDIA_ROOT)" && tar -xzf "$(MEDIA)" -C "$(MEDIA_ROOT)" && echo "media restored into $(MEDIA_ROOT)"; fi
