"""Searches run in worker processes (not threads: the GIL), one job at a time each.

A job is one question of a game's descriptor about one position: a small picklable
value (the question's function travels by name), so one pool serves every game. A
chunk of jobs (a stream's next items) goes to one worker as one message, which runs
them one after another and sends each answer back as it finishes: a job's way to a
process and back (the pickled position, a wake-up on each side, the memory given back)
costs about what a quick search does and leaves the worker idle meanwhile, and a chunk
pays most of it once. A chunk is one job to the queue and to its fair sharing.

A caller waits for an idle worker only while the queue has room: past it the call is
refused at once (Overloaded). A caller whose client has gone sets the worker's cancel
event; the search asks about it as often as it reads the clock (every 256 nodes, or
every node of a costly search) and ends with UNKNOWN, and the worker starts no more of
the chunk. A caller that has had enough (a stream's count found) sets the halt event:
the search running finishes, and no more of the chunk start.

The pool is shared fairly between its callers' owners (a client: its address, or its
token): a free worker goes to the waiting job whose owner has the fewest jobs running
(the oldest of those), and a job that finds the queue full takes the place of the
newest waiting job of the owner holding the most, if that owner holds two more than its
own. One client that floods the server therefore fills the queue only while no one
else asks. And no one owner takes every worker: a search, once started, keeps its worker
until its budget ends, so an owner's jobs run on at most `max_per_owner` workers at once
(by default all but one: the last is kept for owners running nothing). A chunk (a
stream's items) may borrow a worker past that, and gives it back, its search under way
done and the jobs not started handed back to its caller, once another owner waits with
nothing running; a chunk on its owner's own share gives its worker back to such an owner,
or to a single call of its own owner, too, once it has run for a slice (_SLICE_SECONDS),
so that a long chunk holds no one up for more than that and the search under way.

No job holds its worker much past its budget. A job's deadline is its budget's seconds
from its start (a chunk's first job's, waiting for the worker included; each later one's,
from the answer before it): past it, the worker is told to stop that job as a cancelled
one is (the rest of its chunk still runs), and a job that has still not answered
_GRACE_SECONDS after it (a search that ignores its budget) has its worker killed and
replaced, and is answered as one the time ran out for (`gave_up`), as are the jobs of its
chunk after it.
"""

from __future__ import annotations

import ctypes
import gc
import importlib
import logging
import math
import multiprocessing as mp
import select
import signal
import threading
import time
import traceback
from collections import Counter
from collections.abc import Callable, Hashable, Sequence
from dataclasses import dataclass, replace
from multiprocessing.connection import Connection
from multiprocessing.synchronize import Event
from typing import Any

from service.clients import one_less
from service.memory import give_back_memory, resident_mib
from solver.budget import Budget
from solver.games import Question

_POLL_SECONDS = 0.01
# How long a worker holds an answer of a chunk for the answers after it, to send them
# together: a quick search's answer costs its worker about what the search did to send
# alone (a pickle, a pipe write, a wake-up on the other side).
_LINGER_SECONDS = 0.005
_PACE_WEIGHT = 0.3  # of the last chunk in a question's pace, a moving average
_SLICE_SECONDS = 0.025  # a chunk's turn on a worker another owner waits for
# How long past its deadline a job that was told to stop may go on before its worker is
# killed: a search that keeps to its budget answers within some 25 ms of it.
_GRACE_SECONDS = 1.0
# What a worker may hold past its own memory after a chunk without giving it back: a
# malloc_trim after every chunk made the next chunk's quick searches some 5 % slower
# (their pages faulted in again), and a run of them leaves a few MiB at most.
_KEPT_MIB = 8


_faults = logging.getLogger("fortress_solver.faults")  # the server's log of what failed


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
        """The UNKNOWN answer when the time or the client ran out before the job started."""
        return self.question.answer.unknown(seconds)


def _kind(job: Job) -> tuple[Question[Any, Any, Any], Hashable]:
    """What a job's pace is kept by: its question and its options, a frozen dataclass
    (by their text where a field does not hash: a list, say)."""
    try:
        hash(job.options)
    except TypeError:
        return job.question, repr(job.options)
    return job.question, job.options


class _Stopped:
    """A worker's word that it started no more of its chunk (cancelled or halted)."""


