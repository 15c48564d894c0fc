# Árbitro — developer commands. `make run` and `make test` are the README's two commands.
PY ?= .venv/bin/python
PYTHON_BIN ?= $(shell command -v python3.13 || echo python3)

.PHONY: venv run test test-pg lint bench messages

venv: .venv/.installed

.venv/.installed: pyproject.toml
	test -x $(PY) || $(PYTHON_BIN) -m venv .venv
	$(PY) -m pip install --quiet --upgrade pip
	$(PY) -m pip install --quiet -e '.[dev]'
	touch $@

run: venv
	$(PY) manage.py migrate --noinput
	$(PY) manage.py load_demo
	$(PY) manage.py runserver 127.0.0.1:8000

test: venv
	$(PY) manage.py makemigrations --check --dry-run
	$(PY) -m pytest

lint: venv
	.venv/bin/ruff check .
	.venv/bin/ruff format --check .

bench: venv
	$(PY) bench/standings_bench.py
	$(PY) bench/seating_bench.py
