"""The pybind11 bindings of `_kernel.cpp`. Cards are numbers 0..51, piles lists of them
bottom to top, the reserve a bit mask of cards (by slot, -1 for an empty one, in `solve`)
and `home` the four foundation counts."""

from collections.abc import Callable, Sequence

Piles = Sequence[Sequence[int]]
StepMove = tuple[int, bool, int]  # (card, from reserve?, card it goes onto: -2 empty, -1 home)
State = tuple[tuple[tuple[int, ...], ...], int, tuple[int, int, int, int]]

def solve(piles: Piles, reserve: Sequence[int], home: Sequence[int], kind: str,
          seconds: float, nodes: int, table_entries: int, stop: Callable[[], object] | None,
          ) -> tuple[int, list[tuple[int, int, int]], int, int, float, int]:
    """(status, moves as (card, source, target), nodes, table entries, seconds, table bytes)."""

def successors(piles: Piles, reserve: int,
               home: Sequence[int]) -> list[tuple[tuple[StepMove, ...], State, int]]: ...

def bound(piles: Piles, reserve: int, home: Sequence[int], thorough: bool) -> int: ...
