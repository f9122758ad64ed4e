"""`batch --dask`: the same lines as the local pool's, through the real command, on a
LocalCluster and on a scheduler with workers of their own; a worker killed mid-run and a
Ctrl-C lose no deal and write none twice; without Dask, one line saying how to get it."""

from __future__ import annotations

import importlib.util
import json
import os
import signal
import subprocess
import sys
import time
from collections.abc import Iterator
from pathlib import Path

import pytest

BIN = Path(sys.executable).parent
SCRIPT = BIN / "fortress-solver"
DEALS = 3000  # enough that a kill or a Ctrl-C after the first lines lands mid-run
ANY = ["--mode", "any", "--seconds", "5"]  # any mode takes milliseconds a deal

needs_dask = pytest.mark.skipif(
    importlib.util.find_spec("distributed") is None,
    reason="Dask is not installed: pip install 'fortress-solver[dask]'")


def batch(deals: str, *options: str, timeout: float = 120) -> subprocess.CompletedProcess[str]:
    return subprocess.run([str(SCRIPT), "batch", "--deals", deals, *ANY, *options],
                          capture_output=True, text=True, timeout=timeout)


def verdicts(text: str) -> list[tuple[int, str, bool, int | None]]:
    """(deal, status, optimal, length) of each line, in the order written."""
    return [(r["deal"], r["status"], r["optimal"], r["length"])
            for r in map(json.loads, text.splitlines())]


def wait_for_lines(path: Path, count: int, process: subprocess.Popen[str]) -> int:
    deadline = time.monotonic() + 60
    while time.monotonic() < deadline and process.poll() is None:
        if path.exists() and len(lines := path.read_text().splitlines()) >= count:
            return len(lines)
        time.sleep(0.02)
    pytest.fail(f"{path} has fewer than {count} lines (exit {process.poll()})")


@pytest.fixture(scope="module")
def local() -> list[tuple[int, str, bool, int | None]]:
    """The local pool's verdicts on deals 1..DEALS, by deal."""
    done = batch(f"1-{DEALS}", "--jobs", "2")
    assert done.returncode == 0, done.stderr
    return sorted(verdicts(done.stdout))


@pytest.fixture
def scheduler(tmp_path: Path) -> Iterator[tuple[str, list[subprocess.Popen[bytes]]]]:
    """A `dask scheduler` on 127.0.0.1 and two single-threaded `dask worker`s without a
    nanny (so that killing one is a worker dying), both joined: (address, workers)."""
    from distributed import Client

    started: list[subprocess.Popen[bytes]] = []

    def start(*argv: str) -> subprocess.Popen[bytes]:
        started.append(subprocess.Popen([str(BIN / "dask"), *argv], stdout=subprocess.DEVNULL,
                                        stderr=subprocess.DEVNULL))
        return started[-1]
    file = tmp_path / "scheduler.json"
    try:
        start("scheduler", "--host", "127.0.0.1", "--port", "0", "--no-dashboard",
              "--scheduler-file", str(file))
        deadline = time.monotonic() + 30
        while not file.exists() and time.monotonic() < deadline:
            time.sleep(0.05)
        address = json.loads(file.read_text())["address"]
        workers = [start("worker", address, "--nthreads", "1", "--no-nanny", "--no-dashboard")
                   for _ in range(2)]
        with Client(address, timeout=30) as client:
            client.wait_for_workers(2, timeout=30)
        yield address, workers
    finally:
        for process in started:
            process.kill()
            process.wait()


@needs_dask
def test_a_local_cluster_gives_the_local_pools_lines(local):
    """--dask local: every deal once, each verdict the local pool's, and stderr the summary
    alone."""
    done = batch("1-300", "--dask", "local")
    assert done.returncode == 0, done.stderr
    lines = verdicts(done.stdout)
    assert len(lines) == 300
    assert sorted(lines) == local[:300]
    [summary] = done.stderr.splitlines()
    assert summary.startswith("300 deals: ") and "300 run in" in summary


