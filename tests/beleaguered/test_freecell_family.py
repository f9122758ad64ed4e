"""The FreeCell family (FreeCell, Baker's Game, Eight Off, Seahaven Towers, Forecell):
deals, sequence moves, their writing-out in single cards, and the search in both metrics.

- Deals are held card by card, free cells included, to the pysol-cards package's boards
  and FreeCell's also to Freecell Solver's `make-microsoft-freecell-board`.
- A sequence move is tried at the edges of what the free cells and empty piles carry
  (rules.capacity), in hand-built positions whose other cards are home or fillers.
- Each sequence move of random play, written out in single cards (sequences.py), must
  replay through the same rules to the same position, in as many moves as
  `sequences.supermove` counts, every one of them moving one card; and that count is the
  fewest, as a search over every way to carry a run by hand finds.
- The compiled kernel must equal the Python reference (`FortressProblem`) state by
  state, with and without sequence moves.
- Optimal lengths of both engines are held to a search over the plain rules that prunes
  nothing: with sequence moves as moves of their own for the `moves` metric, with
  single-card moves only for `cards`. Small endgames on the full table are nearly all
  winnable, so each variant is also played on three and four piles, where many are lost.
"""

from __future__ import annotations

import random
import shutil
import subprocess
from collections import Counter
from dataclasses import replace
from functools import cache
from typing import NamedTuple

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from pysol_cards.cards import Card as PysolCard
from pysol_cards.deal_game import Game
from pysol_cards.random_base import RandomBase

from solver.beleaguered import (
    Algorithm,
    Engine,
    Location,
    Mode,
    Move,
    Position,
    apply,
    deal,
    legal_moves,
    replay,
)
from solver.beleaguered.position import SUITS
from solver.beleaguered.problem import CELL as CELL_TARGET
from solver.beleaguered.problem import HOME, FortressProblem, State
from solver.beleaguered.rules import CELL, FOUNDATION, TABLEAU, builds_on, capacity
from solver.beleaguered.sequences import single_card_length, single_cards, supermove, written_out
from solver.beleaguered.solve import Metric, Solution, solve
from solver.beleaguered.variant import Build, Fill, SequenceMoves, Variant, find_variant
from solver.budget import Budget, Status
from solver.cards import FULL_DECK, Card, Rank
from solver.errors import IllegalMove
from solver.search import astar, breadth_first
from tests.support.beleaguered_endgames import endgame, scattered
from tests.support.engines import by
from tests.support.plain_rules import PlainRules, check_kernel_state, walk

FAMILY = ("freecell", "bakers-game", "eight-off", "seahaven-towers", "forecell")
VARIANTS = [find_variant(name) for name in FAMILY]
# pysol-cards' game ids
PYSOL_GAMES = {"freecell": "freecell", "bakers-game": "bakers_game", "eight-off": "eight_off",
               "seahaven-towers": "seahaven_towers", "forecell": "forecell"}
# the free cells each deal fills, as PySolFC's startGame deals them
DEALT_CELLS = {"freecell": (), "bakers-game": (), "eight-off": (0, 2, 4, 6),
               "seahaven-towers": (1, 2), "forecell": (0, 1, 2, 3)}


def _ids(variants: list[Variant]) -> list[str]:
    return [variant.name for variant in variants]


def _single_card_rules(variant: Variant) -> Variant:
    """The same rules with every move one card."""
    return replace(variant, name=f"{variant.name}-single-cards",
                   sequence_moves=SequenceMoves.NONE)


def _narrow(variant: Variant, piles: int, cells: int) -> Variant:
    """The same play on fewer piles and cells, none dealt, where small positions are often
    lost."""
    heights = (18, 17, 17) if piles == 3 else (13, 13, 13, 13)
    return replace(variant, name=f"{variant.name}-{piles}-piles", piles=heights, cells=cells,
                   cells_dealt=0, cells_dealt_to=None)


def _carried(position: Position, move: Move) -> int:
    """How many cards `move` carries: the run from its card up, or one card."""
    if move.source.kind != TABLEAU:
        return 1
    pile = position.tableau[move.source.index or 0]
    return len(pile) - pile.index(move.card)


