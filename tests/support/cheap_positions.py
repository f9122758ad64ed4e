"""Positions whose every card goes home in turn, dealt at random: an optimal solve of
52 moves at once, whose 53 hints fill an answer cache (what a client may flood a
server's cache with)."""

from __future__ import annotations

import random
from typing import Any


def cheap_freecell(rng: random.Random) -> dict[str, Any]:
    """Such a FreeCell position's JSON."""
    tops = dict.fromkeys("CDHS", 0)
    piles: list[list[str]] = [[] for _ in range(8)]
    while any(top < 13 for top in tops.values()):
        suit = rng.choice([suit for suit, top in tops.items() if top < 13])
        piles[rng.randrange(8)].insert(0, "A23456789TJQK"[tops[suit]] + suit)
        tops[suit] += 1
    return {"game": "patience", "variant": "freecell", "tableau": piles,
            "cells": [None] * 4}
