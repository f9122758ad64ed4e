"""A position of Beleaguered Fortress's family as a person reads it: one line per pile,
bottom card first, then the free cells (where the variant has them), the reserve (where
it has one) and the foundations. A Beleaguered Fortress position is drawn as it always
was: its eight piles, its reserve line and its foundations."""

from __future__ import annotations

from solver.beleaguered.position import Position
from solver.cards import Card


def picture(position: Position) -> str:
    lines = [f"{f'tableau:{i}':<10} " + " ".join(map(str, pile))
             for i, pile in enumerate(position.tableau)]
    if position.variant.cells or position.cells:
        lines.append("cells      " + _slots(position.cells))
    if position.variant.reserve or position.reserve:
        lines.append("reserve    " + _slots(position.reserve))
    lines.append("foundation " + " ".join(f"{suit}:{top}" for suit, top in
                                          position.to_json()["foundations"].items()))
    return "\n".join(lines)


def _slots(cards: tuple[Card | None, ...]) -> str:
    """Held cards in slot order, "--" for an empty slot."""
    return " ".join("--" if card is None else str(card) for card in cards)
