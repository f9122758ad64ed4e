"""The search that goes on on disk (the kernel's DiskSearch, solver/search/external.py).

With a memory budget of a few KiB the in-memory verdict gives up at once and the disk
search takes over, writing runs of a few dozen positions: its verdict must equal the
plain in-memory search's and the Python reference's, a line it finds must win by the
plain rules, a disk budget too small must end unknown, a stop must end it, and it must
leave no file behind however it ends.
"""

from __future__ import annotations

import random
from collections.abc import Callable
from pathlib import Path

import pytest

from solver.beleaguered import Mode, Position, _kernel, native, replay, solve
from solver.beleaguered.deals import deal
from solver.beleaguered.problem import FortressProblem
from solver.beleaguered.variant import variants
from solver.budget import Budget, Disk, Status
from solver.search.external import external_breadth_first
from tests.support.beleaguered_endgames import endgame
from tests.support.cli import assert_one_line_error, run, run_json

_VARIANTS = {variant.name: variant for variant in variants()}
_STATUS = (Status.SOLVED, Status.UNSOLVABLE, Status.UNKNOWN)
TINY_MEMORY = 4096  # bytes: not room for the in-memory search's start, 36 keys a run

# Deals the verdict proves unwinnable in a few hundred to a few thousand positions, in
# variants with worrying back (one bucket) and without (a bucket per count of cards home).
UNWINNABLE = [("beleaguered-fortress", 3), ("beleaguered-fortress", 8), ("fortress", 10),
              ("beleaguered-castle", 1), ("beleaguered-castle", 3), ("streets-and-alleys", 1),
              ("citadel", 56), ("bastion", 7)]
# Endgames of winnable deals whose lines take breadth-first search some layers to find.
ENDGAMES = [("beleaguered-fortress", 7, 24), ("beleaguered-fortress", 10, 24),
            ("bastion", 3, 20), ("streets-and-alleys", 2, 20), ("citadel", 5, 20)]


def _raw(position: Position) -> tuple[list[list[int]], list[int], list[int], list[int]]:
    return ([[card.index for card in pile] for pile in position.tableau],
            [-1 if card is None else card.index for card in position.reserve],
            [-1 if card is None else card.index for card in position.cells],
            list(position.foundations))


def _positions() -> list[Position]:
    found = [deal(number, _VARIANTS[name]) for name, number in UNWINNABLE]
    found += [endgame(number, cards, random.Random(number), _VARIANTS[name])
              for name, number, cards in ENDGAMES]
    return found


def _on_disk(position: Position, directory: Path, disk_bytes: int = 0,
             stop: Callable[[], object] | None = None,
             ) -> tuple[int, list[tuple[int, int, int]], int, int, float, int, int, float, int]:
    return (_kernel.solve(*_raw(position), native.rules_of(position.variant), "verdict",
                               60.0, 0, 0, TINY_MEMORY, stop, str(directory), disk_bytes))


@pytest.mark.parametrize("position", _positions(), ids=str)
def test_the_disk_verdict_equals_the_memory_search_and_the_reference(
        position: Position, tmp_path: Path) -> None:
    plain = solve(position, Mode.VERDICT, budget=Budget(seconds=60))
    status, moves, _, entries, _, _, _, _, disk_bytes = _on_disk(position, tmp_path)
    assert _STATUS[status] is plain.status
    if plain.status is Status.UNSOLVABLE:  # both saw every position reachable, once
        assert entries == plain.stats.table_entries
    assert disk_bytes > 0  # it spilled
    assert list(tmp_path.iterdir()) == []
    problem = FortressProblem(position, thorough=False)
    reference = external_breadth_first(problem, Budget(seconds=60), tmp_path, run_states=50)
    assert reference.status is plain.status
    assert list(tmp_path.iterdir()) == []
    if plain.status is Status.SOLVED:
        line = native._numbered(position, moves)
        assert replay(position, line).is_won
        assert replay(position, tuple(problem.to_moves(reference.steps))).is_won


def test_a_tiny_disk_budget_ends_unknown_and_leaves_nothing(tmp_path: Path) -> None:
    position = deal(4, _VARIANTS["beleaguered-fortress"])  # 2,217 positions, unwinnable
    status, *_ = _on_disk(position, tmp_path, disk_bytes=56 * 100)
    assert _STATUS[status] is Status.UNKNOWN
    assert list(tmp_path.iterdir()) == []
    reference = external_breadth_first(FortressProblem(position, thorough=False),
                                       Budget(seconds=60), tmp_path, disk_bytes=2000,
                                       run_states=50)
    assert reference.status is Status.UNKNOWN
    assert list(tmp_path.iterdir()) == []


def test_a_stop_ends_the_disk_search_and_leaves_nothing(tmp_path: Path) -> None:
    position = deal(4, _VARIANTS["beleaguered-fortress"])
    asked: list[bool] = []

    def stop() -> bool:
        asked.append(True)
        return True

    status, *_ = _on_disk(position, tmp_path, stop=stop)
    assert _STATUS[status] is Status.UNKNOWN
    assert asked
    assert list(tmp_path.iterdir()) == []


def test_solve_goes_on_on_disk_with_the_budgets_disk(tmp_path: Path) -> None:
    position = deal(4, _VARIANTS["beleaguered-fortress"])
    budget = Budget(seconds=60, memory_mib=1, disk=Disk(str(tmp_path), 1))
    assert solve(position, Mode.VERDICT, budget=budget).status is Status.UNSOLVABLE
    assert list(tmp_path.iterdir()) == []


def test_a_disk_budget_must_be_positive() -> None:
    with pytest.raises(ValueError, match="disk budget must be positive"):
        Disk("/tmp", 0)


def test_solve_takes_disk_and_its_budget(capsys: pytest.CaptureFixture[str],
                                         tmp_path: Path) -> None:
    data = run_json(capsys, "solve", "--variant", "streets-and-alleys", "--deal", "5",
                    "--mode", "verdict", "--memory", "1", "--disk", str(tmp_path),
                    "--disk-budget", "1", "--json")
    assert data["status"] == "unsolvable"  # unknown within 1 MiB without --disk
    assert list(tmp_path.iterdir()) == []


def test_solve_refuses_a_disk_that_is_no_directory(capsys: pytest.CaptureFixture[str],
                                                   tmp_path: Path) -> None:
    missing = tmp_path / "missing"
    assert_one_line_error(*run(capsys, "solve", "--deal", "5", "--disk", str(missing)),
                          "--disk", "not a directory")
    assert_one_line_error(*run(capsys, "solve", "--deal", "5", "--disk", str(tmp_path),
                               "--disk-budget", "0"), "--disk-budget")
