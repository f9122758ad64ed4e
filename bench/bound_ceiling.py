"""How far a bound of the kind `heuristic.py` computes could go: every card not home
moves once, and some cards provably once more. The most such a bound can say is the
fewest cards that must make a move other than home, given only the foundations' order
and that a covered card cannot move; here that number is found exactly by CP-SAT, on the
deals' starts, beside the kernel's bound and the optimal length (the census's proven
one, else where A* proves it), and beside the deadlock-cycle bound
(solver/beleaguered/deadlock.py: a minimum hitting set of the cycles of waits of up to
`--cycles` cards), which is of that kind and shows how near it comes. With sequence moves
the kernel's and the deadlock bound count runs (the `moves` metric); the exact column
still counts single cards.

The model: each card not home gets a time at which it goes home; a card of a suit goes
after its lower suit-mates; a card that goes home straight from where it lies (`direct`)
goes before every card beneath it. Minimising the cards not `direct` gives the extra
moves. `python -m bench.bound_ceiling --variant beleaguered-castle --deals 1-30`"""

from __future__ import annotations

import argparse
import statistics

from ortools.sat.python import cp_model

from service.beleaguered.commands import deal_range
from solver.beleaguered import Mode, Position, _kernel, deadlock, deal, native, solve
from solver.beleaguered.census import deal_info
from solver.beleaguered.problem import takes_of
from solver.beleaguered.variant import SequenceMoves, find_variant
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


def _sequences(position: Position) -> bool:
    """Whether built runs move as one move (the `moves` metric, where the variant has them)."""
    return position.variant.sequence_moves is not SequenceMoves.NONE


def kernel_bound(position: Position) -> int:
    """The optimal search's bound on the position as it lies (no moves home played)."""
    reserve = sum(1 << card.index for card in position.reserve if card is not None)
    cells = sum(1 << card.index for card in position.cells if card is not None)
    return _kernel.bound([[card.index for card in pile] for pile in position.tableau],
                         reserve, list(position.foundations), True, cells,
                         native.rules_of(position.variant, _sequences(position)))


def deadlock_bound(position: Position, length: int) -> int:
    """The deadlock-cycle bound on the position as it lies, in the `moves` metric."""
    piles = tuple(tuple(card.index for card in pile) for pile in position.tableau)
    takes = takes_of(position.variant) if _sequences(position) else None
    return position.cards_left() + deadlock.extra_moves(piles, length, takes)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__,
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--variant", default="beleaguered-castle")
    parser.add_argument("--deals", type=deal_range, default="1-30", metavar="A-B")
    parser.add_argument("--seconds", type=float, default=3.0,
                        help="A*'s budget for the optimal length")
    parser.add_argument("--cycles", type=int, default=3, metavar="CARDS",
                        help="the longest cycle of waits the deadlock bound counts")
    args = parser.parse_args()
    variant = find_variant(args.variant)
    rows = []
    print("deal  kernel's bound  deadlock bound  exact one-extra-move bound (single cards)  "
          "optimal")
    for number in args.deals:
        position = deal(number, variant)
        known = deal_info(number, variant)
        if known is not None and known.optimal and known.length is not None:
            length = known.length
        else:
            best = solve(position, Mode.OPTIMAL, budget=Budget(seconds=args.seconds))
            if not best.optimal or best.length is None:
                continue  # unwinnable, or not proven within the budget
            length = best.length
        bound = kernel_bound(position)
        cycles = deadlock_bound(position, args.cycles)
        ceiling = position.cards_left() + fewest_extra_moves(position)
        rows.append((bound, cycles, ceiling, length))
        print(f"{number:4}  {bound:14}  {cycles:14}  {ceiling:41}  {length:7}")
    if rows:
        def median(column: int) -> float:
            return statistics.median(row[column] - row[0] for row in rows)
        print(f"{len(rows)} deals proven: median gain over the kernel's bound of the deadlock "
              f"bound {median(1):g} and of the exact bound {median(2):g} moves; median gap "
              f"from the kernel's bound to the optimal {median(3):g}, from the deadlock "
              f"bound {statistics.median(row[3] - row[1] for row in rows):g}")

if __name__ == "__main__":
    main()
