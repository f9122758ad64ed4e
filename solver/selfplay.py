"""Self-play bookkeeping shared by the games: who sits where, and who won how often.

Two bots meet over many games. They swap seats every game and each deal is played twice,
once from each side, so that neither bot has the better cards; with more seats than
bots, the two alternate around the table.
"""

from __future__ import annotations


def seatings(bots: tuple[str, str], games: int, seed: int,
             players: int = 2) -> list[tuple[tuple[str, ...], int]]:
    """(the bot in each seat, deal seed) for each game."""
    return [(tuple(bots[(g + k) % 2] for k in range(players)), seed + g // 2)
            for g in range(games)]


def tally(bots: tuple[str, str], winners: list[int | None]) -> dict[str, int]:
    """Wins per bot from the winning seat of each game, in the order of `seatings`; two
    copies of one bot count as `name` and `name-2`."""
    names = bots if bots[0] != bots[1] else (bots[0], f"{bots[1]}-2")
    wins = dict.fromkeys(names, 0)
    for g, seat in enumerate(winners):
        if seat is not None:
            wins[names[(g + seat) % 2]] += 1
    return wins
