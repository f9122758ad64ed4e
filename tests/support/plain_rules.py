"""Independent oracles for the patience family's search: the plain rules as a search
problem with nothing pruned, random walks of the reference search's own states, and the
kernel held to the reference on one state."""

from __future__ import annotations

import random
from collections.abc import Iterator

from solver.beleaguered import _kernel, native
from solver.beleaguered.position import Position
from solver.beleaguered.problem import FortressProblem, State
from solver.beleaguered.rules import FOUNDATION, Move, apply, legal_moves


class PlainRules:
    """Every legal move through the plain rules module (sequence moves too, where the
    variant has them), each costing one; nothing pruned. Without `pullbacks`, no card
    comes back from its foundation."""

    def __init__(self, position: Position, pullbacks: bool = True) -> None:
        self.position = position
        self.pullbacks = pullbacks

    def start(self) -> Position:
        return self.position

    def is_goal(self, position: Position) -> bool:
        return position.is_won

    def successors(self, position: Position) -> Iterator[tuple[Move, Position, int]]:
        for move in legal_moves(position):
            if self.pullbacks or move.source.kind != FOUNDATION:
                yield move, apply(position, move), 1

    def heuristic(self, position: Position) -> int:
        return position.cards_left()  # each card goes home alone: admissible, prunes nothing

    def key(self, position: Position) -> tuple:  # type: ignore[type-arg]
        """Piles, reserve slots and cells are interchangeable; the cells' cards are the
        ones neither in the piles, the reserve nor home."""
        piles = tuple(sorted(tuple(card.index for card in pile) for pile in position.tableau))
        reserve = frozenset(card.index for card in position.reserve if card is not None)
        return piles, reserve, position.foundations


def walk(position: Position, rng: random.Random, steps: int,
         sequences: bool = False) -> list[State]:
    """The start state and a random line of the reference search's own successors."""
    problem = FortressProblem(position, sequences=sequences)
    states = [problem.start()]
    for _ in range(steps):
        children = list(problem.successors(states[-1]))
        if not children:
            break
        states.append(rng.choice(children)[1])
    return states


def canonical(piles: tuple[tuple[int, ...], ...], reserve: int, cells: int,
              home: tuple[int, ...]) -> tuple:  # type: ignore[type-arg]
    """A state with its piles in one order, to compare the kernel's and the reference's."""
    return tuple(sorted(piles)), reserve, cells, tuple(home)


Step = tuple[tuple[int, int], ...]


def check_kernel_state(position: Position, state: State,
                       sequences: bool = False) -> list[tuple[Step, object, int]]:
    """Asserts the kernel's successors and bounds of `state` equal the reference's; the
    kernel's successors."""
    args = ([list(pile) for pile in state.piles], state.reserve, list(state.home))
    rules = dict(cells=state.cells, rules=native.rules_of(position.variant, sequences))
    problem = FortressProblem(position, sequences=sequences)
    expected = sorted((step, canonical(*problem.key(child), child.home), cost)
                      for step, child, cost in problem.successors(state))
    children = _kernel.successors(*args, **rules)  # type: ignore[arg-type]
    for _, (piles, _, _, _), _ in children:
        bottoms = [pile[0] for pile in piles if pile]
        assert bottoms == sorted(bottoms), piles  # the kernel's piles come by bottom card
    got = sorted((step, canonical(*child), cost) for step, child, cost in children)
    assert got == expected, (str(position), state, sequences)
    for thorough in (True, False):
        assert _kernel.bound(*args, thorough, **rules) == FortressProblem(  # type: ignore[arg-type]
            position, thorough, sequences).heuristic(state), (str(position), state, thorough)
    return children  # type: ignore[return-value]
