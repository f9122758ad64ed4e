"""Time the Farbduell go-out chain: seeded two-player positions with 25-card hands rich
in Skips and Reverses (long chains) or drawn plainly from the deck, and 17-card hands of
every Skip and Reverse and one more card (the largest hands that can go out: a deck holds
16 turn keepers), on both tables, for both objectives. The target is a median under one
second for 25 cards.

    .venv/bin/python -m bench.bench_farbduell_chains [--positions 50] [--seconds 10]
"""

from __future__ import annotations

import argparse
import random
import statistics

from service.arguments import add_progress, progress_bar
from solver.budget import Budget
from solver.farbduell.chains import KEEPERS, best_chain
from solver.farbduell.data import NUMBERS, Table, load_tables
from solver.farbduell.position import Position

KINDS = {"keepers": 25, "plain": 25, "go-out": 17}   # kind of hand -> cards in it


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--positions", type=int, default=50, help="per kind of hand")
    parser.add_argument("--seconds", type=float, default=10.0, help="budget per chain")
    add_progress(parser)
    args = parser.parse_args()
    tables = {name: table for name, table in load_tables().items() if not table.double_faced}
    budget = Budget(seconds=args.seconds)
    print(f"{'hands':8} {'size':>4} {'objective':9} {'n':>3} {'median s':>9} {'p90 s':>7} "
          f"{'max s':>7} {'optimal':>7} {'go out':>6} {'cards':>5}")
    for kind, size in KINDS.items():
        rng = random.Random(kind)
        states = [position(tables[name], rng, kind) for name in sorted(tables)
                  for _ in range(args.positions // len(tables))]
        for objective in ("cards", "points"):
            chains = [best_chain(state, objective, budget) for state in progress_bar(
                states, total=len(states), desc=f"{kind} {objective}", unit="chain",
                forced=args.progress)]
            times = sorted(chain.stats.seconds for chain in chains)
            print(f"{kind:8} {size:>4} {objective:9} {len(chains):>3} "
                  f"{statistics.median(times):>9.4f} {times[int(0.9 * (len(times) - 1))]:>7.4f} "
                  f"{times[-1]:>7.4f} {sum(chain.optimal for chain in chains):>7} "
                  f"{sum(chain.goes_out for chain in chains):>6} "
                  f"{statistics.mean(chain.cards for chain in chains):>5.1f}")


def position(table: Table, rng: random.Random, kind: str) -> Position:
    """The hand of its kind with the rest at random; a number on top, seven cards for
    the opponent."""
    deck = list(table.deck)
    rng.shuffle(deck)
    all_keepers = [card for card in deck if card.rank in KEEPERS]
    keepers = {"keepers": all_keepers[:rng.randint(len(all_keepers) - 4, len(all_keepers))],
               "plain": [], "go-out": all_keepers}[kind]
    others = [card for card in deck if card.rank not in KEEPERS or kind == "plain"]
    size = KINDS[kind] - len(keepers)
    hand, rest = keepers + others[:size], others[size:]
    top = next(card for card in rest if card.rank in NUMBERS)
    rest.remove(top)
    hands = [[str(card) for card in hand], [str(card) for card in rest[:7]]]
    return Position.from_json({"table": table.name, "hands": hands, "discard": [str(top)]},
                              {table.name: table})


if __name__ == "__main__":
    main()
