"""How `serve --memory` is shared between the server's processes, so that the whole
tree fits a container's limit: the main process (its own memory and the answer caches),
the helper processes multiprocessing starts (the fork server, which holds every game's
modules to fork workers from, and the resource tracker), and the workers, each of which
keeps within its own limit (service/pool.py). Figures measured on a 2-worker server at
start (docs/operations.md): main process 71 MiB, fork server 95, tracker 13, a worker 63
before its first search."""

from __future__ import annotations

from solver.errors import InvalidInput

# The main process apart from its caches: its imports, gRPC's and the HTTP face's
# threads and the requests in flight (each at most --max-request-bytes), with room.
MAIN_MIB = 128
HELPERS_MIB = 128  # the fork server and the resource tracker, with room
# A worker's own memory (its imports) and a little room for a search's tables: a
# worker given less could not search at all.
MIN_WORKER_MIB = 160


def spelled(workers: int, per_worker: int, cache_mib: int) -> str:
    """The sum, as the start-up log says it."""
    return (f"main {MAIN_MIB} + cache {cache_mib} + helpers {HELPERS_MIB} + {workers} "
            f"worker{'s' * (workers != 1)} x {per_worker} MiB")


def worker_mib(workers: int, cache_mib: int, total_mib: int | None,
               per_worker_mib: int | None, default_per_worker: int) -> int:
    """The workers' limit: given, or what the total leaves them (checked against the total
    when both are given: InvalidInput, one line, when they do not add up)."""
    if total_mib is None:
        return per_worker_mib or default_per_worker
    left = total_mib - MAIN_MIB - HELPERS_MIB - cache_mib
    if per_worker_mib is not None:
        needed = MAIN_MIB + HELPERS_MIB + cache_mib + workers * per_worker_mib
        if needed > total_mib:
            raise InvalidInput(
                f"--memory {total_mib} cannot hold {workers} workers of --memory-per-worker "
                f"{per_worker_mib}, --cache-mib {cache_mib} and the server's own "
                f"{MAIN_MIB + HELPERS_MIB} MiB: that is {needed} MiB")
        return per_worker_mib
    per_worker = left // workers
    if per_worker < MIN_WORKER_MIB:
        raise InvalidInput(
            f"--memory {total_mib} leaves {max(per_worker, 0)} MiB a worker after "
            f"--cache-mib {cache_mib} and the server's own {MAIN_MIB + HELPERS_MIB} MiB; a "
            f"worker needs at least {MIN_WORKER_MIB}: give more, or fewer --workers")
    return per_worker
