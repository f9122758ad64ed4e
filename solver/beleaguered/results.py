"""The patience family's results over numbered deals: a batch line of a deal's solution,
and the settings a run's lines carry (solver/results.py), its variant named, with the
digest of a user's rules."""

from __future__ import annotations

import hashlib
import json
from typing import Any

from solver.beleaguered.position import NAME
from solver.beleaguered.solve import Solution
from solver.beleaguered.variant import DEFAULT, Variant, is_shipped
from solver.budget import Budget, SearchStats, Status
from solver.results import Settings

GAME = NAME
CENSUS = "census"  # the mode of a census's lines: a verdict, then optimal for a win
CENSUS_MODES = (CENSUS, f"{CENSUS}-verdict")  # decided in any mode (as before), in verdict


def census_mode(verdict: bool) -> str:
    """The mode a census's lines record: which search decided each deal, so that a run
    resumed with the other is refused (their lines differ where no optimum is proven)."""
    return CENSUS_MODES[verdict]


def settings_of(variant: Variant | None, mode: str, budget: Budget,
                metric: str = "moves") -> Settings:
    """A run's settings: `variant` None is Beleaguered Fortress."""
    if variant is None:
        return Settings(GAME, DEFAULT, mode, budget, metric=metric)
    own = None if is_shipped(variant) else rules_digest(variant)
    return Settings(GAME, variant.name, mode, budget, own, metric=metric)


def rules_digest(variant: Variant) -> str:
    """sha256 of a user's rules as read (their JSON, keys sorted): a comment or another
    layout of the same file keeps the digest, any other change does not."""
    rules = {key: value for key, value in variant.to_json().items() if key != "listed"}
    text = json.dumps(rules, sort_keys=True, ensure_ascii=False)
    return hashlib.sha256(text.encode()).hexdigest()


def line(number: int, status: Status, optimal: bool, length: int | None,
         stats: SearchStats, single_card_moves: int | None = None) -> dict[str, Any]:
    """One line of a batch's output, from its fields (a server's answer has no moves to
    count)."""
    return {"deal": number, "status": status.value, "optimal": optimal, "length": length,
            "single_card_moves": single_card_moves, "nodes": stats.nodes,
            "seconds": round(stats.seconds, 6)}


def record(number: int, solution: Solution) -> dict[str, Any]:
    """The batch line of deal `number`'s solution."""
    return line(number, solution.status, solution.optimal, solution.length, solution.stats,
                solution.single_card_moves)
