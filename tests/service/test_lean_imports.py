"""What the command line and the service import, checked without a clock: the quick
commands (`--version`, `--help`, `deal`, `show`, `apply`) load no wire schema (pydantic),
no RPC (grpc, protobuf), no CP-SAT, no package metadata and no game they do not play; and
no module of solver/ or service/ imports a development-only package (`make run` does
not install them) but behind an ImportError that says which extra to install."""

from __future__ import annotations

import ast
import json
import subprocess
import sys
import tomllib
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]

# Runs one command through service.cli.main and prints the modules it loaded.
DRIVER = """
import contextlib, io, json, sys
from service.cli import main
with contextlib.redirect_stdout(io.StringIO()):
    try:
        main(json.loads(sys.argv[1]))
    except SystemExit:
        pass
print(json.dumps(sorted(sys.modules)))
"""
HEAVY = ("pydantic", "pydantic_core", "grpc", "google.protobuf", "ortools",
         "importlib.metadata", "solver.ffkingdom", "solver.farbduell", "solver.stronghold",
         "solver.reading", "service.messages")
QUICK = [["--version"], ["--help"], ["deal", "1"], ["show", "--deal", "1"],
         ["apply", "--deal", "2", "AS reserve:8 -> foundation"]]


@pytest.mark.parametrize("argv", QUICK, ids=[" ".join(argv) for argv in QUICK])
def test_a_quick_command_loads_nothing_it_does_not_use(argv):
    done = subprocess.run([sys.executable, "-c", DRIVER, json.dumps(argv)],
                          capture_output=True, text=True, timeout=60, cwd=ROOT)
    assert done.returncode == 0, done.stderr
    loaded = json.loads(done.stdout)
    unwanted = [name for name in loaded
                if any(name == heavy or name.startswith(f"{heavy}.") for heavy in HEAVY)]
    assert unwanted == [], f"{' '.join(argv)} loaded {', '.join(unwanted)}"


def extras_modules() -> set[str]:
    """The import names of the development extras' packages (dev and dask)."""
    extras = tomllib.loads((ROOT / "pyproject.toml").read_text())["project"][
        "optional-dependencies"]
    names = {requirement.split(">")[0].split("[")[0].split("=")[0].strip().lower()
             for requirement in extras["dev"] + extras["dask"]}
    spelled = {"pytest-xdist": "xdist", "grpcio-tools": "grpc_tools", "pysol-cards":
               "pysol_cards", "protoc-gen-connectrpc": "protoc_gen_connectrpc",
               "dask": "dask", "types-tqdm": "", "types-grpcio": "", "types-protobuf": ""}
    return {spelled.get(name, name.replace("-", "_")) for name in names} - {""} | {"distributed"}


def module_level_imports(tree: ast.Module) -> list[tuple[str, bool]]:
    """(top-level package, guarded by `except ImportError`) of each import that runs as
    the module is imported."""
    found: list[tuple[str, bool]] = []

    def visit(body: list[ast.stmt], guarded: bool) -> None:
        for node in body:
            if isinstance(node, ast.Import):
                found.extend((alias.name.split(".")[0], guarded) for alias in node.names)
            elif isinstance(node, ast.ImportFrom) and node.module and not node.level:
                found.append((node.module.split(".")[0], guarded))
            elif isinstance(node, ast.Try):
                catches = any(isinstance(handler.type, ast.Name)
                              and handler.type.id in ("ImportError", "ModuleNotFoundError")
                              for handler in node.handlers)
                visit(node.body, guarded or catches)
            elif isinstance(node, ast.If) and not (isinstance(node.test, ast.Name)
                                                   and node.test.id == "TYPE_CHECKING"):
                visit(node.body, guarded)
                visit(node.orelse, guarded)
    visit(tree.body, False)
    return found


RUNTIME = sorted(path for folder in ("solver", "service") for path in (ROOT / folder).rglob("*.py")
                 if "api" not in path.relative_to(ROOT).parts)


def test_the_extras_are_known_by_their_import_names():
    assert {"pytest", "hypothesis", "matplotlib", "jsonschema", "playwright", "pysol_cards",
            "dask", "distributed"} <= extras_modules()


@pytest.mark.parametrize("path", RUNTIME, ids=[str(p.relative_to(ROOT)) for p in RUNTIME])
def test_runtime_code_imports_no_development_package_unguarded(path):
    extras = extras_modules()
    tree = ast.parse(path.read_text(encoding="utf-8"))
    unguarded = [name for name, guarded in module_level_imports(tree)
                 if name in extras and not guarded]
    assert unguarded == [], f"{path.relative_to(ROOT)} imports {', '.join(unguarded)}"