@needs_dask
def test_a_worker_killed_mid_run_loses_no_deal_and_writes_none_twice(tmp_path, local,
                                                                   scheduler):
    address, workers = scheduler
    out = tmp_path / "results.jsonl"
    run = subprocess.Popen([str(SCRIPT), "batch", "--deals", f"1-{DEALS}", *ANY,
                            "--dask", address, "--out", str(out)],
                           stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True)
    written = wait_for_lines(out, 100, run)
    workers[0].send_signal(signal.SIGKILL)
    _, err = run.communicate(timeout=120)
    assert run.returncode == 0, err
    assert written < DEALS  # the kill came mid-run
    lines = verdicts(out.read_text())
    assert len(lines) == DEALS and sorted(lines) == local
    [summary] = err.splitlines()  # nothing of Dask's about the lost worker
    assert summary.startswith(f"{DEALS} deals: ")


@needs_dask
def test_ctrl_c_is_one_line_exit_130_and_the_run_resumes(tmp_path, local):
    """SIGINT to the whole process group, as a terminal sends it: the LocalCluster's
    workers stay quiet, the command says one line and exits 130, and the rerun solves
    only what is left, every deal once."""
    out = tmp_path / "results.jsonl"
    command = [str(SCRIPT), "batch", "--deals", f"1-{DEALS}", *ANY, "--dask", "local",
               "--out", str(out)]
    run = subprocess.Popen(command, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE,
                           text=True, start_new_session=True,
                           preexec_fn=lambda: signal.signal(signal.SIGINT, signal.SIG_DFL))
    wait_for_lines(out, 1, run)
    os.killpg(run.pid, signal.SIGINT)
    _, err = run.communicate(timeout=60)
    assert (run.returncode, err) == (130, "fortress-solver: interrupted\n")
    first = verdicts(out.read_text())
    assert 0 < len(first) < DEALS and len({line[0] for line in first}) == len(first)

    rerun = subprocess.run(command, capture_output=True, text=True, timeout=120)
    assert rerun.returncode == 0, rerun.stderr
    [summary] = rerun.stderr.splitlines()
    assert f"{DEALS - len(first)} run in" in summary
    lines = verdicts(out.read_text())
    assert lines[:len(first)] == first  # appended, not rewritten
    assert len(lines) == DEALS and sorted(lines) == local


@needs_dask
def test_an_address_dask_cannot_read_is_one_line():
    done = batch("1-3", "--dask", "nonsense.invalid", timeout=60)
    assert (done.returncode, done.stdout) == (2, "")
    assert done.stderr == ("fortress-solver: --dask nonsense.invalid: missing port number "
                           "in address 'nonsense.invalid'\n")


# Runs the command with Dask hidden, as in an environment without the extra installed.
WITHOUT_DASK = """
import sys
sys.modules["distributed"] = None
from service.cli import main
sys.exit(main(sys.argv[1:]))
"""


def test_without_dask_the_option_says_how_to_install_it(tmp_path):
    out = tmp_path / "results.jsonl"
    done = subprocess.run([sys.executable, "-c", WITHOUT_DASK, "batch", "--deals", "1-3",
                           "--dask", "local", "--out", str(out)],
                          capture_output=True, text=True, timeout=60)
    assert (done.returncode, done.stdout) == (2, "")
    assert done.stderr == ("fortress-solver: --dask needs Dask: "
                           "pip install 'fortress-solver[dask]'\n")
    assert not out.exists()  # refused before anything was started or written


def test_a_local_batch_imports_no_dask():
    """Dask is imported for --dask only: the local pool starts without it."""
    driver = ("import contextlib, io, sys\nfrom service.cli import main\n"
              "with contextlib.redirect_stdout(io.StringIO()):\n"
              "    assert main(['batch', '--deals', '1-2', '--jobs', '1']) == 0\n"
              "print(sorted(m for m in sys.modules if m.split('.')[0] in ('dask', 'distributed')"
              " or m == 'service.dask_batch'))")
    done = subprocess.run([sys.executable, "-c", driver], capture_output=True, text=True,
                          timeout=60)
    assert done.returncode == 0, done.stderr
    assert done.stdout == "[]\n"