def _positions_before(position: Position,
                      line: tuple[Move, ...]) -> list[tuple[Position, Move]]:
    """Each move of `line` with the position it is made in."""
    pairs = []
    for move in line:
        pairs.append((position, move))
        position = apply(position, move)
    return pairs


def _carried_per_move(position: Position, line: tuple[Move, ...]) -> list[int]:
    return [_carried(before, move) for before, move in _positions_before(position, line)]


def _assert_same_position(got: Position, expected: Position) -> None:
    """Piles exactly, free cells as the cards they hold (cell numbers are a choice)."""
    assert got.tableau == expected.tableau
    assert sorted(c for c in got.cells if c) == sorted(c for c in expected.cells if c)
    assert got.foundations == expected.foundations


# --- deals ------------------------------------------------------------------------------

# below 32000: from 32000 on, PySolFC's numbers are its Mersenne Twister deals
# (docs/family-deals.md), which pysol-cards does not deal (FreeCell's stay Microsoft's)
DEAL_NUMBERS = [*range(1, 51), 617, 1941, 11982, 24_000, 31_999]


Layout = tuple[tuple[tuple[Card | None, ...], ...], tuple[Card | None, ...]]


def _ours(card: PysolCard) -> Card | None:
    """A pysol-cards card as ours; its empty free cell as None."""
    if card.empty:
        return None
    return Card.from_index((card.rank - 1) * 4 + "CDHS".index(card.suit_s()))


def _pysol_cards_board(game_id: str, number: int, cells: int) -> Layout:
    """pysol-cards' layout of PySolFC's game `number`: the piles, and the free cells (it
    lists them up to the last it deals to, and none where it deals to none)."""
    game = Game(game_id, number, RandomBase.DEALS_PYSOLFC)
    game.deal()
    getattr(game, game.game_class)()
    board = game.board
    piles = tuple(tuple(_ours(card) for card in column) for column in board.columns.cols)
    held = tuple(_ours(card) for card in board.freecells) if board.with_freecells else ()
    return piles, held + (None,) * (cells - len(held))


@pytest.mark.parametrize("variant", VARIANTS, ids=_ids(VARIANTS))
def test_deals_are_pysol_cards_boards_with_their_free_cells(variant: Variant) -> None:
    for number in DEAL_NUMBERS:
        position = deal(number, variant)
        piles, cells = _pysol_cards_board(PYSOL_GAMES[variant.name], number, variant.cells)
        assert position.tableau == piles, number
        assert position.cells == cells, number
        held = tuple(k for k, card in enumerate(position.cells) if card is not None)
        assert held == DEALT_CELLS[variant.name], number
        assert position.foundations == (0, 0, 0, 0) and position.reserve == ()


MICROSOFT_BOARD = shutil.which("make-microsoft-freecell-board")


@pytest.mark.skipif(MICROSOFT_BOARD is None, reason="make-microsoft-freecell-board (Debian "
                    "package freecell-solver-bin) is not installed")
def test_freecell_deals_are_microsofts() -> None:
    freecell = find_variant("freecell")
    for number in (1, 2, 3, 164, 617, 1941, 11982, 24_000, 31_465, 31_999, 32_000, 1_000_000,
                   2**31 - 1):
        board = subprocess.run([str(MICROSOFT_BOARD), "-t", str(number)], capture_output=True,
                               text=True, check=True, timeout=30).stdout
        columns = [line.split() for line in board.splitlines() if line.strip()]
        position = deal(number, freecell)
        assert [[str(card) for card in pile] for pile in position.tableau] == columns, number
        assert position.cells == (None,) * 4


# --- hand-built positions ---------------------------------------------------------------

_RANKS = "A23456789TJQK"


def _layout(variant: Variant, piles: list[str], cells: list[str | None]) -> Position:
    """A position from piles (bottom to top) and cells written as cards, `*` standing for
    a filler. Each suit is home up to below its lowest card named (up to six where none
    is); the fillers are the other cards above home, lowest first, and those left over go
    onto the piles written as fillers alone."""
    named = [Card.parse(token) for text in [*piles, *(c for c in cells if c)]
             for token in text.split() if token != "*"]
    home = tuple(min((card.rank for card in named if card.suit is suit), default=7) - 1
                 for suit in SUITS)
    fillers = iter([card for card in FULL_DECK
                    if card.rank > home[card.suit.index] and card not in named])
    tableau = [[next(fillers) if token == "*" else Card.parse(token) for token in text.split()]
               for text in piles]
    held = [None if text is None else next(fillers) if text == "*" else Card.parse(text)
            for text in cells]
    spare = [pile for pile, text in zip(tableau, piles, strict=True)
             if text and set(text.split()) == {"*"}]
    for k, card in enumerate(fillers):
        spare[k % len(spare)].append(card)
    return Position(tuple(map(tuple, tableau)), (), home,  # type: ignore[arg-type]
                    cells=tuple(held), variant=variant)


