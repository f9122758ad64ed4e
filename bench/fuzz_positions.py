"""Mutated positions through every registered game's commands: how many crash (a Python
exception escaping the command line, instead of an answer or one line naming the fault).

    python -m bench.fuzz_positions --inputs 10000 --seed 1
    python -m bench.fuzz_positions --inputs 2000 --server 127.0.0.1:50051   # the clients
    python -m bench.fuzz_positions --games stronghold,ffk --inputs 500

The fuzzer itself is tests/support/fuzz_positions.py (the tests use its parts): every
game of `solver.games.games()` and every question each game lists, asked by the command
that asks it (some with tuned options), on mutations of the game's own deals, starts and
examples.
"""

from __future__ import annotations

import sys

from tests.support.fuzz_positions import main

if __name__ == "__main__":
    sys.exit(main())
