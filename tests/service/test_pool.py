"""The worker pool shared fairly between owners: a client that fills the queue gives
way to one that asks once, whose job then runs first; and a stream's chunks of jobs,
each answer passed on as it finishes, stopped by a client that leaves or has enough,
and by a worker's death. A real pool of two worker processes, with IDA* on a deal it
needs minutes for as the long job (ended by its budget, or by its caller's
cancellation)."""

from __future__ import annotations

import multiprocessing
import threading
import time
from collections.abc import Iterator
from concurrent.futures import Future, ThreadPoolExecutor
from dataclasses import replace

import psutil
import pytest

from service.calls import Calls
from service.pool import Job, Outbox, Overloaded, WorkerLost, WorkerPool
from solver.beleaguered import Algorithm, Mode, deal
from solver.beleaguered.game import SOLVE, SolveOptions
from solver.budget import Budget, Status

LONG = SolveOptions(algorithm=Algorithm.IDASTAR)
QUICK = SolveOptions(mode=Mode.ANY)
BUDGET = Budget(seconds=60)


def long_job(seconds: float) -> Job:
    return Job(SOLVE, deal(126), LONG, Budget(seconds=seconds, nodes=None, table_entries=256))


def quick_job(number: int) -> Job:
    """A deal `any` mode decides in a few nodes: a job that ran is never UNKNOWN."""
    return Job(SOLVE, deal(number), QUICK, BUDGET)


def same(one, other) -> bool:
    """Equal answers, however long each search took."""
    return (one.status, one.optimal, one.moves) == (other.status, other.optimal, other.moves)


class Context:
    """What Calls reads of a gRPC call: a client with no deadline, there until it has `left`."""

    def __init__(self) -> None:
        self.left = threading.Event()

    def peer(self) -> str:
        return "ipv4:127.0.0.1:1"

    def is_active(self) -> bool:
        return not self.left.is_set()

    def time_remaining(self) -> float | None:
        return None


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


def searching(pool: WorkerPool):
    """Whether every worker has used CPU since this was asked: each one searches."""
    def used(worker) -> float:
        return sum(psutil.Process(worker.process.pid).cpu_times()[:2])
    before = [used(worker) for worker in pool._all]
    return lambda: all(used(worker) > then + 0.05
                       for worker, then in zip(pool._all, before, strict=True))


def wait_until(condition, seconds: float = 30) -> None:
    deadline = time.monotonic() + seconds
    while not condition():
        assert time.monotonic() < deadline
        time.sleep(0.01)


def test_one_owner_never_takes_the_last_idle_worker_and_a_light_owner_takes_its_place(pool):
    stop = threading.Event()
    with ThreadPoolExecutor(5) as threads:
        def flood(seconds: float) -> Future:
            return threads.submit(pool.run, long_job(seconds), stop.is_set, owner="flood")

        first = flood(60)
        wait_until(lambda: pool.busy == 1)
        waiting = [flood(60), flood(60), flood(60)]
        wait_until(lambda: pool.waiting == 3)  # the queue is full, one worker idle
        assert pool.busy == 1 and pool.shares() == (1, 0, 1)
        with pytest.raises(Overloaded):  # the flood's next job finds no room
            pool.run(long_job(60), stop.is_set, owner="flood")
        light = threads.submit(pool.run, long_job(0.05), lambda: False, owner="light")
        assert "this call's place went to a client with fewer calls" in str(
            waiting[2].exception(timeout=30))  # the newest waiting job gave way
        # the light job runs on the worker kept idle, while the flood waits for its own
        assert light.result(timeout=30).status is Status.UNKNOWN
        assert not any(job.done() for job in (first, *waiting[:2]))
        stop.set()
        assert all(job.result(timeout=30).status is Status.UNKNOWN
                   for job in (first, *waiting[:2]))
    assert (pool.busy, pool.waiting) == (0, 0)


def test_a_pool_that_lets_one_owner_run_on_every_worker_does():
    pool = WorkerPool(workers=2, queue_size=2, max_per_owner=2)
    stop = threading.Event()
    try:
        with ThreadPoolExecutor(2) as threads:
            held = [threads.submit(pool.run, long_job(60), stop.is_set, owner="site")
                    for _ in range(2)]
            wait_until(lambda: pool.busy == 2)
            assert pool.shares() == (1, 0, 2)
            stop.set()
            assert all(job.result(timeout=30).status is Status.UNKNOWN for job in held)
    finally:
        pool.close()


