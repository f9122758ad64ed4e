"""A Stronghold position as a person reads it: the grid, the Stronghold row on top."""

from __future__ import annotations

from solver.stronghold.data import FORMAT, ROWS
from solver.stronghold.position import BASE, Position


def picture(position: Position) -> str:
    """The grid, the Stronghold row on top: each battlefield's controller and the
    units there with their Might; `--` removed, `??` not yet revealed."""
    width = 22
    lines = [f"turn {position.turn}: {position.player} to move; defender score "
             f"{position.defender_score}/{position.win_target}"]
    for k in reversed(range(len(ROWS))):
        cells = []
        for b in position.grid[k]:
            if b in position.removed:
                cell = f"{b} --"
            elif b not in position.active:
                cell = f"{b} ??"
            else:
                owner = position.controller.get(b, ".")
                units = " ".join(f"{u.id}:{u.might}" for u in position.units_at(b))
                cell = f"{b} {owner} {units}".rstrip()
            cells.append(cell.ljust(width))
        lines.append(f"{FORMAT['row_names'][k]:<15}" + "".join(cells).rstrip())
    bases = [f"{p}: " + " ".join(f"{u.id}:{u.might}{'' if u.ready else '*'}"
                                 for u in position.units_at(BASE, p))
             for p in position.turn_order if position.units_at(BASE, p)]
    if bases:
        lines.append("base (* exhausted)  " + "; ".join(bases))
    return "\n".join(lines)
