"""Beleaguered Fortress as the service and the command line see it: its descriptor."""

from __future__ import annotations

from dataclasses import dataclass, field, replace
from typing import Any

from solver.beleaguered.deals import deal
from solver.beleaguered.drawing import picture
from solver.beleaguered.grading import Grading, grade_moves, hint_part
from solver.beleaguered.notation import Notation, check, read
from solver.beleaguered.position import FORMER_NAME, NAME, Position
from solver.beleaguered.rules import apply, legal_moves
from solver.beleaguered.solve import (
    ENGINES,
    Algorithm,
    Hint,
    Metric,
    Mode,
    Solution,
    hint,
    solve,
)
from solver.budget import HINT_SECONDS, Budget
from solver.games import Game, Question
from solver.shared_budget import SharedBudget, one_after_another

_METRIC = ("what a length counts: moves (a built run moved as one move counts one, where "
           "the variant has sequence moves) or single cards; an optimal search minimises it")
_NOTATION = ("how the moves are printed: ours (7H tableau:2 foundation) or standard "
             "notation (3a, a8, 54, 2h, 24v2: piles from 1, cells from a, h home), which "
             "a variant with a reserve or worrying back has not; a move's JSON carries both "
             "where it can")


@dataclass(frozen=True)
class SolveOptions:
    """`metric`: what an optimal line minimises (moves, or single cards); `single_cards`:
    the line written out in single-card moves; `moves` off: the answer without the line's
    moves, its length kept (a verdict, as a batch that counts wins needs)."""

    mode: Mode = field(default=Mode.OPTIMAL, metadata={
        "help": "optimal: the fewest moves, proven; any: a short line fast (best-first by "
                "the bound); verdict: the first win found, or a proof there is none, as "
                "fast as can be (its line replays, of any length)"})
    algorithm: Algorithm = field(default=Algorithm.ASTAR, metadata={
        "help": "the optimal search (any and verdict modes take their own)"})
    metric: Metric = field(default=Metric.MOVES, metadata={"help": _METRIC})
    single_cards: bool = field(default=False, metadata={
        "help": "the line written out in single-card moves (each sequence move as the "
                "single-card moves it is)"})
    moves: bool = field(default=True, metadata={
        "help": "the line's moves in the answer (off: its verdict and length alone)"})
    steps: bool = field(default=False, metadata={
        "help": "also the position after every move (`steps`); printed, the board at the "
                "start and after every move"})
    notation: Notation = field(default=Notation.OURS, metadata={"help": _NOTATION})


@dataclass(frozen=True)
class HintOptions:
    metric: Metric = field(default=Metric.MOVES, metadata={"help": _METRIC})
    all_moves: bool = field(default=False, metadata={
        "help": "grade every legal move too: wins in N moves (counting it), wins (a line "
                "found, not proven shortest), loses (proven) or unknown, best first, the "
                "hint's search having half the budget, the grading the rest"})
    notation: Notation = field(default=Notation.OURS, metadata={"help": _NOTATION})


@dataclass(frozen=True)
class GradeOptions:
    metric: Metric = field(default=Metric.MOVES, metadata={"help": _METRIC})
    notation: Notation = field(default=Notation.OURS, metadata={"help": _NOTATION})


def _check(position: Position, options: SolveOptions | HintOptions | GradeOptions) -> None:
    """Standard notation asked of a variant that has none is refused, saying why."""
    if options.notation is Notation.STANDARD:
        check(position.variant)


def _solve(position: Position, options: SolveOptions, budget: Budget) -> Solution:
    solution = solve(position, options.mode, options.algorithm, budget, options.metric)
    if options.single_cards:
        solution = solution.written_out(position)
    solution = solution if options.moves else solution.without_moves()
    return solution.with_steps(position) if options.steps else solution


def _hint(position: Position, options: HintOptions, budget: Budget) -> Hint:
    """The hint, then, when asked, the grading of every move in what it left of the
    budget (its search having a part of it, grading.hint_part)."""
    if not options.all_moves:
        return hint(position, budget, options.metric)
    shared = SharedBudget(budget)
    advice = hint(position, hint_part(budget), options.metric)
    shared.spend(advice.stats)
    left = shared.left()
    grading = (Grading.unknown(shared.elapsed()) if left is None
               else grade_moves(position, left, options.metric))
    return with_grades(advice, grading, position)


def with_grades(advice: Hint, grading: Grading, position: Position) -> Hint:
    """The hint with every legal move of `position` graded: its own move as the hint
    knows it, those the grading has no grade for (its budget ran out before it began)
    unknown; its statistics those of the hint's search and the grading's together."""
    graded = grading.covering(legal_moves(position)).with_hint(advice)
    return replace(advice, all_moves=graded.moves,
                   stats=one_after_another(advice.stats, grading.stats), start=position)


def play(position: Position, text: str, notation: Notation | None = None) -> Position:
    """The position after one move: its JSON (`{"card": "7H", "from": "tableau:2", "to":
    "foundation"}`) or its text, in our notation (`7H tableau:2 foundation`, as `str(move)`
    prints it) or standard notation (`3a`), as `solve` prints it too (notation.read);
    `notation`: in that one only."""
    return apply(position, read(position, text, notation))


def moves(position: Position) -> tuple[str, ...]:
    """The legal moves, none once the game is won (a card may still leave its foundation)."""
    if position.is_won:
        return ()
    return tuple(str(move) for move in legal_moves(position))


def winner(position: Position) -> int | None:
    return 0 if position.is_won else None


def _grade(position: Position, options: GradeOptions, budget: Budget) -> Grading:
    return grade_moves(position, budget, options.metric)


def _to_json(position: Position) -> dict[str, Any]:
    return position.to_json()


def _from_json(data: Any) -> Position:
    from solver.beleaguered.reading import read  # the wire schema only for a file to read

    return read(data)


def _from_text(text: str) -> Position:
    from solver.beleaguered.board_text import read_board

    return read_board(text)


def _schema() -> dict[str, Any]:
    from solver.beleaguered.schema import position_schema

    return position_schema()


SOLVE = Question("solve", "the fewest moves that win, any win, or a proof there is none",
                 SolveOptions, Solution, _solve, _check, seconds=60)
# what a hint's or a grading's larger budget buys, beside the default second (HINT_SECONDS)
_BUYS = ("the best line found within it is answered with its bounds (wins in at most N, "
         "at least M) unless proven shortest in time; a larger --seconds buys the proof")
HINT = Question("hint", "the next move of an optimal solution, or of the best line found "
                "in the budget", HintOptions, Hint, _hint, _check,
                seconds=HINT_SECONDS, quick=True, seconds_help=_BUYS)
GRADE = Question("grade", "every legal move: wins in N moves, loses, or unknown",
                 GradeOptions, Grading, _grade, _check, seconds=HINT_SECONDS, quick=True,
                 seconds_help=_BUYS)

GAME: Game[Position] = Game(
    name=NAME,  # the family's
    # its former name first, for old positions and clients: that is the variant it plays
    # by default, and no other variant's name is an alias (--variant is for those)
    aliases=(FORMER_NAME, "beleaguered", "bf"),
    summary="Patience: Beleaguered Fortress and its castle and FreeCell families, one "
            "deck, every card face up",
    from_json=_from_json,
    from_text=_from_text,
    text_name="Freecell Solver's board text",
    to_json=_to_json,
    schema=_schema,
    questions=(SOLVE, HINT, GRADE),
    draw=picture,
    deal=deal,
    play=play,
    moves=moves,
    winner=winner,
    imports=ENGINES,
)
