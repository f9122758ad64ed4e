"""The exhaustive fewest-turns search and the race (docs/stronghold.md D.3, D.4) on its
E.3 cases, plans that replay, and budgets kept."""

from __future__ import annotations

import time

import pytest

from solver.budget import Budget
from solver.stronghold.policies import greedy_deny, passive
from solver.stronghold.position import Position
from solver.stronghold.questions import race
from solver.stronghold.rules import simulate
from solver.stronghold.search import fewest_turns
from tests.support.stronghold import E3


def replay(position, outcome, defender):
    """The plan played through the simulator: (winner, turn of the win)."""
    end = simulate(position, {step.turn: step.moves for step in outcome.plan}, defender)
    return end.winner, end.turn


@pytest.mark.parametrize("case", sorted(E3))
def test_spec_e3(case):
    position, winner, turn = E3[case]
    outcome = fewest_turns(position, passive, Budget(seconds=120))
    assert (outcome.winner, outcome.turn, outcome.proven) == (winner, turn, True)
    assert replay(position, outcome, passive) == (winner, turn)
    assert outcome.rounds == -(-turn // len(position.turn_order))


def test_case_3_the_defender_scores_three_on_turns_5_and_9():
    position, _, _ = E3[3]
    answer = race(position)
    assert (answer.defender_first, answer.turn, answer.proven) == (True, 9, True)


def test_the_race_is_lost_by_the_defender_when_the_attackers_clear_first():
    position, _, turn = E3[1]
    answer = race(position)
    assert (answer.defender_first, answer.turn) == (False, turn)


def test_greedy_deny_is_slower_to_beat_than_passive():
    position = E3[4][0]
    against_greedy = fewest_turns(position, greedy_deny, Budget(seconds=120))
    assert against_greedy.proven and against_greedy.winner is not None
    assert replay(position, against_greedy, greedy_deny) == (against_greedy.winner,
                                                             against_greedy.turn)
    if against_greedy.winner == "attackers":
        assert against_greedy.turn >= E3[4][2]


def test_an_exhausted_budget_is_unknown_not_a_guess():
    position, _, _ = E3[2]
    outcome = fewest_turns(position, passive, Budget(seconds=None, nodes=50))
    assert (outcome.winner, outcome.turn, outcome.proven, outcome.plan) == (None, None, False, ())
    short = fewest_turns(position, passive, Budget(seconds=60), max_turns=8)
    assert short.winner is None and not short.proven


def test_the_search_is_a_problem_for_the_generic_breadth_first_search():
    from solver.search.bfs import breadth_first
    from solver.stronghold.search import Siege

    position, _, turn = E3[1]
    siege = Siege(position, passive, 80, Budget(seconds=60))
    result = breadth_first(siege, Budget(seconds=60), costly_nodes=True)
    assert position.turn + result.cost == turn and result.optimal
    assert not siege.open_at_horizon


@pytest.mark.timing
def test_a_node_of_millions_of_joint_moves_keeps_to_the_budget():
    """Ten ready units of one attacker: 4^10 joint moves in the first node alone."""
    position = Position.from_json({"turn": 2, "units": [
        {"id": f"a{k}", "owner": "A1", "might": 1} for k in range(10)]})
    started = time.perf_counter()
    outcome = fewest_turns(position, passive, Budget(seconds=0.2))
    assert outcome.winner is None and not outcome.proven
    assert time.perf_counter() - started < 1.0


def test_a_cancelled_search_stops():
    position, _, _ = E3[2]
    cancel_at = time.perf_counter() + 0.2
    outcome = fewest_turns(position, passive,
                           Budget(seconds=600, stop=lambda: time.perf_counter() > cancel_at))
    assert outcome.winner is None and not outcome.proven
    assert time.perf_counter() - cancel_at < 60  # stopped, not at the budget's ten minutes
