"""`batch --dask` and `census --dask`: the deals solved on a Dask cluster in chunks, their
lines streamed back as the chunks finish. Imported only for --dask, since Dask is an
optional dependency."""

from __future__ import annotations

import logging
import os
import signal
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from typing import Any

from service.batch import Part, Records
from solver.errors import InvalidInput

try:
    from distributed import Client, LocalCluster, as_completed
except ImportError:  # one line, not a traceback, for a missing extra
    raise InvalidInput("--dask needs Dask: pip install 'fortress-solver[dask]'") from None

CHUNK = 100  # deals a task: Dask's ~5 ms a task is ~5 % of their any-mode work (measured)
RETRIES = 3  # a task that raises is run again; one whose worker died is rescheduled anyway
_SILENT = logging.CRITICAL + 1


def solve_chunk(numbers: list[int], part: Part) -> list[dict[str, Any]]:
    """One task: the lines of up to CHUNK deals. Pure, so that Dask may run it again on
    another worker when its first one dies."""
    return part(numbers, 0.0)


def on_dask(address: str, part: Part) -> Callable[[list[int]], Records]:
    """`part` (service/batch.py: a picklable function of some deals) run on the cluster
    whose scheduler is at `address` (or on a LocalCluster of one single-threaded worker
    per core, for "local"), lines in the order chunks finish. Each chunk's future is yielded once,
    whichever worker ran it in the end, so no deal comes twice; and none is held once
    yielded, so the workers can drop its lines."""
    def solve_many(todo: list[int]) -> Records:
        with _client(address) as client:
            # a short range in smaller chunks, four a worker thread, so that none idles
            threads = max(1, sum(client.nthreads().values()))  # 0: workers yet to join
            size = max(1, min(CHUNK, len(todo) // (4 * threads)))
            chunks = [todo[start:start + size] for start in range(0, len(todo), size)]
            # map, not a submit per chunk: one message to the scheduler, not thousands
            for _, lines in as_completed(
                    client.map(solve_chunk, chunks, part=part, pure=True, retries=RETRIES),
                    with_results=True):
                yield from lines
    return solve_many


@contextmanager
def _client(address: str) -> Iterator[Client]:
    """A client of the scheduler at `address`, or of a LocalCluster started for "local".
    Dask's log lines are off (a LocalCluster's workers' too): the batch's own lines say
    what happened, and Ctrl-C or a lost worker should print nothing more."""
    for handler in logging.getLogger("distributed").handlers:  # tornado's too: the same one
        handler.setLevel(_SILENT)
    if address == "local":
        with _local_cluster() as cluster, Client(cluster) as client:
            yield client
        return
    try:
        client = Client(address)
    except (OSError, ValueError) as err:  # no scheduler there, or no address Dask reads
        raise InvalidInput(f"--dask {address}: {err}") from None
    with client:
        yield client


@contextmanager
def _local_cluster() -> Iterator[LocalCluster]:
    """One single-threaded worker process per core, which ignore SIGINT as the local
    pool's do: Ctrl-C at a terminal reaches the whole process group, and only the
    command should answer it. They inherit the disposition from here, so the command
    ignores SIGINT while they start (a second or two), and answers it once they run."""
    handler = signal.signal(signal.SIGINT, signal.SIG_IGN)
    try:
        cluster = LocalCluster(n_workers=os.cpu_count() or 1, threads_per_worker=1,
                               processes=True, dashboard_address=None, silence_logs=_SILENT)
    finally:
        signal.signal(signal.SIGINT, handler)
    with cluster:
        yield cluster
