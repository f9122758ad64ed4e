"""How good a position is for one player: a weighted difference of the two sides'
features (castle, wall, producers, stocks, effects, and what the cards in hand could do).

Two sets of weights: the greedy bot's, set by hand in castle points, which weigh the
board alone; and the hint's, the log-odds of winning fitted to the outcomes of self-play
games (bench/fit_ffk_eval.py), which also weigh the hand: their logistic is the hint's
chance of winning (`win_chance`). The hint evaluates worlds in which the opponent's hand
is sampled, so it never reads a hand it cannot see.
"""

from __future__ import annotations

import math
import tomllib
from collections.abc import Sequence
from importlib.resources import files

from solver.errors import InvalidInput
from solver.ffkingdom.data import CardTable
from solver.ffkingdom.position import Player, State
from solver.ffkingdom.rules import surcharge

WIN = 10_000.0

BOARD_FEATURES = (
    "castle", "castle_below_30", "castle_above_70", "wall_to_30", "wall_above_30",
    "core_producers", "markets", "core_stocks_to_40", "gold_to_30", "resource_race",
    "shields", "guards", "double_next", "poison_left", "heal_left",
)
HAND_FEATURES = ("hand_damage", "hand_castle", "hand_wall", "hand_producers",
                 "hand_out_of_reach")
FEATURES = BOARD_FEATURES + HAND_FEATURES

# Set by hand in castle points and adjusted by greedy-against-greedy matches: a castle
# point counts 0.7 below 30, 1 up to 70 and 1.6 above (castle_below_30 at 0.8, meant to
# make the last points dearer, played worse than 0.3, which makes them cheaper).
BOARD_WEIGHTS = (1.0, 0.3, 0.6, 0.6, 0.25, 4.0, 3.0, 0.35, 0.2, 0.6, 6.0, 2.0, 5.0, -1.0, 0.5)


def _fitted_weights() -> tuple[float, ...]:
    """The hint's weights, fitted to game outcomes by bench/fit_ffk_eval.py."""
    text = files("solver.ffkingdom").joinpath("fitted_eval.toml").read_text(encoding="utf-8")
    weights = tomllib.loads(text)["weights"]
    if set(weights) != set(FEATURES):
        raise InvalidInput(f"fitted_eval.toml must weigh exactly {', '.join(FEATURES)}")
    return tuple(float(weights[name]) for name in FEATURES)


# Log-odds of winning per unit: the hint's scale.
FITTED_WEIGHTS = _fitted_weights()


def evaluate(state: State, player: int, weights: Sequence[float] = BOARD_WEIGHTS) -> float:
    """The weighted difference of the two sides' features; a won game is +-WIN. Weights
    for the board features alone leave the hands unread."""
    if state.winner is not None:
        return WIN if state.winner == player else -WIN
    hands = len(weights) > len(BOARD_FEATURES)
    mine = side_features(state.players[player], state, hands)
    theirs = side_features(state.players[1 - player], state, hands)
    return sum([w * (a - b) for w, a, b in zip(weights, mine, theirs, strict=True)])


def win_chance(state: State, player: int) -> float:
    """1 for a won game, 0 for a lost one, else the chance of winning by the hint's
    evaluation: its weights are the log-odds of winning fitted to self-play outcomes, so
    the logistic of it is the fitted chance."""
    if state.winner is not None:
        return float(state.winner == player)
    return chance(evaluate(state, player, FITTED_WEIGHTS))


def chance(log_odds: float) -> float:
    """The probability of these log-odds (no overflow at either end)."""
    if log_odds >= 0:
        return 1 / (1 + math.exp(-log_odds))
    odds = math.exp(log_odds)
    return odds / (1 + odds)


def log_odds(chance: float) -> float | None:
    """The log-odds of a probability; None for 0 or 1, whose log-odds are infinite."""
    if not 0 < chance < 1:
        return None
    return math.log(chance / (1 - chance))


def side_features(p: Player, state: State, hands: bool = True) -> tuple[float, ...]:
    """What one side has, as FEATURES names it (BOARD_FEATURES without `hands`): castle
    bands below 30 and above 70 apart, walls, stocks and gold with their large parts apart."""
    z, w, k, gold = p.stocks
    builders, soldiers, mages, markets = p.producers
    top = max(z, w, k)
    race = max(0, top - 60) * top / state.rules.config.resource_win if state.resource_win else 0
    return (
        p.castle, max(0, 30 - p.castle), max(0, p.castle - 70),
        min(p.wall, 30), max(0, p.wall - 30),
        builders + soldiers + mages, markets,
        min(z, 40) + min(w, 40) + min(k, 40), min(gold, 30), race,
        p.shields, p.guards, p.double_next,
        sum([per * ticks for per, ticks in p.poison]),
        sum([per * ticks for per, ticks in p.heal]),
        *(_hand_features(p, state.rules) if hands else ()),
    )


def _hand_features(p: Player, rules: CardTable) -> tuple[float, ...]:
    """What the cards in hand could do: damage, castle and wall they add, producers, and
    how many are out of reach next turn."""
    damage = castle = wall = producers = out_of_reach = 0
    reach = _reach(p, rules)
    for card_id in p.hand:
        effect = rules.cards[card_id].effect
        damage += effect.get("dmg", 0) + effect.get("direct", 0)
        castle += effect.get("castle", 0)
        wall += effect.get("wall", 0)
        producers += "producer" in effect
        terms = rules.terms[card_id]
        extra = surcharge(p, terms, rules.config)
        out_of_reach += any(reach[k] < amount + extra for k, amount in terms.cost)
    return damage, castle, wall, producers, out_of_reach


def card_value(p: Player, card_id: str, rules: CardTable) -> float:
    """Dearer cards do more; a card payable by next turn counts fully, one far out of
    reach little."""
    terms = rules.terms[card_id]
    extra = surcharge(p, terms, rules.config)
    reach = _reach(p, rules)
    price = shortfall = 0
    for k, amount in terms.cost:
        price += amount + extra
        shortfall += max(0, amount + extra - reach[k])
    return 0.15 * (2.0 + 0.4 * price) / (1.0 + shortfall)


def _reach(p: Player, rules: CardTable) -> tuple[int, ...]:
    """Each stock (in RESOURCES order) with next turn's production added: producers line
    up with stocks, builders Z, soldiers W, mages K, markets G."""
    stocks, producers = p.stocks, p.producers
    return (stocks[0] + producers[0], stocks[1] + producers[1], stocks[2] + producers[2],
            stocks[3] + producers[3] * rules.config.market_gold_per_turn)