class Outbox:
    """A worker's answers on their way back, in lists: the answers of a chunk that
    finish within _LINGER_SECONDS of the first one held go as one message, and a thread
    sends what a slow search would otherwise hold back, so that none waits longer. The
    last message of a chunk goes at once."""

    def __init__(self, connection: Connection) -> None:
        self._connection = connection
        self._changed = threading.Condition()  # guards the two below and the pipe
        self._held: list[Any] = []
        self._since = 0.0  # when the first answer held was put
        threading.Thread(target=self._send_late, name="outbox", daemon=True).start()

    def put(self, message: Any, last: bool = False) -> None:
        with self._changed:
            if last and not self._held:  # alone: it goes at once, the thread left asleep
                self._connection.send([message])
                return
            if not self._held:
                self._since = time.monotonic()
                self._changed.notify()
            self._held.append(message)
            if last or time.monotonic() - self._since >= _LINGER_SECONDS:
                self._send()

    def _send(self) -> None:
        """Send what is held (the lock held); what fails to pickle is not held again."""
        held, self._held = self._held, []
        self._connection.send(held)

    def _send_late(self) -> None:
        with self._changed:
            while True:
                if not self._held:
                    self._changed.wait()
                    continue
                left = self._since + _LINGER_SECONDS - time.monotonic()
                if left > 0:
                    self._changed.wait(left)
                    continue
                self._send()


def _work(connection: Connection, cancel: Event, halt: Event, overdue: ctypes.c_int,
          preload: tuple[str, ...], memory_mib: int | None) -> None:
    """A worker process: import what searches will need, then run each chunk of jobs
    received until told to stop (None), sending, in lists (Outbox), what each job ends
    with: its answer, or the exception that ends the chunk, or _Stopped in place of the
    jobs left. A job stops when cancelled, and when `overdue` holds its place in the
    chunk (the pool's word that it is past its deadline). What is imported lives as long
    as the process: the garbage collector leaves it alone, or each full collection would
    walk all of it (some 40 ms, in the middle of a search or on an answer's way out).
    Ctrl-C, which a terminal sends the whole process group, is the server's to handle: it
    drains, then tells the workers to stop. `memory_mib`: what the process may hold, its
    own memory and a search's tables (None: no limit)."""
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    for module in preload:
        importlib.import_module(module)
    gc.freeze()
    settled = resident = resident_mib()  # the process's own memory, before any search
    outbox = Outbox(connection)
    while (chunk := connection.recv()) is not None:
        for k, job in enumerate(chunk, 1):
            if cancel.is_set() or halt.is_set():
                outbox.put(_Stopped(), last=True)
                break
            if k > 1:  # what the chunk's searches so far hold
                resident = resident_mib()
            try:
                stop = _stopper(cancel, overdue, k - 1)
                outbox.put(job.run(_within(job.budget, memory_mib, resident, stop)),
                           last=k == len(chunk))
            except Exception as error:  # a bug must not take the worker down with it
                error.add_note(traceback.format_exc().rstrip())  # where, for the server's log
                outbox.put(error, last=True)
                break
        # looked at once the chunk's answers have gone, not as the next call waits
        resident = resident_mib()
        if resident > settled + _KEPT_MIB:  # a large search's tables: a worker is
            give_back_memory()  # as large as its largest search
            resident = resident_mib()


def _stopper(cancel: Event, overdue: ctypes.c_int, place: int) -> Callable[[], bool]:
    """What tells the job at `place` in its chunk to stop: its caller's cancel, or the
    pool's word that it is past its deadline."""
    return lambda: cancel.is_set() or overdue.value == place


def _within(budget: Budget, memory_mib: int | None, resident: int,
            stop: Callable[[], bool]) -> Budget:
    """The job's budget as the worker runs it: stopped by `stop`, its tables' memory at
    most what the worker, holding `resident` MiB, has left of its own limit (at least 1
    MiB: a search with no room answers UNKNOWN at once)."""
    if memory_mib is None:
        return replace(budget, stop=stop)
    room = max(1, memory_mib - resident)
    return replace(budget, memory_mib=min(budget.memory_mib or room, room), stop=stop)


