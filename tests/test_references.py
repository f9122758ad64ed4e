"""Prose that cannot go stale: every file, module, attribute, test, make target and link
that README.md, docs/*.md and the code's docstrings and comments name exists, and the
module maps of docs/architecture.md match the folders they describe."""

from __future__ import annotations

import importlib
import re
from pathlib import Path

import pytest

from solver.games import REGISTRY
from tests.support.references import ROOT, Reference, prose_files, references, stale

ARCHITECTURE = ROOT / "docs" / "architecture.md"


@pytest.mark.parametrize("path", prose_files(), ids=lambda path: str(path.relative_to(ROOT)))
def test_every_name_the_prose_gives_exists(path: Path) -> None:
    assert [str(reference) for reference in references(path) if stale(reference)] == []


# Places that went stale before this test existed, as they read then.
STALE = [
    ("solver/farbduell/__init__.py", '"""tables.py holds the decks, state.py the position\n'
     'value, wire.py and positions.py the reading of its JSON."""',
     ["tables.py", "state.py", "wire.py", "positions.py"]),
    ("docs/farbduell.md", "(the position is `state.py`, read and checked by `positions.py`)",
     ["state.py", "positions.py"]),
    ("docs/stronghold.md", "The model is `solver/stronghold/` (`position.py`, `combat.py`, "
     "`turns.py`, `policies.py`)", ["turns.py"]),
    ("docs/architecture.md", "4. `service/games.py` `read_any` → `_any_json` → "
     "`solver/reading.py` `json_of`, then the schema in `solver/beleaguered/wire.py`; "
     "`service/convert/common.py` `options_of`; `service/hint_cache.py`",
     ["service/games.py", "solver/beleaguered/wire.py", "service/convert/common.py",
      "service/hint_cache.py"]),
    ("tests/beleaguered/test_position.py", '"""Positions: the JSON layout of DESIGN.md."""',
     ["DESIGN.md"]),
    ("docs/castle-family.md", "`test_a_card_that_was_renamed` and `make bench-gone`, "
     "[the bound](castle-family.md#4-6-no-such-heading), `solver.search.astar.no_such`, "
     "`.venv/bin/python -m bench.no_such_bench`",
     ["test_a_card_that_was_renamed", "bench-gone", "castle-family.md#4-6-no-such-heading",
      "solver.search.astar.no_such", "bench.no_such_bench"]),
    ("docs/service.md", "```text\n.venv/bin/python -m bench.no_such_bench\n```",
     ["bench.no_such_bench"]),
    ("solver/beleaguered/generation.py", "# never past `Generation.finish`",
     ["Generation.finish"]),
]


@pytest.mark.parametrize(("source", "text", "names"), STALE, ids=[s[0] for s in STALE])
def test_stale_names_are_found(source: str, text: str, names: list[str]) -> None:
    found = [reference.text for reference in references(ROOT / source, text)
             if stale(reference)]
    assert sorted(found) == sorted(names)


def test_names_that_exist_are_not_stale() -> None:
    text = ("`solver/beleaguered/heuristic.py`, `heuristic.py`, `solver/<game>/schema.py`, "
            "`tests/test_docs.py::test_block_runs_as_written`, `test_block_runs_as_written`, "
            "`make bench-family`, "
            "`solver.games.find_game`, `solver.beleaguered.game:GAME`, `Budget.memory_mib`, "
            "[the bound](castle-family.md#46-the-lower-bound), PySolFC's `pysollib/stack.py`")
    found = list(references(ROOT / "docs" / "castle-family.md", text))
    assert {reference.kind for reference in found} == {"path", "test", "make", "dotted",
                                                       "attribute", "link"}
    assert [reference for reference in found if stale(reference)] == []


def _table(heading: str) -> list[list[str]]:
    section = ARCHITECTURE.read_text().split(f"## {heading}\n", 1)[1].split("\n## ", 1)[0]
    rows = [line for line in section.splitlines() if line.startswith("|")]
    return [[cell.strip() for cell in row.strip("|").split("|")] for row in rows[2:]]


def test_the_module_map_matches_every_game_folder() -> None:
    """A ✓ is a module the game's folder has, — one it has not; the names in a cell are
    files of the folder or names the module defines. The game columns are the registry's
    games, in its order."""
    folders = [ROOT.joinpath(*entry.split(":")[0].split(".")[:-1]) for entry in REGISTRY]
    rows = _table("The module map of a game")
    assert rows and all(len(row) == 2 + len(folders) for row in rows)
    for module, _, *cells in rows:
        name = module.strip("`")
        for folder, cell in zip(folders, cells, strict=True):
            where = f"{name} in {folder.relative_to(ROOT)}: {cell!r}"
            assert cell[0] in "✓—", where
            assert (folder / name).exists() == (cell[0] == "✓"), where
            for mentioned in re.findall(r"`([^`]+)`", cell):
                if "." in mentioned or mentioned.endswith("/"):
                    assert (folder / mentioned).exists(), where
                else:
                    package = ".".join(folder.relative_to(ROOT).parts)
                    module_name = f"{package}.{name.removesuffix('.py')}"
                    assert hasattr(importlib.import_module(module_name), mentioned), where


def test_the_layout_names_every_module_and_only_modules_that_exist() -> None:
    """Each path of the layout's first column exists, and every module and package of
    solver/ and service/ is there (a folder by its own line or by a file in it)."""
    block = ARCHITECTURE.read_text().split("## Layout\n", 1)[1].split("```text\n", 1)[1]
    listed = {match for line in block.split("```", 1)[0].splitlines()
              if (match := line.split(" ", 1)[0]).startswith(("solver/", "service/"))}
    covered = set()
    for path in listed:
        matches = [match for match in ROOT.glob(re.sub(r"<[^>]*>", "*", path).rstrip("/"))
                   if match.is_dir() or not path.endswith("/")]
        assert matches, path
        covered.update(match.relative_to(ROOT).parts[:2] for match in matches)
    present = {path.relative_to(ROOT).parts
               for package in ("solver", "service") for path in (ROOT / package).iterdir()
               if path.name not in ("__init__.py", "__pycache__")
               and (path.suffix == ".py" or path.is_dir())}
    assert sorted("/".join(parts) for parts in present - covered) == []


def test_a_reference_reads_as_its_place() -> None:
    reference = Reference(ROOT / "docs" / "service.md", 3, "path", "service/gone.py")
    assert str(reference) == "docs/service.md:3: path `service/gone.py`"
