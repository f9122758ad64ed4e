"""The moves home the solver makes at once (problem.safe_moves), which the playground's
auto-play plays: held to a search over the plain rules that prunes nothing, on small
positions of every shipped variant they lose no win and no move of a shortest line;
played, they leave nothing more to play at once; each is a move home; and a card that
the rules of docs/castle-family.md 4.4 keep back stays where it is."""

from __future__ import annotations

import random

import pytest

from solver.beleaguered import Position, apply, legal_moves
from solver.beleaguered.problem import safe_moves
from solver.beleaguered.variant import Variant, variants
from solver.budget import Budget, Status
from solver.search import astar
from tests.support.beleaguered_endgames import endgame, scattered
from tests.support.plain_rules import PlainRules

PLAIN = Budget(nodes=6_000)  # a case whose plain search needs more is left out


def _plain(position: Position) -> tuple[Status, int | None]:
    result = astar(PlainRules(position), PLAIN)
    return result.status, result.cost


def _cases(variant: Variant) -> list[Position]:
    """Small endgames and scattered positions that have a move home to make at once."""
    rng = random.Random(f"safe {variant.name}")
    found = []
    for i in range(24):
        cards_left = rng.randint(8, 14)
        position = (scattered(cards_left, rng, variant) if i % 2
                    else endgame(rng.randint(1, 32_000), cards_left, rng, variant))
        if safe_moves(position):
            found.append(position)
    return found


@pytest.mark.parametrize("variant", variants(), ids=[variant.name for variant in variants()])
def test_safe_moves_lose_no_win_and_no_move_of_a_shortest_line(variant: Variant) -> None:
    checked = 0
    for position in _cases(variant):
        safe = safe_moves(position)
        after = position
        for move in safe:
            assert move.target.kind == "foundation", str(move)
            assert move in legal_moves(after), (str(position), str(move))
            after = apply(after, move)
        assert safe_moves(after) == []  # all at once: nothing left to play
        status, cost = _plain(position)
        then, rest = _plain(after)
        if Status.UNKNOWN in (status, then):
            continue
        assert then is status, str(position)
        if status is Status.SOLVED:
            assert rest is not None and cost == len(safe) + rest, str(position)
        checked += 1
    assert checked >= 12


def test_a_card_that_a_card_of_the_other_colour_may_still_need_stays() -> None:
    """FreeCell, diamonds and hearts home to their 2s, no black card home: the ace of
    clubs goes, and then the 2 of clubs (both red aces are home, so no red card will
    need it); the red 3s may go home but stay, as the 2 of spades, whose ace is buried,
    may still need one to go onto (docs/castle-family.md 4.4)."""
    home = {"C": 0, "D": 2, "H": 2, "S": 0}
    placed = ["3D", "AC", "3H", "2S", "2C"]
    gone = {f"{rank}{suit}" for suit in "DH" for rank in "A2"}
    rest = [f"{rank}{suit}" for rank in "A23456789TJQK" for suit in "CDHS"
            if f"{rank}{suit}" not in gone and f"{rank}{suit}" not in placed]
    assert rest[0] == "AS" and rest[-1] == "KS"  # buried first, kings on top
    position = Position.from_json({
        "game": "patience", "variant": "freecell",
        "tableau": [["3D", "AC"], ["3H"], ["2S"], ["2C"], rest[0::4], rest[1::4], rest[2::4],
                    rest[3::4]],
        "cells": [None] * 4, "foundations": home})
    home_now = {str(m) for m in legal_moves(position) if m.target.kind == "foundation"}
    assert home_now == {"AC tableau:0 foundation", "3H tableau:1 foundation"}
    assert [str(m) for m in safe_moves(position)] == ["AC tableau:0 foundation",
                                                     "2C tableau:3 foundation"]
