"""What one call lends its game's handler: the worker pool, asked within the request's
budget and the client's deadline, one job or many at once."""

from __future__ import annotations

import math
import time
from collections.abc import Callable, Iterator
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass, field, replace
from itertools import islice
from queue import SimpleQueue
from threading import Event
from typing import Any, Generic, TypeVar

import grpc

from service.api import fortress_solver_pb2 as pb
from service.messages import asked_budget, budget_from_proto
from service.pool import Job, WorkerPool
from solver.budget import Budget
from solver.games import Answer, Question

T = TypeVar("T")
P = TypeVar("P")  # a question's position, options and answer
Opts = TypeVar("Opts")
A = TypeVar("A", bound=Answer)

# Kept back from a deadline, so that the UNKNOWN answer is sent before it: a fixed part
# for the answer's way out (pickled, read by the pool, made a message and sent: some 5
# ms) and a share for how far a search runs past its seconds (the stretch between two
# looks at the clock, CP-SAT's start, a model's next step: 5-25 ms measured). A deadline
# of 50 ms leaves a search 20 ms, one of 0.3 s 220 ms.
_DEADLINE_MARGIN = 0.02  # seconds
_DEADLINE_SHARE = 0.2  # of the time remaining

# A stream's items go to a worker in chunks (service/pool.py) of about this much work:
# long enough that a chunk's hand-off to the worker and back (0.8-2.5 ms measured, by the
# machine's load) is a small part of it. Another client's job waits little behind one:
# the pool takes the worker back for it after a slice of 25 ms.
_CHUNK_SECONDS = 0.1
_MAX_CHUNK = 128  # items, whatever their speed: what one message carries


class _ChunkSizes:
    """How many items the next chunk takes: _CHUNK_SECONDS of work at the pace the pool
    has seen the stream's question and options go at lately (WorkerPool.pace), whichever
    call asked them; while that is not known, one at first (a job of unknown length
    holds no more behind it), then twice the last. (The answers of a chunk go out as
    they come, whatever its size: the first after one search.)"""

    def __init__(self) -> None:
        self._last = 0

    def next(self, pace: float | None) -> int:
        if pace is not None:
            size = int(_CHUNK_SECONDS / max(pace, 1e-6))
        else:
            size = 2 * self._last
        self._last = max(1, min(size, _MAX_CHUNK))
        return self._last


@dataclass
class _Ended(Generic[T]):
    """A chunk done: the items it answered, those it handed back unstarted (its worker
    was borrowed), or what failed it."""

    items: int
    error: Exception | None = None
    left: list[_Item[T]] = field(default_factory=list)


@dataclass(frozen=True)
class _Item(Generic[T]):
    tag: T
    job: Job


