"""A census as it is taken, in JSON lines: each deal's line (every deal decided, `verdict`
or `any` mode proving it unwinnable or finding a win, every winnable one solved optimally
with A*), a file of them read back and merged (a census resumes like a batch), its
summary, and its pack into the compact data file the package ships and
solver/beleaguered/census.py reads: census.bin for Beleaguered Fortress,
censuses/<variant>.bin for the others. A pack takes only lines that say they are the
census of the variant packed."""

from __future__ import annotations

import json
import math
import statistics
import time
from collections import Counter
from collections.abc import Callable, Iterable
from dataclasses import dataclass, replace
from functools import partial
from pathlib import Path
from typing import Any

from solver.beleaguered import Algorithm, Mode, deal, solve
from solver.beleaguered.census import Census, DealInfo
from solver.beleaguered.results import CENSUS_MODES, GAME
from solver.beleaguered.solve import Solution
from solver.beleaguered.variant import DEFAULT, Variant, beleaguered_fortress
from solver.budget import Budget, Status
from solver.errors import InvalidInput
from solver.intervals import wilson_interval
from solver.results import Settings, recorded
from solver.shared_budget import SharedBudget


def census_deal(number: int, budget: Budget, variant: Variant | None = None,
                mode: Mode = Mode.ANY) -> dict[str, Any]:
    """One census line: the verdict of `mode` (`any` or `verdict`), then the optimal
    search of a win in what the verdict left of `budget` (none when it left nothing).
    `any` by default: the faster on Beleaguered Fortress's deals (docs/measured.md), and
    a variant's line keeps its line when the optimal search finds none shorter.

    Beleaguered Fortress's (`variant` None, or it): `length` is null unless proven optimal
    (a win whose optimal search ran out of budget is `"optimal": false`). Another
    variant's: `length` is the shortest line either search found, `optimal` whether it is
    proven so, `lower_bound` the best lower bound either proved (the length when optimal;
    null when unwinnable), all in moves, and `single_card_moves` that line written out in
    single cards."""
    position = deal(number, variant)
    shared = SharedBudget(budget)
    verdict = solve(position, mode, Algorithm.ASTAR, budget)
    return _line(number, verdict, shared, partial(solve, position, Mode.OPTIMAL,
                                                  Algorithm.ASTAR), variant)


def census_part(numbers: list[int], seconds: float, budget: Budget,
                variant: Variant | None = None, mode: Mode = Mode.ANY) -> list[dict[str, Any]]:
    """The census lines of deals `numbers`, as `census_deal` gives them, of those the
    kernel decides within about `seconds` (0: all of them; at least the first): their
    verdicts a run at a time, then each win's optimal search, all in the kernel
    (solver/beleaguered/ranges.py). An optimal search still running when the seconds are
    over (but the first deal's) is given up, its deal and those after it left for
    another part, so that a deal's line is written soon after it is decided."""
    from solver.beleaguered import ranges  # the kernel's, which a census without it lacks

    rules = beleaguered_fortress() if variant is None else variant
    ends = time.perf_counter() + seconds
    verdicts = ranges.solutions(numbers, rules, mode, budget, slice_seconds=seconds)
    lines: list[dict[str, Any]] = []
    for number, verdict in zip(numbers, verdicts, strict=False):
        optimal = partial(ranges.solution, number, rules, Mode.OPTIMAL)
        late = _Slice(ends if lines and seconds > 0 else math.inf, optimal)
        line = _line(number, verdict, SharedBudget.begun(budget, verdict.stats.seconds),
                     late.search, variant)
        if late.over():
            break
        lines.append(line)
    return lines


@dataclass
class _Slice:
    """A deal's optimal search within a part's seconds, which end at `ends` (perf_counter):
    past them it is stopped, and its line not to be kept."""

    ends: float
    optimal: Callable[[Budget], Solution]
    searched: bool = False

    def search(self, budget: Budget) -> Solution:
        self.searched = True
        if self.ends == math.inf:
            return self.optimal(budget)
        own = budget.stop
        return self.optimal(replace(budget, stop=lambda: time.perf_counter() >= self.ends
                                    or bool(own is not None and own())))

    def over(self) -> bool:
        """Whether the search ran into the end of the seconds (or may have)."""
        return self.searched and time.perf_counter() >= self.ends


