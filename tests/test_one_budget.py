"""A question that runs several searches keeps to its one budget: under a node budget the
nodes of all its searches together stay within it (each search counted as it reports
them), and what a part the budget leaves nothing for would have found is unknown, never
guessed: a patience hint and its grading of every move, an optimal solve and its quick
search, a census line, a Fortress Fight Kingdom puzzle's forced win and its fewest
actions."""

from __future__ import annotations

import importlib
import json
from pathlib import Path

import pytest

from solver.beleaguered import deal, legal_moves
from solver.beleaguered.census_lines import census_deal
from solver.beleaguered.game import GRADE, HINT, SOLVE, GradeOptions, HintOptions
from solver.beleaguered.grading import Outcome
from solver.beleaguered.variant import find_variant
from solver.budget import Budget, Status
from solver.ffkingdom import apply, load, puzzles
from tests.support.ffkingdom import RULES

solving = importlib.import_module("solver.beleaguered.solve")  # the module, not its solve


def counted(monkeypatch, module, *names: str) -> list[int]:
    """The nodes of every search by the functions `names` of `module` from now on, as
    each reports them."""
    spent: list[int] = []

    def counting(search):
        def run(*args, **kwargs):
            answer = search(*args, **kwargs)
            spent.append(answer.stats.nodes)
            return answer
        return run

    for name in names:
        monkeypatch.setattr(module, name, counting(getattr(module, name)))
    return spent


@pytest.fixture
def searches(monkeypatch) -> list[int]:
    """The nodes of every patience search (either engine's)."""
    return counted(monkeypatch, solving, "_search")


def test_an_all_moves_hint_and_its_grading_spend_one_node_budget(searches):
    """Deal 2 with 600 nodes: the hint's search spends at most half (its anytime search's
    first line takes more than 150), the grading the rest."""
    answer = HINT.ask(deal(2), HintOptions(all_moves=True), Budget(nodes=600))
    assert len(searches) > 1 and sum(searches) <= 600
    assert answer.stats.nodes == sum(searches)
    moves = {g.move: g.outcome for g in answer.all_moves}
    assert set(moves) == set(legal_moves(deal(2)))
    assert moves[answer.move] is Outcome.WINS and Outcome.UNKNOWN in moves.values()


@pytest.mark.parametrize("nodes", [1, 1000])
def test_an_optimal_solve_and_its_quick_search_spend_one_node_budget(searches, nodes):
    answer = SOLVE.ask(deal(6), None, Budget(nodes=nodes))  # thousands of nodes to prove
    assert answer.status is Status.UNKNOWN or not answer.optimal
    assert sum(searches) <= nodes and answer.stats.nodes == sum(searches)


def test_a_grading_spends_one_node_budget_over_its_moves(searches):
    grading = GRADE.ask(deal(6), GradeOptions(), Budget(nodes=3000))
    assert len(searches) > 1 and sum(searches) <= 3000
    assert grading.status is Status.UNKNOWN
    assert {g.move for g in grading.moves} == set(legal_moves(deal(6)))


@pytest.mark.parametrize(("variant", "number", "nodes"), [(None, 6, 3000), ("citadel", 2, 400)])
def test_a_census_line_spends_one_node_budget(searches, variant, number, nodes):
    """The verdict of `any` mode (a win), then an optimal search in what it left."""
    line = census_deal(number, Budget(nodes=nodes),
                       None if variant is None else find_variant(variant))
    assert len(searches) > 1 and sum(searches) <= nodes and line["nodes"] == sum(searches)
    assert line["status"] == "solved"


def test_a_puzzles_forced_win_and_its_fewest_actions_spend_one_node_budget(monkeypatch):
    """Puzzle 28 with the Katapult paid for at once: a win this turn, which the forced-win
    search finds in 1 node and the fewest-actions search proves in 2. Within 2 nodes in
    all, the forced win's line stands, not proven the fewest actions."""
    puzzle = json.loads((Path(__file__).parent / "ffkingdom" / "puzzles"
                         / "28-markt-pays-next-turn.json").read_text(encoding="utf-8"))
    puzzle["position"]["players"][0] |= {"W": 7, "G": 1}
    state = load(puzzle["position"], RULES).state
    spent = counted(monkeypatch, puzzles, "forced_win", "win_this_turn")
    answer = puzzles.solve_puzzle(state, 2, Budget(nodes=2))
    assert len(spent) == 2 and sum(spent) <= 2 and answer.stats.nodes == sum(spent)
    assert (answer.status, answer.turns, answer.optimal) == (Status.SOLVED, 1, False)
    for _, action in answer.line:
        state = apply(state, action)
    assert state.winner == 0
