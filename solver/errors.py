"""Errors for bad input: each names every problem found, never just the first."""

from __future__ import annotations


class InvalidInput(ValueError):
    """Input that cannot be a position or move; `problems` lists each fault in words."""

    def __init__(self, problems: list[str] | str) -> None:
        self.problems = [problems] if isinstance(problems, str) else list(problems)
        super().__init__("; ".join(self.problems))


class IllegalMove(ValueError):
    """A well-formed move that the rules do not allow in this position."""


class OutOfRange(InvalidInput):
    """A number outside its allowed range, such as a deal number."""