def _run(variant: Variant, length: int, top: int) -> list[str]:
    """A built run of `length` cards from rank `top` down: hearts, or by alternate colours
    hearts and spades in turn."""
    suits = "HS" if variant.build is Build.ALTERNATE_COLOURS_DOWN else "HH"
    return [f"{_RANKS[rank - 1]}{suits[k % 2]}"
            for k, rank in enumerate(range(top, top - length, -1))]


def _run_to_move(variant: Variant, length: int, free_cells: int, empty_piles: int,
                 to_empty: bool) -> tuple[Position, Move]:
    """A run of `length` on pile 0, over a filler, and its move to pile 1: a king that
    takes it, or an empty pile (a king's run then). Pile 1 aside, `empty_piles` piles and
    `free_cells` cells are empty."""
    run = _run(variant, length, 13 if to_empty else 12)
    target = "" if to_empty else ("KS" if variant.build is Build.ALTERNATE_COLOURS_DOWN
                                  else "KH")
    fillers = len(variant.piles) - 2 - empty_piles
    piles = ["* " + " ".join(run), target] + [""] * empty_piles + ["*"] * fillers
    position = _layout(variant, piles, [None] * free_cells + ["*"] * (variant.cells - free_cells))
    return position, Move(Card.parse(run[0]), Location(TABLEAU, 0), Location(TABLEAU, 1))


# (variant, empty cells, empty piles besides the target, to an empty pile, capacity)
CAPACITY = [
    ("freecell", 0, 0, False, 1),
    ("freecell", 2, 0, False, 3),
    ("freecell", 4, 0, False, 5),
    ("freecell", 0, 1, False, 2),
    ("freecell", 1, 2, False, 8),
    ("bakers-game", 2, 1, False, 6),
    ("bakers-game", 3, 1, False, 8),
    ("freecell", 0, 0, True, 1),  # the empty target carries nothing
    ("freecell", 1, 1, True, 4),
    ("bakers-game", 2, 2, True, 12),
    ("eight-off", 3, 2, False, 4),  # kings-only: empty piles carry nothing
    ("eight-off", 8, 0, False, 9),
    ("eight-off", 2, 1, True, 3),
    ("seahaven-towers", 1, 3, False, 2),
    ("seahaven-towers", 4, 0, True, 5),
    ("forecell", 2, 2, False, 3),
    ("forecell", 0, 1, True, 1),
]


@pytest.mark.parametrize(("name", "free_cells", "empty_piles", "to_empty", "carried"),
                         CAPACITY, ids=[f"{c[0]}-{c[1]}cells-{c[2]}piles"
                                        f"{'-to-empty' if c[3] else ''}" for c in CAPACITY])
def test_a_run_as_long_as_the_capacity_moves_and_one_card_more_does_not(
        name: str, free_cells: int, empty_piles: int, to_empty: bool, carried: int) -> None:
    variant = find_variant(name)
    position, move = _run_to_move(variant, carried, free_cells, empty_piles, to_empty)
    assert capacity(position, to_empty) == carried
    assert move in legal_moves(position)
    after = apply(position, move)
    assert after.tableau[0] == position.tableau[0][:-carried]
    assert after.tableau[1] == position.tableau[1] + position.tableau[0][-carried:]
    assert after.cells == position.cells and after.foundations == position.foundations
    # written out, the move goes through every empty cell and pile it counted on
    singles = single_cards(position, move)
    through = empty_piles if variant.empty is Fill.ANY else 0
    assert len(singles) == supermove(carried, free_cells, through)
    assert all(_carried(p, m) == 1 for p, m in _positions_before(position, singles))
    _assert_same_position(replay(position, singles), after)

    longer, too_long = _run_to_move(variant, carried + 1, free_cells, empty_piles, to_empty)
    assert capacity(longer, to_empty) == carried
    assert too_long not in legal_moves(longer)
    with pytest.raises(IllegalMove, match=rf"a run of {carried + 1} cards, but the empty "
                       rf"cells and piles carry {carried}$"):
        apply(longer, too_long)