@pytest.mark.parametrize(("holder", "shares", "asker"), [
    ("batch", (1, 0, 2), "light"), ("other", (2, 0, 1), "light"),
    ("other", (2, 0, 1), "batch")], ids=["borrowed", "within-its-share", "its-own-call"])
def test_a_chunk_gives_its_worker_back_to_a_call_that_asks(pool, holder, shares, asker):
    """A chunk on a worker borrowed past its owner's share (the owner holds the other
    worker), or on its owner's own share once it has run its slice, lets another owner
    running nothing have the worker, and a chunk on its own share a single call of its
    own owner too: the search under way ends as it would, the jobs not started are
    handed back unanswered, for the caller to run again."""
    stop = threading.Event()
    answered: list[int] = []
    with ThreadPoolExecutor(3) as threads:
        held = threads.submit(pool.run, long_job(60), stop.is_set, owner=holder)
        wait_until(lambda: pool.busy == 1)
        chunk = threads.submit(pool.run_chunk, [long_job(1), long_job(1), quick_job(1)],
                               lambda: False, lambda k, _: answered.append(k), owner="batch",
                               borrow=True)
        wait_until(lambda: pool.busy == 2 and pool.shares() == shares)
        wait_until(searching(pool))  # the chunk's first search under way
        light = threads.submit(pool.run, quick_job(3), lambda: False, owner=asker)
        assert chunk.result(timeout=60) == 1  # the search under way ran, the rest came back
        assert answered == [0]
        assert light.result(timeout=60).status is not Status.UNKNOWN
        stop.set()
        assert held.result(timeout=30).status is Status.UNKNOWN
    assert (pool.busy, pool.waiting) == (0, 0)


def test_a_lone_clients_batch_runs_on_every_worker_and_answers_each_item_once(pool):
    calls = Calls(pool, Context(), BUDGET, max_batch=100_000, stopping=threading.Event(),
                  client="batch")
    numbers = range(1, 401)
    answers: dict[int, object] = {}
    busiest = 0
    for number, answer in calls.ask_many(((n, SOLVE, deal(n), QUICK) for n in numbers),
                                         BUDGET):
        answers[number] = answer
        busiest = max(busiest, pool.shares()[2])
    assert busiest == 2  # a stream's chunks borrow past the owner's share
    assert sorted(answers) == list(numbers)
    assert all(answer.status is not Status.UNKNOWN for answer in answers.values())
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


def test_a_batch_in_chunks_answers_every_item_once_as_one_at_a_time(pool, monkeypatch):
    numbers = range(1, 201)
    alone = {n: pool.run(quick_job(n), lambda: False) for n in numbers}
    chunks: list[int] = []
    run_chunk = pool.run_chunk

    def counted(jobs, *args, **kwargs):
        chunks.append(len(jobs))
        return run_chunk(jobs, *args, **kwargs)

    monkeypatch.setattr(pool, "run_chunk", counted)
    calls = Calls(pool, Context(), BUDGET, max_batch=1000, stopping=threading.Event(),
                  client="127.0.0.1")
    answers = list(calls.ask_many(((n, SOLVE, deal(n), QUICK) for n in numbers), BUDGET))
    assert sorted(n for n, _ in answers) == list(numbers)
    assert all(same(answer, alone[n]) for n, answer in answers)
    assert len(chunks) < len(numbers) and sum(chunks) == len(numbers)
    # the pace of QUICK solves was known from the calls above: the first chunk is sized
    # by it; other options, not yet seen, start with one job
    assert chunks[0] > 1
    chunks.clear()
    slower = replace(QUICK, single_cards=True)
    assert pool.pace(Job(SOLVE, deal(1), slower, BUDGET)) is None
    list(calls.ask_many(((n, SOLVE, deal(n), slower) for n in numbers), BUDGET))
    assert chunks[0] == 1 and sum(chunks) == len(numbers)


