"""SIGTERM ends `batch` and `census` as Ctrl-C does: one line, exit 130, no worker left
running, and an output file of whole lines that a rerun completes. Real processes, sent
the signal alone (`kill PID`) or with their workers (a service manager stopping the
process group)."""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import psutil
import pytest

CLI = [sys.executable, "-m", "service.cli"]
COMMANDS = {"batch": ["batch", "--mode", "optimal"], "census": ["census"]}
SLOW = ["--deals", "1-3000"]  # long enough to be stopped midway, by the Python engine:
PYTHON_ENGINE = {**os.environ, "FORTRESS_SOLVER_ENGINE": "python"}


def whole_lines(out: Path) -> list[int]:
    """The deals of the file, which must end with a whole line."""
    raw = out.read_bytes()
    assert raw.endswith(b"\n")
    return [json.loads(line)["deal"] for line in raw.splitlines()]


@pytest.mark.parametrize("to_group", [False, True], ids=["process", "group"])
@pytest.mark.parametrize("command", sorted(COMMANDS))
def test_sigterm_ends_the_command_as_ctrl_c_does(tmp_path, command, to_group):
    out = tmp_path / "results.jsonl"
    argv = [*CLI, *COMMANDS[command], "--jobs", "2", "--out", str(out)]
    running = subprocess.Popen([*argv, *SLOW], stdout=subprocess.DEVNULL, env=PYTHON_ENGINE,
                               stderr=subprocess.PIPE, text=True, start_new_session=True)
    deadline = time.monotonic() + 120  # a guard against a hang, not a bound
    while (not out.exists() or out.read_bytes().count(b"\n") < 3) \
            and running.poll() is None and time.monotonic() < deadline:
        time.sleep(0.05)
    workers = psutil.Process(running.pid).children(recursive=True)
    assert workers, "the command runs its searches in worker processes"
    if to_group:
        os.killpg(running.pid, signal.SIGTERM)
    else:
        running.send_signal(signal.SIGTERM)
    _, err = running.communicate(timeout=120)
    assert (running.returncode, err) == (130, "fortress-solver: interrupted\n")
    _, alive = psutil.wait_procs(workers, timeout=60)
    assert [p for p in alive if p.status() != psutil.STATUS_ZOMBIE] == []

    done = whole_lines(out)
    assert 3 <= len(done) and len(set(done)) == len(done)
    rerun = subprocess.run([*argv, "--deals", f"1-{max(done) + 2}"], capture_output=True,
                           text=True, timeout=300)
    assert rerun.returncode == 0, rerun.stderr
    assert sorted(whole_lines(out)) == list(range(1, max(done) + 3))


STOP_AFTER_SIGTERM = """
import os, signal, time
import psutil
from service.arguments import worker_pool

with worker_pool(2) as pool:
    pool.apply_async(time.sleep, (60,))  # one worker busy, the other idle, waiting for a task
    time.sleep(1)
    for worker in psutil.Process().children():
        os.kill(worker.pid, signal.SIGTERM)
    time.sleep(0.5)
print("stopped")
"""


def test_a_pool_whose_workers_had_sigterm_stops():
    """A service manager's SIGTERM to the group reaches the workers before the command
    stops its pool: an idle worker killed while it held the pool's task queue lock left
    the pool's terminate waiting for that lock for ever."""
    stopped = subprocess.run([sys.executable, "-c", STOP_AFTER_SIGTERM], capture_output=True,
                             text=True, timeout=60)  # a guard against a hang, not a bound
    assert (stopped.returncode, stopped.stdout) == (0, "stopped\n"), stopped.stderr
