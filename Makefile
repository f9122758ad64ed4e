# Every target creates .venv and installs the project into it when missing.
VENV := .venv
PY := $(VENV)/bin/python
INSTALLED := $(VENV)/.installed
DEALS ?= 1-1000

.PHONY: run test bench lint

$(INSTALLED): pyproject.toml
	python3 -m venv $(VENV)
	$(PY) -m pip install --quiet --upgrade pip
	$(PY) -m pip install --quiet -e '.[dev]'
	touch $(INSTALLED)

run: $(INSTALLED)
	$(VENV)/bin/fortress-solver solve --deal 2

test: $(INSTALLED)
	$(PY) -m pytest

bench: $(INSTALLED)
	$(PY) bench/bench_beleaguered.py --deals $(DEALS)

lint: $(INSTALLED)
	$(PY) -m ruff check solver service tests bench
