"""Hard questions of the Python searches, each asked in a process of its own (`ask`), so
that what it adds to the process's resident memory is measured from a clean start:

    python -m tests.support.search_memory QUESTION MIB

asks QUESTION with a budget of MIB and no limit of time or nodes, and prints, as JSON,
its verdict, the resident memory just before the search (its game imported, its
position made) and the process's peak after it (VmHWM), in bytes."""

from __future__ import annotations

import json
import subprocess
import sys
from collections.abc import Callable
from pathlib import Path

from solver.budget import Budget, Status
from solver.memory import resident_bytes

ROOT = Path(__file__).resolve().parents[2]

Search = Callable[[Budget], Status]


def farbduell_puzzle() -> Search:
    """Six players, twelve own turns: the forced-win search (AND-OR) of docs/farbduell.md."""
    from solver.farbduell.data import load_tables
    from solver.farbduell.puzzles import solve_puzzle
    from solver.farbduell.rules import new_game

    state = new_game(load_tables()["classic"], 6, 1)
    return lambda budget: solve_puzzle(state, 12, budget).status


def _patience(name: str) -> Search:
    """The Python reference search of a hard Streets and Alleys deal."""
    from solver.beleaguered.deals import deal
    from solver.beleaguered.problem import FortressProblem
    from solver.beleaguered.variant import find_variant
    from solver.search import astar, idastar

    search = {"astar": astar, "idastar": idastar}[name]
    problem = FortressProblem(deal(77, find_variant("streets-and-alleys")))
    return lambda budget: search(problem, budget).status


def patience_solve() -> Search:
    """The patience solve question by the Python reference: optimal A*, then greedy in
    what A* left, the two sharing one memory (`Question.ask`)."""
    from solver.beleaguered.deals import deal
    from solver.beleaguered.engines import Engine, use
    from solver.beleaguered.game import SOLVE
    from solver.beleaguered.variant import find_variant

    use(Engine.PYTHON)
    position = deal(77, find_variant("streets-and-alleys"))
    return lambda budget: SOLVE.ask(position, None, budget).status


def stronghold_search() -> Search:
    """Two attackers of three units each against the greedy defender: the breadth-first
    search, thousands of joint moves a node."""
    from solver.stronghold.policies import greedy_deny
    from solver.stronghold.position import Position
    from solver.stronghold.search import fewest_turns

    units = [{"id": f"{owner.lower()}{k}", "owner": owner, "might": might}
             for owner in ("A1", "A2") for k, might in enumerate((3, 3, 2), 1)]
    units += [{"id": f"d{k}", "owner": "D", "might": 3, "loc": f"O{k}"} for k in (1, 2, 3)]
    position = Position.from_json({"mode": "1v2", "units": units})

    def search(budget: Budget) -> Status:
        outcome = fewest_turns(position, greedy_deny, budget)
        return Status.SOLVED if outcome.proven else Status.UNKNOWN

    return search


QUESTIONS: dict[str, Callable[[], Search]] = {
    "farbduell-puzzle": farbduell_puzzle,
    "patience-astar": lambda: _patience("astar"),
    "patience-idastar": lambda: _patience("idastar"),
    "patience-solve": patience_solve,
    "stronghold-search": stronghold_search,
}


def peak_bytes() -> int:
    """The process's peak resident memory so far (VmHWM)."""
    status = Path("/proc/self/status").read_text()
    return next(int(line.split()[1]) << 10 for line in status.splitlines()
                if line.startswith("VmHWM:"))


def main(question: str, mib: str) -> None:
    search = QUESTIONS[question]()
    budget = Budget(seconds=None, nodes=None, memory_mib=int(mib))
    start = resident_bytes()
    status = search(budget)
    print(json.dumps({"status": status.value, "start": start, "peak": peak_bytes()}))


def ask(question: str, mib: int) -> tuple[Status, int]:
    """The question's verdict in a process of its own, and the bytes its search added to
    that process's resident memory at their most."""
    done = subprocess.run([sys.executable, "-m", __name__, question, str(mib)],
                          capture_output=True, text=True, timeout=600, cwd=ROOT, check=True)
    answer = json.loads(done.stdout)
    return Status(answer["status"]), answer["peak"] - answer["start"]


if __name__ == "__main__":
    main(*sys.argv[1:])
