"""How far a bound of the kind `heuristic.py` computes could go: every card not home
moves once, and some cards provably once more. The most such a bound can say is the
fewest cards that must make a move other than home, given only the foundations' order
and that a covered card cannot move; here that number is found exactly by CP-SAT, on the
deals' starts, beside the kernel's bound and the optimal length (where A* proves it).

The model: each card not home gets a time at which it goes home; a card of a suit goes
after its lower suit-mates; a card that goes home straight from where it lies (`direct`)
goes before every card beneath it. Minimising the cards not `direct` gives the extra
moves. `python -m bench.bound_ceiling --variant beleaguered-castle --deals 1-30`"""

from __future__ import annotations

import argparse
import statistics

from ortools.sat.python import cp_model

from service.beleaguered.commands import deal_range
from solver.beleaguered import Mode, Position, _kernel, deal, native, solve
from solver.beleaguered.variant import find_variant
from solver.budget import Budget


def fewest_extra_moves(position: Position) -> int:
    """The fewest cards of the tableau that must move other than home, by the model."""
    model = cp_model.CpModel()
    piles = [[card.index for card in pile] for pile in position.tableau]
    cards = [card for pile in piles for card in pile]
    home_at = {card: model.new_int_var(0, 52, f"t{card}") for card in cards}
    direct = {card: model.new_bool_var(f"d{card}") for card in cards}
    for card in cards:
        for lower in cards:
            if lower & 3 == card & 3 and lower < card:
                model.add(home_at[lower] < home_at[card])
    for pile in piles:
        for at, card in enumerate(pile):
            for beneath in pile[:at]:
                model.add(home_at[card] < home_at[beneath]).only_enforce_if(direct[card])
    model.minimize(sum(1 - direct[card] for card in cards))
    solver = cp_model.CpSolver()
    solver.parameters.num_workers = 1
    solver.parameters.max_time_in_seconds = 60
    status = solver.status_name(solver.solve(model))
    if status != "OPTIMAL":
        raise RuntimeError(f"CP-SAT did not prove its minimum ({status})")
    return round(solver.objective_value)


def kernel_bound(position: Position) -> int:
    """The optimal search's bound on the position as it lies (no moves home played)."""
    reserve = sum(1 << card.index for card in position.reserve if card is not None)
    cells = sum(1 << card.index for card in position.cells if card is not None)
    return _kernel.bound([[card.index for card in pile] for pile in position.tableau],
                         reserve, list(position.foundations), True, cells,
                         native.rules_of(position.variant))


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__,
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--variant", default="beleaguered-castle")
    parser.add_argument("--deals", type=deal_range, default="1-30", metavar="A-B")
    parser.add_argument("--seconds", type=float, default=3.0,
                        help="A*'s budget for the optimal length")
    args = parser.parse_args()
    variant = find_variant(args.variant)
    rows = []
    print("deal  kernel's bound  exact one-extra-move bound  optimal")
    for number in args.deals:
        position = deal(number, variant)
        best = solve(position, Mode.OPTIMAL, budget=Budget(seconds=args.seconds))
        if not best.optimal or best.length is None:
            continue  # unwinnable, or not proven within the budget
        bound = kernel_bound(position)
        ceiling = position.cards_left() + fewest_extra_moves(position)
        rows.append((bound, ceiling, best.length))
        print(f"{number:4}  {bound:14}  {ceiling:26}  {best.length:7}")
    if rows:
        gain = statistics.median(c - b for b, c, _ in rows)
        gap = statistics.median(o - b for b, _, o in rows)
        print(f"{len(rows)} deals proven: median gain of the exact bound over the kernel's "
              f"{gain:g} moves, median gap from the kernel's bound to the optimal {gap:g}")


if __name__ == "__main__":
    main()