def _line(number: int, verdict: Solution, shared: SharedBudget,
          optimal: Callable[[Budget], Solution], variant: Variant | None) -> dict[str, Any]:
    """A deal's census line from its verdict, which spent what it did of `shared`, and
    its `optimal` search within a budget."""
    shared.spend(verdict.stats)
    if variant is None or variant.name == DEFAULT:
        return _fortress_line(number, verdict, shared, optimal)
    nodes, seconds = verdict.stats.nodes, verdict.stats.seconds
    length, optimal_found = verdict.length, verdict.status is Status.SOLVED and verdict.optimal
    bound, cards = verdict.lower_bound, verdict.single_card_moves
    if (verdict.status is Status.SOLVED and not optimal_found
            and (left := shared.left()) is not None):
        best = optimal(left)
        nodes, seconds = nodes + best.stats.nodes, seconds + best.stats.seconds
        if best.status is Status.SOLVED and best.length is not None and (
                length is None or best.length <= length):
            length, optimal_found, cards = best.length, best.optimal, best.single_card_moves
        bound = _larger(bound, best.lower_bound)
    if verdict.status is Status.UNSOLVABLE:
        bound = None
    elif optimal_found:
        bound = length
    elif bound is not None and length is not None:
        bound = min(bound, length)
    return {"deal": number, "status": verdict.status.value, "length": length,
            "optimal": optimal_found, "lower_bound": bound, "single_card_moves": cards,
            "nodes": nodes, "seconds": round(seconds, 6)}


def _fortress_line(number: int, verdict: Solution, shared: SharedBudget,
                   optimal: Callable[[Budget], Solution]) -> dict[str, Any]:
    nodes, seconds, length = verdict.stats.nodes, verdict.stats.seconds, None
    if verdict.status is Status.SOLVED and (left := shared.left()) is not None:
        best = optimal(left)
        nodes, seconds = nodes + best.stats.nodes, seconds + best.stats.seconds
        if best.status is Status.SOLVED and best.optimal:
            length = best.length
    return {"deal": number, "status": verdict.status.value, "optimal": length is not None,
            "length": length, "nodes": nodes, "seconds": round(seconds, 6)}


def _larger(a: int | None, b: int | None) -> int | None:
    return b if a is None else a if b is None else max(a, b)


def records(path: Path) -> dict[int, dict[str, Any]]:
    """A census file's lines by deal, the file left as it is (a census still being
    written may be read: a last line without its newline is not read); lines of other
    settings than the first's, but for the budget, are refused. A deal's lines written
    twice (a deal redone by --retry-unknown, two runs appending to one file) are merged:
    a proven verdict over `unknown`, the shortest line (with its single-card moves), the
    proof of its optimality, the largest lower bound."""
    try:
        raw = path.read_bytes()
    except OSError as err:
        raise InvalidInput(f"cannot read census file {str(path)!r}: {err}") from None
    lines = []
    for number, line in enumerate(raw[:raw.rfind(b"\n") + 1].splitlines(), 1):
        if not line.strip():
            continue
        try:
            record = json.loads(line)
        except ValueError:
            record = None
        if not (isinstance(record, dict) and type(record.get("deal")) is int
                and record.get("status") in {s.value for s in Status}):
            raise InvalidInput(f"{path} line {number} is not a census line: "
                               f"{line[:60].decode(errors='replace')!r}")
        lines.append((number, record))
    recorded(path, lines)
    found: dict[int, dict[str, Any]] = {}
    for _, record in lines:
        seen = found.get(record["deal"])
        found[record["deal"]] = record if seen is None else _merged(seen, record, path)
    return found


def _merged(one: dict[str, Any], other: dict[str, Any], path: Path) -> dict[str, Any]:
    statuses = {one["status"], other["status"]}
    if statuses == {Status.SOLVED.value, Status.UNSOLVABLE.value}:
        raise InvalidInput(f"{path}: deal {one['deal']} is both winnable and unwinnable")
    if one["status"] != other["status"]:  # a proven verdict over `unknown`
        return one if other["status"] == Status.UNKNOWN.value else other
    merged = {**one, "nodes": one.get("nodes", 0) + other.get("nodes", 0),
              "seconds": round(one.get("seconds", 0.0) + other.get("seconds", 0.0), 6)}
    if "nodes" not in one and "nodes" not in other:
        del merged["nodes"], merged["seconds"]
    lined = [line for line in (one, other) if line.get("length") is not None]
    shortest = min(lined, key=lambda line: line["length"], default=None)
    merged["length"] = None if shortest is None else shortest["length"]
    if shortest is not None and "single_card_moves" in shortest:  # that line's
        merged["single_card_moves"] = shortest["single_card_moves"]
    merged["optimal"] = any(line.get("optimal") and line.get("length") == merged["length"]
                            for line in (one, other))
    if "lower_bound" in one or "lower_bound" in other:
        bound = _larger(one.get("lower_bound"), other.get("lower_bound"))
        merged["lower_bound"] = merged["length"] if merged["optimal"] else bound
    return merged


