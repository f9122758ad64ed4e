"""Ctrl-C on a question's command while its search runs, here and through a server: one
line, `fortress-solver: interrupted`, exit 130; through a server the call is cancelled
(its log line says CANCELLED) and the worker is free again. Real processes, the signal
sent to the command's process group as a terminal sends it."""

from __future__ import annotations

import json
import os
import signal
import subprocess
import time
import urllib.request
from collections.abc import Callable, Iterator

import psutil
import pytest

from tests.support.serve_process import SCRIPT, ServeProcess

# a whole duel, seed 1: forcing a win within 4 turns searches for minutes
PUZZLE = ["ffk", "puzzle", "--start", "1", "--turns", "4", "--seconds", "30"]


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[ServeProcess]:
    serving = ServeProcess(tmp_path_factory.mktemp("interrupt") / "serve.log",
                           "--metrics-port", "0")
    try:
        serving.wait_serving()
        yield serving
    finally:
        serving.stop()


def interrupted(argv: list[str], searching: Callable[[int], bool]) -> tuple[int, str, str]:
    """(exit code, stdout, stderr) of the command, sent SIGINT once `searching(its pid)`."""
    command = subprocess.Popen([str(SCRIPT), *argv], stdout=subprocess.PIPE,
                               stderr=subprocess.PIPE, text=True, start_new_session=True)
    try:
        deadline = time.monotonic() + 60  # a guard against a hang, not a bound
        while not searching(command.pid):
            assert command.poll() is None, "the command ended before it was interrupted"
            assert time.monotonic() < deadline, "the search never started"
            time.sleep(0.05)
        os.killpg(command.pid, signal.SIGINT)
        out, err = command.communicate(timeout=60)
        return command.returncode, out, err
    finally:
        if command.poll() is None:
            command.kill()
            command.wait()


def test_ctrl_c_on_a_puzzle_here_is_one_line():
    def searching(pid: int) -> bool:  # a second of CPU: past the imports, into the search
        return psutil.Process(pid).cpu_times().user >= 1.0

    assert interrupted(PUZZLE, searching) == (130, "", "fortress-solver: interrupted\n")


def _busy(server: ServeProcess) -> float:
    """The server's workers running a search, from its metrics."""
    url = f"http://127.0.0.1:{server.metrics_port}/metrics"
    with urllib.request.urlopen(url, timeout=30) as page:
        for line in page.read().decode().splitlines():
            if line.startswith("fortress_solver_workers_busy "):
                return float(line.split()[1])
    raise AssertionError("no fortress_solver_workers_busy gauge")


def test_ctrl_c_on_a_puzzle_through_a_server_is_one_line_and_cancels_the_call(server):
    argv = ["client", *PUZZLE, "--server", server.address]
    assert interrupted(argv, lambda _: _busy(server) >= 1) == (
        130, "", "fortress-solver: interrupted\n")
    deadline = time.monotonic() + 60
    while _busy(server) or not server.calls("Solve"):
        assert time.monotonic() < deadline, "the worker is still searching"
        time.sleep(0.05)
    logged = [json.loads(line) for line in server.log.read_text().splitlines()
              if line.startswith("{")]
    assert [(line["method"], line["status"]) for line in logged] == [("Solve", "CANCELLED")]
