"""The clear question (docs/stronghold.md D.3, D.4) as a time-expanded CP-SAT model
for global turns t0 .. H against a PASSIVE defender, in one of two modes: *attack* (the
Stronghold row cleared by H with the defender below its target until then, the clear as
early as can be) or *survive* (no clear required, the defender kept below its target for
as many turns as can be). `clear_driver` asks it horizon after horizon.

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
  be alive there (`clear_facts`).
* `z[b,t,W,S]`: in attacker P's turn t, P's wave to the defended battlefield b is the
  unit set W and the defenders there are S; its outcome is a row of the facts' table (a
  recalled unit is ready again at its owner's next turn, like one that stayed).
* The defender's score: in its turns from its second on, +1 per battlefield where its
  units still stand (or, in the position's own turn, per battlefield it controls); +1 at
  an attacker's scheduled burn-out.

Burn-outs are supported: an attacker's adds its point after the hold step; at the
defender's the attackers choose the battlefield removed (a decision of the model,
docs/stronghold.md F.7, handed back as the plan's burn picks; search.fewest_turns takes
the simulator's default pick instead). Attackers' reinforcements enter exhausted at base
in their scheduled turn (as turns.begin_turn places them) and may move from their
owner's next turn; the defender's are ignored (PASSIVE: they would only wait in its base).
"""

from __future__ import annotations

from typing import Literal

from ortools.sat.python import cp_model

from solver.budget import BudgetExhausted
from solver.cpsat import Solved
from solver.stronghold.answers import Step
from solver.stronghold.clear_facts import Facts
from solver.stronghold.data import DEFENDER
from solver.stronghold.position import BASE

DEAD = "(dead)"          # a place no battlefield is called: names have no brackets
Mode = Literal["attack", "survive"]


class ClearModel:
    """The time-expanded model for turns t0 .. horizon; mode "attack" (clear by the
    horizon, fastest first) or "survive" (keep the defender below target longest).
    Building it raises BudgetExhausted once the budget of the facts' solves is spent."""

    def __init__(self, game: Facts, horizon: int, mode: Mode) -> None:
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
        score: cp_model.LinearExprT = p.defender_score
        score_hold: dict[int, cp_model.LinearExprT] = {}
        score_end: dict[int, cp_model.LinearExprT] = {}
        defender_turns = p.defender_turns_taken
        for t in turns:
            if g.cp.seconds_left() == 0:     # a long horizon takes a while to build
                raise BudgetExhausted
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

    def _and(self, name: str, *literals: cp_model.LiteralT) -> cp_model.IntVar:
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

    def win_turn(self, solved: Solved) -> int:
        return next(t for t in self.turns if solved.boolean_value(self.won[t]))

    def defender_win_turn(self, solved: Solved) -> int | None:
        alive = sum(solved.boolean_value(a) for a in self.alive.values())
        return None if alive == len(self.turns) else self.game.t0 + alive

    def extract(self, solved: Solved, last: int
                ) -> tuple[tuple[Step, ...], tuple[tuple[int, str], ...]]:
        g = self.game
        steps = []
        for t in range(g.t0, last):
            player = g.player(t)
            if player == DEFENDER:
                continue
            moves = {uid: b for (uid, turn, b), var in self.moves.items()
                     if turn == t and solved.boolean_value(var)}
            steps.append(Step(t, player, dict(sorted(moves.items()))))
        picks = tuple(sorted((t, b) for (b, t), var in self.picks.items()
                             if t <= last and solved.boolean_value(var)))
        return tuple(steps), picks
