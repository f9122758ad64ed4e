# Every target creates .venv and installs the project into it when missing: `make run`
# what serving needs (RUNTIME), the other targets the development extras too (INSTALLED),
# each step saying what it does.
VENV := .venv
PY := $(VENV)/bin/python
RUNTIME := $(VENV)/.installed-runtime
INSTALLED := $(VENV)/.installed-dev
DEALS ?= 1-1000
GAMES ?= 1000

KERNEL_TESTS := tests/beleaguered/test_native.py tests/beleaguered/test_optimality.py \
	tests/beleaguered/test_freecell_family.py tests/beleaguered/test_memory_budget.py \
	tests/beleaguered/test_ranges.py \
	tests/beleaguered/test_anytime.py tests/beleaguered/test_disk.py

.PHONY: run test test-timing test-asan bench bench-service bench-ffk bench-farbduell bench-stronghold lint proto schemas census census-plot bench-scale bench-hostile bench-family bench-freecell bench-history bench-memory bench-worker-memory \
	bench-verdict bench-quick-lines bench-hints

# pip builds the compiled kernel (solver/beleaguered/_kernel.cpp) in place.
$(RUNTIME): pyproject.toml setup.py solver/beleaguered/_kernel.cpp
	@echo "[1/3] creating $(VENV)"
	python3 -m venv $(VENV)
	@echo "[2/3] upgrading pip"
	$(PY) -m pip install --upgrade --progress-bar on pip
	@echo "[3/3] installing fortress-solver, its runtime dependencies and its compiled kernel"
	$(PY) -m pip install --progress-bar on -e .
	touch $(RUNTIME)

# The extras' requirements as pyproject.toml lists them, on top: not the project again,
# which would build the kernel a second time.
$(INSTALLED): $(RUNTIME) pyproject.toml
	@echo "[+] adding the development extras (tests, linters, benchmarks, Dask)"
	$(PY) -c 'import tomllib; extras = tomllib.load(open("pyproject.toml", "rb"))["project"]["optional-dependencies"]; print("\n".join(extras["dev"] + extras["dask"]))' > $(VENV)/extras.txt
	$(PY) -m pip install --progress-bar on -r $(VENV)/extras.txt
	touch $(INSTALLED)

run: $(RUNTIME)
	@echo "try: $(VENV)/bin/fortress-solver client hint --deal 2"
	@echo "  or open http://127.0.0.1:8080/ (the playground)"
	$(VENV)/bin/fortress-solver serve --host 127.0.0.1 --port 50051 --http-port 8080

# The suite on every core (pytest-xdist; a module's tests stay on one worker, with its
# server), without the tests of wall-clock bounds: those are `make test-timing`'s. The
# bytecode is written first, so that the hundreds of servers and commands the tests start
# read it rather than each compile the sources again (as they do on a machine that sets
# PYTHONDONTWRITEBYTECODE): some 10 % of the suite's CPU.
test: lint
	$(PY) -m compileall -q solver service
	$(PY) -m pytest -n auto --dist loadfile

# Only the tests that assert a wall-clock bound (latency, deadlines, keeping to a
# budget): meant for an otherwise idle machine.
test-timing: $(INSTALLED)
	$(PY) -m pytest -m timing

# The kernel built with AddressSanitizer and UBSan, under its tests and the engines'
# equivalence tests; the normal build is put back afterwards, whatever the outcome.
# Python itself is not built with them, so the runtimes are preloaded (libstdc++ too, for
# the sanitizer to find the C++ runtime's exception support).
test-asan: $(INSTALLED)
	FORTRESS_SOLVER_SANITIZE=1 $(PY) setup.py -q build_ext --inplace --force
	ASAN_OPTIONS=detect_leaks=0:abort_on_error=1 UBSAN_OPTIONS=print_stacktrace=1 \
		LD_PRELOAD="$$(gcc -print-file-name=libasan.so) $$(gcc -print-file-name=libstdc++.so)" \
		$(PY) -m pytest -p no:cacheprovider $(KERNEL_TESTS); \
		status=$$?; $(PY) setup.py -q build_ext --inplace --force; exit $$status

bench: $(INSTALLED)
	$(PY) bench/bench_beleaguered.py --deals $(DEALS)

bench-service: $(INSTALLED)
	$(PY) -m bench.bench_service --deals $(DEALS)

# Fortress Fight Kingdom: random playouts per second, then the hint bot against the random
# and the greedy bot.
bench-ffk: $(INSTALLED)
	$(PY) -m bench.bench_ffk_playouts
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

# Each attack on a real server while a well-behaved client asks: its success, latency,
# the server's memory and log (HOSTILE_SECONDS per attack, 60 at most).
HOSTILE_SECONDS ?= 60
bench-hostile: $(INSTALLED)
	$(PY) -m bench.hostile --seconds $(HOSTILE_SECONDS)

# ruff over everything, mypy --strict over the library and the service (settings in
# pyproject.toml; the generated code in service/api/ aside).
lint: $(INSTALLED)
	$(PY) -m ruff check solver service tests bench
	$(PY) -m mypy solver service

