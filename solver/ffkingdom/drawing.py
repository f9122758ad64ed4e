"""A Fortress Fight Kingdom position as a person reads it: each side's castle, wall,
stocks and producers, the hand of the player to move and what it knows of the hidden
cards, and the piles."""

from __future__ import annotations

from solver.ffkingdom.data import PRODUCERS, RESOURCES
from solver.ffkingdom.knowledge import known
from solver.ffkingdom.position import Player, Position
from solver.ffkingdom.rules import win_reason


def picture(position: Position) -> str:
    state = position.state
    lines = [f"round {state.round}: player {state.to_move} to move, "
             f"{state.actions_left} action{'s' * (state.actions_left != 1)} left"
             + ("" if state.winner is None else f"; player {state.winner} has won")
             + ("" if (reason := win_reason(state)) is None else f": {reason}")]
    for seat, player in enumerate(state.players):
        shown = seat == state.to_move or position.opponent_hand_known
        lines.append(f"player {seat}{' (to move)' if seat == state.to_move else ''}: "
                     + _side(player))
        hand = " ".join(player.hand) if shown else f"{len(player.hand)} cards unseen"
        lines.append(f"  hand: {hand or '(empty)'}")
    knows = known(state)
    if knows and not position.opponent_hand_known:
        facts = []
        if knows.opponent_hand:
            facts.append("the opponent holds " + " ".join(knows.opponent_hand))
        if knows.deck_top:
            facts.append("the deck's top is " + " ".join(knows.deck_top))
        lines.append(f"player {state.to_move} knows: " + "; ".join(facts))
    deck = f"{len(state.deck)} cards" + ("" if position.deck_known else " (order unseen)")
    top = state.discard[-1] if state.discard else "(empty)"
    lines.append(f"deck: {deck}; discard: {len(state.discard)} cards, top {top}")
    return "\n".join(lines)


def _side(player: Player) -> str:
    stocks = " ".join(f"{name} {n}" for name, n in zip(RESOURCES, player.stocks, strict=True))
    producers = " ".join(f"{name} {n}" for name, n in
                         zip(PRODUCERS, player.producers, strict=True))
    extras = [f"shields {player.shields}" if player.shields else "",
              f"guards {player.guards}" if player.guards else "",
              f"locked {player.locked}" if player.locked else "",
              "next card doubled" if player.double_next else "",
              f"poisoned {len(player.poison)}x" if player.poison else ""]
    return "; ".join([f"castle {player.castle}, wall {player.wall}", stocks, producers,
                      *filter(None, extras)])
