"""Fit the hint's evaluation: the log-odds that a side wins, as a weighted difference of
the two sides' features, learned from the outcomes of greedy self-play games.

    .venv/bin/python -m bench.fit_ffk_eval --games 3000

writes solver/ffkingdom/fitted_eval.toml and prints the held-out accuracy and log loss.
"""

from __future__ import annotations

import argparse
from multiprocessing import Pool
from pathlib import Path

import numpy as np

from bench.fitting import accuracy_and_log_loss, fit_logistic
from service.arguments import add_progress, progress_bar
from solver.ffkingdom import apply, load_cards, new_game
from solver.ffkingdom.evaluate import FEATURES, side_features
from solver.ffkingdom.policies import greedy_action

OUT = Path(__file__).resolve().parent.parent / "solver" / "ffkingdom" / "fitted_eval.toml"
RULES = load_cards()


def game_rows(seed: int) -> tuple[list[list[float]], list[int]]:
    """Feature differences (mover minus other) at every turn start, and whether the
    mover went on to win."""
    state = new_game(RULES, seed)
    seen = []
    while state.winner is None and state.round <= 300:
        if state.actions_left == 1:
            me, them = state.mover, state.opponent
            seen.append((state.to_move, [a - b for a, b in zip(side_features(me, state),
                                                               side_features(them, state),
                                                               strict=True)]))
        state = apply(state, greedy_action(state))
    rows = [row for _, row in seen if state.winner is not None]
    labels = [int(mover == state.winner) for mover, _ in seen if state.winner is not None]
    return rows, labels


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=3000)
    parser.add_argument("--seed", type=int, default=100_000)
    add_progress(parser)
    args = parser.parse_args()
    with Pool() as pool:
        games = list(progress_bar(
            pool.imap(game_rows, range(args.seed, args.seed + args.games), chunksize=20),
            total=args.games, unit="game", forced=args.progress))
    held_out = len(games) // 5
    def stack(part):
        return (np.array([r for rows, _ in part for r in rows], dtype=float),
                np.array([v for _, labels in part for v in labels], dtype=float))
    x_test, y_test = stack(games[:held_out])
    x_train, y_train = stack(games[held_out:])
    w = fit_logistic(x_train, y_train)
    accuracy, loss = accuracy_and_log_loss(x_test, y_test, w)
    print(f"{len(y_train)} positions to fit, {len(y_test)} held out: "
          f"accuracy {accuracy:.3f}, log loss {loss:.3f} (coin: 0.693)")
    lines = [
        "# The hint's evaluation: log-odds of winning per unit of each feature difference.",
        f"# Fitted by `python -m bench.fit_ffk_eval --games {args.games} --seed {args.seed}` "
        f"on greedy self-play;",
        f"# held-out accuracy {accuracy:.3f}, log loss {loss:.3f}.",
        "",
        "[weights]",
        *(f"{name} = {value:.6g}" for name, value in zip(FEATURES, w, strict=True)),
    ]
    OUT.write_text("\n".join(lines) + "\n")
    print(OUT.read_text())


if __name__ == "__main__":
    main()
