"""The clear question (docs/stronghold.md D.3, D.4) answered with the CP-SAT clear model:
the fewest global turns in which the attackers clear all nine battlefields against a
PASSIVE defender, and, when they cannot, the latest turn to which they can put off the
defender's win.

Horizon by horizon from a lower bound upward, one round at a time: the *attack* model
requires the Stronghold row cleared by turn H with the defender below its target until
then and minimises the turn of the clear; the first horizon where it is feasible gives
the answer (proven when that solve is OPTIMAL, since the horizon before was INFEASIBLE).
Once the attack model is infeasible at a horizon H that the attackers doing nothing do
not live through, the *survive* model (no clear required) maximises, over two more
rounds, the turns the defender stays below its target: an optimum F <= H is the
defender's win in every line, and no line lets the attackers win first; F > H sends the
attack model straight to horizon F, whose infeasibility settles the same.
"""

from __future__ import annotations

import time
from dataclasses import dataclass, field, replace

from solver.budget import DEFAULT_BUDGET, Budget, BudgetExhausted, SearchStats
from solver.cpsat import CpSat, CpStatus, Solved
from solver.stronghold.answers import Step
from solver.stronghold.clear_facts import Facts
from solver.stronghold.clear_model import ClearModel, Mode
from solver.stronghold.position import Position
from solver.stronghold.search import MAX_TURNS

MAX_WORKERS = 2
STEP_ROUNDS = 1        # horizons tried: lower bound, then this many rounds more each time
SURVIVE_AHEAD = 2      # a survive model looks this many rounds past the attack horizon


@dataclass(frozen=True)
class ClearPlan:
    """The model's answer: an Outcome's fields, and what the model alone knows (the
    attackers' burn-out picks, the horizons it went through)."""

    winner: str | None            # "attackers", "defender", or None when unknown
    turn: int | None              # the global turn of the win (as search.fewest_turns)
    rounds: int | None            # ceil(turn / players)
    cp_status: str                # of the deciding CP-SAT solve: OPTIMAL, FEASIBLE, ...
    proven: bool                  # CP-SAT proved the answer (and every smaller horizon)
    plan: tuple[Step, ...]        # every attacker turn before the win, with its moves
    burn_picks: tuple[tuple[int, str], ...] = ()   # (turn, battlefield) at defender burn-outs
    horizon: int | None = None    # the last horizon (global turn) a model was built for
    solves: int = 0               # CP-SAT solves made
    # nodes: CP-SAT branches over all solves; table_entries: variables of the largest model
    stats: SearchStats = field(default_factory=lambda: SearchStats(0, 0.0, 0))


def fewest_turns_cpsat(position: Position, budget: Budget = DEFAULT_BUDGET,
                       max_turns: int = MAX_TURNS, workers: int = MAX_WORKERS) -> ClearPlan:
    """The attackers' fastest clear against a PASSIVE defender, or the defender's latest
    win; turns position.turn .. position.turn + max_turns - 1 are looked at (as
    search.fewest_turns does). Only the budget's seconds and `stop` apply (shared by the
    solves)."""
    cp = CpSat(budget, max(1, min(workers, MAX_WORKERS)))
    try:
        return _Driver(Facts(position, cp), cp, position.turn + max_turns - 1).run()
    except BudgetExhausted:      # building the tables, the idle line or a model took it
        return ClearPlan(None, None, None, "UNKNOWN", False, (), solves=cp.solves,
                         stats=SearchStats(cp.branches, cp.elapsed(), 0))


class _Driver:
    """Horizon after horizon: the attack model at each (the first feasible one answers);
    a survive model, looking SURVIVE_AHEAD rounds further, whenever no line is known to
    keep the defender below its target through the current horizon. Once a survive solve
    proves the defender's win forced by turn F, one attack solve at horizon F settles it."""

    def __init__(self, game: Facts, cp: CpSat, last: int) -> None:
        self.game, self.cp, self.last = game, cp, last
        self.variables = 0
        self.build_seconds = 0.0  # how long the last model took to build
        self.horizon = min(max(game.lower_bound(), game.t0), last)

    def run(self) -> ClearPlan:
        g = self.game
        idle_end = g.idle_end(self.last)
        survived = self.last if idle_end is None else idle_end - 1   # some line lives so long
        forced: ClearPlan | None = None     # the defender's latest win, once proven
        while True:
            attack = self._solve(self.horizon, "attack")
            if attack is None:
                return self._answer(None, None, "UNKNOWN")
            model, solved = attack
            if solved.found:
                return self._answer("attackers", model.win_turn(solved), solved.status, attack)
            if solved.status != "INFEASIBLE":
                return self._answer(None, None, solved.status)
            if forced is not None and forced.turn is not None and forced.turn <= self.horizon:
                return replace(forced, horizon=self.horizon, solves=self.cp.solves,
                               stats=self._stats())
            if self.horizon > survived:
                size = min(self.last, self.horizon + SURVIVE_AHEAD * g.players)
                survive = self._solve(size, "survive")
                if survive is None:
                    return self._answer(None, None, "UNKNOWN")
                model, solved = survive
                turn = model.defender_win_turn(solved) if solved.found else None
                if solved.optimal and turn is not None:
                    forced = self._answer("defender", turn, solved.status, survive)
                    if turn <= self.horizon:
                        return forced
                    survived = turn - 1
                elif solved.found and turn is None:
                    survived = size
                else:
                    return self._answer(None, None, solved.status)
            if self.horizon >= self.last:
                return self._answer(None, None, "INFEASIBLE")
            self.horizon = min(self.last, self.horizon + STEP_ROUNDS * g.players)
            if forced is not None and forced.turn is not None:
                self.horizon = max(self.horizon, forced.turn)

    def _solve(self, size: int, mode: Mode) -> tuple[ClearModel, Solved] | None:
        """One CP-SAT solve (UNKNOWN, unsolved, once time is up), or None for no time to
        build the model. Building a model is not bounded by CP-SAT's time limit and a
        bigger horizon takes longer to build than the last one did: with less time left
        than that, the answer is UNKNOWN at once rather than a build that runs past the
        budget."""
        left = self.cp.seconds_left()
        if left is not None and left <= self.build_seconds:
            return None
        building = time.perf_counter()
        model = ClearModel(self.game, size, mode)
        self.build_seconds = time.perf_counter() - building
        solved = self.cp.solve(model.model)
        self.variables = max(self.variables, len(model.model.proto.variables))
        return model, solved

    def _stats(self) -> SearchStats:
        return SearchStats(self.cp.branches, self.cp.elapsed(), self.variables)

    def _answer(self, winner: str | None, turn: int | None, status: CpStatus,
                found: tuple[ClearModel, Solved] | None = None) -> ClearPlan:
        """The verdict; proven when the deciding solve is OPTIMAL (for the attackers the
        smaller horizons were INFEASIBLE, for the defender the attack model at a horizon
        at least its win turn was)."""
        plan, picks = (found[0].extract(found[1], turn)
                       if found is not None and turn is not None else ((), ()))
        rounds = None if turn is None else -(-turn // self.game.players)
        return ClearPlan(winner, turn, rounds, status, winner is not None and status == "OPTIMAL",
                         plan, picks, self.horizon, self.cp.solves, self._stats())
