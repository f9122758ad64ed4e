"""Farbduell positions for the tests: the shipped tables, a state built from its hands
(the discard's top card and any other fields given), cards played by their names, and the
positions the server tests share: a chain that goes out, one that cannot, a forced win in
two turns, a new game."""

from __future__ import annotations

from solver.farbduell.actions import Draw, Keep, Play
from solver.farbduell.data import load_tables
from solver.farbduell.position import Position
from solver.farbduell.rules import apply, new_game

TABLES = load_tables()


def position(*hands: list[str], table: str = "classic", top: str = "red-9", **fields) -> Position:
    return Position.from_json({"table": table, "hands": list(hands), "discard": [top], **fields},
                              TABLES)


def play(state: Position, *texts: str) -> Position:
    """Each text is a card, "CARD COLOUR" for a wild, "draw" or "keep"."""
    for text in texts:
        if text in ("draw", "keep"):
            state = apply(state, Draw() if text == "draw" else Keep())
            continue
        card, _, colour = text.partition(" ")
        state = apply(state, Play(state.table.card(card), colour or None))
    return state


# Goes out: two Skips keep the turn, the 7 ends it.
GOES_OUT = {"hands": [["red-skip", "blue-skip", "blue-7"], ["green-1"]], "discard": ["red-9"]}
# Cannot go out: the longest chain is the Skip, then the Joker (naming red).
WILD = {"hands": [["red-skip", "joker", "blue-5", "green-2"], ["green-1"]],
        "discard": ["red-9"]}


def _two_turns() -> dict:
    """No win this turn, a forced win in two: the yellow-3 drawn by the opponent cannot
    be played on either 1 (test_puzzles' position, with the draw pile given)."""
    data = Position.from_json({"hands": [["red-1", "blue-1"], ["green-5", "green-6"]],
                               "discard": ["red-9"]}, TABLES).to_json()
    data["draw_pile"].remove("yellow-3")
    data["draw_pile"].insert(0, "yellow-3")
    return data


TWO_TURNS = _two_turns()


def view(seed: int) -> dict:
    """A new two-player Classic game (a hint sees only the mover's hand of it)."""
    return new_game(TABLES["classic"], 2, seed).to_json()
