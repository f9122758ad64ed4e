"""The actions a player takes, with their text form: "play red-7", "play joker blue",
"draw", "keep", "choose pink"."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from solver.errors import InvalidInput
from solver.farbduell.data import Card, Table


@dataclass(frozen=True)
class Play:
    card: Card
    colour: str | None = None   # the colour a wild names (or a Tischwende turning over a wild)

    def __str__(self) -> str:
        return f"play {self.card}" + (f" {self.colour}" if self.colour else "")


@dataclass(frozen=True)
class Draw:
    """Draw one card, or collect the waiting stack, or draw out a waiting hunt."""

    def __str__(self) -> str:
        return "draw"


@dataclass(frozen=True)
class Keep:
    """Keep the card just drawn; the turn ends."""

    def __str__(self) -> str:
        return "keep"


@dataclass(frozen=True)
class Choose:
    """Name the colour in force (Tag & Nacht): after the midnight clock turns the table
    over onto a wild face, the player receiving the turn does so before acting."""

    colour: str

    def __str__(self) -> str:
        return f"choose {self.colour}"


Action = Play | Draw | Keep | Choose


def step_json(player: int, action: Action) -> dict[str, Any]:
    """A line's step as JSON: the seat that takes it and the action's text, with the card
    a play plays and the colour it or a choice names, when it has them."""
    step: dict[str, Any] = {"player": player, "action": str(action)}
    if isinstance(action, Play):
        step["card"] = str(action.card)
    if isinstance(action, Play | Choose) and action.colour:
        step["colour"] = action.colour
    return step


def parse_action(text: str, table: Table) -> Action:
    """An action from its text, its card read by `table`; whether it is legal is the
    rules' question."""
    word, *rest = text.split() or [""]
    if word == "play" and len(rest) in (1, 2):
        return Play(table.card(rest[0]), rest[1] if len(rest) == 2 else None)
    if word == "choose" and len(rest) == 1:
        return Choose(rest[0])
    if text in ("draw", "keep"):
        return Draw() if text == "draw" else Keep()
    raise InvalidInput(f"{text!r} is not a Farbduell action")
