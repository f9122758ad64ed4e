"""Going out this turn, proven from what the mover knows: a line of the mover's own
actions that empties their hand before anyone else acts, in which no action shows them
a card they do not know (nothing enters their hand, the table does not turn over). Such
a line wins in every world the mover cannot tell from this one, so the hint may call it
a win, not a chance.

Any number of players and every table: the rules say whether the turn stays with the
mover (a two-player Skip or Reverse, a Skip-all). On the one-faced two-player tables it
finds the go-outs of solver/farbduell/chains.py, searched here by trying the plays.
"""

from __future__ import annotations

from collections import Counter

from solver.budget import Meter
from solver.farbduell.actions import Action, Draw, Keep, Play
from solver.farbduell.position import Position
from solver.farbduell.rules import apply, legal_actions


def winning_line(state: Position, action: Action, meter: Meter) -> tuple[Action, ...] | None:
    """The shortest line that begins with `action` and goes out this turn, showing the
    mover nothing they do not know; None when there is none. Ticks `meter` per action
    tried (BudgetExhausted when it runs out)."""
    me = state.to_move
    lines: list[tuple[tuple[Action, ...], Position]] = [((), state)]
    seen: set[Position] = set()
    while lines:   # breadth first: the first line out is a shortest
        deeper = []
        for line, current in lines:
            for step in (action,) if not line else legal_actions(current):
                meter.tick()
                after = _shows_nothing(current, step)
                if after is None:
                    continue
                if after.winner == me:
                    return (*line, step)
                if after.winner is None and after.to_move == me and after not in seen:
                    seen.add(after)
                    deeper.append(((*line, step), after))
        lines = deeper
    return None


def _shows_nothing(state: Position, action: Action) -> Position | None:
    """The state after the action, or None when it may show the mover a card they do
    not know before they have won: a draw, a card entering their hand, the table
    turning over."""
    if isinstance(action, (Draw, Keep)):
        return None
    after = apply(state, action)
    me = state.to_move
    if after.winner == me:
        return after
    left = Counter(state.hands[me])
    if isinstance(action, Play):
        left[action.card] -= 1
    if Counter(after.hands[me]) != +left or after.side != state.side:
        return None
    return after
