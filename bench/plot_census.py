"""The histogram of optimal lengths in the shipped census, drawn as docs/census-lengths.png
(`make census-plot`)."""

from __future__ import annotations

import argparse
from collections import Counter
from pathlib import Path

import matplotlib

matplotlib.use("Agg")  # no screen: draw to a file
import matplotlib.pyplot as plt  # noqa: E402

from solver.beleaguered.census import shipped  # noqa: E402
from solver.budget import Status  # noqa: E402


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--out", type=Path, default=Path("docs/census-lengths.png"),
                        help="the picture to write")
    args = parser.parse_args()
    census = shipped()
    if census is None:
        raise SystemExit("no census is shipped (fortress-solver census --pack)")
    entries = list(census)
    lengths = Counter(e.length for e in entries if e.length is not None)
    winnable = sum(e.status is Status.SOLVED for e in entries)
    figure, axes = plt.subplots(figsize=(9, 4.5), dpi=110)
    axes.bar(list(lengths), list(lengths.values()), width=1.0, color="#2e6b4f")
    axes.set_xlabel("optimal solution length (moves)")
    axes.set_ylabel("deals")
    axes.set_title(f"Beleaguered Fortress deals {census.first:,}-{census.last:,}: "
                   f"{winnable:,} winnable ({winnable / len(entries):.1%}), "
                   "by optimal length")
    axes.grid(axis="y", alpha=0.3)
    figure.tight_layout()
    figure.savefig(args.out)
    print(f"{args.out}: {sum(lengths.values()):,} deals, lengths {min(lengths)}-{max(lengths)}")


if __name__ == "__main__":
    main()
