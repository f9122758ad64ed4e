# Every target creates .venv and installs the project into it when missing.
VENV := .venv
PY := $(VENV)/bin/python
INSTALLED := $(VENV)/.installed
DEALS ?= 1-1000
GAMES ?= 1000

.PHONY: run test bench bench-service bench-ffk bench-farbduell bench-stronghold lint proto

$(INSTALLED): pyproject.toml
	python3 -m venv $(VENV)
	$(PY) -m pip install --quiet --upgrade pip
	$(PY) -m pip install --quiet -e '.[dev]'
	touch $(INSTALLED)

run: $(INSTALLED)
	@echo "try: $(VENV)/bin/fortress-solver client hint --server 127.0.0.1:50051 --deal 2"
	$(VENV)/bin/fortress-solver serve --host 127.0.0.1 --port 50051

test: $(INSTALLED)
	$(PY) -m pytest

bench: $(INSTALLED)
	$(PY) bench/bench_beleaguered.py --deals $(DEALS)

bench-service: $(INSTALLED)
	$(PY) -m bench.bench_service --deals $(DEALS)

# Fortress Fight Kingdom: the hint bot against the random and the greedy bot.
bench-ffk: $(INSTALLED)
	$(VENV)/bin/fortress-solver ffk selfplay --bots hint,random --games $(GAMES) --seed 1
	$(VENV)/bin/fortress-solver ffk selfplay --bots hint,greedy --games $(GAMES) --seed 1

# Farbduell: go-out chains on big hands, and the hint bot against the random and the
# greedy bot over two-player Classic games.
bench-farbduell: $(INSTALLED)
	$(PY) -m bench.bench_farbduell_chains
	$(VENV)/bin/fortress-solver farbduell selfplay --table classic --players 2 \
		--bots hint,random --games $(GAMES) --seed 1
	$(VENV)/bin/fortress-solver farbduell selfplay --table classic --players 2 \
		--bots hint,greedy --games $(GAMES) --seed 1

# Stronghold: fewest turns to clear, exhaustive search against the CP-SAT model.
bench-stronghold: $(INSTALLED)
	$(PY) -m bench.bench_stronghold

lint: $(INSTALLED)
	$(PY) -m ruff check solver service tests bench

# Regenerate service/api/ from protos/ (the generated code is committed).
proto: $(INSTALLED)
	$(PY) -m grpc_tools.protoc -Iservice/api=protos --python_out=. --grpc_python_out=. \
		--pyi_out=. protos/fortress_solver.proto
