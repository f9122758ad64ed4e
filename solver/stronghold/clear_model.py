"""Q2 of the spec (D.3) as a time-expanded CP-SAT model: the fewest global turns in which
the attackers clear all nine battlefields against a PASSIVE defender, and, when they
cannot, the latest turn to which they can put off the defender's win (D.4).

Why the model can be small. Under PASSIVE the defender never moves, so fights only happen
where its units stood at the start, and the attackers' side of the game has a rigid
rhythm: an attacker's units on a battlefield at the start of its turn are exactly what it
controls, so its hold step removes every battlefield it stands on and sends those units
home exhausted. In its action step, therefore, every unit of the attacker to move is at
its base, ready unless it has just come home from a hold (or is a reinforcement that has
just arrived); a move is always base -> battlefield, and Ganking never matters.

Encoding, for global turns t0 .. H (t0 the position's turn):

* `rem[b,t]`: b is removed at the start of turn t; `hit[b,t]` = removed or removed
  directly in turn t's hold / burn-out step; `clr[row,t]` <=> at least two of the row
  hit (the second removal takes the third), `rem[b,t+1]` = `hit[b,t]` or its row cleared.
  A battlefield may be entered in turn t's action step only while it stands and every
  earlier row has been cleared by then.
* `loc[u,t,l]`: each attacker unit's place at the start of turn t, one-hot over base,
  the battlefields and dead. Units of other players than the one to move stay put unless
  their battlefield is removed (home). Control is not a variable: after any action step
  a battlefield is controlled by whoever has units there, so the hold of attacker P in
  turn t removes exactly the battlefields where `loc[u,t,b]` holds for a unit of P.
* `dst[b,t,S]`: one-hot over the subsets S of the defender's units at b that can still
  be alive there (closure of `combat.resolve` over every wave of every attacker).
* `z[b,t,W,S]`: in attacker P's turn t, P's wave to the defended battlefield b is the
  unit set W and the defenders there are S. Its outcome (who of W dies, stays as the
  conqueror or is recalled, who of S lives) is precomputed with `combat.resolve`: the
  subset table of D.1. Failed attacks are allowed (a failed attack can thin a garrison or
  trade everything, which can be the only way to stop the defender's holds); only the
  pointless ones are left out: a wave that kills no defender and does not conquer leaves
  the position as it was, minus the wave's dead (a recalled unit is ready again at its
  owner's next turn, like one that stayed), so staying home is never worse.
* The defender's score: in its turns from its second on, +1 per battlefield where its
  units still stand (or, in the position's own turn, per battlefield it controls); +1 at
  an attacker's scheduled burn-out.

Queries, horizon by horizon from a lower bound upward, one round at a time: the *attack*
model requires the Stronghold row cleared by turn H with the defender below its target
until then and minimises the turn of the clear; the first horizon where it is feasible
gives the answer (proven when that solve is OPTIMAL, since the horizon before was
INFEASIBLE). Once the attack model is infeasible at a horizon H that the attackers doing
nothing do not live through, the *survive* model (no clear required) maximises, over two
more rounds, the turns the defender stays below its target: an optimum F <= H is the
defender's win in every line, and no line lets the attackers win first; F > H sends the
attack model straight to horizon F, whose infeasibility settles the same.

Burn-outs are supported: an attacker's adds its point after the hold step; at the
defender's the attackers choose the battlefield removed (a decision of the model, spec
F.7, handed back in `burn_picks`; search.fewest_turns takes the simulator's default
pick instead). Attackers' reinforcements enter exhausted at base in their scheduled turn
(as turns.begin_turn places them) and may move from their owner's next turn; the
defender's are ignored (PASSIVE: they would only wait in its base).
"""

from __future__ import annotations

import time
from dataclasses import dataclass, field, replace
from itertools import combinations

from ortools.sat.python import cp_model

from solver.budget import DEFAULT_BUDGET, Budget, SearchStats
from solver.errors import InvalidInput
from solver.stronghold.combat import resolve
from solver.stronghold.position import BASE, DEFENDER, Position, Unit
from solver.stronghold.search import MAX_TURNS, Step
from solver.stronghold.turns import play_turn