@pytest.mark.parametrize("variant", VARIANTS, ids=_ids(VARIANTS))
def test_only_a_built_run_moves(variant: Variant) -> None:
    """QH JS TH is built by alternate colours, QH JH TH by suit: each variant moves one of
    them onto the king that takes QH, and refuses the other, capacity to spare."""
    alternate = variant.build is Build.ALTERNATE_COLOURS_DOWN
    king = "KS" if alternate else "KH"
    fillers = ["*"] * (len(variant.piles) - 2)
    for run, built in (("QH JS TH", alternate), ("QH JH TH", not alternate)):
        position = _layout(variant, ["* " + run, king, *fillers], [None] * variant.cells)
        move = Move(Card.parse("QH"), Location(TABLEAU, 0), Location(TABLEAU, 1))
        assert capacity(position, False) >= 3
        assert (move in legal_moves(position)) is built
        if built:
            assert apply(position, move).tableau[1] == position.tableau[1] + position.tableau[0][1:]
        else:
            with pytest.raises(IllegalMove, match=r"the 3 cards from QH up are not a built run"):
                apply(position, move)


@pytest.mark.parametrize("variant", VARIANTS, ids=_ids(VARIANTS))
def test_a_run_moves_to_piles_only(variant: Variant) -> None:
    """5H with a card built on it goes neither home nor to a free cell, only to a pile
    (an empty one where any card may fill it); no card moves from a pile without it."""
    position = _layout(variant, ["* " + " ".join(_run(variant, 2, 5)), "KS", "*",
                                 *[""] * (len(variant.piles) - 3)], [None] * variant.cells)
    five = Card.parse("5H")
    for target in (Location(FOUNDATION), Location(CELL, 0)):
        with pytest.raises(IllegalMove, match="a run moves only to another pile"):
            apply(position, Move(five, Location(TABLEAU, 0), target))
    with pytest.raises(IllegalMove, match="KS is not in tableau:0"):
        apply(position, Move(Card.parse("KS"), Location(TABLEAU, 0), Location(TABLEAU, 3)))
    assert all(move.target.kind == TABLEAU for move in legal_moves(position)
               if move.card == five)
    to_empty = Move(five, Location(TABLEAU, 0), Location(TABLEAU, 3))
    if variant.empty is Fill.ANY:
        assert apply(position, to_empty).tableau[3] == position.tableau[0][-2:]
    else:
        with pytest.raises(IllegalMove, match="tableau:3 does not accept 5H"):
            apply(position, to_empty)


@pytest.mark.parametrize("variant", [_single_card_rules(find_variant("freecell")),
                                     find_variant("beleaguered-castle")],
                         ids=["freecell-single-cards", "beleaguered-castle"])
def test_without_sequence_moves_no_card_below_a_top_moves(variant: Variant) -> None:
    """A run that would move in FreeCell, with every cell free, one card at a time here."""
    piles = ["* QH JS TH", "KS", *["*"] * (len(variant.piles) - 2)]
    position = _layout(variant, piles, [None] * variant.cells)
    assert capacity(position, False) == 1
    with pytest.raises(IllegalMove, match="QH is not the top of tableau:0"):
        apply(position, Move(Card.parse("QH"), Location(TABLEAU, 0), Location(TABLEAU, 1)))
    assert all(_carried(position, move) == 1 for move in legal_moves(position))
    freecell = find_variant("freecell")
    if variant.cells == freecell.cells:  # the same position in FreeCell moves the run
        in_freecell = replace(position, variant=freecell)
        assert any(_carried(in_freecell, move) == 3 for move in legal_moves(in_freecell))


# --- sequence moves written out ---------------------------------------------------------

def _top(position: Position, source: Location) -> Card | None:
    """The card a single-card move from `source` moves: its pile's top or its cell's card."""
    if source.kind == TABLEAU:
        pile = position.tableau[source.index or 0]
        return pile[-1] if pile else None
    return position.cells[source.index or 0] if source.kind == CELL else None


