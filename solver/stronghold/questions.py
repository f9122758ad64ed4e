"""The clear and race questions (spec D.3, D.4), each answered by the method that fits
the defender: the time-expanded CP-SAT model against PASSIVE (it proves answers the
exhaustive search cannot reach, such as four units per attacker), the exhaustive search
on the simulator against GREEDY-DENY, whose if-then rules the model does not encode."""

from __future__ import annotations

from dataclasses import dataclass

from solver.budget import DEFAULT_BUDGET, Budget
from solver.errors import InvalidInput
from solver.stronghold.clear_model import fewest_turns_cpsat
from solver.stronghold.policies import POLICIES
from solver.stronghold.position import Position
from solver.stronghold.search import MAX_TURNS, Outcome, fewest_turns

METHODS = ("cpsat", "search")


@dataclass(frozen=True)
class Race:
    """Does the defender reach its target before the attackers clear the Stronghold row
    (attackers playing their fastest), and on which global turn."""

    defender_first: bool | None   # None when the budget ran out
    turn: int | None
    proven: bool
    outcome: Outcome


def clear(position: Position, defender: str = "passive", budget: Budget = DEFAULT_BUDGET,
          max_turns: int = MAX_TURNS, method: str = "cpsat") -> Outcome:
    """The attackers' fastest clear, or the defender's latest win. `method` "cpsat" uses
    the model against the passive defender; the greedy defender is always searched."""
    if defender not in POLICIES:
        raise InvalidInput(f"defender must be one of {', '.join(sorted(POLICIES))}, "
                           f"not {defender!r}")
    if method not in METHODS:
        raise InvalidInput(f"method must be one of {', '.join(METHODS)}, not {method!r}")
    if method == "search" or defender != "passive":
        return fewest_turns(position, POLICIES[defender], budget, max_turns)
    found = fewest_turns_cpsat(position, budget, max_turns, workers=1)   # reproducible
    return Outcome(found.winner, found.turn, found.rounds, found.proven, found.plan,
                   found.stats, found.cp_status)


def race(position: Position, defender: str = "passive", budget: Budget = DEFAULT_BUDGET,
         max_turns: int = MAX_TURNS, method: str = "cpsat") -> Race:
    outcome = clear(position, defender, budget, max_turns, method)
    first = None if outcome.winner is None else outcome.winner == "defender"
    return Race(first, outcome.turn, outcome.proven, outcome)
