"""An optimal search stopped by its budget answers the best line it found, not proven
shortest (solver/search/anytime.py, and the kernel's search alike): the line wins, the
lower bound holds below the optimal length, and the stats say when the line was found.
Both engines prove the same verdicts and lengths. Budgets are in nodes, never in time."""

from __future__ import annotations

import random

import pytest

from solver.beleaguered import Algorithm, Engine, Mode, Position, apply, deal, replay, solve
from solver.beleaguered.variant import find_variant
from solver.budget import Budget, Status
from tests.support.beleaguered_endgames import endgame
from tests.support.engines import by

UNBOUNDED = Budget(seconds=None)


def _position(variant: str | None, number: int, cards_left: int | None) -> Position:
    """A deal, or its endgame with about `cards_left` cards not home."""
    rules = None if variant is None else find_variant(variant)
    if cards_left is None:
        return deal(number) if rules is None else deal(number, rules)
    return endgame(number, cards_left, random.Random(number), rules)


# Positions the Python reference proves within a second or so, each with a node budget
# after which both engines have a line but no proof yet.
STOPPED = [(None, 13, None, 600), (None, 52, None, 800), ("freecell", 713, 32, 450)]
STOPPED_IDS = ["fortress-13", "fortress-52", "freecell-713-endgame"]


@pytest.mark.parametrize("algorithm", list(Algorithm))
@pytest.mark.parametrize("engine", list(Engine))
@pytest.mark.parametrize(("variant", "number", "cards_left", "nodes"), STOPPED, ids=STOPPED_IDS)
def test_a_search_stopped_before_its_proof_answers_its_best_line(
        variant: str | None, number: int, cards_left: int | None, nodes: int,
        engine: Engine, algorithm: Algorithm) -> None:
    position = _position(variant, number, cards_left)
    shortest = solve(position, Mode.OPTIMAL, budget=UNBOUNDED)
    assert shortest.optimal and shortest.stats.nodes > nodes  # the proof needs more
    stopped = by(engine, solve, position, Mode.OPTIMAL, algorithm,
                 Budget(seconds=None, nodes=nodes))
    assert stopped.status is Status.SOLVED and not stopped.optimal
    assert replay(position, stopped.moves).is_won
    assert stopped.lower_bound is not None and stopped.length is not None
    assert stopped.lower_bound <= shortest.length <= stopped.length
    assert stopped.stats.nodes <= nodes
    line_seconds = stopped.stats.line_seconds
    assert line_seconds is not None and 0 <= line_seconds <= stopped.stats.seconds
    assert stopped.to_json()["stats"]["line_seconds"] == round(line_seconds, 6)


@pytest.mark.parametrize("algorithm", list(Algorithm))
@pytest.mark.parametrize(("variant", "number", "cards_left", "nodes"), STOPPED, ids=STOPPED_IDS)
def test_both_engines_prove_the_same_length(variant: str | None, number: int,
                                            cards_left: int | None, nodes: int,
                                            algorithm: Algorithm) -> None:
    position = _position(variant, number, cards_left)
    kernel = solve(position, Mode.OPTIMAL, algorithm, UNBOUNDED)
    python = by(Engine.PYTHON, solve, position, Mode.OPTIMAL, algorithm, UNBOUNDED)
    for answer in (kernel, python):
        assert answer.status is Status.SOLVED and answer.optimal
        assert answer.lower_bound == answer.length
        assert replay(position, answer.moves).is_won
        assert answer.stats.line_seconds is not None
        assert answer.stats.line_seconds <= answer.stats.seconds
    assert kernel.length == python.length


@pytest.mark.parametrize("algorithm", list(Algorithm))
@pytest.mark.parametrize("engine", list(Engine))
def test_a_won_position_is_its_own_shortest_line(engine: Engine, algorithm: Algorithm) -> None:
    position = deal(13)
    for move in solve(position).moves:
        position = apply(position, move)
    answer = by(engine, solve, position, Mode.OPTIMAL, algorithm, UNBOUNDED)
    assert answer.status is Status.SOLVED and answer.optimal and answer.length == 0


@pytest.mark.parametrize("engine", list(Engine))
def test_a_search_stopped_before_any_line_says_unknown_with_its_bound(engine: Engine) -> None:
    position = deal(13)
    answer = by(engine, solve, position, Mode.OPTIMAL, budget=Budget(seconds=None, nodes=5))
    assert answer.status is Status.UNKNOWN and answer.moves == () and not answer.optimal
    assert answer.stats.line_seconds is None and answer.to_json()["stats"]["line_seconds"] is None
    assert answer.lower_bound is not None
    assert answer.lower_bound <= solve(position, budget=UNBOUNDED).length
