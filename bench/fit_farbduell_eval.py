"""Fit the Farbduell hint's evaluation: the log-odds that a seat wins, from the features
of its hand against the others', learned from two-player self-play on the Classic table.

    .venv/bin/python -m bench.fit_farbduell_eval --policy greedy --games 4000
    .venv/bin/python -m bench.fit_farbduell_eval --policy hint --games 4000 --seed 500000

writes solver/farbduell/fitted_eval.toml and prints the held-out accuracy and log loss.
With `--policy greedy` both seats play greedily; with `--policy hint` one seat is the hint
bot, valuing positions by the weights it is about to replace, so the fit learns what the
cards are worth to the player who uses them. The shipped weights come from the greedy
fit followed by two hint fits (the commands above, the second one twice).
"""

from __future__ import annotations

import argparse
import random
from functools import partial
from multiprocessing import Pool
from pathlib import Path

import numpy as np

from bench.fitting import accuracy_and_log_loss, fit_logistic
from service.arguments import add_progress, progress_bar
from solver.farbduell.data import load_tables
from solver.farbduell.evaluate import FEATURES, side_features
from solver.farbduell.hints import hint
from solver.farbduell.policies import greedy_action
from solver.farbduell.rules import apply, new_game

OUT = Path(__file__).resolve().parent.parent / "solver" / "farbduell" / "fitted_eval.toml"
TABLE = load_tables()["classic"]
MAX_ACTIONS = 2000


def game_rows(policy: str, seed: int) -> tuple[list[list[float]], list[int]]:
    """Feature differences (mover minus other) before every decision of a two-player
    game, and whether the mover went on to win. The hint bot, if any, sits in seat
    seed % 2."""
    state = new_game(TABLE, 2, seed)
    hint_seat = seed % 2 if policy == "hint" else None
    rng = random.Random(seed)
    seen = []
    for _ in range(MAX_ACTIONS):
        if state.winner is not None:
            break
        me = state.to_move
        if state.drawn is None:
            seen.append((me, [float(a) - float(b) for a, b in zip(
                side_features(state, me), side_features(state, 1 - me), strict=True)]))
        action = hint(state, seed=rng.getrandbits(32)).action if me == hint_seat else None
        state = apply(state, action or greedy_action(state))
    if state.winner is None:
        return [], []
    return [row for _, row in seen], [int(me == state.winner) for me, _ in seen]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--policy", choices=("greedy", "hint"), default="greedy")
    parser.add_argument("--games", type=int, default=4000)
    parser.add_argument("--seed", type=int, default=200_000)
    add_progress(parser)
    args = parser.parse_args()
    with Pool() as pool:
        games = list(progress_bar(
            pool.imap(partial(game_rows, args.policy),
                      range(args.seed, args.seed + args.games), chunksize=20),
            total=args.games, unit="game", forced=args.progress))
    held_out = len(games) // 5

    def stack(part: list) -> tuple[np.ndarray, np.ndarray]:
        return (np.array([r for rows, _ in part for r in rows], dtype=float),
                np.array([v for _, labels in part for v in labels], dtype=float))

    x_test, y_test = stack(games[:held_out])
    x_train, y_train = stack(games[held_out:])
    w = fit_logistic(x_train, y_train)
    accuracy, loss = accuracy_and_log_loss(x_test, y_test, w)
    print(f"{len(y_train)} positions to fit, {len(y_test)} held out: "
          f"accuracy {accuracy:.3f}, log loss {loss:.3f} (coin: 0.693)")
    OUT.write_text("\n".join([
        "# The Farbduell hint's evaluation: log-odds of winning per unit of each feature",
        "# difference. Last fitted by `python -m bench.fit_farbduell_eval "
        f"--policy {args.policy} --games {args.games} --seed {args.seed}`",
        f"# on two-player Classic games; held-out accuracy {accuracy:.3f}, "
        f"log loss {loss:.3f}.",
        "",
        "[weights]",
        *(f"{name} = {value:.6g}" for name, value in zip(FEATURES, w, strict=True)),
    ]) + "\n")
    print(OUT.read_text())


if __name__ == "__main__":
    main()
