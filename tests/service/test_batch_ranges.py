"""A batch's deals solved a run at a time in the kernel (Runs.parts, service/batch.py
`in_parts`): the lines a deal at a time gives, every deal once however the runs are cut
and handed back, a Ctrl-C that leaves whole lines a rerun completes, and the Python
engine still a deal at a time."""

from __future__ import annotations

import argparse
import json
import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

from service.batch import each_deal, in_parts
from service.beleaguered.commands import RUNS
from service.generic.runs import deal_line
from solver.beleaguered import Engine, Mode, deal, solve, using
from solver.beleaguered.game import SOLVE, SolveOptions
from solver.beleaguered.results import record
from solver.beleaguered.variant import find_variant
from solver.budget import Budget

CLI = [sys.executable, "-m", "service.cli"]


def cut_short(numbers: list[int], seconds: float) -> list[dict[str, int]]:
    """A Part that answers two deals at a time, whatever `seconds` says."""
    return [{"deal": number} for number in numbers[:2]]


def test_parts_handed_back_short_come_out_every_deal_once() -> None:
    todo = [*range(1, 40), *range(100, 161)]
    deals = [line["deal"] for line in in_parts(cut_short, 2)(todo)]
    assert sorted(deals) == todo


def test_each_deal_stops_after_the_deal_that_passes_its_seconds() -> None:
    assert each_deal([1, 2, 3], 1e-9, lambda number: {"deal": number}) == [{"deal": 1}]
    assert len(each_deal([1, 2, 3], 0.0, lambda number: {"deal": number})) == 3


def test_the_python_engine_runs_a_batch_a_deal_at_a_time() -> None:
    args = argparse.Namespace(variant="freecell", rules=None)
    options = SolveOptions(mode=Mode.ANY, moves=False)
    assert RUNS.parts is not None
    with using(Engine.PYTHON):
        assert RUNS.parts(args, options, Budget()) is None
    with using(Engine.NATIVE):
        assert RUNS.parts(args, options, Budget()) is not None


def _batch(*argv: str, env: dict[str, str] | None = None) -> subprocess.CompletedProcess[str]:
    done = subprocess.run([*CLI, "batch", *argv], capture_output=True, text=True,
                          timeout=300, env=env)
    assert done.returncode == 0, done.stderr
    return done


def _lines(text: str) -> dict[int, dict[str, object]]:
    """Each line by deal, but for the seconds its search took."""
    return {line["deal"]: {**line, "seconds": 0} for line in map(json.loads, text.splitlines())}


def test_a_run_of_deals_gives_the_lines_a_deal_at_a_time_gives(tmp_path: Path) -> None:
    """The same lines through the kernel's runs and through `solve` of each deal (the
    Python engine's lines differ, as its `any` search breaks ties in another order)."""
    argv = ["--variant", "eight-off", "--deals", "31990-32010", "--jobs", "2"]
    ranged = _batch(*argv).stdout
    variant = find_variant("eight-off")
    one_by_one = [deal_line(number, lambda n: deal(n, variant), SOLVE,
                            SolveOptions(mode=Mode.ANY, moves=False), Budget(seconds=30), record)
                  for number in range(31990, 32011)]
    assert _lines(ranged) == _lines("\n".join(json.dumps(line | {"metric": "moves"})
                                              for line in one_by_one))


def test_retrying_the_unknown_deals_of_a_file_fills_its_gaps(tmp_path: Path) -> None:
    out = tmp_path / "results.jsonl"
    _batch("--variant", "freecell", "--deals", "1-40", "--nodes", "300", "--out", str(out))
    first = _lines(out.read_text())
    unknown = sorted(deal for deal, line in first.items() if line["status"] == "unknown")
    assert 2 <= len(unknown) < 38  # gaps among deals decided
    _batch("--variant", "freecell", "--deals", "1-40", "--nodes", "300000", "--out", str(out),
           "--retry-unknown")
    lines = [json.loads(line) for line in out.read_text().splitlines()]
    assert sorted(line["deal"] for line in lines[40:]) == unknown
    assert all(line["status"] == "solved" for line in lines[40:])


