"""The searches of a `generate` run: a pool of worker processes, each deal handed out as
a worker frees up (never queued ahead: a deal's budget is what is left of the wall time
when its search starts, and a deal not started is no try)."""

from __future__ import annotations

import math
import time
from collections.abc import Callable, Iterator
from multiprocessing.pool import Pool
from queue import Empty, SimpleQueue
from typing import TypeVar

T = TypeVar("T")

# How long past the wall time an answer is waited for (a search reads the clock every
# 256 nodes, and then replays its line): one later than this is given up, its deal untried.
_GRACE = 0.5  # seconds


def in_pool(pool: Pool, jobs: int, attempt: Callable[[int, float, float], T],
            deadline: Callable[[], float]) -> Callable[[Iterator[int], float], Iterator[T]]:
    """A plan's run on `pool` (`jobs` processes): `attempt(deal, rung, end)` (picklable)
    for each deal within the rung's seconds and by `end`, the plan's `deadline()`
    (time.monotonic()) as the search starts; answers as they finish, none waited for
    past the deadline (which a find may move on)."""
    def run(deals: Iterator[int], rung: float) -> Iterator[T]:
        answers: SimpleQueue[T | BaseException] = SimpleQueue()

        def start() -> bool:
            number = next(deals, None)
            if number is None:
                return False
            pool.apply_async(attempt, (number, rung, deadline()), callback=answers.put,
                             error_callback=answers.put)
            return True

        running = 0
        while running < jobs and start():
            running += 1
        while running:
            end = deadline()
            wait = None if math.isinf(end) else end - time.monotonic() + _GRACE
            try:
                answer = answers.get(timeout=None if wait is None else max(wait, 0.0))
            except Empty:
                return  # past the wall time: those still running are given up
            running -= 1
            if isinstance(answer, BaseException):
                raise answer
            if start():
                running += 1
            yield answer
    return run
