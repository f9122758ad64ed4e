"""The Python engine's pruned search against a search over the plain rules, for every
variant of the family.

The plain search takes every move `legal_moves` offers (foundation cards coming back
where the variant allows it, every empty pile, every card into the first free cell) and
the bound "one move per card not home", which prunes nothing; the pruned search
(`FortressProblem`) must find the same optimal length and the same verdict, and every
line it returns must replay to a win through the plain rules; the verdict flares of both
engines must reach the same verdict.

Besides the shipped variants, rules made here cover what none of them has: a free cell
in Beleaguered Castle, alternate colours, same-suit-down building, empty piles that take
only kings or nothing, and worrying back under a build regardless of suit. Small endgames
on the full table are nearly always winnable, so each variant is also played on three
piles (its "narrow" twin), where many small positions are lost.
"""

from __future__ import annotations

import random
from functools import cache

import pytest

from solver.beleaguered import (
    Algorithm,
    Engine,
    Mode,
    Move,
    Position,
    replay,
    solve,
)
from solver.beleaguered.problem import FortressProblem
from solver.beleaguered.variant import SequenceMoves, Variant, parse_variant_file, variants
from solver.budget import Budget, Status
from solver.cards import Card
from solver.search import astar
from tests.support.beleaguered_endgames import endgame, scattered
from tests.support.engines import by
from tests.support.plain_rules import PlainRules

PLAIN_NODES = 6_000  # a case whose plain search needs more is left out, and counted
PRUNED = Budget(nodes=100_000)

CASTLE_WITH_A_CELL = """
name = "castle-with-a-cell"
title = "Beleaguered Castle with a free cell"
source = "made for this test: Beleaguered Castle, one pile a card short, one free cell"
piles = [6, 6, 6, 6, 6, 6, 6, 5]
aces_first = true
cells = 1
cells_dealt = 1
build = "any-suit-down"
"""

MADE_UP = [CASTLE_WITH_A_CELL, """
name = "alternate-kings-back"
title = "Alternate colours, kings in spaces, worrying back"
source = "made for this test"
piles = [6, 6, 6, 6, 6, 6, 5, 5]
aces_first = true
cells = 2
cells_dealt = 2
build = "alternate-colours-down"
empty = "kings"
worrying_back = true
""", """
name = "alternate-colours"
title = "Alternate colours with a free cell"
source = "made for this test"
piles = [7, 7, 7, 7, 6, 6, 6, 5]
cells = 1
cells_dealt = 1
build = "alternate-colours-down"
""", """
name = "suit-down-no-spaces"
title = "Same suit down, spaces never filled"
source = "made for this test"
piles = [7, 7, 7, 7, 6, 6, 6, 4]
reserve = 2
cells = 1
build = "same-suit-down"
empty = "none"
"""]

VARIANTS: list[Variant] = [*variants(), *(parse_variant_file(text) for text in MADE_UP)]