class Calls:
    """What one call lends its game's handler: the worker pool under the call's budget
    and deadline, and many jobs at once for the streams (at most `max_batch` items a
    stream)."""

    def __init__(self, pool: WorkerPool, context: grpc.ServicerContext, limits: Budget,
                 max_batch: int, stopping: Event, client: str) -> None:
        """`stopping`: set when the server's stop cuts every search short. `client`:
        whose jobs these are, for the pool's fair sharing."""
        self._pool = pool
        self._context = context
        self._stopping = stopping
        self.owner = client
        self.limits = limits
        self.max_batch = max_batch

    def ask(self, question: Question[P, Opts, A], position: P, options: Opts | None,
            budget: pb.Budget) -> A:
        """The question's answer, typed as the question says; what it cannot be asked is
        refused here, before a worker is taken (Question.check, which Question.ask in
        the worker runs again: a look at the position, no search)."""
        chosen: Opts = question.options() if options is None else options
        question.refuse(position, chosen)
        job = Job(question, position, chosen, self._budget(asked_budget(budget, question)))
        answer: A = self._pool.run(job, self._gone, owner=self.owner)
        return answer

    def ask_many(self, jobs: Iterator[tuple[T, Question[Any, Any, Any], Any, Any]],
                 budget: Budget, enough: Callable[[], bool] = lambda: False,
                 deadline: float | None = None) -> Iterator[tuple[T, Any]]:
        """Run jobs on every worker at once, in chunks of consecutive ones (a chunk is
        one job to the pool, handed to a worker once); yield (tag, answer) as each
        finishes. The next chunk is read from `jobs` while the others run, after an
        answer has gone: so a worker waits little between chunks, and the answers not
        yet sent are at most a chunk's for each worker and one more. With `deadline`
        (time.monotonic()), a job read has at most the seconds left until it, and at it
        the searches running are cut short (UNKNOWN) and no more start."""
        for ready in self.ask_many_together(jobs, budget, 1, enough, deadline):
            yield from ready

    def ask_many_together(self, jobs: Iterator[tuple[T, Question[Any, Any, Any], Any, Any]],
                          budget: Budget, most: int, enough: Callable[[], bool] = lambda: False,
                          deadline: float | None = None) -> Iterator[list[tuple[T, Any]]]:
        """As `ask_many`, the answers in lists of up to `most`: each list holds one
        answer and those that had finished too when it came, so none waits for another."""
        stop = Event()
        answers: SimpleQueue[tuple[T, Any] | _Ended[T]] = SimpleQueue()
        sizes = _ChunkSizes()

        def cancelled() -> bool:
            return (stop.is_set() or self._gone()
                    or (deadline is not None and time.monotonic() >= deadline))

        def more() -> bool:
            return not cancelled() and not enough()

        def within() -> Budget:
            if deadline is None:
                return budget
            left = max(deadline - time.monotonic(), 0.001)
            return replace(budget, seconds=min(budget.seconds or math.inf, left))

        def read() -> list[_Item[T]]:
            """The next chunk, sized by the pace of its first job's kind."""
            given = within()

            def made(rows: Iterator[tuple[T, Question[Any, Any, Any], Any, Any]]
                     ) -> list[_Item[T]]:
                return [_Item(tag, Job(question, position, options, given))
                        for tag, question, position, options in rows]

            items = made(islice(jobs, 1))
            if items:
                items += made(islice(jobs, sizes.next(self._pool.pace(items[0].job)) - 1))
            return items

        def run(chunk: list[_Item[T]]) -> None:
            ended: _Ended[T] = _Ended(len(chunk))
            try:
                ended.items = self._pool.run_chunk(
                    [item.job for item in chunk], cancelled,
                    lambda k, answer: answers.put((chunk[k].tag, answer)),
                    wait=True, owner=self.owner, enough=enough, borrow=True)
                ended.left = chunk[ended.items:]
            except Exception as error:
                ended.error = error
            finally:
                answers.put(ended)

        workers = self._pool.workers
        running = 0
        ahead: list[_Item[T]] | None = None
        back: list[list[_Item[T]]] = []  # handed back unstarted: run first

        def fill(executor: ThreadPoolExecutor) -> None:
            """A chunk for every worker free: those handed back first, then the one
            read ahead, then more."""
            nonlocal running, ahead
            while running < workers and more():
                if back:
                    chunk = back.pop()
                else:
                    chunk = read() if ahead is None else ahead
                    ahead = None
                if not chunk:
                    return
                executor.submit(run, chunk)
                running += 1

        with ThreadPoolExecutor(workers) as executor:
            try:
                fill(executor)
                while running:
                    ready: list[tuple[T, Any]] = []
                    while len(ready) < most and (not ready or not answers.empty()):
                        answer = answers.get()
                        if not isinstance(answer, _Ended):
                            ready.append(answer)
                            continue
                        running -= 1
                        if answer.error is not None:
                            raise answer.error
                        if answer.left:
                            back.append(answer.left)
                        fill(executor)  # the work it freed, before its answers go out
                        if not running:
                            break
                    if ready:
                        yield ready
                    if ahead is None and more():
                        ahead = read()
            finally:
                stop.set()

    def _gone(self) -> bool:
        return not self._context.is_active() or self._stopping.is_set()

    def _budget(self, message: pb.Budget) -> Budget:
        """The request's budget within the server's limits and the client's deadline."""
        budget = budget_from_proto(message, self.limits)
        remaining = self._context.time_remaining()
        if remaining is None:
            return budget
        room = max(remaining * (1 - _DEADLINE_SHARE) - _DEADLINE_MARGIN, 0.001)
        return replace(budget, seconds=min(budget.seconds or math.inf, room))
