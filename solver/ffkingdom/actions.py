"""The actions a player takes, with their text form: "play katapult",
"play blockade:magie", "discard angriff mauer", "timeout"."""

from __future__ import annotations

from dataclasses import dataclass

from solver.errors import InvalidInput


@dataclass(frozen=True)
class Play:
    card: str
    choice: str | None = None  # the card type a Blockade locks

    def __str__(self) -> str:
        return f"play {self.card}" + (f":{self.choice}" if self.choice else "")


@dataclass(frozen=True)
class Discard:
    cards: tuple[str, ...]  # sorted

    def __post_init__(self) -> None:
        object.__setattr__(self, "cards", tuple(sorted(self.cards)))

    def __str__(self) -> str:
        return "discard " + " ".join(self.cards)


@dataclass(frozen=True)
class Timeout:
    """The turn's timer ran out: no further action, the hand is still refilled."""

    def __str__(self) -> str:
        return "timeout"


Action = Play | Discard | Timeout


def parse_action(text: str) -> Action:
    words = text.split()
    if words == ["timeout"]:
        return Timeout()
    if len(words) == 2 and words[0] == "play":
        card, _, choice = words[1].partition(":")
        return Play(card, choice or None)
    if len(words) >= 2 and words[0] == "discard":
        return Discard(tuple(words[1:]))
    raise InvalidInput(f"action {text!r} is not \"play CARD[:TYPE]\", \"discard CARD...\" "
                       "or \"timeout\"")
