"""Go out in one chain: can the player to move in a two-player Farbduell position empty
the hand before the opponent gets a turn, and if not, what is the longest chain?

With two players a Skip or a Reverse keeps the turn, every other card passes it, and the
last card of the hand has no effect. So a chain is some turn keepers, each playable on
the one before, then one final card of any kind. Finding the longest one is a longest
path through optional nodes, modelled as a CP-SAT circuit: node 0 is the depot (the
current top), the other nodes are the hand's cards (identical copies are separate nodes);
the circuit runs depot -> first card -> ... -> final card -> depot, and a card left out
takes its self-loop.

A burning Bomb fuse can strike the mover during the chain (a two-player Skip or Reverse
is a handover to oneself, and it counts): the BOOM adds cards to the hand, so a chain is
cut off at the card whose handover would set it off. A waiting penalty stack allows one
card, its answer, which passes the turn.
"""

from __future__ import annotations

from dataclasses import dataclass, replace
from typing import TYPE_CHECKING, Any, Self

from solver.budget import DEFAULT_BUDGET, Budget, SearchStats, Status
from solver.errors import InvalidInput
from solver.farbduell.actions import Play
from solver.farbduell.data import Card
from solver.farbduell.position import Position
from solver.farbduell.rules import playable

if TYPE_CHECKING:
    from ortools.sat.python import cp_model

    from solver.cpsat import Solved

KEEPERS = ("skip", "reverse")     # two-player: play again
OBJECTIVES = ("cards", "points")


@dataclass(frozen=True)
class Chain:
    status: Status                # solved (a chain found) / unknown (none found in time)
    goes_out: bool                # the chain empties the hand
    plays: tuple[Play, ...]       # in order; a wild names the table's first colour
    cards: int
    points: int                   # what the chain sheds, by table.points
    optimal: bool                 # CP-SAT proved no better chain exists
    stats: SearchStats            # nodes = CP-SAT branches; no table is kept

    @classmethod
    def unknown(cls, seconds: float) -> Self:
        return cls(Status.UNKNOWN, False, (), 0, 0, False, SearchStats(0, seconds, 0))

    def to_json(self) -> dict[str, Any]:
        return {"status": self.status.value, "goes_out": self.goes_out,
                "plays": [str(play) for play in self.plays], "cards": self.cards,
                "points": self.points, "optimal": self.optimal,
                "seconds": round(self.stats.seconds, 6)}


def best_chain(state: Position, objective: str = "cards",
               budget: Budget = DEFAULT_BUDGET) -> Chain:
    """The chain that goes out, or else the one with the most cards or points.

    Ties are broken by the other measure, so going out always wins (it is the longest
    chain and sheds everything, even when the hand holds a 0). Only the budget's
    seconds and its `stop` apply: CP-SAT counts no nodes (solver/cpsat.py).
    """
    from ortools.sat.python import cp_model  # heavy: loaded when a chain is asked for

    from solver.cpsat import CpSat

    _check(state, objective)
    sat = CpSat(budget, workers=1)   # its clock starts now: building the model counts
    hand = state.hands[state.to_move]
    table = state.table
    model = cp_model.CpModel()
    used = [model.new_bool_var(f"used {k}") for k in range(len(hand))]
    arcs = _arcs(state, model, used)
    model.add_circuit(arcs)
    model.add(sum(used) <= _longest_allowed(state))
    for k in range(1, len(hand)):      # identical cards: use the copies in order
        if hand[k] == hand[k - 1]:
            model.add_implication(used[k], used[k - 1])
    cards = sum(used)
    points = sum(table.points(card) * use for card, use in zip(hand, used, strict=True))
    total = sum(table.points(card) for card in hand)
    model.maximize(cards * (total + 1) + points if objective == "cards"
                   else points * (len(hand) + 1) + cards)

    solved = sat.solve(model)
    stats = SearchStats(sat.branches, sat.elapsed(), 0)
    if not solved.found:
        if solved.status != "UNKNOWN":   # the empty chain is always a solution
            raise RuntimeError(f"chain model is {solved.status}")
        return Chain(Status.UNKNOWN, False, (), 0, 0, False, stats)

    order = _order(solved, arcs)
    plays = tuple(Play(hand[k], table.config.colours[0] if hand[k].wild else None)
                  for k in order)
    return Chain(Status.SOLVED, len(order) == len(hand), plays, len(order),
                 sum(table.points(hand[k]) for k in order), solved.optimal, stats)


def objective_problem(objective: str) -> str | None:
    """What is wrong with an objective's name, if anything."""
    if objective not in OBJECTIVES:
        return f"objective must be one of {', '.join(OBJECTIVES)}, not {objective!r}"
    return None


def _check(state: Position, objective: str) -> None:
    problems = []
    if (problem := objective_problem(objective)) is not None:
        problems.append(problem)
    if state.table.double_faced:
        problems.append("go-out chains are for the one-faced tables (classic, belagerung): "
                        "on Tag & Nacht a Tischwende or a clock turns the cards over mid-chain")
    if state.players != 2:
        problems.append(f"a chain needs a two-player position, not {state.players} players")
    if state.winner is not None:
        problems.append(f"the game is over: player {state.winner} won")
    elif not state.hands[state.to_move]:
        problems.append(f"player {state.to_move} to move holds no cards")
    if problems:
        raise InvalidInput(problems)


def _arcs(state: Position, model: cp_model.CpModel,
          used: list[cp_model.IntVar]) -> list[tuple[int, int, cp_model.LiteralT]]:
    """Depot (node 0) -> each card playable now, keeper -> each card playable on it,
    any card -> depot (the chain ends), plus the self-loops of the optional nodes: a
    card's means it stays in the hand, the depot's means no card is played at all."""
    hand = state.hands[state.to_move]
    no_chain = model.new_bool_var("no chain")
    arcs: list[tuple[int, int, cp_model.LiteralT]] = [(0, 0, no_chain)]
    # Without this a cycle of keepers that skips the depot would also be a circuit.
    model.add(sum(used) == 0).only_enforce_if(no_chain)
    for k, card in enumerate(hand):
        node = k + 1
        arcs.append((node, node, ~used[k]))
        arcs.append((node, 0, model.new_bool_var(f"{k} ends")))
        if playable(state, card) and state.drawn in (None, card):
            arcs.append((0, node, model.new_bool_var(f"{k} starts")))
        if card.rank not in KEEPERS:
            continue
        after = _after(state, card)
        arcs.extend((node, j + 1, model.new_bool_var(f"{k} -> {j}"))
                    for j, other in enumerate(hand) if j != k and playable(after, other))
    return arcs


def _after(state: Position, keeper: Card) -> Position:
    """The position once a keeper is played, as far as what may follow it goes."""
    return replace(state, discard=(keeper,), colour=keeper.colour, pending=0,
                   pending_kind=None, drawn=None)


def _longest_allowed(state: Position) -> int:
    """A stack's answer passes the turn; a burning fuse strikes at the handover that
    takes its count to 0 (the first one is free while skip_next is set), and the chain
    must reach its final card before that."""
    if state.pending:
        return 1
    if state.fuse is not None:
        return state.fuse.count + state.fuse.skip_next
    return len(state.hands[state.to_move])


def _order(solved: Solved, arcs: list[tuple[int, int, cp_model.LiteralT]]) -> list[int]:
    """Hand indices along the chosen circuit, from the depot."""
    successor = {tail: head for tail, head, literal in arcs
                 if tail != head and solved.boolean_value(literal)}
    order, node = [], successor.get(0, 0)
    while node != 0:
        order.append(node - 1)
        node = successor[node]
    return order