def entries(path: Path, lines: dict[int, dict[str, Any]]) -> list[DealInfo]:
    """The census file's lines (`records`) as entries, in deal order: Beleaguered
    Fortress's lines (`length` given only when optimal) and another variant's (`length`
    the best line found, with `lower_bound`) alike."""
    found = []
    for number, line in sorted(lines.items()):
        try:
            found.append(DealInfo(number, Status(line["status"]), line.get("length"),
                                  line.get("lower_bound"), bool(line.get("optimal"))))
        except ValueError as err:
            raise InvalidInput(f"{path}: {err}") from None
    return found


@dataclass(frozen=True)
class CensusSummary:
    """What a census found: the winnable share, the optimal lengths, the hardest deals."""

    deals: int
    winnable: int
    unwinnable: int
    unknown: int                     # undecided within the budget
    unmeasured: int                  # winnable, its optimal length not proven
    lengths: dict[int, int]          # optimal length -> deals
    longest: list[tuple[int, int]]   # (deal, length), the longest optimal solutions first
    hardest: list[tuple[int, int]]   # (deal, nodes), the most searched first (of lines with nodes)
    first: int
    last: int
    gapped: int = 0                  # unmeasured deals with a line and a lower bound
    median_gap: float | None = None  # their median of line length - lower bound
    single_cards: tuple[int, int] | None = None  # (winnable deals, their lines' single-card
    #   moves summed), when every winnable deal's line says it

    @property
    def optimal(self) -> int:
        """Winnable deals whose optimal length is proven."""
        return self.winnable - self.unmeasured

    def optimal_share(self) -> float:
        """The share of winnable deals whose optimal length is proven."""
        return self.optimal / self.winnable if self.winnable else 0.0

    @classmethod
    def of(cls, records: Iterable[dict[str, Any]], top: int = 10) -> CensusSummary:
        lines = list(records)
        optimal = [line for line in lines if line.get("optimal")]
        searched = [line for line in lines if "nodes" in line]
        gaps = [line["length"] - line["lower_bound"] for line in lines
                if line["status"] == "solved" and not line.get("optimal")
                and line.get("length") is not None and line.get("lower_bound") is not None]
        return cls(
            deals=len(lines),
            winnable=sum(line["status"] == "solved" for line in lines),
            unwinnable=sum(line["status"] == "unsolvable" for line in lines),
            unknown=sum(line["status"] == "unknown" for line in lines),
            unmeasured=sum(line["status"] == "solved" and not line.get("optimal")
                           for line in lines),
            lengths=dict(sorted(Counter(line["length"] for line in optimal).items())),
            longest=[(line["deal"], line["length"]) for line in
                     sorted(optimal, key=lambda line: (-line["length"], line["deal"]))[:top]],
            hardest=[(line["deal"], line["nodes"]) for line in
                     sorted(searched, key=lambda line: (-line["nodes"], line["deal"]))[:top]],
            first=min((line["deal"] for line in lines), default=0),
            last=max((line["deal"] for line in lines), default=0),
            gapped=len(gaps),
            median_gap=statistics.median(gaps) if gaps else None,
            single_cards=_single_cards(lines))

    def interval(self) -> tuple[float, float]:
        """95 % interval of the winnable share among decided deals."""
        return wilson_interval(self.winnable, self.winnable + self.unwinnable)

    def to_json(self) -> dict[str, Any]:
        low, high = self.interval()
        return {"deals": self.deals, "first": self.first, "last": self.last,
                "winnable": self.winnable, "unwinnable": self.unwinnable,
                "unknown": self.unknown, "unmeasured": self.unmeasured,
                "winnable_interval": [round(low, 6), round(high, 6)],
                "optimal": self.optimal, "optimal_share": round(self.optimal_share(), 6),
                "median_gap": self.median_gap, "gapped": self.gapped,
                "lengths": self.lengths,
                "longest": [{"deal": d, "length": n} for d, n in self.longest],
                "hardest": [{"deal": d, "nodes": n} for d, n in self.hardest],
                "single_card_moves": None if self.single_cards is None
                else {"deals": self.single_cards[0], "sum": self.single_cards[1]}}

    def __str__(self) -> str:
        decided = self.winnable + self.unwinnable
        low, high = self.interval()
        share = self.winnable / decided if decided else 0.0
        span = f"deals {self.first}-{self.last}: " if self.deals else ""
        rows = [f"{span}{self.deals} deals, {self.winnable} winnable, "
                f"{self.unwinnable} unwinnable, {self.unknown} unknown; "
                f"{self.unmeasured} winnable without a proven optimal length",
                f"winnable share {share:.2%} (95 % interval {low:.2%}-{high:.2%})",
                f"optimal length proven for {self.optimal} of {self.winnable} winnable deals "
                f"({self.optimal_share():.2%})"]
        if self.median_gap is not None:
            rows.append(f"median gap between the best line and the lower bound of the "
                        f"{self.gapped} others: {self.median_gap:g} moves")
        if self.single_cards is not None:
            rows.append(f"the best lines of the {self.single_cards[0]} winnable deals, written "
                        f"out: {self.single_cards[1]:,} single-card moves in all")
        if self.lengths:  # none proven: nothing to draw, no deal to name
            rows.append("optimal lengths:")
            widest = max(self.lengths.values())
            for length, count in self.lengths.items():
                rows.append(f"  {length:4} {count:8}  "
                            f"{'#' * max(1, round(50 * count / widest))}")
            rows.append("longest optimal solutions: " + ", ".join(
                f"deal {d} ({n} moves)" for d, n in self.longest))
        if self.hardest:
            rows.append("most searched: " + ", ".join(
                f"deal {d} ({n:,} nodes)" for d, n in self.hardest))
        return "\n".join(rows)


