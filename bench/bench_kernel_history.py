"""make bench-history: the compiled kernel today beside itself as it was at an earlier
commit, on Beleaguered Fortress and the castle family: a rule added for one game must
slow none of them, nor change a verdict or an optimal length.

The old kernel's source is taken from git (`git show COMMIT:solver/beleaguered/_kernel.cpp`)
and built into a scratch folder with the same flags as setup.py; both kernels then search
the same deals in one process, one deal at a time, the kernel that goes first alternating
from deal to deal so that machine noise falls on both, each with the same budget. Each
search's own clock (the kernel's `seconds`) is compared, and so are the verdicts and, in
optimal mode, the lengths. A deal that either search ran out on is unknown for both: it
is counted, and kept out of the times and the verdicts. Both kernels move single cards,
but in a variant with sequence moves when the old kernel has them too (so that
`--commit 882fa17 --variants freecell --mode optimal` measures the bound of sequence
moves before and after: the deals proven, those run out on, and the nodes a proof took).

The old kernel must be the family's, which takes the variant's rules as a tuple (a8e7954
reads five of today's six); its docstring says how many it reads.

    .venv/bin/python -m bench.bench_kernel_history [--commit a8e7954] [--deals 1-1000]
        [--variants a,b] [--mode any|optimal] [--seconds 10] [--table-entries 5000000]
"""

from __future__ import annotations

import argparse
import importlib.util
import re
import shlex
import statistics
import subprocess
import sys
import tempfile
from collections.abc import Sequence
from datetime import datetime
from pathlib import Path
from types import ModuleType
from typing import TYPE_CHECKING

from bench.bench_family import num, ratio, render, variant_list
from solver.beleaguered import _kernel, native
from solver.beleaguered.deals import deal
from solver.beleaguered.variant import Build, Fill, Variant, variants

if TYPE_CHECKING:
    from tqdm import tqdm

ROOT = Path(__file__).resolve().parents[1]
_STATUS = ("solved", "unsolvable", "unknown")
# verdict, length (optimal mode), the kernel's seconds, nodes
Search = tuple[str, int | None, float, int]
HEADER = ["variant", "deals", "ran out old/new", "med ms old", "med ms new", "med new/old",
          "total s old", "total s new", "total new/old", "med nodes old", "med nodes new",
          "differ"]


def git(*args: str) -> str:
    return subprocess.run(["git", *args], cwd=ROOT, check=True, capture_output=True,
                          text=True).stdout.strip()


def build_old_kernel(commit: str, folder: Path) -> ModuleType:
    """The kernel of `commit`, compiled into `folder` and loaded under its own name."""
    (folder / "_kernel.cpp").write_text(git("show", f"{commit}:solver/beleaguered/_kernel.cpp"))
    (folder / "setup.py").write_text(
        "from pybind11.setup_helpers import Pybind11Extension\n"
        "from setuptools import setup\n"
        "setup(name='old', ext_modules=[Pybind11Extension('_kernel', ['_kernel.cpp'],"
        " cxx_std=17, extra_compile_args=['-O2'])])\n")
    subprocess.run([sys.executable, "setup.py", "-q", "build_ext", "--inplace"], cwd=folder,
                   check=True, capture_output=True)
    built = next(folder.glob("_kernel*.so"))
    spec = importlib.util.spec_from_file_location("_kernel", built)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


BY_NAME = 0  # the old kernel reads its rules by field name, as today's does


def rules_width(old: ModuleType) -> int | None:
    """How the old kernel reads its rules: BY_NAME, or how many of them it reads by place,
    as its solve's docstring lists them ("rules: (piles, cells, build, fill, worrying
    back)"); None before the family's kernel, whose solve took no rules."""
    if "rules by name" in (old.solve.__doc__ or ""):
        return BY_NAME
    found = re.search(r"rules: \(([^)]*)\)", old.solve.__doc__ or "")
    return None if found is None else found.group(1).count(",") + 1


def _as_tuple(rules: Variant, sequences: bool) -> tuple[int, int, int, int, bool, bool]:
    """The rules as the kernels before BY_NAME read them: by place, the build and the
    empty piles' rule by their order in Build and Fill."""
    return (len(rules.piles), rules.cells, list(Build).index(rules.build),
            list(Fill).index(rules.empty), rules.worrying_back, sequences)


def run_variant(old: ModuleType, width: int, rules: Variant, numbers: range, kind: str,
                seconds: float, entries: int, bar: tqdm[int]) -> list[dict[str, Search]]:
    """Both kernels on each deal, the first alternating, with the same budget; a variant
    with sequence moves searched with them when the old kernel has them too."""
    sequences = (width == BY_NAME or width > 5) and rules.sequence_moves != "none"
    kernels = {"old": (old, native.rules_of(rules, sequences) if width == BY_NAME
                       else _as_tuple(rules, sequences)[:width]),
               "new": (_kernel, native.rules_of(rules, sequences))}
    # a kernel with a memory budget is given none: both stop at the table cap alone
    unlimited = {which: {"memory": 0} if "memory" in (kernel.solve.__doc__ or "") else {}
                 for which, (kernel, _) in kernels.items()}
    records = []
    for number in numbers:
        position = deal(number, rules)
        piles = [[card.index for card in pile] for pile in position.tableau]
        slots = [-1 if card is None else card.index for card in position.reserve]
        cells = [-1 if card is None else card.index for card in position.cells]
        record = {}
        for which in ("old", "new") if number % 2 else ("new", "old"):
            kernel, read = kernels[which]
            got = kernel.solve(piles, slots, cells, list(position.foundations), read, kind,
                               seconds, 0, entries, stop=None, **unlimited[which])
            length = len(got[1]) if got[0] == 0 and kind != "greedy" else None
            record[which] = (_STATUS[got[0]], length, got[4], got[2])
            bar.update()
        records.append(record)
    return records


