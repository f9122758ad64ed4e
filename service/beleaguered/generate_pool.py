"""The searches of `fortress-solver generate`: a pool of worker processes, each deal handed
out as a worker frees up (never queued ahead: a deal's budget is what is left of the wall
time when its search starts, and a deal not started is no try)."""

from __future__ import annotations

import math
import time
from collections.abc import Iterator
from dataclasses import replace
from functools import partial
from multiprocessing.pool import Pool
from queue import Empty, SimpleQueue

from solver.beleaguered import Solution, deal, solve
from solver.beleaguered.generation import Run
from solver.beleaguered.variant import Variant
from solver.budget import Budget

# How long past the wall time an answer is waited for (a search reads the clock every
# 256 nodes, and then replays its line): one later than this is given up, its deal untried.
_GRACE = 0.5  # seconds


def try_deal(number: int, budget: Budget, deadline: float,
             variant: Variant | None) -> tuple[int, float, Solution]:
    """Deal `number` solved optimally within the budget and before `deadline`
    (time.monotonic(), the same clock in every process): (deal, the seconds it was given,
    the answer)."""
    seconds = min(budget.seconds or math.inf, deadline - time.monotonic())
    if seconds <= 0:
        return number, 0.0, Solution.unknown(0.0)
    return number, seconds, solve(deal(number, variant), budget=replace(budget,
                                                                        seconds=seconds))


def in_pool(pool: Pool, jobs: int, budget: Budget, deadline: float,
            variant: Variant | None) -> Run:
    """The plan's Run on `pool` (`jobs` processes): the budget's seconds become each rung's."""
    def run(deals: Iterator[int], rung: float) -> Iterator[tuple[int, float, Solution]]:
        work = partial(try_deal, budget=replace(budget, seconds=rung), deadline=deadline,
                       variant=variant)
        answers: SimpleQueue[tuple[int, float, Solution] | BaseException] = SimpleQueue()

        def start() -> bool:
            number = next(deals, None)
            if number is None:
                return False
            pool.apply_async(work, (number,), callback=answers.put,
                             error_callback=answers.put)
            return True

        running = 0
        while running < jobs and start():
            running += 1
        while running:
            wait = None if math.isinf(deadline) else deadline - time.monotonic() + _GRACE
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