def test_a_chunk_passes_each_answer_on_as_it_finishes_and_stops_when_cancelled(pool):
    jobs = [quick_job(1), quick_job(2), long_job(600), quick_job(3), quick_job(4)]
    answered: list[tuple[int, object]] = []
    two = threading.Event()
    stop = threading.Event()

    def record(k: int, answer: object) -> None:
        answered.append((k, answer))
        if len(answered) == 2:
            two.set()

    with ThreadPoolExecutor(1) as threads:
        chunk = threads.submit(pool.run_chunk, jobs, stop.is_set, record)
        assert two.wait(60)
        assert not chunk.done()  # the long search runs: the first two came before it ended
        stop.set()
        chunk.result(timeout=60)
    assert [k for k, _ in answered] == [0, 1, 2, 3, 4]
    assert all(same(answered[k][1], pool.run(jobs[k], lambda: False)) for k in (0, 1))
    assert all(answer.status is Status.UNKNOWN for _, answer in answered[2:])
    # quick deals would have been decided: the two after the long one never started
    assert all(answer.stats.nodes == 0 for _, answer in answered[3:])
    assert (pool.busy, pool.waiting) == (0, 0)


def test_a_chunk_starts_no_more_once_its_caller_has_enough(pool):
    jobs = [quick_job(1), long_job(3), quick_job(2), quick_job(3)]
    answered: list[tuple[int, object]] = []
    pool.run_chunk(jobs, lambda: False, lambda k, answer: answered.append((k, answer)),
                   enough=lambda: len(answered) >= 1)
    # enough is said as the first answer comes: the long search had started by then or
    # had not; if it had, it ran to its end (its budget: enough stops no search), and
    # the jobs after it were neither run nor answered
    assert [k for k, _ in answered] in ([0], [0, 1])
    assert all(answer.stats.nodes > 0 for _, answer in answered)


def test_a_client_that_leaves_ends_the_batch_and_no_more_items_are_read(pool):
    context = Context()
    calls = Calls(pool, context, BUDGET, max_batch=100_000, stopping=threading.Event(),
                  client="127.0.0.1")
    read: list[int] = []

    def jobs():
        for n in range(1, 100_001):
            read.append(n)
            yield n, SOLVE, deal(n), QUICK

    got = 0
    for _ in calls.ask_many(jobs(), BUDGET):
        got += 1
        if got == 50:
            context.left.set()
    # what was read past the answers sent is a chunk a worker and one more, of at
    # most 128 items each
    assert 50 <= got <= len(read) <= 50 + 3 * 128
    assert (pool.busy, pool.waiting) == (0, 0)


def test_a_worker_that_dies_mid_chunk_fails_the_call_and_is_replaced(pool):
    jobs = [quick_job(1), quick_job(2), long_job(600), quick_job(3)]
    answered: list[int] = []
    two = threading.Event()

    def record(k: int, _: object) -> None:
        answered.append(k)
        if len(answered) == 2:
            two.set()

    with ThreadPoolExecutor(1) as threads:
        chunk = threads.submit(pool.run_chunk, jobs, lambda: False, record)
        assert two.wait(60)
        pool.kill()  # the worker of the long search, and the idle one
        with pytest.raises(WorkerLost):
            chunk.result(timeout=60)
    assert answered == [0, 1]  # no answer is made up for the jobs it did not finish
    with ThreadPoolExecutor(2) as threads:  # both workers are back
        again = list(threads.map(lambda n: pool.run(quick_job(n), lambda: False), (1, 2)))
    assert all(answer.status is not Status.UNKNOWN for answer in again)
    assert (pool.busy, pool.waiting) == (0, 0)


def test_a_workers_quick_answers_travel_together_and_a_held_one_goes_without_the_next():
    """A worker's outbox: answers put in quick succession arrive in fewer messages than
    answers, in order; one put alone arrives while no other follows (its thread sends
    it); the last of a chunk goes at once."""
    received, sent = multiprocessing.Pipe(duplex=False)
    outbox = Outbox(sent)
    for k in range(200):
        outbox.put(k, last=k == 199)
    messages = []
    while sum(map(len, messages)) < 200:
        messages.append(received.recv())
    assert [k for message in messages for k in message] == list(range(200))
    assert len(messages) < 200
    outbox.put("alone")
    assert received.poll(30) and received.recv() == ["alone"]
    outbox.put("last", last=True)
    assert received.poll(0) and received.recv() == ["last"]
