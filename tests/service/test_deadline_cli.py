"""`--deadline` on the client commands: the gRPC deadline apart from the search budget,
so that the server's promise (UNKNOWN, sent before the deadline) can be checked from the
command line."""

from __future__ import annotations

import json
import subprocess
import sys

from tests.support.servers import address

CLI = [sys.executable, "-m", "service.cli", "client"]
# IDA* through a 256-entry table on deal 126 runs for tens of seconds (test_server.py).
LONG = ["--deal", "126", "--algorithm", "idastar", "--table-entries", "256", "--seconds", "60"]


def test_a_deadline_shorter_than_the_budget_gives_unknown_before_it(solver_server):
    done = subprocess.run([*CLI, "solve", "--server", address(solver_server), *LONG,
                           "--deadline", "3", "--json"], capture_output=True, text=True,
                          timeout=60)
    # an answer at all is the promise kept: past the deadline it is DEADLINE_EXCEEDED, exit 1
    assert done.returncode == 0, done.stderr
    assert json.loads(done.stdout)["status"] == "unknown"


def test_a_deadline_is_a_positive_number():
    done = subprocess.run([*CLI, "hint", "--server", "127.0.0.1:1", "--deal", "2",
                           "--deadline", "0"], capture_output=True, text=True, timeout=60)
    assert done.returncode == 2 and "--deadline" in done.stderr
    assert len(done.stderr.strip().splitlines()) == 1
