"""Errors for bad input: each names every problem found, never just the first."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from solver.games import Game


class InvalidInput(ValueError):
    """Input that cannot be a position or move; `problems` lists each fault in words.
    `command_line`: what the command line says after them, naming the flag that mends
    it ("(or give --rules FILE)"); a server's caller has no flags, so the service's
    message is the problems alone."""

    def __init__(self, problems: list[str] | str, command_line: str = "") -> None:
        self.problems = [problems] if isinstance(problems, str) else list(problems)
        self.command_line = command_line
        super().__init__("; ".join(self.problems))


class IllegalMove(ValueError):
    """A well-formed move that the rules do not allow in this position."""


class OutOfRange(InvalidInput):
    """A number outside its allowed range, such as a deal number."""


class OtherGame(InvalidInput):
    """A position of another game than the one asked about: the one fault worth naming,
    before any its fields would have here; `game` is the game it is."""

    def __init__(self, game: Game[Any], asked: Game[Any]) -> None:
        self.game = game
        super().__init__(f"this is a {game.title} position, not a {asked.title} one")
