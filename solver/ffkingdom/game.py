"""Fortress Fight Kingdom as the service and the command line see it: its descriptor.

A position is a `Position` state: the puzzle over more than one turn needs to know whether
the opponent's hand and the deck order were given or filled in.
"""

from __future__ import annotations

from dataclasses import dataclass, field, replace
from typing import Any

from solver.budget import TURNS_BOUNDS, WORLDS_BOUNDS, Budget, check_turns, check_worlds
from solver.ffkingdom.actions import parse_action
from solver.ffkingdom.data import shipped_cards
from solver.ffkingdom.drawing import picture
from solver.ffkingdom.hints import Hint, Settings, hint
from solver.ffkingdom.policies import greedy_action
from solver.ffkingdom.position import NAME, Position
from solver.ffkingdom.puzzles import PuzzleAnswer, check_complete, solve_puzzle
from solver.ffkingdom.rules import apply, legal_actions, new_game, win_reason
from solver.ffkingdom.schema import position_schema
from solver.games import Game, Question


@dataclass(frozen=True)
class PuzzleOptions:
    turns: int = field(default=1, metadata={
        "help": "own turns to win within (above 1 needs the opponent's hand and the deck "
                "order)", **TURNS_BOUNDS})

    def __post_init__(self) -> None:
        check_turns(self.turns)


@dataclass(frozen=True)
class HintOptions:
    worlds: int = field(default=Settings().worlds, metadata={
        "help": "samples of the cards the player to move cannot see", **WORLDS_BOUNDS})
    seed: int = field(default=0, metadata={"help": "seeds the sampling: same seed, same hint"})
    knowing: bool = field(default=True, metadata={
        "help": "sample around what the player knows (--no-knowing: blind, as hint-blind)"})

    def __post_init__(self) -> None:
        check_worlds(self.worlds)


def _complete(position: Position, options: PuzzleOptions) -> None:
    check_complete(position, options.turns)


def _puzzle(position: Position, options: PuzzleOptions, budget: Budget) -> PuzzleAnswer:
    return solve_puzzle(position.state, options.turns, budget)


def _hint(position: Position, options: HintOptions, budget: Budget) -> Hint:
    return hint(position.state, budget,
                Settings(worlds=options.worlds, knowing=options.knowing), options.seed)


def play(position: Position, text: str) -> Position:
    """The position after the player to move takes one action (`play katapult`,
    `discard angriff mauer`, `timeout`); cards drawn come from the position's seed."""
    return replace(position, state=apply(position.state, parse_action(text)))


def moves(position: Position) -> tuple[str, ...]:
    if position.state.winner is not None:
        return ()
    return tuple(str(action) for action in legal_actions(position.state))


def start(seed: int) -> Position:
    """A new game on the shipped rules, seat 0 first, everything known."""
    return Position(new_game(shipped_cards(), seed, first_player=0), True, True)


def _to_json(position: Position) -> dict[str, Any]:
    return position.to_json()


PUZZLE = Question("puzzle", "win this turn, or force a win within N turns (exact)",
                  PuzzleOptions, PuzzleAnswer, _puzzle, check=_complete, seconds=60.0)
HINT = Question("hint", "the best action from what the player to move sees",
                HintOptions, Hint, _hint)

GAME: Game[Position] = Game(
    name=NAME,
    aliases=("ffk", "ffkingdom", "kingdom"),
    summary="Fortress Fight Kingdom: two castles, a shared deck, walls and producers",
    from_json=Position.from_json,
    to_json=_to_json,
    schema=position_schema,
    questions=(PUZZLE, HINT),
    draw=picture,
    play=play,
    moves=moves,
    winner=lambda position: position.state.winner,
    win_reason=lambda position: win_reason(position.state),
    start=start,
    to_move=lambda position: position.state.to_move,
    bot=lambda position: str(greedy_action(position.state)),
)
