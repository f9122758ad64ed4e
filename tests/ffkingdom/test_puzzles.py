"""Hand-made puzzles with known answers (tests/ffkingdom/puzzles/*.json).

Each file holds a position, the number of own turns, the answer worked out by hand
("why" gives the arithmetic) and tags naming what the puzzle exercises. The solver must
find exactly that answer; its line must really win when replayed with `apply`; and every
one-turn answer is checked again by a plain breadth-first search over all legal actions
(every discard of one to three cards included), and every multi-turn answer by a plain
AND-OR search over all legal actions of both players; neither shares code with the
solver's searches.
"""

from __future__ import annotations

import json
from collections import Counter
from pathlib import Path

import pytest

from solver.budget import Budget, Status
from solver.ffkingdom import State, apply, legal_actions, load
from solver.ffkingdom.puzzles import solve_puzzle
from tests.support.ffkingdom import RULES

PUZZLES = Path(__file__).parent / "puzzles"
FILES = sorted(PUZZLES.glob("*.json"))
BUDGET = Budget(seconds=20.0)

# What the set of puzzles must cover, and how often.
REQUIRED_TAGS = {
    "play-again-chain": 1, "doppelzug": 1, "shield": 1, "resource-win": 1, "build-win": 1,
    "concussion": 1, "wall-ignoring": 1, "doubler": 1, "type-lock": 1, "surcharge": 1,
    "resource-win-disabled": 1, "near-miss": 2, "no-win": 6, "multi-turn": 2,
}
KNOWN_TAGS = {*REQUIRED_TAGS, "poison"}


def read(path: Path) -> dict:
    return json.loads(path.read_text(encoding="utf-8"))


def position(puzzle: dict) -> State:
    return load(puzzle["position"], RULES).state


def fewest_actions_by_brute_force(state: State) -> int | None:
    """The fewest actions that win this turn, by breadth-first search over every legal
    action; a branch ends when the game is over or the turn passes to the opponent."""
    me = state.to_move
    layer, seen, depth = [state], {state}, 0
    while layer:
        if any(s.winner == me for s in layer):
            return depth
        following = []
        for s in layer:
            if s.winner is not None or s.to_move != me:
                continue
            for action in legal_actions(s):
                child = apply(s, action)
                if child not in seen:
                    seen.add(child)
                    following.append(child)
        layer, depth = following, depth + 1
    return None


def wins_within_by_brute_force(state: State, me: int, turns: int,
                                memo: dict | None = None) -> bool:
    """Whether `me` forces a win within `turns` own turns (the one under way counts), before
    the opponent acts after the last of them: every action of both players is tried."""
    if state.winner is not None:
        return state.winner == me
    if turns == 0:
        return False
    memo = {} if memo is None else memo
    key = (state, turns)
    if key not in memo:
        mine = state.to_move == me
        results = []
        for action in legal_actions(state):
            child = apply(state, action)
            ends_my_turn = mine and child.winner is None and child.to_move != me
            results.append(wins_within_by_brute_force(child, me, turns - ends_my_turn, memo))
        memo[key] = any(results) if mine else all(results)
    return memo[key]


def test_the_puzzle_set_is_large_and_covers_every_kind():
    assert len(FILES) >= 20
    tags = Counter(tag for path in FILES for tag in read(path)["tags"])
    assert set(tags) <= KNOWN_TAGS, set(tags) - KNOWN_TAGS
    short = {tag: (tags[tag], n) for tag, n in REQUIRED_TAGS.items() if tags[tag] < n}
    assert not short, short
    multi = [p.name for p in FILES if read(p)["turns"] > 1]
    assert 2 <= len(multi) <= 3


@pytest.mark.parametrize("path", FILES, ids=lambda path: path.stem)
def test_puzzle_file_is_well_formed(path):
    puzzle = read(path)
    assert set(puzzle) == {"title", "why", "turns", "answer", "tags", "position"}
    assert path.stem[:2].isdigit() and path.stem[2] == "-"
    answer = puzzle["answer"]
    turns = puzzle["turns"]
    loaded = load(puzzle["position"], RULES)
    if not answer["wins"]:
        assert set(answer) == {"wins"}
        assert "no-win" in puzzle["tags"]
    elif turns == 1:
        assert set(answer) <= {"wins", "actions", "first"} and "actions" in answer
    else:
        assert set(answer) <= {"wins", "turns", "first"} and answer["turns"] <= turns
    if turns > 1:
        # a multi-turn puzzle is on a fully known position: all 72 cards placed
        assert loaded.complete
        assert loaded.state.cards() == Counter(RULES.deck())
        assert "multi-turn" in puzzle["tags"]
    assert loaded.state.winner is None


@pytest.mark.parametrize("path", FILES, ids=lambda path: path.stem)
def test_solver_finds_the_hand_computed_answer(path):
    puzzle = read(path)
    state = position(puzzle)
    me = state.to_move
    answer = puzzle["answer"]
    result = solve_puzzle(state, puzzle["turns"], BUDGET)
    if not answer["wins"]:
        assert result.status is Status.UNSOLVABLE, [str(a) for _, a in result.line]
        assert result.line == ()
        return
    assert result.status is Status.SOLVED
    assert result.optimal
    line = [str(action) for _, action in result.line]
    if "first" in answer:
        assert line[0] == answer["first"], line
    if puzzle["turns"] == 1:
        assert result.turns == 1
        assert len(result.line) == answer["actions"], line
        # replay: every action is the mover's, and the game is won before the opponent acts
        for player, action in result.line:
            assert state.winner is None and state.to_move == me == player
            state = apply(state, action)
        assert state.winner == me
    else:
        assert result.turns == answer["turns"]
        for player, action in result.line:
            assert state.winner is None and state.to_move == player
            state = apply(state, action)
        assert state.winner == me
        players = [player for player, _ in result.line]
        own_turns = sum(1 for k, player in enumerate(players)
                        if player == me and (k == 0 or players[k - 1] != me))
        assert own_turns <= answer["turns"]  # the win may come in the opponent's action


@pytest.mark.parametrize("path", [p for p in FILES if read(p)["turns"] == 1],
                         ids=lambda path: path.stem)
def test_brute_force_agrees_with_the_hand_computed_answer(path):
    puzzle = read(path)
    expected = puzzle["answer"]["actions"] if puzzle["answer"]["wins"] else None
    assert fewest_actions_by_brute_force(position(puzzle)) == expected


@pytest.mark.parametrize("path", [p for p in FILES if read(p)["turns"] > 1],
                         ids=lambda path: path.stem)
def test_brute_force_agrees_with_the_multi_turn_answer(path):
    puzzle = read(path)
    state = position(puzzle)
    answer = puzzle["answer"]
    fewest = next((t for t in range(1, puzzle["turns"] + 1)
                   if wins_within_by_brute_force(state, state.to_move, t)), None)
    assert fewest == (answer["turns"] if answer["wins"] else None)