def _random_line(position: Position, rng: random.Random, steps: int) -> tuple[Move, ...]:
    """Random legal moves: a sequence move half the time one is offered, and moves home
    (which empty piles) more often than their share."""
    line = []
    for _ in range(steps):
        moves = legal_moves(position)
        if not moves:
            break
        runs = [move for move in moves if _carried(position, move) > 1]
        home = [move for move in moves if move.target.kind == FOUNDATION]
        draw = rng.random()
        move = (rng.choice(runs) if runs and draw < 0.5
                else rng.choice(home) if home and draw < 0.6 else rng.choice(moves))
        line.append(move)
        position = apply(position, move)
    return tuple(line)


@pytest.mark.parametrize("variant", VARIANTS, ids=_ids(VARIANTS))
def test_sequence_moves_written_out_replay_to_the_same_position(variant: Variant) -> None:
    rng = random.Random(f"written out {variant.name}")
    starts = [deal(number, variant) for number in (1, 2, 3, 4)]
    starts += [endgame(rng.randint(1, 31_999), rng.randint(18, 30), rng, variant)
               for _ in range(8)]
    seen: Counter[str] = Counter()
    for start in starts:
        line = _random_line(start, rng, 80)
        for position, move in _positions_before(start, line):
            count = _carried(position, move)
            singles = single_cards(position, move)
            if count == 1:
                assert singles == (move,)
                continue
            assert len(singles) == _supermove(position, move)
            for before, single in _positions_before(position, singles):
                assert _top(before, single.source) == single.card
            _assert_same_position(replay(position, singles), apply(position, move))
            cells = sum(card is None for card in position.cells)
            seen["through piles" if count > cells + 1 else "through cells"] += 1
        # the whole line, written out, is legal one card at a time and ends where it does
        singles = written_out(start, line)
        assert single_card_length(start, line) == len(singles)
        alone = replace(start, variant=_single_card_rules(variant))
        _assert_same_position(replay(alone, singles), replay(start, line))
    assert seen["through cells"] >= 50
    if variant.empty is Fill.ANY:  # piles carry a run only where any card fills them
        assert seen["through piles"] >= 5


class _CarryByHand:
    """A run carried from pile 0 onto pile 1 one card at a time, its cards alone moving,
    through the free cells and the piles `through`: done when it lies on pile 1 and the
    cells and those piles are as they were."""

    def __init__(self, position: Position, count: int, through: tuple[int, ...]) -> None:
        self.position = position
        self.run = set(position.tableau[0][-count:])
        self.piles = {0, 1, *through}
        self.done = position.tableau[1] + position.tableau[0][-count:]

    def start(self) -> Position:
        return self.position

    def is_goal(self, position: Position) -> bool:
        return (position.tableau[1] == self.done
                and set(position.cells) == set(self.position.cells)
                and all(not position.tableau[k] for k in self.piles - {0, 1}))

    def successors(self, position: Position):  # type: ignore[no-untyped-def]
        for move in legal_moves(position):
            if (move.card in self.run and move.target.kind != FOUNDATION
                    and all(place.index in self.piles for place in (move.source, move.target)
                            if place.kind == TABLEAU)):
                yield move, apply(position, move), 1

    def heuristic(self, position: Position) -> int:
        return 0

    def key(self, position: Position) -> tuple:  # type: ignore[type-arg]
        return position.tableau, frozenset(position.cells)


def test_supermove_is_the_fewest_single_card_moves() -> None:
    """A breadth-first search over every way to carry a FreeCell run by hand finds no
    shorter one than `supermove` counts, up to the most the room carries."""
    by_hand = _single_card_rules(find_variant("freecell"))
    for cells in range(4):
        for piles in range(3):
            for count in range(2, min((cells + 1) << piles, 9) + 1):
                position, _ = _run_to_move(by_hand, count, cells, piles, False)
                carry = _CarryByHand(position, count, tuple(range(2, 2 + piles)))
                fewest = breadth_first(carry, Budget(nodes=100_000))
                assert fewest.status is Status.SOLVED, (cells, piles, count)
                assert fewest.cost == supermove(count, cells, piles), (cells, piles, count)


# --- the kernel against the Python reference --------------------------------------------

