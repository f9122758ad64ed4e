"""Confidence intervals for shares measured by counting (solvable deals, games won)."""

from __future__ import annotations

import math


def wilson_interval(successes: int, trials: int, z: float = 1.96) -> tuple[float, float]:
    """The Wilson score interval (95 % by default); sound near 0 and 1, unlike p ± z·se."""
    if trials == 0:
        return 0.0, 1.0
    p = successes / trials
    shrink = 1 + z * z / trials
    centre = (p + z * z / (2 * trials)) / shrink
    half = z * math.sqrt(p * (1 - p) / trials + z * z / (4 * trials * trials)) / shrink
    return max(0.0, centre - half), min(1.0, centre + half)
