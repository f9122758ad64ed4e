"""How good a position is for one player, in castle points: the evaluation that the
greedy bot maximises one action ahead and the hint search uses at its leaves.

It reads only what both players see (castles, walls, stocks, producers, effects);
`hand_value` adds the worth of a player's own hand, which only that player knows.
"""

from __future__ import annotations

from solver.ffkingdom.engine import cost
from solver.ffkingdom.rules import RESOURCES, Rules
from solver.ffkingdom.state import Player, State

WIN = 10_000.0


def evaluate(state: State, player: int) -> float:
    if state.winner is not None:
        return WIN if state.winner == player else -WIN
    me, them = state.players[player], state.players[1 - player]
    return _side(me, state) - _side(them, state)


def _side(p: Player, state: State) -> float:
    config = state.rules.config
    castle = p.castle + 0.3 * max(0, 30 - p.castle)   # the last points are the dearest
    castle += 0.6 * max(0, p.castle - 70)              # and so are those near the build win
    wall = 0.6 * min(p.wall, 30) + 0.25 * max(0, p.wall - 30)
    production = 4.0 * sum(p.producers[:3]) + 3.0 * p.producers[3]
    stocks = 0.35 * sum(min(s, 40) for s in p.stocks[:3]) + 0.2 * min(p.stocks[3], 30)
    if state.resource_win:
        top = max(p.stocks[:3])
        stocks += 0.6 * max(0, top - 60) * (top / config.resource_win)
    effects = 6.0 * p.shields + 2.0 * p.guards + 5.0 * p.double_next
    effects -= sum(per * ticks for per, ticks in p.poison)
    effects += 0.5 * sum(per * ticks for per, ticks in p.heal)
    return castle + wall + production + stocks + effects


def hand_value(state: State, player: int) -> float:
    """What the hand is worth to its holder."""
    p = state.players[player]
    return sum(card_value(p, card_id, state.rules) for card_id in p.hand)


def card_value(p: Player, card_id: str, rules: Rules) -> float:
    """Dearer cards do more; a card payable by next turn counts fully, one far out of
    reach little."""
    price = cost(p, rules.cards[card_id], rules)
    shortfall = sum(max(0, amount - p.stock(r) - _income(p, r, rules))
                    for r, amount in price.items())
    return 0.15 * (2.0 + 0.4 * sum(price.values())) / (1.0 + shortfall)


def _income(p: Player, resource: str, rules: Rules) -> int:
    """Producers line up with stocks: builders Z, soldiers W, mages K, markets G."""
    per_unit = rules.config.market_gold_per_turn if resource == "G" else 1
    return p.producers[RESOURCES.index(resource)] * per_unit
