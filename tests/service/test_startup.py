"""The quick commands start quickly: `deal`, `show`, `apply` and `hint` import neither
CP-SAT (ortools, half a second) nor what only other commands use (grpc for `client` and
`serve`, tqdm and the batch runner for the commands with progress bars)."""

from __future__ import annotations

import json
import subprocess
import sys

import pytest

from solver.beleaguered import deal, legal_moves

# Runs one command through service.cli.main, then prints its exit code and the modules
# loaded of the packages named in argv[2].
DRIVER = """
import contextlib, io, json, sys
from service.cli import main
with contextlib.redirect_stdout(io.StringIO()):
    code = main(json.loads(sys.argv[1]))
watched = tuple(sys.argv[2].split(","))
print(json.dumps([code, sorted(m for m in sys.modules if m.split(".")[0] in watched
                               or m in watched)]))
"""
UNWANTED = ("ortools", "grpc", "tqdm", "service.batch", "service.client")

COMMANDS = [
    ["deal", "1"],
    ["show", "--deal", "1"],
    ["apply", "--deal", "1", str(legal_moves(deal(1))[0])],
    ["hint", "--deal", "2"],
]


@pytest.mark.parametrize("argv", COMMANDS, ids=[" ".join(argv) for argv in COMMANDS])
def test_a_quick_command_imports_no_solver_it_does_not_use(argv):
    done = subprocess.run([sys.executable, "-c", DRIVER, json.dumps(argv), ",".join(UNWANTED)],
                          capture_output=True, text=True, timeout=60)
    assert done.returncode == 0, done.stderr
    code, loaded = json.loads(done.stdout)
    assert code == 0, done.stderr
    assert loaded == [], f"{' '.join(argv)} imported {', '.join(loaded)}"
