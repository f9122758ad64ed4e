"""No call holds a worker past its budget and a second. Past a job's deadline the pool
tells the job to stop, so a search that heeds its stop but never reads its clock still
ends there, the rest of its chunk run on; one that heeds nothing has its worker killed
and replaced a second later, its call answered UNKNOWN as a job the time ran out for.
The test-only game of tests/support/stubborn.py is the search, asked of a pool and of a
real server that finds it as a plug-in. And a patience Hint with all_moves keeps to one
budget on a server as in the library."""

from __future__ import annotations

import json
import os
import threading
import time
from collections.abc import Iterator
from pathlib import Path

import grpc
import psutil
import pytest

from service.api import fortress_solver_pb2 as pb
from service.api import fortress_solver_pb2_grpc as pb_grpc
from service.pool import Job, WorkerPool
from solver.beleaguered import deal
from solver.beleaguered.game import HINT, HintOptions
from solver.budget import Budget, Status
from tests.support import stubborn
from tests.support.cli import run
from tests.support.serve_process import ServeProcess

ROOT = Path(__file__).resolve().parents[2]
PAST = 0.3  # the budget's seconds of a job that runs past them


def job(heeds: str, seconds: float = 60) -> Job:
    return Job(stubborn.WORK, 0, stubborn.Options(heeds), Budget(seconds=seconds))


def gone(pid: int) -> bool:
    """Whether process `pid` has ended (a zombie not yet reaped has)."""
    try:
        return psutil.Process(pid).status() == psutil.STATUS_ZOMBIE
    except psutil.NoSuchProcess:
        return True


def wait_until(condition, seconds: float = 30) -> None:
    deadline = time.monotonic() + seconds
    while not condition():
        assert time.monotonic() < deadline
        time.sleep(0.01)


# ---------------------------------------------------------------- the pool


@pytest.fixture(scope="module")
def pool() -> Iterator[WorkerPool]:
    pool = WorkerPool(workers=1, queue_size=1)
    try:
        yield pool
    finally:
        pool.close()


def chunk(pool: WorkerPool, jobs: list[Job]) -> list[stubborn.Worked]:
    """The answers of `jobs` run as one chunk (a minute at most: a pool that waits for
    its worker longer never stops it)."""
    answers: dict[int, stubborn.Worked] = {}
    running = threading.Thread(target=pool.run_chunk,
                               args=(jobs, lambda: False, answers.__setitem__), daemon=True)
    running.start()
    running.join(timeout=60)
    assert not running.is_alive(), "the pool still waits for its worker"
    return [answers[k] for k in range(len(jobs))]


def test_a_job_past_its_deadline_is_told_to_stop_and_the_rest_of_its_chunk_runs(pool):
    worker = pool.run(job("everything"), lambda: False).worker
    stopped, after = chunk(pool, [job("stop", PAST), job("everything")])
    assert (stopped.status, stopped.worker) == (Status.UNKNOWN, worker)  # its own answer
    assert (after.status, after.worker) == (Status.SOLVED, worker)


def test_a_job_that_heeds_nothing_has_its_worker_killed_and_replaced(pool):
    worker = pool.run(job("everything"), lambda: False).worker
    held, after = chunk(pool, [job("nothing", PAST), job("everything")])
    # answered in the job's place, as the jobs of its chunk after it: none of them ran
    assert (held.status, held.worker) == (Status.UNKNOWN, 0)
    assert (after.status, after.worker) == (Status.UNKNOWN, 0)
    wait_until(lambda: gone(worker))
    again = pool.run(job("everything"), lambda: False)
    assert again.status is Status.SOLVED and again.worker not in (0, worker)
    assert (pool.busy, pool.waiting) == (0, 0)


# ---------------------------------------------------------------- a server


@pytest.fixture(scope="module")
def server(tmp_path_factory) -> Iterator[ServeProcess]:
    """A real server (one worker) with the stubborn game installed as a plug-in."""
    plug_ins = tmp_path_factory.mktemp("plug-ins")
    stubborn.distribution(plug_ins)
    log = tmp_path_factory.mktemp("server") / "serve.log"
    with pytest.MonkeyPatch.context() as patch:
        patch.setenv("PYTHONPATH", os.pathsep.join([str(plug_ins), str(ROOT)]))
        process = ServeProcess(log)
    try:
        process.wait_serving()
        yield process
    finally:
        process.stop()


@pytest.fixture(scope="module")
def stub(server) -> Iterator[pb_grpc.SolverStub]:
    with grpc.insecure_channel(server.address) as channel:
        yield pb_grpc.SolverStub(channel)


def ask(stub: pb_grpc.SolverStub, heeds: str, seconds: float = 0) -> tuple[int, int]:
    """(status, the worker that answered) of the stubborn game's question."""
    answer = stub.Solve(pb.SolveRequest(
        position=pb.PositionSource(json=json.dumps({"game": "stubborn", "n": 0})),
        question_options=pb.QuestionOptions(options=json.dumps({"heeds": heeds})),
        budget=pb.Budget(seconds=seconds)), timeout=60)
    return answer.status, json.loads(answer.answer_json)["worker"]


def test_a_call_whose_search_heeds_nothing_is_answered_unknown_by_a_new_worker_after(
        server, stub):
    status, worker = ask(stub, "everything")
    assert status == pb.STATUS_SOLVED
    assert ask(stub, "stop", PAST) == (pb.STATUS_UNKNOWN, worker)  # stopped, not killed
    assert ask(stub, "nothing", PAST) == (pb.STATUS_UNKNOWN, 0)
    server.wait_for(r"a search of the question 'work' ran 1 s past its budget without "
                    r"answering: its worker was killed and replaced")
    wait_until(lambda: gone(worker))
    status, replaced = ask(stub, "everything")
    assert status == pb.STATUS_SOLVED and replaced not in (0, worker)


def test_an_all_moves_hint_under_a_node_budget_answers_as_the_library_does(stub):
    """Deal 2 with 300 nodes: the hint's search spends 126, the grading the 174 it left
    (tests/test_one_budget.py holds the library to its budget)."""
    options = {"all_moves": True}
    answer = stub.Hint(pb.HintRequest(
        position=pb.PositionSource(beleaguered_deal=2),
        question_options=pb.QuestionOptions(question="hint", options=json.dumps(options)),
        budget=pb.Budget(nodes=300)), timeout=60)
    local = HINT.ask(deal(2), HintOptions(all_moves=True), Budget(nodes=300))
    assert json.loads(answer.answer_json) == local.to_json()


@pytest.mark.timing
@pytest.mark.parametrize("remote", [False, True], ids=["command", "client"])
def test_an_all_moves_hint_returns_within_its_budget_and_a_second(capsys, request, remote):
    where = (["client", "hint", "--server", request.getfixturevalue("server").address]
             if remote else ["hint"])
    started = time.perf_counter()
    code, _, err = run(capsys, *where, "--deal", "5", "--variant", "freecell", "--all-moves",
                       "--seconds", "3")
    assert code == 0, err
    assert time.perf_counter() - started < 4