def _single_cards(lines: list[dict[str, Any]]) -> tuple[int, int] | None:
    """(winnable deals, the single-card moves of their best lines summed), when each
    winnable deal's line records them."""
    won = [line.get("single_card_moves") for line in lines if line["status"] == "solved"]
    counted = [cards for cards in won if isinstance(cards, int)]
    if not won or len(counted) < len(won):
        return None
    return len(counted), sum(counted)


def summary(path: Path) -> CensusSummary:
    return CensusSummary.of(records(path).values())


def pack(path: Path, to: Path, variant: Variant | None = None) -> Census:
    """The census file's verdicts written as the compact data file `to`: FSC1 for
    Beleaguered Fortress (`variant` None, or it), FSC2 of the variant for another. The
    file must hold consecutive deals, each line saying it is of the census of `variant`
    (of a shipped variant: the package reads no census of a user's rules)."""
    fortress = variant is None or variant.name == DEFAULT
    name = DEFAULT if variant is None else variant.name
    lines = records(path)
    if lines:
        _check_packable(path, Settings.of_line(next(iter(lines.values()))), name)
    try:
        census = Census.of(entries(path, lines), None if fortress else variant)
    except ValueError as err:
        raise InvalidInput(f"{path}: {err}") from None
    to.parent.mkdir(parents=True, exist_ok=True)
    to.write_bytes(census.to_bytes())
    return census


def _check_packable(path: Path, found: Settings | None, name: str) -> None:
    """Refuse in one line a file whose lines are not the census of the shipped variant
    `name`: lines of an earlier fortress-solver, which say not what they are, too."""
    if found is None:
        raise InvalidInput(f"{path} does not say what its lines are of (written by an "
                           f"earlier fortress-solver): --pack takes a {name} census's lines")
    if found.rules is not None:
        raise InvalidInput(f"{path} holds {found} results: the package reads the censuses "
                           "of its own variants only")
    if (found.game, found.variant) != (GAME, name) or found.mode not in CENSUS_MODES:
        hint = f": give --variant {found.variant}" if found.mode in CENSUS_MODES else ""
        raise InvalidInput(f"{path} holds {found} results, not a {name} census{hint}")
