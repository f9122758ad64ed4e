"""The worker pool shared fairly between owners: a client that fills the queue gives
way to one that asks once, whose job then runs first. A real pool of two worker
processes, with IDA* on a deal it needs minutes for as the long job (ended by its
budget, or by its caller's cancellation)."""

from __future__ import annotations

import threading
import time
from collections.abc import Iterator
from concurrent.futures import Future, ThreadPoolExecutor

import pytest

from service.pool import Job, Overloaded, WorkerPool
from solver.beleaguered import Algorithm, deal
from solver.beleaguered.game import SOLVE, SolveOptions
from solver.budget import Budget, Status

LONG = SolveOptions(algorithm=Algorithm.IDASTAR)


def long_job(seconds: float) -> Job:
    return Job(SOLVE, deal(126), LONG, Budget(seconds=seconds, nodes=None, table_entries=256))


@pytest.fixture(scope="module")
def pool() -> Iterator[WorkerPool]:
    pool = WorkerPool(workers=2, queue_size=2)
    try:
        with ThreadPoolExecutor(2) as threads:  # both workers started
            assert all(answer.status is Status.UNKNOWN for answer in threads.map(
                lambda _: pool.run(long_job(0.5), lambda: False), range(2)))
        yield pool
    finally:
        pool.close()


def wait_until(condition, seconds: float = 30) -> None:
    deadline = time.monotonic() + seconds
    while not condition():
        assert time.monotonic() < deadline
        time.sleep(0.01)


def test_a_light_owner_takes_the_place_of_the_heaviest_and_runs_first(pool):
    stop = threading.Event()
    with ThreadPoolExecutor(5) as threads:
        def flood(seconds: float) -> Future:
            return threads.submit(pool.run, long_job(seconds), stop.is_set, owner="flood")

        first = flood(60)
        wait_until(lambda: pool.busy == 1)
        short = flood(1.0)
        wait_until(lambda: pool.busy == 2)
        waiting = [flood(60), flood(60)]
        wait_until(lambda: pool.waiting == 2)  # the queue is full
        with pytest.raises(Overloaded):  # the flood's next job finds no room
            pool.run(long_job(60), stop.is_set, owner="flood")
        light = threads.submit(pool.run, long_job(0.05), lambda: False, owner="light")
        assert "this call's place went to a client with fewer calls" in str(
            waiting[1].exception(timeout=30))  # the newest waiting job gave way
        # the short job ends: its worker goes to the light job (no job running) before
        # the flood's waiting one (one running), which would hold it for a minute
        assert light.result(timeout=30).status is Status.UNKNOWN
        assert short.result().status is Status.UNKNOWN and not waiting[0].done()
        stop.set()
        assert first.result(timeout=30).status is Status.UNKNOWN
        assert waiting[0].result(timeout=30).status is Status.UNKNOWN
    assert (pool.busy, pool.waiting) == (0, 0)


def test_an_owner_holding_no_more_than_another_is_refused_when_the_queue_is_full(pool):
    stop = threading.Event()
    with ThreadPoolExecutor(4) as threads:
        held = [threads.submit(pool.run, long_job(60), stop.is_set, owner=owner)
                for owner in "abcd"]
        wait_until(lambda: pool.busy == 2 and pool.waiting == 2)
        with pytest.raises(Overloaded):  # "e" would hold 1, as each of the others does
            pool.run(long_job(60), stop.is_set, owner="e")
        stop.set()
        assert all(job.result(timeout=30).status is Status.UNKNOWN for job in held)