def _narrow(variant: Variant) -> Variant:
    """The same rules on three piles (the deal still counts 52)."""
    total = sum(variant.piles)
    piles = (total - 2 * (total // 3), total // 3, total // 3)
    return parse_variant_file(f"""
name = "{variant.name}-narrow"
title = "{variant.name} on three piles"
source = "made for this test"
piles = {list(piles)}
reserve = {variant.reserve}
cells = {variant.cells}
cells_dealt = {variant.cells_dealt}
aces_first = {str(variant.aces_first).lower()}
build = "{variant.build}"
empty = "{variant.empty}"
worrying_back = {str(variant.worrying_back).lower()}
""")


def _cases(variant: Variant, narrow: bool) -> list[tuple[str, Position]]:
    rng = random.Random(f"{variant.name} {narrow}")
    if narrow:
        rules = _narrow(variant)
        return [(f"scattered{i}", scattered(rng.randint(10, 16), rng, rules)) for i in range(14)]
    cases = []
    for i in range(10):
        cards_left = rng.randint(8, 14)
        if i % 2:
            cases.append((f"scattered{i}", scattered(cards_left, rng, variant)))
        else:
            number = rng.randint(1, 32_000)
            cases.append((f"deal{number}", endgame(number, cards_left, rng, variant)))
    return cases


def _pruned(position: Position) -> tuple[Status, list[Move]]:
    """The pruned search's verdict and line, the opening's moves first: with sequence
    moves where the variant has them, as the plain rules offer them."""
    sequences = position.variant.sequence_moves is not SequenceMoves.NONE
    problem = FortressProblem(position, sequences=sequences)
    result = astar(problem, PRUNED)
    assert result.status is not Status.UNKNOWN
    if result.status is not Status.SOLVED:
        return result.status, []
    line = problem.to_moves(result.steps)
    assert result.cost is not None and len(line) == len(problem.opening) + result.cost
    return result.status, line


@cache
def _outcomes(variant: Variant, narrow: bool) -> tuple[tuple[str, Status, int], ...]:
    """(case, verdict, moves beyond one per card) for each case the plain search
    settles, after checking the pruned search against it."""
    found = []
    for name, position in _cases(variant, narrow):
        plain = astar(PlainRules(position), Budget(nodes=PLAIN_NODES))
        if plain.status is Status.UNKNOWN:
            continue
        status, line = _pruned(position)
        assert status is plain.status, (name, str(position))
        detour = 0
        if status is Status.SOLVED:
            assert len(line) == plain.cost, (name, str(position), [str(m) for m in line])
            assert replay(position, line).is_won, (name, str(position))
            anyway = by(Engine.PYTHON, solve, position, Mode.ANY)  # replayed inside
            assert anyway.status is Status.SOLVED and len(anyway.moves) >= len(line)
            detour = len(line) - position.cards_left()
        else:
            assert by(Engine.PYTHON, solve, position, Mode.ANY).status is status
        for engine in Engine:  # the verdict flares decide as the plain search does
            assert by(engine, solve, position, Mode.VERDICT).status is status, (name, engine)
        found.append((name, status, detour))
    return tuple(found)


@pytest.mark.parametrize("variant", VARIANTS, ids=[variant.name for variant in VARIANTS])
def test_pruned_search_equals_plain_search_on_small_endgames(variant: Variant) -> None:
    outcomes = _outcomes(variant, False)
    assert len(outcomes) >= 8  # of 10: few plain searches run out of nodes
    assert any(detour > 0 for _, _, detour in outcomes)  # some need moves not home


@pytest.mark.parametrize("variant", VARIANTS, ids=[variant.name for variant in VARIANTS])
def test_pruned_search_equals_plain_search_on_three_piles(variant: Variant) -> None:
    outcomes = _outcomes(variant, True)
    assert len(outcomes) >= 11  # of 14
    assert {status for _, status, _ in outcomes} >= {Status.SOLVED}


def test_both_verdicts_and_real_detours_are_checked() -> None:
    outcomes = [o for variant in VARIANTS for narrow in (False, True)
                for o in _outcomes(variant, narrow)]
    verdicts = [status for _, status, _ in outcomes]
    assert verdicts.count(Status.UNSOLVABLE) >= 40 and verdicts.count(Status.SOLVED) >= 150
    assert max(detour for _, _, detour in outcomes) >= 6


# --- the rules of the pruning, case by case ----------------------------------------------

def _position(variant: Variant, piles: list[str], home: tuple[int, int, int, int],
              cells: list[str | None] | None = None) -> Position:
    """A position of a variant without reserve; `home` per suit C D H S."""
    def cards(text: str) -> tuple[Card, ...]:
        return tuple(Card.parse(card) for card in text.split())

    filled = cells or []
    cell_cards = tuple(None if c is None else Card.parse(c) for c in filled)
    cell_cards += (None,) * (variant.cells - len(cell_cards))
    tableau = tuple(cards(pile) for pile in piles)
    tableau += ((),) * (len(variant.piles) - len(tableau))
    return Position(tableau, (), home, cells=cell_cards, variant=variant)


def _opening(position: Position) -> list[str]:
    return [str(move.card) for move in FortressProblem(position).to_moves(())]


def _rules(build: str, worrying_back: bool = False, empty: str = "any") -> Variant:
    return parse_variant_file(f"""
name = "probe"
title = "probe"
source = "made for this test"
piles = [13, 13, 13, 13]
build = "{build}"
empty = "{empty}"
worrying_back = {str(worrying_back).lower()}
""")


def test_a_card_goes_home_at_once_only_when_what_could_be_built_on_it_need_not_be() -> None:
    any_suit, alternate = _rules("any-suit-down"), _rules("alternate-colours-down")
    # QC can go home; JD, covered, could still go onto it, and could go home once free,
    # as every ten is home: nothing needs JD to build on, so QC goes (and JS, alike).
    piles = ["KC QC", "JD KD QD", "JS KS QS"]
    assert _opening(_position(any_suit, piles, (11, 10, 13, 10))) == ["QC"]
    assert _opening(_position(alternate, piles, (11, 10, 13, 10))) == ["QC"]
    # With TD out, JD could not go home once free: QC waits for it.
    piles = ["KC QC", "TD JD KD QD", "JS KS QS"]
    assert _opening(_position(any_suit, piles, (11, 9, 13, 10))) == []
    assert _opening(_position(alternate, piles, (11, 9, 13, 10))) == []
    # With TS out, JD could go home once free, but TS could still need it to build on.
    piles = ["KC QC", "JD KD QD", "TS JS KS QS"]
    assert _opening(_position(any_suit, piles, (11, 10, 13, 9))) == []
    assert _opening(_position(alternate, piles, (11, 10, 13, 9))) == []
    # JS could not go home once free (TS is out); it may go onto QC regardless of suit,
    # but not by alternate colours, so there QC goes (KC then waits for QD, which JS
    # could still go onto).
    piles = ["KC QC", "KD QD", "TS JS KS QS"]
    assert _opening(_position(any_suit, piles, (11, 11, 13, 9))) == []
    assert _opening(_position(alternate, piles, (11, 11, 13, 9))) == ["QC"]
    # Building by suit, a card that can go home always goes.
    piles = ["KC QC", "KD QD", "JS KS QS"]
    assert _opening(_position(_rules("same-suit-down"), piles, (11, 11, 13, 10))) == [
        "QD", "KD", "QC", "KC"]


def test_with_worrying_back_only_aces_go_home_at_once() -> None:
    piles = ["KC QC JC TC 9C 8C 7C 6C 5C 4C 3C 2C AC", "KD", "KH", "KS"]
    back = _rules("any-suit-down", worrying_back=True)
    assert _opening(_position(back, piles, (0, 12, 12, 12))) == ["AC"]
    assert len(_opening(_position(_rules("any-suit-down"), piles, (0, 12, 12, 12)))) == 16


def test_a_line_may_bring_a_card_back_from_its_foundation() -> None:
    """8S must step aside off 8C, and the only card it can go onto is 9H, at home: 9H
    comes back onto TC, takes 8S, and goes home again later."""
    back = _rules("alternate-colours-down", worrying_back=True, empty="none")
    position = _position(back, ["7S 8C 8S", "KC QC JC TC", "KH QH JH TH KS QS JS TS 9S 9C"],
                         (7, 13, 9, 6))
    status, line = _pruned(position)
    assert status is Status.SOLVED and replay(position, line).is_won
    assert str(line[0]) == "9H foundation tableau:1"
    assert len(line) == astar(PlainRules(position), Budget(nodes=PLAIN_NODES)).cost == 20
    no_pullbacks = astar(PlainRules(position, pullbacks=False), Budget(nodes=PLAIN_NODES))
    assert no_pullbacks.status is Status.UNSOLVABLE
    for algorithm in Algorithm:
        assert by(Engine.PYTHON, solve, position, Mode.OPTIMAL, algorithm).length == 20


def test_lines_name_the_free_cells_of_the_replayed_position() -> None:
    """A card into a cell takes the first empty one; out of a cell, it leaves the one
    that holds it."""
    bastion = next(variant for variant in variants() if variant.name == "bastion")
    position = _position(bastion, ["KC QC JC TC 9C 8C 7C 6C 5C 4C 3C 2C AC 2D 3D",
                                   "KD", "QD", "JD", "TD", "9D", "8D", "7D", "6D", "5D"],
                         (0, 1, 13, 13), cells=["4D", None])
    status, line = _pruned(position)
    assert status is Status.SOLVED and replay(position, line).is_won
    moves = [str(move) for move in line]
    assert moves[:2] == ["3D tableau:0 cell:1", "2D tableau:0 foundation"]
    assert {"3D cell:1 foundation", "4D cell:0 foundation"} <= set(moves)
    assert len(moves) == 26
