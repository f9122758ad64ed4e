"""Farbduell as the service and the command line see it: its positions (on the shipped
tables) and its three questions, a forced-win puzzle, a go-out chain and a hint."""

from __future__ import annotations

from dataclasses import dataclass, field

from solver.budget import TURNS_BOUNDS, WORLDS_BOUNDS, Budget, check_turns, check_worlds
from solver.errors import InvalidInput
from solver.farbduell.actions import parse_action
from solver.farbduell.chains import OBJECTIVES, Chain, best_chain, objective_problem
from solver.farbduell.data import default_tables
from solver.farbduell.drawing import picture
from solver.farbduell.hints import Hint, Settings, hint
from solver.farbduell.policies import greedy_action
from solver.farbduell.position import NAME, Position
from solver.farbduell.puzzles import PuzzleAnswer, solve_puzzle
from solver.farbduell.reading import read
from solver.farbduell.rules import apply, legal_actions, new_game
from solver.farbduell.schema import position_schema
from solver.games import Game, Question


@dataclass(frozen=True)
class PuzzleOptions:
    turns: int = field(default=1, metadata={"help": "own turns to force the win within",
                                            **TURNS_BOUNDS})

    def __post_init__(self) -> None:
        check_turns(self.turns)


@dataclass(frozen=True)
class ChainOptions:
    objective: str = field(default="cards", metadata={
        "help": "what the longest chain maximises when going out is impossible",
        "choices": OBJECTIVES})

    def __post_init__(self) -> None:
        if (problem := objective_problem(self.objective)) is not None:
            raise InvalidInput(problem)


@dataclass(frozen=True)
class HintOptions:
    worlds: int = field(default=Settings().worlds, metadata={
        "help": "samples of the cards the mover does not know", **WORLDS_BOUNDS})
    seed: int = field(default=0, metadata={"help": "the samples' seed"})
    knowing: bool = field(default=True, metadata={
        "help": "deal the samples around what the mover has seen (--no-knowing: blind)"})

    def __post_init__(self) -> None:
        check_worlds(self.worlds)


def run_puzzle(state: Position, options: PuzzleOptions, budget: Budget) -> PuzzleAnswer:
    return solve_puzzle(state, options.turns, budget)


def run_chain(state: Position, options: ChainOptions, budget: Budget) -> Chain:
    return best_chain(state, options.objective, budget)


def run_hint(state: Position, options: HintOptions, budget: Budget) -> Hint:
    return hint(state, budget, Settings(worlds=options.worlds, knowing=options.knowing),
                options.seed)


PUZZLE = Question("puzzle", "force a win within N own turns (all cards known)",
                  PuzzleOptions, PuzzleAnswer, run_puzzle, seconds=60.0)
CHAIN = Question("chain", "go out before the opponent's turn (CP-SAT)",
                 ChainOptions, Chain, run_chain)
HINT = Question("hint", "the best play from what the player to move knows",
                HintOptions, Hint, run_hint)

def play(state: Position, text: str) -> Position:
    """The position after the player to move takes one action (`play red-7`, `play joker
    blue`, `draw`, `keep`, `choose pink`); cards drawn come from the position's seed."""
    return apply(state, parse_action(text, state.table))


def moves(state: Position) -> tuple[str, ...]:
    if state.winner is not None:
        return ()
    return tuple(str(action) for action in legal_actions(state))


def start(seed: int) -> Position:
    """A new two-player game on the Classic table, seat 0 first."""
    return new_game(default_tables()["classic"], 2, seed, first=0)


GAME: Game[Position] = Game(
    name=NAME, aliases=(),
    summary="Farbduell: shed your hand on the Classic, Belagerung or Tag & Nacht table",
    from_json=read, to_json=Position.to_json, schema=position_schema,
    questions=(PUZZLE, CHAIN, HINT), draw=picture, play=play, moves=moves,
    winner=lambda state: state.winner, start=start, to_move=lambda state: state.to_move,
    bot=lambda state: str(greedy_action(state)), imports=("solver.cpsat",))