DEAD = "dead"
MAX_UNITS_PER_ATTACKER = 8      # the subset table has 2**units rows per battlefield and turn
MAX_TABLE_ROWS = 20_000        # (wave, defenders alive) pairs over attackers and battlefields
MAX_WORKERS = 2
STEP_ROUNDS = 1        # horizons tried: lower bound, then this many rounds more each time
SURVIVE_AHEAD = 2      # a survive model looks this many rounds past the attack horizon
FOUND = ("OPTIMAL", "FEASIBLE")


@dataclass(frozen=True)
class ClearPlan:
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
    search.fewest_turns does). Only the budget's seconds apply (shared by the solves)."""
    started = time.perf_counter()
    return _Driver(_Game(position), budget, position.turn + max_turns - 1, workers,
                   started).run()


class _Driver:
    """Horizon after horizon: the attack model at each (the first feasible one answers);
    a survive model, looking SURVIVE_AHEAD rounds further, whenever no line is known to
    keep the defender below its target through the current horizon. Once a survive solve
    proves the defender's win forced by turn F, one attack solve at horizon F settles it."""

    def __init__(self, game: _Game, budget: Budget, last: int, workers: int,
                 started: float) -> None:
        self.game, self.budget, self.last = game, budget, last
        self.workers = max(1, min(workers, MAX_WORKERS))
        self.started = started
        self.solves = self.branches = self.variables = 0
        self.build_seconds = 0.0  # how long the last model took to build
        self.horizon = min(max(game.lower_bound(), game.t0), last)

    def run(self) -> ClearPlan:
        g = self.game
        idle_end = g.idle_end(self.last)
        survived = self.last if idle_end is None else idle_end - 1   # some line lives so long
        forced: ClearPlan | None = None     # the defender's latest win, once proven
        while True:
            model, solver, status = self._solve(self.horizon, "attack")
            if status in FOUND:
                return self._answer("attackers", model.win_turn(solver), status, model, solver)
            if status != "INFEASIBLE":
                return self._answer(None, None, status)
            if forced is not None and forced.turn is not None and forced.turn <= self.horizon:
                return replace(forced, horizon=self.horizon, solves=self.solves,
                               stats=self._stats())
            if self.horizon > survived:
                size = min(self.last, self.horizon + SURVIVE_AHEAD * g.players)
                model, solver, status = self._solve(size, "survive")
                turn = model.defender_win_turn(solver) if status in FOUND else None
                if status == "OPTIMAL" and turn is not None:
                    forced = self._answer("defender", turn, status, model, solver)
                    if turn <= self.horizon:
                        return forced
                    survived = turn - 1
                elif status in FOUND and turn is None:
                    survived = size
                else:
                    return self._answer(None, None, status)
            if self.horizon >= self.last:
                return self._answer(None, None, "INFEASIBLE")
            self.horizon = min(self.last, self.horizon + STEP_ROUNDS * g.players)
            if forced is not None and forced.turn is not None:
                self.horizon = max(self.horizon, forced.turn)

    def _solve(self, size: int, mode: str) -> tuple[_Model | None, cp_model.CpSolver, str]:
        """One CP-SAT solve; its status by name (UNKNOWN, unsolved, once time is up).
        Building a model is not bounded by CP-SAT's time limit and a bigger horizon takes
        longer to build than the last one did: with less time left than that, the answer
        is UNKNOWN at once rather than a build that runs past the budget."""
        solver = cp_model.CpSolver()
        left = self._seconds_left()
        if left is not None and left <= self.build_seconds:
            return None, solver, "UNKNOWN"
        building = time.perf_counter()
        model = _Model(self.game, size, mode)
        self.build_seconds = time.perf_counter() - building
        left = self._seconds_left()
        if left is not None and left <= 0:
            return model, solver, "UNKNOWN"
        if left is not None:
            solver.parameters.max_time_in_seconds = left
        solver.parameters.num_workers = self.workers
        status = solver.status_name(solver.solve(model.model))
        self.solves += 1
        self.branches += solver.num_branches
        self.variables = max(self.variables, len(model.model.proto.variables))
        return model, solver, status

    def _seconds_left(self) -> float | None:
        if self.budget.stop is not None and self.budget.stop():
            return 0.0
        if self.budget.seconds is None:
            return None
        return self.budget.seconds - (time.perf_counter() - self.started)

    def _stats(self) -> SearchStats:
        return SearchStats(self.branches, time.perf_counter() - self.started, self.variables)

    def _answer(self, winner: str | None, turn: int | None, status: str,
                model: _Model | None = None, solver: cp_model.CpSolver | None = None
                ) -> ClearPlan:
        """The verdict; proven when the deciding solve is OPTIMAL (for the attackers the
        smaller horizons were INFEASIBLE, for the defender the attack model at a horizon
        at least its win turn was)."""
        plan, picks = (model.extract(solver, turn)
                       if model is not None and solver is not None and turn is not None
                       else ((), ()))
        rounds = None if turn is None else -(-turn // self.game.players)
        return ClearPlan(winner, turn, rounds, status, winner is not None and status == "OPTIMAL",
                         plan, picks, self.horizon, self.solves, self._stats())


# ------------------------------------------------------------------ static facts


@dataclass(frozen=True)
class _Wave:
    """The outcome of one wave W against the surviving defenders S on one battlefield."""

    units: frozenset[str]          # W
    before: frozenset[str]         # S
    after: frozenset[str]          # the defenders left
    dead: frozenset[str]           # of W
    stay: frozenset[str]           # of W: conquered, they stay on the battlefield


class _Game:
    """What the model needs to know, computed once per position."""

    def __init__(self, position: Position) -> None:
        _check(position)
        p = self.position = position
        self.t0 = p.turn
        self.players = len(p.turn_order)
        self.attackers = p.attackers
        self.win_target = p.win_target
        # attacker units: (unit, the turn from which it may move)
        self.units: dict[str, list[tuple[Unit, int]]] = {a: [] for a in self.attackers}
        for u in p.units:
            if u.owner != DEFENDER:
                self.units[u.owner].append((u, self.t0))
        for a in self.attackers:
            for turn in sorted({r.turn for r in p.reinforcements_of(a)}):
                if turn < self.t0 or self.player(turn) != a:
                    continue            # turns.begin_turn never delivers these
                arriving = [r for r in p.reinforcements_of(a) if r.turn == turn]
                for k, r in enumerate(arriving, 1):
                    unit = Unit(f"{a}-t{turn}-{k}", a, r.might, BASE, False, r.assault,
                                r.shield, r.tank, r.ganking)
                    self.units[a].append((unit, turn + 1))
        self.unit_ids = [u.id for a in self.attackers for u, _ in self.units[a]]
        self.owner = {u.id: a for a in self.attackers for u, _ in self.units[a]}
        self.unit = {u.id: u for a in self.attackers for u, _ in self.units[a]}
        _check_sizes(self.units)
        # battlefields still standing, by row
        first = p.active_row
        assert first is not None
        self.rows = [[b for b in p.grid[k] if b not in p.removed]
                     for k in range(first, len(p.grid))]
        self.fields = [b for row in self.rows for b in row]
        self.row_of = {b: k for k, row in enumerate(self.rows) for b in row}
        self.pre_removed = [sum(b in p.removed for b in p.grid[k])
                            for k in range(first, len(p.grid))]
        # the defender's units on battlefields, and the subsets of them that can survive
        self.defenders = {b: tuple(p.units_at(b, DEFENDER)) for b in self.fields
                          if p.units_at(b, DEFENDER)}
        self.subsets: dict[str, list[frozenset[str]]] = {}
        self.waves: dict[tuple[str, str], list[_Wave]] = {}
        for b in self.defenders:
            self._tabulate(b)
        rows = sum(len(waves) for waves in self.waves.values())
        if rows > MAX_TABLE_ROWS:
            raise InvalidInput(f"the combat tables have {rows} rows per round, more than the "
                               f"{MAX_TABLE_ROWS} the CP-SAT clear model takes (fewer units "
                               "per attacker or per defended battlefield)")

    def player(self, turn: int) -> str:
        return self.position.turn_order[(turn - 1) % self.players]

    def _tabulate(self, b: str) -> None:
        by_id = {v.id: v for v in self.defenders[b]}
        full = frozenset(by_id)
        seen, todo = {full}, [full]
        waves: dict[str, list[_Wave]] = {a: [] for a in self.attackers}
        while todo:
            alive = todo.pop()
            if not alive:
                continue            # an empty battlefield: the waves below, all conquer
            for a in self.attackers:
                team = sorted(self.units[a], key=lambda pair: pair[0].id)
                for size in range(1, len(team) + 1):
                    for chosen in combinations(team, size):
                        wave = [u for u, _ in chosen]
                        fight = resolve(wave, [by_id[v] for v in sorted(alive)])
                        after = frozenset(v.id for v in fight.defenders_left)
                        left = frozenset(u.id for u in fight.attackers_left)
                        if after == alive:
                            continue        # pointless: kills nobody, conquers nothing
                        waves[a].append(_Wave(
                            frozenset(u.id for u in wave), alive, after,
                            frozenset(u.id for u in wave) - left,
                            left if not after else frozenset()))
                        if after not in seen:
                            seen.add(after)
                            todo.append(after)
        self.subsets[b] = sorted(seen | {frozenset()}, key=lambda s: (-len(s), sorted(s)))
        for a in self.attackers:
            self.waves[a, b] = waves[a] + [
                _Wave(frozenset(u.id for u, _ in chosen), frozenset(), frozenset(),
                      frozenset(), frozenset(u.id for u, _ in chosen))
                for size in range(1, len(self.units[a]) + 1)
                for chosen in combinations(self.units[a], size)]

    def lower_bound(self) -> int:
        """No attacker win comes before this turn: each row still standing needs a hold,
        which needs a conquest in the same attacker's turn before, after the row is
        revealed (a defender burn-out can remove without a hold: then t0)."""
        p = self.position
        if any(t >= self.t0 for t in dict(p.burnouts).get(DEFENDER, ())):
            return self.t0
        ready = self.t0
        for k in range(len(self.rows)):
            conquer = next(t for t in range(ready, ready + self.players)
                           if self.player(t) != DEFENDER)
            clear = conquer + self.players
            if k == 0:
                holders = {q for b, q in p.control if b in self.rows[0] and q != DEFENDER}
                for t in range(self.t0, self.t0 + self.players):
                    if self.player(t) in holders:
                        clear = min(clear, t)
            ready = clear
        return ready

    def idle_end(self, last: int) -> int | None:
        """The turn the game ends if the attackers never move (burn-outs picked as the
        simulator does), or None if it runs past `last`. Until the turn before, that line
        keeps the defender below its target, so no survive model is needed before it."""
        p = self.position
        while p.turn <= last:
            p = play_turn(p, {})
            if p.winner is not None:
                return p.turn
        return None


def _check(position: Position) -> None:
    problems = []
    if position.winner is not None:
        problems.append(f"the game is over: the {position.winner} won")
    if position.active_row is None:
        problems.append("every battlefield is already removed")
    if position.defender_score >= position.win_target:
        problems.append(f"the defender's score {position.defender_score} already reaches its "
                        f"target {position.win_target}")
    if problems:
        raise InvalidInput(problems)


def _check_sizes(units: dict[str, list[tuple[Unit, int]]]) -> None:
    problems = [f"{a} has {len(team)} units (reinforcements included); the CP-SAT clear "
                f"model takes at most {MAX_UNITS_PER_ATTACKER} per attacker (its combat "
                "table has a row per subset of them)"
                for a, team in units.items() if len(team) > MAX_UNITS_PER_ATTACKER]
    if problems:
        raise InvalidInput(problems)


# ------------------------------------------------------------------ the model


class _Model:
    """The time-expanded model for turns t0 .. horizon; mode "attack" (clear by the
    horizon, fastest first) or "survive" (keep the defender below target longest)."""

    def __init__(self, game: _Game, horizon: int, mode: str) -> None:
        self.game, self.horizon, self.mode = game, horizon, mode
        g, m = game, cp_model.CpModel()
        self.model = m
        t0, turns = g.t0, range(g.t0, horizon + 1)
        self.turns = turns
        p = g.position
        self.true = m.new_constant(1)
        self.false = m.new_constant(0)
        # ---- state at the start of t0
        self.rem: dict[tuple[str, int], cp_model.IntVar] = {
            (b, t0): self.false for b in g.fields}
        self.loc: dict[tuple[str, int, str], cp_model.IntVar] = {}
        for uid in g.unit_ids:
            where = g.unit[uid].loc
            for place in [BASE, DEAD, *g.fields]:
                self.loc[uid, t0, place] = self.true if place == where else self.false
        self.dst: dict[tuple[str, int, frozenset[str]], cp_model.IntVar] = {}
        for b in g.defenders:
            full = g.subsets[b][0]
            for s in g.subsets[b]:
                self.dst[b, t0, s] = self.true if s == full else self.false
        self.cleared: dict[tuple[int, int], cp_model.IntVar] = {}   # (row, t): after begin
        self.moves: dict[tuple[str, int, str], cp_model.IntVar] = {}
        self.picks: dict[tuple[str, int], cp_model.IntVar] = {}
        self.occ_cache: dict[tuple[str, int, str], cp_model.IntVar] = {}
        score = p.defender_score
        score_hold: dict[int, cp_model.LinearExprT] = {}
        score_end: dict[int, cp_model.LinearExprT] = {}
        defender_turns = p.defender_turns_taken
        for t in turns:
            player = g.player(t)
            direct = self._begin(t, player)
            # scoring
            if player == DEFENDER:
                if defender_turns >= 1:
                    score = score + sum(self._defender_holds(b, t) for b in g.fields)
                score_hold[t] = score_end[t] = score
                defender_turns += 1
            else:
                score_hold[t] = score
                if p.burns_out(player, t):
                    score = score + 1
                score_end[t] = score
            self._removals(t, direct)
            if t < horizon:
                self._act(t, player)
        last_row = len(g.rows) - 1
        won = {t: self.cleared[last_row, t] for t in turns}
        self.won = won
        if mode == "attack":
            m.add(won[horizon] == 1)
            for t in turns:
                if g.player(t) == DEFENDER:
                    before = won[t - 1] if t > t0 else self.false
                    m.add(score_hold[t] <= g.win_target - 1).only_enforce_if(~before)
                else:
                    m.add(score_end[t] <= g.win_target - 1).only_enforce_if(~won[t])
            m.minimize(sum(1 - won[t] for t in turns))
        else:
            self.alive = {t: m.new_bool_var(f"alive {t}") for t in turns}
            for t in turns:
                m.add(score_end[t] <= g.win_target - 1).only_enforce_if(self.alive[t])
                if t > t0:
                    m.add_implication(self.alive[t], self.alive[t - 1])
            m.maximize(sum(self.alive.values()))

    # ---- helpers

    def _and(self, name: str, *literals: cp_model.IntVar) -> cp_model.IntVar:
        var = self.model.new_bool_var(name)
        self.model.add_bool_and(literals).only_enforce_if(var)
        self.model.add_bool_or([~x for x in literals]).only_enforce_if(~var)
        return var

    def _occupied(self, b: str, t: int, player: str) -> cp_model.IntVar:
        """Some unit of `player` stands on b at the start of turn t."""
        key = (b, t, player)
        if key not in self.occ_cache:
            here = [self.loc[uid, t, b] for uid, _ in
                    ((u.id, s) for u, s in self.game.units[player])]
            var = self.model.new_bool_var(f"occ {b} {t} {player}")
            self.model.add_max_equality(var, here or [self.false])
            self.occ_cache[key] = var
        return self.occ_cache[key]

    def _defender_holds(self, b: str, t: int) -> cp_model.LinearExprT:
        g = self.game
        if t == g.t0:
            return int(g.position.controller.get(b) == DEFENDER)
        if b not in g.defenders:
            return 0
        empty = self.dst[b, t, frozenset()]
        return self._and(f"dhold {b} {t}", ~self.rem[b, t], ~empty)

    def _row_open(self, k: int, t: int, after_begin: bool) -> cp_model.IntVar:
        """Every row before k is cleared (after turn t's begin step, or at its start)."""
        if k == 0:
            return self.true
        if after_begin:
            return self.cleared[k - 1, t]
        return self.cleared[k - 1, t - 1] if t > self.game.t0 else self.false

    # ---- turn steps

    def _begin(self, t: int, player: str) -> dict[str, cp_model.IntVar]:
        """Which battlefields turn t's hold or burn-out step removes directly."""
        g, m = self.game, self.model
        direct: dict[str, cp_model.IntVar] = {}
        if player != DEFENDER:
            for b in g.fields:
                if t == g.t0:
                    held = g.position.controller.get(b) == player
                    direct[b] = self.true if held else self.false
                else:
                    direct[b] = self._occupied(b, t, player)
        elif g.position.burns_out(DEFENDER, t):
            for b in g.fields:
                pick = m.new_bool_var(f"pick {b} {t}")
                m.add_implication(pick, ~self.rem[b, t])
                opened = self._row_open(g.row_of[b], t, after_begin=False)
                m.add_implication(pick, opened)
                self.picks[b, t] = pick
                direct[b] = pick
            last_row = len(g.rows) - 1
            done = self.cleared[last_row, t - 1] if t > g.t0 else self.false
            m.add(sum(self.picks[b, t] for b in g.fields) == 1 - done)
        return direct

    def _removals(self, t: int, direct: dict[str, cp_model.IntVar]) -> None:
        g, m = self.game, self.model
        for k, row in enumerate(g.rows):
            hits = []
            for b in row:
                if b in direct:
                    hit = m.new_bool_var(f"hit {b} {t}")
                    m.add_max_equality(hit, [self.rem[b, t], direct[b]])
                else:
                    hit = self.rem[b, t]
                hits.append(hit)
            clr = m.new_bool_var(f"cleared {k} {t}")
            count = sum(hits) + g.pre_removed[k]
            m.add(count >= 2).only_enforce_if(clr)
            m.add(count <= 1).only_enforce_if(~clr)
            self.cleared[k, t] = clr
            for b, hit in zip(row, hits, strict=True):
                gone = m.new_bool_var(f"rem {b} {t + 1}")
                m.add_max_equality(gone, [hit, clr])
                self.rem[b, t + 1] = gone

    def _act(self, t: int, player: str) -> None:
        g, m = self.game, self.model
        nxt = t + 1
        moved_here: dict[str, list[str]] = {}      # unit -> battlefields it may enter
        if player != DEFENDER:
            open_after = {b: self._and(f"open {b} {t}", ~self.rem[b, nxt],
                                       self._row_open(g.row_of[b], t, after_begin=True))
                          for b in g.fields}
            others = [q for q in g.attackers if q != player]
            for u, since in g.units[player]:
                if t < since:
                    continue
                targets = list(g.fields)
                moved_here[u.id] = targets
                for b in targets:
                    mv = m.new_bool_var(f"mv {u.id} {t} {b}")
                    self.moves[u.id, t, b] = mv
                    m.add_implication(mv, open_after[b])
                    for q in others:
                        m.add_implication(mv, ~self._occupied(b, t, q))
                m.add(sum(self.moves[u.id, t, b] for b in targets)
                      <= self.loc[u.id, t, BASE])
        # fights on the defended battlefields
        stays: dict[tuple[str, str], list[cp_model.IntVar]] = {}
        deaths: dict[str, list[cp_model.IntVar]] = {}
        for b in g.defenders:
            if player == DEFENDER or not moved_here:
                for s in g.subsets[b]:
                    self.dst[b, nxt, s] = self.dst[b, t, s]
                continue
            movers = {uid for uid, targets in moved_here.items() if b in targets}
            chosen_by_s: dict[frozenset[str], list[cp_model.IntVar]] = {
                s: [] for s in g.subsets[b]}
            after_by_s: dict[frozenset[str], list[cp_model.IntVar]] = {
                s: [] for s in g.subsets[b]}
            carried: dict[str, list[cp_model.IntVar]] = {uid: [] for uid in sorted(movers)}
            for s in g.subsets[b]:     # no wave: nothing changes
                z = m.new_bool_var(f"z {b} {t} none")
                chosen_by_s[s].append(z)
                after_by_s[s].append(z)
            for wave in g.waves[player, b]:
                if not wave.units <= movers:
                    continue
                z = m.new_bool_var(f"z {b} {t} {sorted(wave.units)} {sorted(wave.before)}")
                chosen_by_s[wave.before].append(z)
                after_by_s[wave.after].append(z)
                for uid in sorted(wave.units):
                    carried[uid].append(z)
                for uid in sorted(wave.stay):
                    stays.setdefault((uid, b), []).append(z)
                for uid in sorted(wave.dead):
                    deaths.setdefault(uid, []).append(z)
            for s in g.subsets[b]:
                m.add(sum(chosen_by_s[s]) == self.dst[b, t, s])
                new = m.new_bool_var(f"dst {b} {nxt} {sorted(s)}")
                m.add(new == sum(after_by_s[s]))
                self.dst[b, nxt, s] = new
            for uid in sorted(movers):
                m.add(self.moves[uid, t, b] == sum(carried[uid]))
        # where every attacker unit is at the start of the next turn
        for uid in g.unit_ids:
            if g.owner[uid] == player and uid in moved_here:
                for b in g.fields:
                    if b in g.defenders:
                        there = stays.get((uid, b), [])
                    else:
                        there = [self.moves[uid, t, b]]
                    self.loc[uid, nxt, b] = self._sum_var(f"loc {uid} {nxt} {b}", there)
                self.loc[uid, nxt, DEAD] = self._sum_var(
                    f"dead {uid} {nxt}", [self.loc[uid, t, DEAD], *deaths.get(uid, [])])
            elif g.owner[uid] == player:
                for b in g.fields:
                    self.loc[uid, nxt, b] = self.false
                self.loc[uid, nxt, DEAD] = self.loc[uid, t, DEAD]
            else:
                for b in g.fields:
                    self.loc[uid, nxt, b] = self._and(f"loc {uid} {nxt} {b}",
                                                      self.loc[uid, t, b], ~self.rem[b, nxt])
                self.loc[uid, nxt, DEAD] = self.loc[uid, t, DEAD]
            base = m.new_bool_var(f"base {uid} {nxt}")
            m.add(base + self.loc[uid, nxt, DEAD]
                  + sum(self.loc[uid, nxt, b] for b in g.fields) == 1)
            self.loc[uid, nxt, BASE] = base

    def _sum_var(self, name: str, terms: list[cp_model.IntVar]) -> cp_model.IntVar:
        if not terms:
            return self.false
        if len(terms) == 1:
            return terms[0]
        var = self.model.new_bool_var(name)
        self.model.add(var == sum(terms))
        return var

    # ---- reading a solution

    def win_turn(self, solver: cp_model.CpSolver) -> int:
        return next(t for t in self.turns if solver.boolean_value(self.won[t]))

    def defender_win_turn(self, solver: cp_model.CpSolver) -> int | None:
        alive = sum(solver.boolean_value(a) for a in self.alive.values())
        return None if alive == len(self.turns) else self.game.t0 + alive

    def extract(self, solver: cp_model.CpSolver, last: int
                ) -> tuple[tuple[Step, ...], tuple[tuple[int, str], ...]]:
        g = self.game
        steps = []
        for t in range(g.t0, last):
            player = g.player(t)
            if player == DEFENDER:
                continue
            moves = {uid: b for (uid, turn, b), var in self.moves.items()
                     if turn == t and solver.boolean_value(var)}
            steps.append(Step(t, player, dict(sorted(moves.items()))))
        picks = tuple(sorted((t, b) for (b, t), var in self.picks.items()
                             if t <= last and solver.boolean_value(var)))
        return tuple(steps), picks
