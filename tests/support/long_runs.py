"""The long run, FORTRESS_SOLVER_LONG=1: the tests that sample their cases (deals,
random positions, repeated runs) take more of them, and the default suite stays within
its few minutes."""

from __future__ import annotations

import os

LONG = os.environ.get("FORTRESS_SOLVER_LONG") == "1"


def sampled(default: int, long: int) -> int:
    """How many cases a sampling test takes: `long` in the long run, else `default`."""
    return long if LONG else default
