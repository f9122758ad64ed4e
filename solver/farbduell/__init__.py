"""Farbduell: the tables as data, the rules on the Classic, Belagerung and Tag & Nacht
tables, exact puzzles, go-out chains (CP-SAT) and hints.

data.py holds the tables (the decks, from tables.toml), position.py the position value,
actions.py the actions and their text, rules.py a new game, the legal actions and
applying one, schema.py and reading.py the reading of a position's JSON, game.py the
questions the service and the command line ask.
"""

from solver.farbduell.actions import Action, Choose, Draw, Keep, Play, parse_action
from solver.farbduell.data import Card, Table, default_tables, load_tables
from solver.farbduell.position import NAME, Clock, Fuse, Position
from solver.farbduell.rules import apply, legal_actions, new_game, playable, scores

__all__ = [
    "NAME", "Action", "Card", "Choose", "Clock", "Draw", "Fuse", "Keep", "Play", "Position",
    "Table", "apply", "default_tables", "legal_actions", "load_tables", "new_game",
    "parse_action", "playable", "scores",
]
