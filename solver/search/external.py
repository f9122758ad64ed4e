"""External-memory breadth-first search: the readable reference of the kernel's DiskSearch.

A verdict that outgrows memory: breadth-first by layers (the states first reached in
that many steps), with delayed duplicate detection. A layer's children are gathered in
memory, at most `run_states` at a time, sorted by key and written to a run file; the
runs are merged, and a child is kept only if no earlier layer's file holds its key.
A child that is a goal ends the search, and its line is found again backwards: in each
earlier layer, the state with a step to the one after it. Files live in a directory
made under `directory` and removed when the search ends, however it ends; their bytes
at any time stay within `disk_bytes` (else the answer is unknown).
"""

from __future__ import annotations

import heapq
import pickle
import shutil
import tempfile
from collections.abc import Hashable, Iterator
from pathlib import Path
from typing import Any

from solver.budget import Budget, BudgetExhausted, Meter, Status
from solver.search.problem import M, Problem, S, SearchResult


class _DiskFull(Exception):
    """The files would pass the disk budget."""


class _Spill:
    """The search's directory and the bytes its files hold."""

    def __init__(self, directory: Path, disk_bytes: int | None) -> None:
        self.path = Path(tempfile.mkdtemp(prefix="fortress-disk-", dir=directory))
        self.budget = disk_bytes
        self.used = 0
        self.files = 0

    def write(self, records: Iterator[tuple[Any, Any]]) -> tuple[Path, int]:
        """`records` (key, state), in key order, to a new file: its path and bytes."""
        self.files += 1
        path = self.path / f"{self.files}"
        size = 0
        with path.open("wb") as out:
            for record in records:
                data = pickle.dumps(record)
                size += len(data)
                if self.budget is not None and self.used + size > self.budget:
                    raise _DiskFull
                out.write(data)
        self.used += size
        return path, size

    def drop(self, path: Path, size: int) -> None:
        path.unlink()
        self.used -= size


def _read(path: Path) -> Iterator[tuple[Any, Any]]:
    with path.open("rb") as source:
        while True:
            try:
                yield pickle.load(source)
            except EOFError:
                return


def external_breadth_first(problem: Problem[S, M], budget: Budget, directory: Path,
                           disk_bytes: int | None = None,
                           run_states: int = 1 << 16) -> SearchResult[M]:
    """A goal's line (breadth-first: fewest steps), or a proof there is none, holding at
    most `run_states` children in memory at once. Keys must be ordered and pickled."""
    meter = Meter(budget)
    spill = _Spill(directory, disk_bytes)
    layers: list[Path] = []
    stored = 0

    def new_layer(runs: list[tuple[Path, int]]) -> Path:
        """The runs merged, less the keys of every earlier layer."""
        merged = heapq.merge(*(_read(path) for path, _ in runs), key=lambda r: r[0])
        earlier = [_read(path) for path in layers]
        heads: list[tuple[Any, Any] | None] = [next(e, None) for e in earlier]

        def fresh() -> Iterator[tuple[Any, Any]]:
            last: Hashable = None
            for key, state in merged:
                if key == last:
                    continue
                last = key
                seen = False
                for i, source in enumerate(earlier):
                    while (head := heads[i]) is not None and head[0] < key:
                        heads[i] = next(source, None)
                    seen = seen or (head is not None and head[0] == key)
                if not seen:
                    yield key, state

        path, _ = spill.write(fresh())
        for run in runs:
            spill.drop(*run)
        return path

    try:
        start = problem.start()
        if problem.is_goal(start):
            return SearchResult(Status.SOLVED, (), 0, False, meter.stats(1))
        layers.append(spill.write(iter([(problem.key(start), start)]))[0])
        stored = 1
        while True:
            runs: list[tuple[Path, int]] = []
            buffer: list[tuple[Any, Any]] = []
            for key, state in _read(layers[-1]):
                meter.tick()
                for step, child, _cost in problem.successors(state):
                    if problem.is_goal(child):
                        return _found(problem, layers, key, [step], meter, stored)
                    buffer.append((problem.key(child), child))
                    if len(buffer) >= run_states:
                        runs.append(spill.write(iter(sorted(buffer, key=lambda r: r[0]))))
                        buffer = []
            if buffer:
                runs.append(spill.write(iter(sorted(buffer, key=lambda r: r[0]))))
            layer = new_layer(runs)
            added = sum(1 for _ in _read(layer))
            if not added:
                return SearchResult(Status.UNSOLVABLE, (), None, False, meter.stats(stored))
            stored += added
            layers.append(layer)
    except (BudgetExhausted, _DiskFull):
        return SearchResult(Status.UNKNOWN, (), None, False, meter.stats(stored))
    finally:
        shutil.rmtree(spill.path, ignore_errors=True)


def _found(problem: Problem[S, M], layers: list[Path], key: Hashable, steps: list[M],
           meter: Meter, stored: int) -> SearchResult[M]:
    """The line to the state of `key` in the last layer, then `steps`."""
    for layer in reversed(layers[:-1]):
        key, step = next((parent_key, step) for parent_key, state in _read(layer)
                         for step, child, _ in problem.successors(state)
                         if problem.key(child) == key)
        steps.append(step)
    steps.reverse()
    return SearchResult(Status.SOLVED, tuple(steps), None, False, meter.stats(stored))
