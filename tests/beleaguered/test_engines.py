"""The engine is the process's, chosen as `decimal` chooses its accelerator: the kernel
when it is built, the Python reference when the environment says so, for the process
and the processes it starts."""

from __future__ import annotations

import subprocess
import sys

import pytest

from solver.beleaguered import Engine, Mode, deal, engines, native, solve, using
from solver.errors import InvalidInput


def test_the_kernel_searches_unless_the_environment_says_otherwise(monkeypatch) -> None:
    monkeypatch.delenv(engines.VARIABLE, raising=False)
    assert engines.current() is Engine.NATIVE  # the kernel is built for the tests
    with using(Engine.PYTHON):
        assert engines.current() is Engine.PYTHON
    assert engines.current() is Engine.NATIVE
    monkeypatch.setenv(engines.VARIABLE, "python")
    assert engines.current() is Engine.PYTHON
    monkeypatch.setenv(engines.VARIABLE, "quick")
    with pytest.raises(InvalidInput, match="FORTRESS_SOLVER_ENGINE='quick': expected native"):
        engines.current()


def test_solve_searches_with_the_engine_chosen(monkeypatch) -> None:
    def no_kernel(*args: object) -> None:
        raise AssertionError("the kernel searched")

    monkeypatch.setattr(native, "search", no_kernel)
    with using(Engine.PYTHON):
        assert solve(deal(2), Mode.OPTIMAL).length == 66
    with using(Engine.NATIVE), pytest.raises(AssertionError, match="the kernel searched"):
        solve(deal(2), Mode.OPTIMAL)


def test_a_process_started_after_the_choice_searches_with_it() -> None:
    with using(Engine.PYTHON):
        child = subprocess.run(
            [sys.executable, "-c",
             "from solver.beleaguered import engines; print(engines.current())"],
            capture_output=True, text=True, check=True, timeout=60)
    assert child.stdout == "python\n"
