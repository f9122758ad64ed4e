"""Farbduell perfect-information puzzles: forced wins within N own turns."""

from __future__ import annotations

from dataclasses import replace

from solver.budget import Status
from solver.farbduell.puzzles import solve_puzzle
from solver.farbduell.rules import apply
from tests.support.farbduell import position


def with_pile_top(state, text: str):
    card = state.table.card(text)
    pile = list(state.draw_pile)
    pile.remove(card)
    return replace(state, draw_pile=(card, *pile))


def replay_wins(state, line) -> bool:
    for _, action in line:
        state = apply(state, action)
    return state.winner == 0


def test_a_skip_chain_wins_this_turn():
    state = position(["red-skip", "blue-skip", "blue-7"], ["green-1", "yellow-2"])
    answer = solve_puzzle(state, 1)
    assert answer.status is Status.SOLVED and answer.turns == 1 and len(answer.line) == 3
    assert replay_wins(state, answer.line)


def test_two_numbers_cannot_win_this_turn():
    state = position(["red-1", "blue-7"], ["green-1", "yellow-2"])
    assert solve_puzzle(state, 1).status is Status.UNSOLVABLE


def test_a_win_in_two_turns_when_the_opponent_cannot_answer():
    state = with_pile_top(position(["red-1", "blue-1"], ["green-5", "green-6"]), "yellow-3")
    assert solve_puzzle(state, 1).status is Status.UNSOLVABLE
    answer = solve_puzzle(state, 2)
    assert answer.status is Status.SOLVED and answer.turns == 2
    assert replay_wins(state, answer.line)


def test_the_opponents_drawn_card_can_defend():
    state = with_pile_top(position(["red-1", "blue-1"], ["green-5", "green-6"]), "red-0")
    assert solve_puzzle(state, 2).status is Status.UNSOLVABLE