def test_ctrl_c_leaves_whole_lines_and_the_rerun_completes_them(tmp_path: Path) -> None:
    """SIGINT to the whole process group, as a terminal sends it, while the kernel solves
    runs of deals: one line, exit 130, the lines written whole, and the rerun solves the
    rest, every deal once, each line as a run uninterrupted writes it."""
    out = tmp_path / "results.jsonl"
    argv = [*CLI, "batch", "--variant", "freecell", "--deals", "1-600", "--jobs", "2",
            "--out", str(out)]
    run = subprocess.Popen(argv, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True,
                           start_new_session=True,
                           preexec_fn=lambda: signal.signal(signal.SIGINT, signal.SIG_DFL))
    deadline = time.monotonic() + 120  # a guard against a hang, not a bound
    while (not out.exists() or out.read_bytes().count(b"\n") < 20) \
            and run.poll() is None and time.monotonic() < deadline:
        time.sleep(0.02)
    os.killpg(run.pid, signal.SIGINT)
    _, err = run.communicate(timeout=60)
    assert (run.returncode, err) == (130, "fortress-solver: interrupted\n")
    raw = out.read_bytes()
    assert raw.endswith(b"\n")
    done = [json.loads(line)["deal"] for line in raw.splitlines()]
    assert 20 <= len(done) < 600 and len(set(done)) == len(done)

    _batch(*argv[len(CLI) + 1:])
    lines = _lines(out.read_text())
    assert sorted(lines) == list(range(1, 601))
    assert out.read_text().count("\n") == 600
    again = _lines(_batch("--variant", "freecell", "--deals", f"1-{max(done)}").stdout)
    assert {deal: {key: lines[deal][key] for key in line} for deal, line in again.items()} \
        == again  # the file's lines add the run's settings


def test_an_optimal_batch_writes_each_deal_as_it_is_decided(tmp_path: Path) -> None:
    """FreeCell deal 3 is proven optimal in a few hundredths of a second and deal 4 takes
    far longer: handed to the worker together, deal 3's line is on disk while deal 4 is
    still searching, not held back with it, and a Ctrl-C then keeps it."""
    out = tmp_path / "results.jsonl"
    argv = [*CLI, "batch", "--variant", "freecell", "--mode", "optimal", "--deals", "3-10",
            "--jobs", "1", "--seconds", "600", "--out", str(out)]  # parts of 2 deals
    run = subprocess.Popen(argv, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True,
                           start_new_session=True,
                           preexec_fn=lambda: signal.signal(signal.SIGINT, signal.SIG_DFL))
    deadline = time.monotonic() + 120  # a guard against a hang, not a bound
    while not (out.exists() and out.read_bytes().endswith(b"\n")) \
            and run.poll() is None and time.monotonic() < deadline:
        time.sleep(0.02)
    written = [json.loads(line)["deal"] for line in out.read_bytes().splitlines()]
    os.killpg(run.pid, signal.SIGINT)
    _, err = run.communicate(timeout=60)
    assert written == [3]  # deal 4 undecided yet
    assert (run.returncode, err) == (130, "fortress-solver: interrupted\n")
    kept = [json.loads(line) for line in out.read_bytes().splitlines()]
    assert kept[0]["deal"] == 3 and kept[0]["optimal"] and out.read_bytes().endswith(b"\n")


@pytest.mark.parametrize("mode", ["any", "optimal"])
def test_the_python_engine_gives_its_own_lines(tmp_path: Path, mode: str) -> None:
    """FORTRESS_SOLVER_ENGINE=python: the Python search of each deal, as before."""
    env = {**os.environ, "FORTRESS_SOLVER_ENGINE": "python"}
    done = _batch("--deals", "1-6", "--mode", mode, "--jobs", "1", env=env)
    lines = _lines(done.stdout)
    assert sorted(lines) == list(range(1, 7))
    with using(Engine.PYTHON):
        expected = {n: {**record(n, solve(deal(n), mode, budget=Budget(seconds=30))
                                 .without_moves()), "seconds": 0, "metric": "moves"}
                    for n in range(1, 7)}
    assert lines == expected
