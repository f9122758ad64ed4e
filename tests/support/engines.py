"""Searching with a chosen engine, as the tests do to hold the kernel to the reference."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from solver.beleaguered.engines import Engine, using


def by(engine: Engine, search: Callable[..., Any], *args: Any, **kwargs: Any) -> Any:
    """`search(*args, **kwargs)` (solve, hint, grade_moves, ...) with `engine`."""
    with using(engine):
        return search(*args, **kwargs)