# Regenerate service/api/ from protos/ (the generated code is committed).
proto: $(INSTALLED)
	$(PY) -m grpc_tools.protoc -Iservice/api=protos --python_out=. --grpc_python_out=. \
		--pyi_out=. --plugin=protoc-gen-connectrpc=$(VENV)/bin/protoc-gen-connectrpc \
		--connectrpc_out=. --connectrpc_opt=protobuf=google protos/fortress_solver.proto

# Rewrite docs/schemas/ from the games' wire schemas, one file for every registered game
# (committed; a test fails when stale).
schemas: $(INSTALLED)
	$(VENV)/bin/fortress-solver schema --all docs/schemas

# The census of deals 1..1,000,000 (resumable: run it again after a stop), its summary,
# and the data file the package ships (solver/beleaguered/census.bin), named with --to:
# a pack writes inside the package only when told so.
CENSUS ?= census.jsonl
census: $(INSTALLED)
	$(VENV)/bin/fortress-solver census --deals 1-1000000 --out $(CENSUS) --progress
	$(VENV)/bin/fortress-solver census --summary $(CENSUS)
	$(VENV)/bin/fortress-solver census --pack $(CENSUS) --to solver/beleaguered/census.bin

# docs/census-lengths.png: the optimal lengths of the shipped census.
census-plot: $(INSTALLED)
	$(PY) -m bench.plot_census

# The same batch on 1 and 2 gRPC replicas (round_robin) and 1 and 2 Dask workers, beside
# the local pool: deals per second and the speed-ups (`make bench-scale SCALE_DEALS=1-5000`
# for a shorter run).
SCALE_DEALS ?= 1-20000
bench-scale: $(INSTALLED)
	$(PY) -m bench.bench_scale --deals $(SCALE_DEALS)

# Every variant over deals $(DEALS) (one core, 10 s a search), our `any` and `verdict`
# modes, with Freecell Solver (its default search and -l lg) on the down-building three;
# fc-solve is installed with apt-get when missing (the script says so and skips the
# comparison when that fails).
bench-family: $(INSTALLED)
	@command -v fc-solve >/dev/null 2>&1 || apt-get install -y freecell-solver-bin \
		|| echo "bench-family: could not install freecell-solver-bin (fc-solve)" >&2
	$(PY) -m bench.bench_family --deals $(DEALS)

# The FreeCell family beside Freecell Solver's preset for each game, its default search
# and -l lg, our `any` and `verdict` modes (one core each, 10 s a deal; FreeCell deals
# 1-1000, the others 1-300), fc-solve installed as above; with the share proven optimal
# (--optimal); FREECELL_ARGS for other settings (--modes, --presets...).
FREECELL_ARGS ?= --optimal
bench-freecell: $(INSTALLED)
	@command -v fc-solve >/dev/null 2>&1 || apt-get install -y freecell-solver-bin \
		|| echo "bench-freecell: could not install freecell-solver-bin (fc-solve)" >&2
	$(PY) -m bench.bench_freecell $(FREECELL_ARGS)

# Microsoft FreeCell deals $(VERDICT_DEALS) decided by `fortress-solver batch --mode verdict
# --jobs 1` beside Freecell Solver's `freecell-solver-range-parallel-solve ... -l lg`, wall
# clock, 3 runs each taking turns, and the verdict counts of both.
VERDICT_DEALS ?= 100001-132000
bench-verdict: $(INSTALLED)
	@command -v freecell-solver-range-parallel-solve >/dev/null 2>&1 \
		|| apt-get install -y freecell-solver-bin \
		|| echo "bench-verdict: could not install freecell-solver-bin" >&2
	$(PY) -m bench.bench_verdict_range --deals $(VERDICT_DEALS)

# A quick line's length beside the census's proven optimum: FreeCell and the castle
# variants, deals $(DEALS), `optimal` mode in 0.25 s a deal.
bench-quick-lines: $(INSTALLED)
	$(PY) -m bench.bench_quick_lines --deals $(DEALS)

# Hint with no budget over gRPC (a server started on 127.0.0.1) on the openings of deals
# $(HINT_DEALS) of every variant: latency p50/p95/max, the line's excess over the
# census's optimum; and `fortress-solver hint --deal N` timed whole on a few deals.
HINT_DEALS ?= 1-200
bench-hints: $(INSTALLED)
	$(PY) -m bench.bench_hints --deals $(HINT_DEALS)

# A 2-worker server with --memory-per-worker 400 under 4 hard optimal solves at once: the
# peak resident memory of the server and its workers, against the manifest's 1 GiB.
bench-memory: $(INSTALLED)
	$(PY) -m bench.bench_memory

# Every game's hardest questions against one worker with --memory-per-worker 400 (patience
# by the Python reference), one after another: the worker's peak memory for each.
bench-worker-memory: $(INSTALLED)
	$(PY) -m bench.bench_worker_memory

# Beleaguered Fortress and the castle family with today's kernel beside the kernel of
# HISTORY_COMMIT, built from git, deals $(DEALS), 10 s a search: no variant slower than
# 1.1x, no verdict or optimal length changed (any mode, then optimal).
HISTORY_COMMIT ?= a8e7954
bench-history: $(INSTALLED)
	$(PY) -m bench.bench_kernel_history --commit $(HISTORY_COMMIT) --deals $(DEALS) --mode any
	$(PY) -m bench.bench_kernel_history --commit $(HISTORY_COMMIT) --deals $(DEALS) --mode optimal
