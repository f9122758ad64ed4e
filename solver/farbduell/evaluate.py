"""How good a position is for one seat: the log-odds of winning, as a weighted
difference of the two sides' features, with weights fitted to the outcomes of greedy
self-play games (bench/fit_farbduell_eval.py writes fitted_eval.toml).

The features are counts of cards in hand by kind: cards held (a waiting stack counts as
held), whether one or two are left, wilds, +2 and +4 cards, Skips and Reverses, the
largest colour, how many colours, cards of the colour in force, Bombs.
"""

from __future__ import annotations

import tomllib
from importlib.resources import files

from solver.errors import InvalidInput
from solver.farbduell.engine import State

WIN = 100.0
FEATURES = ("cards", "one_left", "two_left", "wilds", "draw2", "draw4", "turn_keepers",
            "largest_colour", "colours", "colour_in_force", "bombs")


def _fitted_weights() -> tuple[float, ...]:
    text = files("solver.farbduell").joinpath("fitted_eval.toml").read_text(encoding="utf-8")
    weights = tomllib.loads(text)["weights"]
    if set(weights) != set(FEATURES):
        raise InvalidInput(f"fitted_eval.toml must weigh exactly {', '.join(FEATURES)}")
    return tuple(float(weights[name]) for name in FEATURES)


WEIGHTS = _fitted_weights()


def evaluate(state: State, me: int, weights: tuple[float, ...] = WEIGHTS) -> float:
    """A win or a loss, else my features against the mean of the others'."""
    if state.winner is not None:
        return WIN if state.winner == me else -WIN
    mine = side_features(state, me)
    others = [side_features(state, seat) for seat in range(state.players) if seat != me]
    return sum(w * (a - sum(o[k] for o in others) / len(others))
               for k, (w, a) in enumerate(zip(weights, mine, strict=True)))


def side_features(state: State, seat: int) -> tuple[float, ...]:
    hand = state.hands[seat]
    held = len(hand) + (state.pending if state.to_move == seat else 0)
    colours = [sum(card.colour == colour for card in hand)
               for colour in state.table.config.colours]
    return (
        held, held == 1, held == 2,
        sum(card.wild for card in hand),
        sum(card.rank == "draw2" for card in hand),
        sum(card.rank == "draw4" for card in hand),
        sum(card.rank in ("skip", "reverse") for card in hand),
        max(colours), sum(1 for count in colours if count),
        sum(card.colour == state.colour for card in hand),
        sum(card.rank == "bomb" for card in hand),
    )
