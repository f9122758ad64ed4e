"""How good a position is for one seat: the chance of winning, from the log-odds of a
weighted difference of the sides' features, with weights fitted to the outcomes of
self-play games (bench/fit_farbduell_eval.py writes fitted_eval.toml).

The features count the cards in hand by the faces in play: cards held (a waiting stack
counts as held), whether one or two are left, wilds, coloured penalties (+1, +2, +5) and
wild ones (+4, Farbjagd), the cards that keep the turn with two players, the largest
colour, how many colours, cards of the colour in force, Bombs. The weights were fitted on
the Classic table and serve the others as they are.
"""

from __future__ import annotations

import math
import tomllib
from importlib.resources import files

from solver.errors import InvalidInput
from solver.farbduell.position import Position

FEATURES = ("cards", "one_left", "two_left", "wilds", "penalties", "wild_penalties",
            "turn_keepers", "largest_colour", "colours", "colour_in_force", "bombs")
PENALTIES = ("draw1", "draw2", "draw5")
WILD_PENALTIES = ("draw4", "hunt")
TURN_KEEPERS = ("skip", "reverse", "skipall")


def _fitted_weights() -> tuple[float, ...]:
    text = files("solver.farbduell").joinpath("fitted_eval.toml").read_text(encoding="utf-8")
    weights = tomllib.loads(text)["weights"]
    if set(weights) != set(FEATURES):
        raise InvalidInput(f"fitted_eval.toml must weigh exactly {', '.join(FEATURES)}")
    return tuple(float(weights[name]) for name in FEATURES)


WEIGHTS = _fitted_weights()


def chance(state: Position, me: int, weights: tuple[float, ...] = WEIGHTS) -> float:
    """1 for a win, 0 for a loss, else the fitted chance of winning: a probability, so
    that averaging over sampled worlds weighs a lost world by what it costs."""
    if state.winner is not None:
        return float(state.winner == me)
    return 1 / (1 + math.exp(-log_odds(state, me, weights)))


def log_odds(state: Position, me: int, weights: tuple[float, ...] = WEIGHTS) -> float:
    """My features against the mean of the others', weighed."""
    mine = side_features(state, me)
    others = [side_features(state, seat) for seat in range(state.players) if seat != me]
    return sum(w * (a - sum(o[k] for o in others) / len(others))
               for k, (w, a) in enumerate(zip(weights, mine, strict=True)))


def side_features(state: Position, seat: int) -> tuple[float, ...]:
    faces = [state.face(card) for card in state.hands[seat]]
    held = len(faces) + (state.pending if state.to_move == seat else 0)
    colours = [sum(face.colour == colour for face in faces)
               for colour in state.table.colours(state.side)]
    return (
        held, held == 1, held == 2,
        sum(face.wild for face in faces),
        sum(face.rank in PENALTIES for face in faces),
        sum(face.rank in WILD_PENALTIES for face in faces),
        sum(face.rank in TURN_KEEPERS for face in faces),
        max(colours), sum(1 for count in colours if count),
        sum(face.colour == state.colour for face in faces),
        sum(face.rank == "bomb" for face in faces),
    )
