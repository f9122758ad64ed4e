"""The census of a range of deals: every deal decided (`any` mode proves it unwinnable or
finds a win), every winnable one solved optimally (A*); resumable like a batch, with a
summary and the compact data file the package ships (solver/beleaguered/census.py)."""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from service.beleaguered.batch import done_deals
from solver.beleaguered import Algorithm, Engine, Mode, deal, solve
from solver.beleaguered.census import Census, DealInfo
from solver.budget import Budget, Status
from solver.intervals import wilson_interval


def census_deal(number: int, budget: Budget, engine: Engine = Engine.NATIVE) -> dict[str, Any]:
    """One census line: the verdict of `any` mode, then the optimal length of a win.
    `length` is null unless proven optimal (a win whose optimal search ran out of budget
    is `"optimal": false`)."""
    position = deal(number)
    verdict = solve(position, Mode.ANY, Algorithm.ASTAR, budget, engine)
    nodes, seconds, length = verdict.stats.nodes, verdict.stats.seconds, None
    if verdict.status is Status.SOLVED:
        best = solve(position, Mode.OPTIMAL, Algorithm.ASTAR, budget, engine)
        nodes, seconds = nodes + best.stats.nodes, seconds + best.stats.seconds
        if best.status is Status.SOLVED and best.optimal:
            length = best.length
    return {"deal": number, "status": verdict.status.value, "optimal": length is not None,
            "length": length, "nodes": nodes, "seconds": round(seconds, 6)}


def entries(path: Path) -> list[DealInfo]:
    """The census file's lines as entries, in deal order."""
    return [DealInfo(number, Status(line["status"]), line["length"] if line["optimal"] else None)
            for number, line in sorted(done_deals(path).items())]


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
    hardest: list[tuple[int, int]]   # (deal, nodes), the most searched first
    first: int
    last: int

    @classmethod
    def of(cls, records: Iterable[dict[str, Any]], top: int = 10) -> CensusSummary:
        lines = list(records)
        optimal = [line for line in lines if line["optimal"]]
        return cls(
            deals=len(lines),
            winnable=sum(line["status"] == "solved" for line in lines),
            unwinnable=sum(line["status"] == "unsolvable" for line in lines),
            unknown=sum(line["status"] == "unknown" for line in lines),
            unmeasured=sum(line["status"] == "solved" and not line["optimal"] for line in lines),
            lengths=dict(sorted(Counter(line["length"] for line in optimal).items())),
            longest=[(line["deal"], line["length"]) for line in
                     sorted(optimal, key=lambda line: (-line["length"], line["deal"]))[:top]],
            hardest=[(line["deal"], line["nodes"]) for line in
                     sorted(lines, key=lambda line: (-line["nodes"], line["deal"]))[:top]],
            first=min((line["deal"] for line in lines), default=0),
            last=max((line["deal"] for line in lines), default=0))

    def interval(self) -> tuple[float, float]:
        """95 % interval of the winnable share among decided deals."""
        return wilson_interval(self.winnable, self.winnable + self.unwinnable)

    def to_json(self) -> dict[str, Any]:
        low, high = self.interval()
        return {"deals": self.deals, "first": self.first, "last": self.last,
                "winnable": self.winnable, "unwinnable": self.unwinnable,
                "unknown": self.unknown, "unmeasured": self.unmeasured,
                "winnable_interval": [round(low, 6), round(high, 6)],
                "lengths": self.lengths,
                "longest": [{"deal": d, "length": n} for d, n in self.longest],
                "hardest": [{"deal": d, "nodes": n} for d, n in self.hardest]}

    def __str__(self) -> str:
        decided = self.winnable + self.unwinnable
        low, high = self.interval()
        share = self.winnable / decided if decided else 0.0
        rows = [f"deals {self.first}-{self.last}: {self.deals} deals, {self.winnable} winnable, "
                f"{self.unwinnable} unwinnable, {self.unknown} unknown; "
                f"{self.unmeasured} winnable without a proven optimal length",
                f"winnable share {share:.2%} (95 % interval {low:.2%}-{high:.2%})",
                "optimal lengths:"]
        widest = max(self.lengths.values(), default=1)
        for length, count in self.lengths.items():
            rows.append(f"  {length:4} {count:8}  {'#' * max(1, round(50 * count / widest))}")
        rows.append("longest optimal solutions: " + ", ".join(
            f"deal {d} ({n} moves)" for d, n in self.longest))
        rows.append("most searched: " + ", ".join(
            f"deal {d} ({n:,} nodes)" for d, n in self.hardest))
        return "\n".join(rows)


def summary(path: Path) -> CensusSummary:
    return CensusSummary.of(done_deals(path).values())


def pack(path: Path, to: Path) -> Census:
    """The census file's verdicts written as the compact data file `to`."""
    census = Census.of(entries(path))
    to.write_bytes(census.to_bytes())
    return census
