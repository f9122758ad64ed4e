"""Fortress Fight Kingdom: the card table, the rules engine, exact puzzles and hints.

Its descriptor for the service and the command line is `solver.ffkingdom.game.NAME`;
its rules in the project's words are docs/fortress-fight-kingdom.md.
"""

from solver.ffkingdom.actions import Action, Discard, Play, Timeout, parse_action
from solver.ffkingdom.data import Card, CardTable, Config, load_cards
from solver.ffkingdom.position import NAME, Player, Position, State
from solver.ffkingdom.reading import load, parse
from solver.ffkingdom.rules import apply, cost, legal_actions, new_game, why_not_playable

__all__ = [
    "NAME", "Action", "Card", "CardTable", "Config", "Discard", "Play", "Player", "Position",
    "State", "Timeout", "apply", "cost", "legal_actions", "load", "load_cards", "new_game",
    "parse", "parse_action", "why_not_playable",
]