def _runs_over_low_cards(variant: Variant, cards_left: int, rng: random.Random) -> Position:
    """The top `cards_left` cards (the rest home): a few of the lowest at the bottoms of
    piles, then built runs of up to five, single cards partly in the free cells; so that
    runs must step off lower cards, which sequence moves do in fewer moves."""
    heights = [13, 13, 13, 13]
    for _ in range(cards_left):
        heights[rng.choice([s for s in range(4) if heights[s]])] -= 1
    cards = [Card(Rank(rank), suit) for suit in SUITS
             for rank in range(heights[suit.index] + 1, 14)]
    rng.shuffle(cards)
    low = sorted(cards, key=lambda card: card.rank)[:rng.randint(2, 4)]
    rest = [card for card in cards if card not in low]
    runs = []
    while rest:
        run = [max(rest, key=lambda card: card.rank + rng.random() * 4)]
        rest.remove(run[0])
        while len(run) < 5:
            fits = [card for card in rest if builds_on(variant.build, card, run[-1])]
            if not fits:
                break
            run.append(rng.choice(fits))
            rest.remove(run[-1])
        runs.append(run)
    singles = [run for run in runs if len(run) == 1]
    runs = [run for run in runs if len(run) > 1]
    cells: list[Card | None] = [None] * variant.cells
    for cell in rng.sample(range(variant.cells),
                           min(len(singles), rng.randint(variant.cells // 2, variant.cells))):
        cells[cell] = singles.pop()[0]
    piles: list[list[Card]] = [[] for _ in variant.piles]
    used = rng.randint(3, len(piles))
    for card in low:
        piles[rng.randrange(used)].append(card)
    for run in runs + singles:
        piles[rng.randrange(used)].extend(run)
    return Position(tuple(map(tuple, piles)), (), tuple(heights),  # type: ignore[arg-type]
                    cells=tuple(cells), variant=variant)





def _carrying(position: Position, state: State, sequences: bool) -> int:
    """Holds the kernel to the reference on `state`; how many of its successors carry a
    run."""
    children = check_kernel_state(position, state, sequences)
    return sum(1 for step, _, _ in children
               if step[0][1] not in (HOME, CELL_TARGET) and _run_length(state, step[0][0]) > 1)


def _run_length(state: State, card: int) -> int:
    """How many cards lie on and above `card` in its pile (0 when not in a pile)."""
    for pile in state.piles:
        if card in pile:
            return len(pile) - pile.index(card)
    return 0


def _kernel_positions(variant: Variant, rng: random.Random) -> list[Position]:
    positions = [deal(number, variant) for number in (1, 2, 3)]
    positions += [endgame(rng.randint(1, 31_999), rng.randint(12, 30), rng, variant)
                  for _ in range(5)]
    positions += [_runs_over_low_cards(variant, rng.randint(12, 24), rng) for _ in range(6)]
    positions += [scattered(rng.randint(10, 20), rng, variant) for _ in range(2)]
    narrow = _narrow(variant, 4, 2)
    positions += [_runs_over_low_cards(narrow, rng.randint(10, 16), rng) for _ in range(4)]
    return positions


@pytest.mark.parametrize("variant", VARIANTS, ids=_ids(VARIANTS))
def test_kernel_successors_and_bounds_equal_the_python_reference(variant: Variant) -> None:
    rng = random.Random(f"kernel {variant.name}")
    states = runs = 0
    for position in _kernel_positions(variant, rng):
        for sequences in (False, True):
            for state in walk(position, rng, 30, sequences):
                carrying = _carrying(position, state, sequences)
                assert sequences or carrying == 0
                states += 1
                runs += carrying
    assert states >= 300 and runs >= 30  # sequence moves were among the successors


@st.composite
def _family_positions(draw: st.DrawFn) -> Position:
    """A position of the family: a deal after random play, an endgame, or runs over low
    cards, on the full table or on four piles."""
    variant = draw(st.sampled_from(VARIANTS))
    rng = random.Random(draw(st.integers(0, 2**32 - 1)))
    kind = draw(st.sampled_from(["played", "endgame", "runs", "narrow runs"]))
    if kind == "played":
        start = deal(draw(st.integers(1, 31_999)), variant)
        return replay(start, _random_line(start, rng, draw(st.integers(0, 40))))
    if kind == "endgame":
        return endgame(draw(st.integers(1, 31_999)), draw(st.integers(6, 36)), rng, variant)
    if kind == "narrow runs":
        variant = _narrow(variant, 4, 2)
    return _runs_over_low_cards(variant, draw(st.integers(8, 30)), rng)


@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(_family_positions(), st.booleans(), st.randoms(use_true_random=False),
       st.integers(0, 30))
def test_kernel_equals_the_reference_on_random_positions(position: Position, sequences: bool,
                                                         rng: random.Random,
                                                         steps: int) -> None:
    for state in walk(position, rng, steps, sequences):
        check_kernel_state(position, state, sequences)


# --- optimal lengths against the plain rules --------------------------------------------

PLAIN = Budget(nodes=6_000)  # a case whose plain search needs more is left out, and counted
SEARCH = Budget(nodes=200_000)


def _small_positions(variant: Variant) -> list[tuple[str, Position]]:
    rng = random.Random(f"small {variant.name}")
    cases = [(f"deal-endgame{i}", endgame(rng.randint(1, 31_999), rng.randint(8, 16), rng,
                                          variant)) for i in range(3)]
    cases += [(f"runs{i}", _runs_over_low_cards(variant, rng.randint(10, 14), rng))
              for i in range(7)]
    for piles, cells, count, fewest in ((3, 1, 8, 12), (4, 2, 6, 8)):
        narrow = _narrow(variant, piles, cells)
        cases += [(f"{piles}piles{i}",
                   _runs_over_low_cards(narrow, rng.randint(fewest, fewest + 4), rng))
                  for i in range(count)]
    three = _narrow(variant, 3, 1)
    cases += [(f"3piles-scattered{i}", scattered(rng.randint(10, 16), rng, three))
              for i in range(6)]
    return cases


# the kernel by both optimal searches, and the Python reference (its oracle) by A*
SEARCHES = ((Engine.NATIVE, Algorithm.ASTAR), (Engine.NATIVE, Algorithm.IDASTAR),
            (Engine.PYTHON, Algorithm.ASTAR))


def _check_solution(position: Position, result: Solution, metric: Metric) -> None:
    """What every winning line owes: it wins through the plain rules, and written out in
    single cards, it wins too in as many moves as it says."""
    assert replay(position, result.moves).is_won
    written = result.written_out(position)
    assert written.single_cards and result.single_card_moves == len(written.moves)
    assert replay(position, written.moves).is_won
    assert set(_carried_per_move(position, written.moves)) == {1}
    if metric is Metric.CARDS:
        assert set(_carried_per_move(position, result.moves)) == {1}
        assert result.single_card_moves == result.length
    assert result.single_card_moves == sum(_supermove(before, move) for before, move
                                           in _positions_before(position, result.moves))


def _supermove(position: Position, move: Move) -> int:
    """The single-card moves `move` takes, by the count of `sequences.supermove`: through
    the empty cells and, where any card fills them, the empty piles but the target."""
    count = _carried(position, move)
    if count == 1:
        return 1
    cells = sum(card is None for card in position.cells)
    piles = sum(not pile for k, pile in enumerate(position.tableau) if k != move.target.index)
    return supermove(count, cells, piles if position.variant.empty is Fill.ANY else 0)


class Outcome(NamedTuple):
    case: str
    status: Status
    moves: int | None  # the optimal length in moves, a sequence move counting one
    cards: int | None  # the optimal length in single-card moves
    cards_left: int


def _assert_bound_admissible(position: Position, line: tuple[Move, ...],
                             sequences: bool) -> None:
    """At every position of an optimal line, the reference's lower bound (its opening
    moves home and its heuristic) is at most the moves the line has left."""
    for done, move in enumerate((*line, None)):
        problem = FortressProblem(position, thorough=True, sequences=sequences)
        assert len(problem.opening) + problem.heuristic(problem.start()) <= len(line) - done, (
            str(position), sequences)
        if move is not None:
            position = apply(position, move)


@cache
def _optimal_outcomes(variant: Variant) -> tuple[Outcome, ...]:
    """The outcome of each case the plain search settles, after holding both engines to
    it in both metrics."""
    found = []
    for name, position in _small_positions(variant):
        by_moves = astar(PlainRules(position), PLAIN)
        alone = replace(position, variant=_single_card_rules(position.variant))
        by_cards = astar(PlainRules(alone), PLAIN)
        if Status.UNKNOWN in (by_moves.status, by_cards.status):
            continue
        assert by_moves.status is by_cards.status, name  # sequence moves add no new places
        for metric, plain in ((Metric.MOVES, by_moves), (Metric.CARDS, by_cards)):
            for engine, algorithm in SEARCHES:
                result = by(engine, solve, position, Mode.OPTIMAL, algorithm, SEARCH, metric)
                where = (name, str(position), metric, engine, algorithm)
                assert result.status is plain.status, where
                if plain.status is Status.SOLVED:
                    assert result.optimal and result.metric is metric, where
                    assert result.length == result.lower_bound == plain.cost, where
                    _check_solution(position, result, metric)
        if by_moves.status is Status.SOLVED:
            assert by_moves.cost is not None and by_cards.cost is not None
            _assert_bound_admissible(position, by_moves.steps, True)
            _assert_bound_admissible(alone, by_cards.steps, False)
            assert position.cards_left() <= by_moves.cost <= by_cards.cost
        found.append(Outcome(name, by_moves.status, by_moves.cost, by_cards.cost,
                             position.cards_left()))
    return tuple(found)


@pytest.mark.parametrize("variant", VARIANTS, ids=_ids(VARIANTS))
def test_optimal_lengths_equal_the_plain_search_in_both_metrics(variant: Variant) -> None:
    outcomes = _optimal_outcomes(variant)
    assert len(outcomes) >= 26  # of 30: few plain searches run out of nodes
    solved = [o for o in outcomes if o.status is Status.SOLVED]
    assert len(solved) >= 12
    shorter = [o for o in solved if o.moves < o.cards]  # type: ignore[operator]
    assert len(shorter) >= 3  # sequence moves shorten the line
    assert any(o.moves > o.cards_left for o in shorter)  # type: ignore[operator]


def test_both_verdicts_are_checked_in_every_variant() -> None:
    for variant in VARIANTS:
        verdicts = Counter(o.status for o in _optimal_outcomes(variant))
        assert verdicts[Status.SOLVED] >= 12 and verdicts[Status.UNSOLVABLE] >= 3, variant.name


def test_forecell_deal_1_has_no_move_and_every_search_says_so() -> None:
    """All four cells dealt full and no card fits another: lost before it starts."""
    position = deal(1, find_variant("forecell"))
    assert legal_moves(position) == [] and not position.is_won
    for metric in Metric:
        for engine in Engine:
            for mode in Mode:
                result = by(engine, solve, position, mode, Algorithm.ASTAR, SEARCH, metric)
                assert result.status is Status.UNSOLVABLE, (metric, engine, mode)
                assert result.moves == () and result.length is None


# --- whole deals ------------------------------------------------------------------------

FULL_DEALS = {"freecell": (1, 2, 3, 4, 5), "bakers-game": (1, 2, 3), "eight-off": (1, 2, 3),
              "seahaven-towers": (1, 2, 3), "forecell": (2, 3, 4)}


@pytest.mark.parametrize("variant", VARIANTS, ids=_ids(VARIANTS))
def test_any_mode_wins_whole_deals_in_both_metrics(variant: Variant) -> None:
    """Natively every deal listed; the Python reference the first (it is slower)."""
    carried_runs = 0
    first = FULL_DEALS[variant.name][0]
    for number, engine in [(first, Engine.PYTHON)] + [(number, Engine.NATIVE)
                                                      for number in FULL_DEALS[variant.name]]:
        position = deal(number, variant)
        for metric in Metric:
            result = by(engine, solve, position, Mode.ANY, budget=SEARCH, metric=metric)
            assert result.status is Status.SOLVED and not result.optimal, (number, metric)
            assert result.length is not None and result.lower_bound is not None
            assert position.cards_left() <= result.lower_bound <= result.length
            assert result.length <= result.single_card_moves  # type: ignore[operator]
            _check_solution(position, result, metric)
            if metric is Metric.MOVES:
                carried_runs += sum(n > 1 for n in _carried_per_move(position, result.moves))
    assert carried_runs > 0  # the moves metric searched with sequence moves
