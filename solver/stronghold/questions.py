"""The clear and race questions (docs/stronghold.md D.3, D.4), each answered by the method
that fits the defender: the time-expanded CP-SAT model against PASSIVE (it proves answers
the exhaustive search cannot reach, such as four units per attacker), the exhaustive
search on the simulator against GREEDY-DENY, whose if-then rules the model does not
encode."""

from __future__ import annotations

from solver.budget import DEFAULT_BUDGET, Budget
from solver.errors import InvalidInput
from solver.stronghold.answers import Outcome, Race
from solver.stronghold.policies import POLICIES
from solver.stronghold.position import Position
from solver.stronghold.search import MAX_TURNS, fewest_turns

METHODS = ("cpsat", "search")


def clear(position: Position, defender: str = "passive", budget: Budget = DEFAULT_BUDGET,
          max_turns: int = MAX_TURNS, method: str = "cpsat") -> Outcome:
    """The attackers' fastest clear, or the defender's latest win. `method` "cpsat" uses
    the model against the passive defender; the greedy defender is always searched."""
    check_choices(defender, method)
    if position.winner is not None:
        raise InvalidInput(f"the game is over: the {position.winner} won")
    if method == "search" or defender != "passive":
        return fewest_turns(position, POLICIES[defender], budget, max_turns)
    from solver.stronghold.clear_driver import fewest_turns_cpsat  # ortools: only when asked

    found = fewest_turns_cpsat(position, budget, max_turns, workers=1)   # reproducible
    return Outcome(found.winner, found.turn, found.rounds, found.proven, found.plan,
                   found.stats, found.cp_status)


def race(position: Position, defender: str = "passive", budget: Budget = DEFAULT_BUDGET,
         max_turns: int = MAX_TURNS, method: str = "cpsat") -> Race:
    return Race.of(clear(position, defender, budget, max_turns, method))


def check_choices(defender: str, method: str) -> None:
    """A defender policy and a method this library has, or InvalidInput naming them."""
    if defender not in POLICIES:
        raise InvalidInput(f"defender must be one of {', '.join(sorted(POLICIES))}, "
                           f"not {defender!r}")
    if method not in METHODS:
        raise InvalidInput(f"method must be one of {', '.join(METHODS)}, not {method!r}")
