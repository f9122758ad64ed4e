"""Searches run in worker processes (not threads: the GIL), one job at a time each.

A job is one question of a game's descriptor about one position: a small picklable
value (the question's function travels by name), so one pool serves every game. A
caller waits for an idle worker only while the queue has room: past it the call is
refused at once (Overloaded). A caller whose client has gone sets the worker's cancel
event; the search asks about it as often as it reads the clock (every 256 nodes, or
every node of a costly search) and ends with UNKNOWN, and the worker takes the next job.
"""

from __future__ import annotations

import gc
import importlib
import multiprocessing as mp
import queue
import threading
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass, replace
from multiprocessing.connection import Connection
from multiprocessing.synchronize import Event
from typing import Any

from service.memory import give_back_memory
from solver.budget import Budget
from solver.games import Question

_POLL_SECONDS = 0.01


class Overloaded(Exception):
    """Every worker is busy and the queue is full."""


class WorkerLost(Exception):
    """A worker process died (killed, out of memory); it has been replaced."""


@dataclass(frozen=True)
class Job:
    """One question about one position, to answer in a worker. The worker adds its own
    cancel event to the budget as `stop`; the pool sets the seconds left."""

    question: Question[Any, Any, Any]
    position: Any
    options: Any
    budget: Budget

    def run(self, budget: Budget) -> Any:
        return self.question.ask(self.position, self.options, budget)

    def gave_up(self, seconds: float) -> Any:
        """The UNKNOWN answer when the time or the client ran out before a worker was free."""
        return self.question.answer.unknown(seconds)


def _work(connection: Connection, cancel: Event, preload: tuple[str, ...]) -> None:
    """A worker process: import what searches will need, then run each job received
    until told to stop (None). What is imported lives as long as the process: the
    garbage collector leaves it alone, or each full collection would walk all of it
    (some 40 ms, in the middle of a search or on an answer's way out)."""
    for module in preload:
        importlib.import_module(module)
    gc.freeze()
    while (job := connection.recv()) is not None:
        try:
            connection.send(job.run(replace(job.budget, stop=cancel.is_set)))
        except Exception as error:  # a bug must not take the worker down with it
            connection.send(error)
        give_back_memory()  # the last search's tables: a worker is as large as its search


class _Worker:
    def __init__(self, context: mp.context.SpawnContext, preload: tuple[str, ...]) -> None:
        self.connection, child = context.Pipe()
        self.cancel = context.Event()
        self.process = context.Process(target=_work, args=(child, self.cancel, preload),
                                       daemon=True)
        self.process.start()


class WorkerPool:
    def __init__(self, workers: int, queue_size: int, preload: tuple[str, ...] = ()) -> None:
        """`preload`: modules each worker imports as it starts, so that no call's
        deadline pays for them (CP-SAT takes half a second to import)."""
        self.workers = workers
        self.queue_size = queue_size
        self._preload = preload
        self._context = mp.get_context("spawn")  # no fork after gRPC has started threads
        self._idle: queue.SimpleQueue[_Worker] = queue.SimpleQueue()
        self._all = [_Worker(self._context, preload) for _ in range(workers)]
        for worker in self._all:
            self._idle.put(worker)
        self._admitted = threading.BoundedSemaphore(workers + queue_size)
        self._waiting = 0
        self._waiting_lock = threading.Lock()

    @property
    def busy(self) -> int:
        """Workers running a job (or being replaced after one): those not idle."""
        return self.workers - self._idle.qsize()

    @property
    def waiting(self) -> int:
        """Jobs waiting for an idle worker: the queue's depth."""
        return self._waiting

    @contextmanager
    def _queued(self) -> Iterator[None]:
        with self._waiting_lock:
            self._waiting += 1
        try:
            yield
        finally:
            with self._waiting_lock:
                self._waiting -= 1

    def run(self, job: Job, cancelled: Callable[[], bool], wait: bool = False) -> Any:
        """Run `job` in a worker, counted against the queue like every job. Without
        `wait`, raise Overloaded when the queue is full; with it (a stream's next job),
        wait for room, until the job's time or its client runs out."""
        started = time.perf_counter()
        deadline = started + (job.budget.seconds or float("inf"))
        admitted = self._admitted.acquire(blocking=False)
        if not admitted and not wait:
            raise Overloaded(f"all {self.workers} workers busy and {self.queue_size} calls queued")
        while not admitted:
            if cancelled() or time.perf_counter() >= deadline:
                return job.gave_up(time.perf_counter() - started)
            admitted = self._admitted.acquire(timeout=_POLL_SECONDS)
        try:
            return self._run_admitted(job, cancelled, started)
        finally:
            self._admitted.release()

    def _run_admitted(self, job: Job, cancelled: Callable[[], bool], started: float) -> Any:
        deadline = started + (job.budget.seconds or float("inf"))
        worker = None
        with self._queued():
            while worker is None:
                if cancelled() or time.perf_counter() >= deadline:
                    return job.gave_up(time.perf_counter() - started)
                try:
                    worker = self._idle.get(timeout=_POLL_SECONDS)
                except queue.Empty:
                    pass
        if not worker.process.is_alive():  # died while idle (killed from outside)
            worker = self._replace(worker)
        try:
            worker.cancel.clear()
            remaining = max(deadline - time.perf_counter(), 0.001)
            worker.connection.send(replace(job, budget=replace(job.budget, seconds=remaining)))
            while not worker.connection.poll(_POLL_SECONDS):
                if cancelled():
                    worker.cancel.set()
            result = worker.connection.recv()
        except (EOFError, OSError):  # died during the job: this call fails, the next won't
            worker = self._replace(worker)
            raise WorkerLost("the search process died during this call") from None
        finally:
            self._idle.put(worker)
        if isinstance(result, Exception):
            raise result
        return result

    def _replace(self, dead: _Worker) -> _Worker:
        dead.process.join(timeout=0)
        worker = _Worker(self._context, self._preload)
        self._all[self._all.index(dead)] = worker
        return worker

    def kill(self) -> None:
        """End every worker at once, whatever it is doing."""
        for worker in self._all:
            worker.process.kill()

    def close(self) -> None:
        for worker in self._all:
            worker.cancel.set()
            try:
                worker.connection.send(None)
            except OSError:
                pass
        for worker in self._all:
            worker.process.join(timeout=2)
            if worker.process.is_alive():
                worker.process.terminate()
