"""Time the Stronghold fewest-turns question against a PASSIVE defender: the exhaustive
search (search.fewest_turns) and the CP-SAT clear model (clear_driver.fewest_turns_cpsat)
on the six cases of docs/stronghold.md E.3 and on 1v3 sieges with four units per attacker; each
time the median of several runs (a search that runs out of budget is not repeated).

    .venv/bin/python -m bench.bench_stronghold [--repeat 3] [--search-seconds 60]
        [--cpsat-seconds 60] [--workers 2]
"""

from __future__ import annotations

import argparse
import statistics
import time
from collections.abc import Callable
from typing import Any

from solver.budget import Budget
from solver.stronghold.clear_driver import fewest_turns_cpsat
from solver.stronghold.data import DEFENDER
from solver.stronghold.position import Position
from solver.stronghold.search import fewest_turns


def siege(mode: str, attackers: dict[str, list[int]],
          defenders: list[tuple[str, int]]) -> Position:
    """Turn order D, A1, A2(, A3); attacker units ready in base; defender units where
    stated."""
    units = [{"id": f"{owner.lower()}{k}", "owner": owner, "might": might}
             for owner, mights in attackers.items() for k, might in enumerate(mights)]
    units += [{"id": f"d{k}", "owner": DEFENDER, "might": might, "loc": where}
              for k, (where, might) in enumerate(defenders)]
    return Position.from_json({"mode": mode, "units": units})


THREE = ("A1", "A2", "A3")
RECRUITS = [("O1", 1), ("O2", 1)]
CASES: dict[str, tuple[Position, str]] = {     # name: (position, the answer of E.3)
    "E.3 case 1": (siege("1v3", {a: [2] for a in THREE}, RECRUITS), "attackers 20"),
    "E.3 case 2": (siege("1v3", {a: [2, 2] for a in THREE}, RECRUITS), "attackers 16"),
    "E.3 case 3": (siege("1v3", {a: [2] for a in THREE}, [("O1", 5), ("O2", 5), ("O3", 5)]),
                   "defender 9"),
    "E.3 case 4 (1v2)": (siege("1v2", {"A1": [3, 3], "A2": [3, 3]}, RECRUITS),
                         "attackers 14"),
    "E.3 case 5": (siege("1v3", {a: [4] for a in THREE}, [("O1", 3), ("O2", 3), ("O3", 3)]),
                   "attackers 20"),
    "E.3 case 6": (siege("1v3", {a: [2, 2] for a in THREE},
                         [("O1", 3), ("O2", 3), ("O3", 3)]), "attackers 19"),
    "1v3 4 units {2,2,1,1} vs 3,3,3": (
        siege("1v3", {a: [2, 2, 1, 1] for a in THREE}, [("O1", 3), ("O2", 3), ("O3", 3)]),
        "-"),
    "1v3 4 units {3,2,2,1} vs 4+2,3,5": (
        siege("1v3", {a: [3, 2, 2, 1] for a in THREE},
              [("O1", 4), ("O1", 2), ("O2", 3), ("O3", 5)]), "-"),
}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--repeat", type=int, default=3)
    parser.add_argument("--search-seconds", type=float, default=60.0)
    parser.add_argument("--cpsat-seconds", type=float, default=60.0)
    parser.add_argument("--workers", type=int, default=2, help="CP-SAT workers (at most 2)")
    args = parser.parse_args()
    print(f"{'case':34} {'spec':>12} | {'search':>13} {'median s':>9} | "
          f"{'CP-SAT':>13} {'status':>8} {'solves':>6} {'median s':>9}")
    search_budget = Budget(seconds=args.search_seconds, table_entries=None)
    cpsat_budget = Budget(seconds=args.cpsat_seconds)
    for name, (position, spec) in CASES.items():
        search, search_s = timed(lambda p=position: fewest_turns(p, budget=search_budget),
                                 args.repeat, lambda o: o.proven)
        cpsat, cpsat_s = timed(
            lambda p=position: fewest_turns_cpsat(p, cpsat_budget, workers=args.workers),
            args.repeat, lambda o: o.proven)
        print(f"{name:34} {spec:>12} | {verdict(search):>13} {search_s:>9.3f} | "
              f"{verdict(cpsat):>13} {cpsat.cp_status:>8} {cpsat.solves:>6} {cpsat_s:>9.3f}")


def timed(run: Callable[[], Any], repeat: int, proven: Callable[[Any], bool]
          ) -> tuple[Any, float]:
    """The first answer and the median wall time of `repeat` runs (one run if the first
    does not prove its answer: it spent its whole budget)."""
    times, answer = [], None
    for k in range(repeat):
        started = time.perf_counter()
        result = run()
        times.append(time.perf_counter() - started)
        answer = answer or result
        if k == 0 and not proven(result):
            break
    return answer, statistics.median(times)


def verdict(answer: Any) -> str:
    if answer.winner is None:
        return "unknown"
    return f"{answer.winner} {answer.turn}{'' if answer.proven else '?'}"


if __name__ == "__main__":
    main()