class _Worker:
    """A worker process, its pipe and its events. Its looks cost one system call each:
    the pipe's own `poll` and the process's `is_alive` build a selector every time (a
    child of the fork server has no pid to wait for), once or more every call."""

    def __init__(self, context: mp.context.ForkServerContext, preload: tuple[str, ...],
                 memory_mib: int | None) -> None:
        self.connection, child = context.Pipe()
        self.cancel = context.Event()
        self.halt = context.Event()
        self.overdue = context.RawValue(ctypes.c_int, -1)  # the job past its deadline
        self.process = context.Process(target=_work,
                                       args=(child, self.cancel, self.halt, self.overdue,
                                             preload, memory_mib),
                                       daemon=True)
        self.process.start()
        self._answers = select.poll()
        self._answers.register(self.connection.fileno(), select.POLLIN)
        self._end = select.poll()
        self._end.register(self.process.sentinel, select.POLLIN)

    def answered(self, seconds: float) -> bool:
        """Whether an answer waits to be read (or the pipe has ended), waiting up to
        `seconds` for one."""
        return bool(self._answers.poll(seconds * 1000))

    def ended(self) -> bool:
        """Whether the process has ended."""
        return bool(self._end.poll(0))

    def watch(self, cancelled: Callable[[], bool], enough: Callable[[], bool]) -> None:
        """Pass the caller's word on to the process: stop now, or start no more."""
        if cancelled():
            self.cancel.set()
        elif enough():
            self.halt.set()

    def wait(self, place: int, due: float, cancelled: Callable[[], bool],
             enough: Callable[[], bool]) -> bool:
        """Wait for the process's next answers, passing the caller's word on; once the
        job at `place` in the chunk is past `due`, tell it to stop. False when it has
        still not answered _GRACE_SECONDS after `due`."""
        while not self.answered(_POLL_SECONDS):
            self.watch(cancelled, enough)
            late = time.perf_counter() - due
            if late >= 0:
                self.overdue.value = place
            if late >= _GRACE_SECONDS:
                return False
        return True


def _never() -> bool:
    return False


@dataclass(eq=False)
class _Ticket:
    """A job's place in the queue; `bumped` when a lighter owner's job took it;
    `borrows`: it may take a worker past its owner's share, to give back when asked;
    `borrowed` when it did."""

    owner: str
    borrows: bool = False
    bumped: bool = False
    borrowed: bool = False


