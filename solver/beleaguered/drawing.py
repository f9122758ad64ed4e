"""A Beleaguered Fortress position as a person reads it: one line per pile, bottom card
first, then the reserve and the foundations."""

from __future__ import annotations

from solver.beleaguered.position import Position


def picture(position: Position) -> str:
    lines = [f"tableau:{i}  " + " ".join(map(str, pile)) for i, pile in enumerate(position.tableau)]
    lines.append("reserve    " + " ".join("--" if c is None else str(c) for c in position.reserve))
    lines.append("foundation " + " ".join(f"{suit}:{top}" for suit, top in
                                          position.to_json()["foundations"].items()))
    return "\n".join(lines)
