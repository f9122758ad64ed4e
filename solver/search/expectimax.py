"""Expectimax over sampled chance outcomes for games of hidden information.

The hidden parts (cards the player cannot see) are the chance node; it is sampled into
worlds, and every option (a plan of the player's own moves, chosen without seeing the
hidden parts) is valued by its mean over the same worlds, so that options are compared
on equal luck. Options are first ranked by a cheap prior and only a shortlist gets the
full expectation: the depth limit and the shortlist keep a hint within its budget.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Generic, TypeVar

from solver.budget import Meter

Opt = TypeVar("Opt")
W = TypeVar("W")


@dataclass(frozen=True)
class Ranked(Generic[Opt]):
    option: Opt
    value: float  # mean over the worlds


def expectimax(options: Sequence[Opt], worlds: Sequence[W], value: Callable[[Opt, W], float],
               prior: Callable[[Opt], float], shortlist: int, meter: Meter) -> list[Ranked[Opt]]:
    """The shortlisted options, best first, each valued by its mean over every world.
    Raises BudgetExhausted (from the meter) when the budget runs out."""
    if not worlds:
        raise ValueError("expectimax needs at least one world")
    chosen = sorted(options, key=prior, reverse=True)[:shortlist]
    ranked = []
    for option in chosen:
        total = 0.0
        for world in worlds:
            meter.tick()
            total += value(option, world)
        ranked.append(Ranked(option, total / len(worlds)))
    ranked.sort(key=lambda r: r.value, reverse=True)
    return ranked