class WorkerPool:
    def __init__(self, workers: int, queue_size: int, preload: tuple[str, ...] = (),
                 max_per_owner: int | None = None, memory_mib: int | None = None) -> None:
        """`preload`: modules each worker imports as it starts, so that no call's
        deadline pays for them (CP-SAT takes half a second to import). `max_per_owner`:
        the workers one owner's jobs may run on at once (None: all but one).
        `memory_mib`: what one worker may hold, its own memory and its search's tables
        (None: no limit)."""
        self.workers = workers
        self.queue_size = queue_size
        self.max_per_owner = max_per_owner or max(1, workers - 1)
        self._preload = preload
        self._memory_mib = memory_mib
        # Workers are forked from a clean process that has imported their modules once,
        # so one starts in milliseconds instead of half a second of imports; never from
        # this process, whose gRPC threads a fork would copy in the middle of their work.
        # (That process is one per process, with the first pool's modules: a later
        # pool's workers import the rest of theirs as they start, in `_work`.)
        self._context = mp.get_context("forkserver")
        self._context.set_forkserver_preload([*preload, __name__])
        self._all = [_Worker(self._context, preload, memory_mib) for _ in range(workers)]
        self._closing = False  # a worker that dies now is not replaced
        self._changed = threading.Condition()  # guards the four below
        self._idle = list(self._all)
        self._queue: list[_Ticket] = []  # jobs admitted and waiting, oldest first
        self._running: Counter[str] = Counter()  # jobs on a worker, by owner
        self._held: Counter[str] = Counter()  # running and waiting, by owner
        self._paces: dict[tuple[Question[Any, Any, Any], Hashable], float] = {}  # see pace()

    @property
    def busy(self) -> int:
        """Workers running a job (or being replaced after one): those not idle."""
        return self.workers - len(self._idle)

    @property
    def waiting(self) -> int:
        """Jobs waiting for an idle worker: the queue's depth."""
        return len(self._queue)

    def shares(self) -> tuple[int, int, int]:
        """How the workers are shared now: the owners running a job, the owners waiting
        with none running, and the most workers one owner holds."""
        with self._changed:
            waiting = {ticket.owner for ticket in self._queue} - set(self._running)
            return (len(self._running), len(waiting),
                    max(self._running.values(), default=0))

    def pace(self, job: Job) -> float | None:
        """The seconds a job of the same question and options has taken lately on a
        worker, its way there and back included (a moving average over the chunks
        run); None before any."""
        return self._paces.get(_kind(job))

    def run(self, job: Job, cancelled: Callable[[], bool], wait: bool = False,
            owner: str = "") -> Any:
        """Run `job` of `owner` in a worker, counted against the queue like every job;
        its answer. Without `wait`, raise Overloaded when the queue is full (and no
        heavier owner's place can be taken); with it, wait for room, until the job's
        time or its client runs out."""
        answers: list[Any] = []
        self.run_chunk([job], cancelled, lambda _, answer: answers.append(answer), wait, owner)
        return answers[0]

    def run_chunk(self, jobs: Sequence[Job], cancelled: Callable[[], bool],
                  answered: Callable[[int, Any], None], wait: bool = False, owner: str = "",
                  enough: Callable[[], bool] = _never, borrow: bool = False) -> int:
        """Run `jobs` one after another in one worker, as one job of `owner` (see
        `run`), calling `answered(k, answer)` as the k-th finishes; how many were
        answered. Each job has its budget's seconds from its start; waiting for the
        worker counts against the first's. A job the time or the client left no room to
        start is answered `gave_up`; once `enough()`, those not started are not answered
        at all. With `borrow`, the chunk may take a worker past its owner's share
        (`max_per_owner`), and gives it back when another owner running nothing waits
        for one (on its owner's own share, once it has run _SLICE_SECONDS, and for a
        single call of its owner too): the jobs not started are then not answered, for
        the caller to run again."""
        started = time.perf_counter()
        deadline = started + (jobs[0].budget.seconds or float("inf"))
        ticket = _Ticket(owner, borrows=borrow)
        ran = 0
        with self._changed:
            admitted = self._admit(ticket)
            while not admitted:
                if not wait:
                    raise Overloaded(f"all {self.workers} workers busy and "
                                     f"{self.queue_size} calls queued")
                if cancelled() or time.perf_counter() >= deadline:
                    break
                self._changed.wait(_POLL_SECONDS)
                admitted = self._admit(ticket)
            worker = self._take_worker(ticket, cancelled, deadline) if admitted else None
        if worker is not None:
            giving_back = False
            turn = time.perf_counter() + (0 if ticket.borrowed else _SLICE_SECONDS)

            def halted() -> bool:
                nonlocal giving_back
                giving_back = giving_back or (ticket.borrows and time.perf_counter() >= turn
                                              and self._wanted(ticket))
                return enough() or giving_back

            try:
                ran = self._run_on(worker, jobs, cancelled, answered, halted, deadline)
            finally:
                with self._changed:
                    one_less(self._running, owner)
                    self._release(owner)
            if giving_back and not (enough() or cancelled()):
                return ran
        if not enough():
            for k in range(ran, len(jobs)):
                answered(k, jobs[k].gave_up(time.perf_counter() - started))
        return len(jobs)

    def _admit(self, ticket: _Ticket) -> bool:
        """Queue `ticket` if there is room, or in the place of the newest waiting job
        of the owner that holds the most, when that is two more than `ticket`'s owner."""
        if sum(self._held.values()) >= self.workers + self.queue_size:
            heaviest = max((t.owner for t in self._queue), key=self._held.__getitem__,
                           default=None)
            if heaviest is None or self._held[heaviest] < self._held[ticket.owner] + 2:
                return False
            bumped = next(t for t in reversed(self._queue) if t.owner == heaviest)
            bumped.bumped = True
            self._queue.remove(bumped)
            self._release(heaviest)
        self._queue.append(ticket)
        self._held[ticket.owner] += 1
        return True

    def _release(self, owner: str) -> None:
        """One job of `owner` no longer held (an owner holding none is forgotten)."""
        one_less(self._held, owner)
        self._changed.notify_all()

    def _take_worker(self, ticket: _Ticket, cancelled: Callable[[], bool],
                     deadline: float) -> _Worker | None:
        """Wait (holding the lock between looks) for an idle worker, its owner within
        its share or the ticket borrowing, and `ticket`'s turn: first among the waiting
        by its owner's running jobs, then by age. None when the time or the client ran
        out; Overloaded when a lighter owner took its place."""
        while True:
            if ticket.bumped:
                raise Overloaded(f"all {self.workers} workers busy and {self.queue_size} "
                                 "calls queued: this call's place went to a client with "
                                 "fewer calls")
            if cancelled() or time.perf_counter() >= deadline:
                self._queue.remove(ticket)
                self._release(ticket.owner)
                return None
            within = self._running[ticket.owner] < self.max_per_owner
            if (self._idle and (within or ticket.borrows)
                    and ticket is min(self._queue, key=lambda t: self._running[t.owner])):
                ticket.borrowed = not within
                self._queue.remove(ticket)
                self._running[ticket.owner] += 1
                return self._idle.pop()
            self._changed.wait(_POLL_SECONDS)

    def _wanted(self, chunk: _Ticket) -> bool:
        """Whether a job waits that would take the chunk's worker, which it then gives
        back: one whose owner runs nothing, or, from a chunk within its owner's share, a
        single call of the same owner (not its other streams: they take turns by
        chunks)."""
        with self._changed:
            return any(not self._running[t.owner]
                       or (t.owner == chunk.owner and not t.borrows and not chunk.borrowed)
                       for t in self._queue)

    def _run_on(self, worker: _Worker, jobs: Sequence[Job], cancelled: Callable[[], bool],
                answered: Callable[[int, Any], None], enough: Callable[[], bool],
                deadline: float) -> int:
        """`jobs` on `worker` (replaced if it died, or killed and replaced if a job held
        it _GRACE_SECONDS past its deadline: that job answered `gave_up`), which is idle
        again afterwards; how many it ran. The caller's word is passed on between
        answers and while a search runs; the jobs travel as one message, so that what
        they share (the question, its options, the cards) is pickled once."""
        if worker.ended():  # died while idle (killed from outside)
            worker = self._replace(worker)
        ran = 0
        failure: Exception | None = None
        sent = time.perf_counter()
        try:
            worker.cancel.clear()
            worker.halt.clear()
            worker.overdue.value = -1
            first = jobs[0]
            remaining = max(deadline - time.perf_counter(), 0.001)
            worker.connection.send([replace(first, budget=replace(first.budget,
                                                                  seconds=remaining)),
                                    *jobs[1:]])
            ended = False
            began, due = sent, deadline  # the job under way's start and deadline
            while ran < len(jobs) and not ended:
                if not worker.wait(ran, due, cancelled, enough):
                    worker = self._kill(worker, jobs[ran])
                    answered(ran, jobs[ran].gave_up(time.perf_counter() - began))
                    ran += 1
                    break
                for result in worker.connection.recv():
                    if isinstance(result, _Stopped | Exception):
                        failure = result if isinstance(result, Exception) else None
                        ended = True
                        break
                    answered(ran, result)
                    ran += 1
                    worker.watch(cancelled, enough)
                if ran < len(jobs):
                    began = time.perf_counter()
                    due = began + (jobs[ran].budget.seconds or math.inf)
        except (EOFError, OSError):  # died during the job: this call fails, the next won't
            worker = self._replace(worker)
            raise WorkerLost("the search process died during this call") from None
        except BaseException:  # this side failed mid-chunk (`answered`, say): the worker
            # may still be running it, out of step with the next caller
            worker.process.kill()
            worker = self._replace(worker)
            raise
        finally:
            with self._changed:
                self._idle.append(worker)
        if ran:
            took = (time.perf_counter() - sent) / ran
            kind = _kind(jobs[0])
            last = self._paces.get(kind, took)
            self._paces[kind] = last + _PACE_WEIGHT * (took - last)
        if failure is not None:
            raise failure
        return ran

    def _kill(self, worker: _Worker, job: Job) -> _Worker:
        """Kill a worker whose job ran _GRACE_SECONDS past its deadline, and replace it."""
        _faults.warning("a search of the question %r ran %g s past its budget without "
                        "answering: its worker was killed and replaced", job.question.name,
                        _GRACE_SECONDS)
        worker.process.kill()
        return self._replace(worker)

    def _replace(self, dead: _Worker) -> _Worker:
        dead.process.join(timeout=0)
        if self._closing:
            return dead
        worker = _Worker(self._context, self._preload, self._memory_mib)
        self._all[self._all.index(dead)] = worker
        return worker

    def kill(self) -> None:
        """End every worker at once, whatever it is doing; back when all are gone, so
        that no caller finds a killed worker still alive."""
        for worker in self._all:
            worker.process.kill()
        for worker in self._all:
            worker.process.join(timeout=5)

    def close(self) -> None:
        """Tell every worker to stop, and end those that have not within 2 s; back when
        all are gone, so that none outlives the server."""
        self._closing = True
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
        self.kill()  # what SIGTERM has not ended yet
