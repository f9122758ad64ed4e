"""The small protocol a game implements to be searched, and the result every search returns."""

from __future__ import annotations

from collections.abc import Hashable, Iterable
from dataclasses import dataclass
from typing import Generic, Protocol, TypeVar

from solver.budget import SearchStats, Status

S = TypeVar("S")
M = TypeVar("M")
M_co = TypeVar("M_co", covariant=True)


class Problem(Protocol[S, M_co]):
    """A single-agent search problem with unit-or-more step costs.

    `heuristic` must never overestimate the remaining cost for optimal searches;
    `key` maps states that have the same future (e.g. up to symmetry) to one value.
    """

    def start(self) -> S: ...

    def is_goal(self, state: S) -> bool: ...

    def successors(self, state: S) -> Iterable[tuple[M_co, S, int]]: ...

    def heuristic(self, state: S) -> int: ...

    def key(self, state: S) -> Hashable: ...


@dataclass(frozen=True)
class SearchResult(Generic[M]):
    status: Status
    steps: tuple[M, ...]
    cost: int | None
    optimal: bool
    stats: SearchStats
    bound: int | None = None  # where the search proves one: no solution costs less
