"""Stronghold's RPCs: Solve (clear or race) and Hint (the attacker's plan), through its
typed messages as service/stronghold/messages.py maps them."""

from service.generic.typed import Typed
from service.stronghold.messages import VIEW


class Handler(Typed):
    view = VIEW
