"""A Farbduell position as a person reads it: every seat's hand (its size only for the
others'), the top of the pile, the colour in force and what is waiting."""

from __future__ import annotations

from solver.farbduell.position import Position


def picture(state: Position) -> str:
    lines = [f"{state.table.name}: seat {state.to_move} to move"
             + ("" if state.winner is None else f"; seat {state.winner} has won")]
    for seat, hand in enumerate(state.hands):
        cards = " ".join(map(str, hand)) if seat == state.to_move else f"{len(hand)} cards"
        shield = f" (shields {state.shields[seat]})" if state.shields and state.shields[seat] \
            else ""
        lines.append(f"seat {seat}{' (to move)' if seat == state.to_move else ''}: "
                     f"{cards or '(no cards)'}{shield}")
    top = str(state.discard[-1]) if state.discard else "(empty)"
    waiting = [f"{state.pending} cards to draw ({state.pending_kind})" if state.pending else "",
               f"fuse {state.fuse.count}" if state.fuse else "",
               f"clock {state.clock.count}" if state.clock else "",
               f"drawn {state.drawn}: play or keep" if state.drawn else "",
               f"side {state.side}" if state.side != "day" else ""]
    lines.append(f"pile: top {top}, colour {state.colour or '(to be named)'}; "
                 f"draw pile {len(state.draw_pile)} cards"
                 + "".join(f"; {item}" for item in waiting if item))
    return "\n".join(lines)
