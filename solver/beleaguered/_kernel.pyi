"""The pybind11 bindings of `_kernel.cpp`. Cards are numbers 0..51, piles lists of them
bottom to top, the reserve and the cells bit masks of cards (by slot, -1 for an empty
one, in `solve`), `home` the four foundation counts, and `rules` a variant's play by field
name (piles, cells, build, empty, worrying_back, sequence_moves), see native.rules_of."""

from collections.abc import Callable, Sequence

Piles = Sequence[Sequence[int]]
Rules = dict[str, int | str | bool]
StepMove = tuple[int, int]  # (card, card it goes onto: -1 home, -2 empty pile, -3 a cell)
State = tuple[tuple[tuple[int, ...], ...], int, int, tuple[int, int, int, int]]

def solve(piles: Piles, reserve: Sequence[int], cells: Sequence[int], home: Sequence[int],
          rules: Rules, kind: str, seconds: float, nodes: int, table_entries: int,
          memory: int, stop: Callable[[], object] | None, disk: str = "",
          disk_budget: int = 0,
          ) -> tuple[int, list[tuple[int, int, int]], int, int, float, int, int, float, int]:
    """(status, moves as (card, source, target), nodes, table entries, seconds, table
    bytes, lower bound, seconds into the search when the line was found, disk bytes); a
    budget of 0 is no limit, memory in bytes; with `disk`, a directory, a search that
    fills its memory goes on there within `disk_budget` bytes."""

def successors(piles: Piles, reserve: int, home: Sequence[int], cells: int = 0,
               rules: Rules = ...) -> list[tuple[tuple[StepMove, ...], State, int]]: ...

def bound(piles: Piles, reserve: int, home: Sequence[int], thorough: bool, cells: int = 0,
          rules: Rules = ...) -> int: ...

Layout = dict[str, list[int] | int | bool]  # deals.layout
Record = tuple[int, int, int, int, float, int, int, int]

def deal(number: int, layout: Layout, rules: Rules,
         ) -> tuple[list[list[int]], list[int], list[int], tuple[int, int, int, int]]:
    """(piles, reserve slots, cells, home) of deal `number`, -1 for an empty slot."""

def solve_deals(numbers: Sequence[int], layout: Layout, rules: Rules, kind: str,
                seconds: float, nodes: int, table_entries: int, memory: int,
                stop: Callable[[], object] | None, slice: float = 0.0) -> list[Record]:
    """A record a deal, in order: (status, moves, single-card moves, nodes, seconds,
    table entries, table bytes, lower bound); with slice > 0 of those decided within
    that many seconds, the first always: none is started then, and one still searching
    (but the first) is given up."""
