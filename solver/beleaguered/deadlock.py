"""The deadlock-cycle bound (after Paul and Helmert, SoCS 2016): the extra moves that the
cycles of the piles' waits force, counted exactly by a minimum hitting set.

A card that moves only once goes home straight from where it lies, so before every card
beneath it, and a suit goes home in order. So X *waits for* Y when a card of Y's suit no
higher than Y lies beneath X: if X moves once, it is home before Y. Around a cycle of
waits, the cards cannot all move once; one of them moves twice. The blocked cards (above
a lower suit-mate: a cycle of their own) move twice already; the other cards' cycles of
up to `length` cards need a hitting set, each card of it one more move. With sequence
moves one move carries a built run, so the cycles are hit by runs (as the pile lies), and
the runs that hold a blocked card, counted already, hit every cycle through them; this is
heuristic.py's bound with its matching of waiting pairs (cycles of two) made a minimum
hitting set of longer cycles. Proven in docs/castle-family.md 4.6.1.
"""

from __future__ import annotations

import networkx as nx
from ortools.sat.python import cp_model

Pile = tuple[int, ...]
_NONE = 99  # "no card of this suit below"


def extra_moves(piles: tuple[Pile, ...], length: int,
                takes: tuple[frozenset[int], ...] | None = None) -> int:
    """Moves beyond one per card not home: the blocked cards (with `takes`, per card the
    cards that build on it: the built runs holding one), plus a minimum hitting set of the
    other cards' cycles of waits of up to `length` cards (with `takes`: by runs)."""
    graph: nx.DiGraph = nx.DiGraph()
    group: dict[int, tuple[int, int]] = {}  # card -> what one move off its pile carries
    paid = 0
    for at, pile in enumerate(piles):
        lowest = [_NONE] * 4
        runs: list[list[tuple[int, tuple[int, ...]]]] = []
        blocked: list[bool] = []
        for index, card in enumerate(pile):
            if takes is None or not index or card not in takes[pile[index - 1]]:
                runs.append([])  # with single-card moves every card is its own run
                blocked.append(False)
            if lowest[card & 3] < card:
                blocked[-1] = True
            else:
                runs[-1].append((card, tuple(lowest)))
                lowest[card & 3] = card
        paid += sum(blocked)
        for number, run in enumerate(runs):
            if not blocked[number]:
                for card, beneath in run:
                    group[card] = (at, number)
                    graph.add_node(card, beneath=beneath)
    for x, below_x in graph.nodes(data="beneath"):
        for y in graph.nodes:
            if x != y and below_x[y & 3] <= y:
                graph.add_edge(x, y)
    cycles = {frozenset(group[card] for card in cycle)
              for cycle in nx.simple_cycles(graph, length_bound=length)}
    return paid + _hitting_set_size(cycles)


def _hitting_set_size(cycles: set[frozenset[tuple[int, int]]]) -> int:
    """The fewest runs that meet every cycle, proven by CP-SAT (a few dozen variables)."""
    if not cycles:
        return 0
    model = cp_model.CpModel()
    chosen = {run: model.new_bool_var(str(run)) for cycle in cycles for run in cycle}
    for cycle in cycles:
        model.add_bool_or([chosen[run] for run in cycle])
    model.minimize(sum(chosen.values()))
    solver = cp_model.CpSolver()
    solver.parameters.num_workers = 1
    if solver.status_name(solver.solve(model)) != "OPTIMAL":
        raise RuntimeError("CP-SAT did not prove the hitting set minimal")
    return round(solver.objective_value)