def summary_row(name: str, numbers: range, records: Sequence[dict[str, Search]]) -> list[str]:
    """Times of the deals both decided; the deals either ran out on, counted apart."""
    decided = [r for r in records if "unknown" not in (r["old"][0], r["new"][0])]
    out = [sum(r[which][0] == "unknown" for r in records) for which in ("old", "new")]
    old, new = ([r[which][2] for r in decided] for which in ("old", "new"))
    medians = [statistics.median(times) * 1000 if times else None for times in (old, new)]
    totals = sum(old), sum(new)
    nodes = [statistics.median(r[which][3] for r in decided) if decided else None
             for which in ("old", "new")]
    return [name, str(len(records)), f"{out[0]}/{out[1]}", num(medians[0], 3),
            num(medians[1], 3), num(ratio(medians[1], medians[0]), 3), num(totals[0], 3),
            num(totals[1], 3), num(ratio(totals[1], totals[0]), 3), num(nodes[0], 0),
            num(nodes[1], 0), str(len(differing(numbers, records)))]


def differing(numbers: range, records: Sequence[dict[str, Search]]) -> list[str]:
    """The deals both decided where the verdict or the length changed."""
    return [f"{number} (old {said(r['old'])}, new {said(r['new'])})"
            for number, r in zip(numbers, records, strict=True)
            if "unknown" not in (r["old"][0], r["new"][0]) and r["old"][:2] != r["new"][:2]]


def said(search: Search) -> str:
    return search[0] if search[1] is None else f"{search[0]} in {search[1]}"


def main(argv: Sequence[str] | None = None) -> None:
    from service.arguments import add_progress, progress_bar
    from service.beleaguered.commands import deal_range

    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--commit", default="a8e7954", help="the old kernel's (default a8e7954)")
    parser.add_argument("--deals", type=deal_range, default="1-1000", metavar="A-B",
                        help="deal numbers of every variant (default 1-1000)")
    parser.add_argument("--variants", type=variant_list, metavar="A,B",
                        help="variants to run (default the six without sequence moves)")
    parser.add_argument("--mode", choices=("any", "optimal"), default="any")
    parser.add_argument("--seconds", type=float, default=10.0,
                        help="each search's budget (default 10)")
    parser.add_argument("--table-entries", type=int, default=5_000_000, metavar="N",
                        help="each search's table cap (default 5,000,000)")
    add_progress(parser)
    args = parser.parse_args(argv)
    if args.seconds <= 0 or args.table_entries <= 0:
        parser.error("--seconds and --table-entries must be positive")
    chosen = args.variants or tuple(rules for rules in variants()
                                    if rules.sequence_moves == "none")
    kind = "greedy" if args.mode == "any" else "astar"
    commit = git("rev-parse", "--short", f"{args.commit}^{{commit}}")
    head = git("rev-parse", "--short", "HEAD")

    started = datetime.now().astimezone()
    rows, listed = [], []
    with tempfile.TemporaryDirectory() as scratch:
        old = build_old_kernel(commit, Path(scratch))
        width = rules_width(old)
        if width is None:
            sys.exit(f"bench-history: the kernel of {commit} takes no rules; this bench reads "
                     "the family's kernel (a8e7954 and later)")
        with progress_bar(total=2 * len(args.deals) * len(chosen), unit="search",
                          forced=args.progress) as bar:
            for rules in chosen:
                bar.set_description(rules.name)
                records = run_variant(old, width, rules, args.deals, kind, args.seconds,
                                      args.table_entries, bar)
                rows.append(summary_row(rules.name, args.deals, records))
                if found := differing(args.deals, records):
                    listed.append(f"  {rules.name}: {', '.join(found)}")

    command_line = shlex.join(["python", "-m", "bench.bench_kernel_history",
                               *(sys.argv[1:] if argv is None else argv)])
    print(f"{started:%Y-%m-%d %H:%M %Z}: {command_line}")
    print(f"the kernel of {commit} (old) beside today's, {head} "
          f"as built (new); {args.mode} mode ({kind}), {args.seconds:g} s and "
          f"{args.table_entries:,} table entries a search, one at a time, the first kernel "
          f"alternating by deal\n")
    print(render(f"deals {args.deals.start}-{args.deals.stop - 1}", HEADER, rows))
    print("times: each search's own clock, over the deals both kernels decided; a deal "
          "either ran out on is kept out;\ndiffer: deals both decided with another verdict"
          + (" or length" if kind != "greedy" else ""))
    print("\n".join(listed) or "  verdicts" + (" and lengths" if kind != "greedy" else "")
          + " differ on no deal")


if __name__ == "__main__":
    main()
