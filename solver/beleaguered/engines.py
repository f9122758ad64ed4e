"""Which implementation searches, chosen the way `decimal` chooses its accelerator, not by
the caller: the compiled kernel (native.py) when it is built, else the readable Python
reference (problem.py over solver/search/) that the tests hold the kernel to.

The environment variable FORTRESS_SOLVER_ENGINE (`native` or `python`) picks one for a
process and every process it starts (a batch's workers, a server's); `using` switches
for a block, as the tests do to run on both.
"""

from __future__ import annotations

import os
from collections.abc import Iterator
from contextlib import contextmanager
from enum import StrEnum
from functools import cache
from importlib.util import find_spec

from solver.errors import InvalidInput

VARIABLE = "FORTRESS_SOLVER_ENGINE"


class Engine(StrEnum):
    """The compiled kernel, or the Python reference it is held to (as `decimal` is held to
    `_pydecimal`)."""

    NATIVE = "native"
    PYTHON = "python"


def current() -> Engine:
    """The engine this process searches with."""
    chosen = os.environ.get(VARIABLE, "")
    if not chosen:
        return Engine.NATIVE if _built() else Engine.PYTHON
    try:
        return Engine(chosen)
    except ValueError:
        raise InvalidInput(f"{VARIABLE}={chosen!r}: expected native or python") from None


@cache
def _built() -> bool:
    return find_spec("solver.beleaguered._kernel") is not None


def use(engine: Engine) -> None:
    """Search with `engine` from now on, here and in the processes started from here."""
    os.environ[VARIABLE] = Engine(engine).value


@contextmanager
def using(engine: Engine) -> Iterator[Engine]:
    """Search with `engine` within the block, then as before."""
    before = os.environ.get(VARIABLE)
    use(engine)
    try:
        yield Engine(engine)
    finally:
        if before is None:
            os.environ.pop(VARIABLE, None)
        else:
            os.environ[VARIABLE] = before
