"""Fortress Fight Kingdom's RPCs: Solve (the puzzles) and Hint, through its typed
messages as service/ffkingdom/messages.py maps them."""

from service.ffkingdom.messages import VIEW
from service.generic.typed import Typed


class Handler(Typed):
    view = VIEW
