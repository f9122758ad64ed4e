"""The references prose makes to the repository, and whether each still resolves.

Prose names files, modules, attributes, tests, make targets and headings, and nothing
tells it when one is renamed or removed. This finds such names in README.md, docs/*.md,
and the docstrings and comments of the code, and says which no longer exist:

- a repository path (`solver/beleaguered/heuristic.py`, `docs/service.md`), `<game>` or
  `*` standing for any folder or part of a name, or a file by its name alone
  (`references.py`), found in a folder the writer is about: its own and those above, those
  a page names, those of the modules a file imports;
- a pytest id (`tests/test_docs.py::test_block_runs_as_written`) or a test's name;
- a dotted name under a package of the repository (`solver.games.find_game`,
  `solver.beleaguered.game:GAME`), which must import and resolve;
- a make target (`make bench-family`) or a module run with `python -m`, in examples too;
- a Markdown link to a file of the repository, and its heading anchor.
"""

from __future__ import annotations

import ast
import importlib
import io
import re
import sys
import tokenize
from collections.abc import Iterator
from dataclasses import dataclass
from functools import cache
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
PACKAGES = ("solver", "service", "bench", "tests")
TOP = (*PACKAGES, "docs", "protos", ".ci")
CODE = r"(?:py|pyi|cpp|md|proto)"  # a bare name with these endings names a repository file

_SPAN = re.compile(r"`([^`\n]+)`")
_LINK = re.compile(r"\]\(([^)\s]+)\)")
_FENCE = re.compile(r"^\s*```")
_PATH = re.compile(rf"^(?:(?:{'|'.join(map(re.escape, TOP))})/[\w./<>*-]*"
                   rf"|[\w-]+\.{CODE}|Makefile|README\.md|pyproject\.toml|setup\.py)"
                   r"(?:::\w+)?$")
_BARE_FILE = re.compile(rf"(?<![\w/.`<*-])((?:[\w*-]+/)*[\w*-]+\.{CODE})(?![\w/])")
_DOTTED = re.compile(rf"^(?:{'|'.join(PACKAGES)})(?:\.\w+)+(?::\w+(?:\.\w+)*)?(?:\(\))?$")
_TEST_NAME = re.compile(r"^test_\w+$")
_ATTRIBUTE = re.compile(r"^([A-Za-z_]\w*)\.(\w+)(?:\(\))?$")
_ENDINGS = {"toml", "json", "jsonl", "bin", "txt", "yaml", "png", "csv", "log", "gz"}
_MAKE = re.compile(r"^make ([\w-]+)")
_COMMAND = re.compile(r"(?:^|[\s`(/])(?:make ([\w-]+)"
                      r"|python -m ((?:bench|service|solver|tests)[\w.]*))")


@dataclass(frozen=True)
class Reference:
    """A name some prose gives, where it gives it, and what kind of name it is."""

    source: Path
    line: int
    kind: str  # path, dotted, test, attribute, make, link
    text: str

    def __str__(self) -> str:
        return f"{self.source.relative_to(ROOT)}:{self.line}: {self.kind} `{self.text}`"


def prose_files() -> list[Path]:
    """The Markdown pages and the code whose docstrings and comments are read."""
    pages = [ROOT / "README.md", *sorted((ROOT / "docs").glob("*.md"))]
    code = sorted(path for package in PACKAGES for path in (ROOT / package).rglob("*.py")
                  if "DO NOT EDIT" not in path.read_text()[:300])  # not generated code
    return [*pages, *code, *sorted((ROOT / "solver").rglob("*.cpp"))]


def references(path: Path, text: str | None = None) -> Iterator[Reference]:
    """Every reference in one file's prose (its `text`, when given, instead of what the
    file holds)."""
    text = path.read_text() if text is None else text
    if path.suffix == ".md":
        yield from _markdown(path, text)
    else:
        for line, prose in _prose_of_code(path, text):
            yield from _in_prose(path, line, prose, bare_files=True)


@cache
def homes(path: Path) -> tuple[Path, ...]:
    """The folders where a bare file name in this file's prose may live: the repository's
    root, the file's own folder, and the folders of what it is about (for a page, those of
    the paths it names; for code, those of the repository modules it imports)."""
    found = [*path.parents[:len(path.relative_to(ROOT).parts)]]
    if path.suffix == ".md":
        for reference in _markdown(path, path.read_text()):
            if reference.kind == "path" and "/" in reference.text:
                pattern = re.sub(r"<[^>]*>", "*", reference.text.partition("::")[0])
                found += [target if target.is_dir() else target.parent
                          for target in ROOT.glob(pattern.rstrip("/"))]
    elif path.suffix == ".py":
        for node in ast.walk(ast.parse(path.read_text())):
            names = [node.module or ""] if isinstance(node, ast.ImportFrom) else \
                [alias.name for alias in node.names] if isinstance(node, ast.Import) else []
            for name in names:
                if name.split(".")[0] in PACKAGES:
                    module = ROOT.joinpath(*name.split("."))
                    found.append(module if module.is_dir() else module.parent)
    else:
        found.append(path.parent)
    return tuple(dict.fromkeys(found))


def _markdown(path: Path, text: str) -> Iterator[Reference]:
    fenced = False
    for number, line in enumerate(text.splitlines(), 1):
        if _FENCE.match(line):
            fenced = not fenced
            continue
        if fenced:  # a command's make target or module, in an example
            for target, module in _COMMAND.findall(line):
                yield Reference(path, number, "make", target) if target else \
                    Reference(path, number, "dotted", module)
            continue
        for target in _LINK.findall(line):
            if not re.match(r"^[a-z]+:", target):
                yield Reference(path, number, "link", target)
        yield from _in_prose(path, number, line, bare_files=False)


def _in_prose(path: Path, line: int, text: str, bare_files: bool) -> Iterator[Reference]:
    spans = _SPAN.findall(text)
    for span in spans:
        span = span.strip()
        if make := _MAKE.match(span):
            yield Reference(path, line, "make", make.group(1))
        elif (command := _COMMAND.search(span)) and command.group(2):
            yield Reference(path, line, "dotted", command.group(2))
        elif _PATH.match(span) and "/" in span or re.match(rf"^[\w-]+\.{CODE}(::\w+)?$", span):
            yield Reference(path, line, "path", span)
        elif _DOTTED.match(span):
            yield Reference(path, line, "dotted", span.removesuffix("()"))
        elif _TEST_NAME.match(span):
            yield Reference(path, line, "test", span)
        elif (attribute := _ATTRIBUTE.match(span)) and attribute.group(1) in _members() \
                and attribute.group(1) not in sys.stdlib_module_names \
                and attribute.group(2) not in _ENDINGS:
            yield Reference(path, line, "attribute", span.removesuffix("()"))
    if bare_files:
        unquoted = _SPAN.sub(" ", text)
        for name in _BARE_FILE.findall(unquoted):
            yield Reference(path, line, "path", name)


def _prose_of_code(path: Path, source: str) -> Iterator[tuple[int, str]]:
    """(line, text) of each docstring line and comment of a Python or C++ file."""
    if path.suffix == ".cpp":
        for number, line in enumerate(source.splitlines(), 1):
            if "//" in line:
                yield number, line.split("//", 1)[1]
        return
    for node in ast.walk(ast.parse(source)):
        if isinstance(node, (ast.Module, ast.ClassDef, ast.FunctionDef, ast.AsyncFunctionDef)):
            body = node.body
            if body and isinstance(body[0], ast.Expr) and isinstance(body[0].value, ast.Constant) \
                    and isinstance(body[0].value.value, str):
                for offset, text in enumerate(body[0].value.value.splitlines()):
                    yield body[0].lineno + offset, text
    for token in tokenize.generate_tokens(io.StringIO(source).readline):
        if token.type == tokenize.COMMENT:
            yield token.start[0], token.string


def stale(reference: Reference) -> bool:
    """Whether the name no longer resolves."""
    match reference.kind:
        case "path":
            return not _path_exists(reference)
        case "dotted":
            return not _resolves(reference.text)
        case "test":
            return reference.text not in _test_names()
        case "make":
            return reference.text not in _make_targets()
        case "attribute":
            owner, _, name = reference.text.partition(".")
            return name not in _members()[owner]
        case _:
            return not _link_resolves(reference)


def _path_exists(reference: Reference) -> bool:
    text, _, test = reference.text.partition("::")
    if "/" in text and text.split("/")[0] not in _folders():
        return True  # another project's file, such as PySolFC's pysollib/stack.py
    for base in homes(reference.source):
        found = sorted(base.glob(re.sub(r"<[^>]*>", "*", text))) if "<" in text or "*" in text \
            else [base / text] if (base / text).exists() else []
        if found:
            return not test or any(re.search(rf"^\s*(?:async )?(?:def|class) {test}\b",
                                             path.read_text(), re.M) for path in found)
    return False


def _resolves(dotted: str) -> bool:
    module_part, _, attribute_part = dotted.partition(":")
    names = module_part.split(".")
    for cut in range(len(names), 0, -1):
        try:
            target: object = importlib.import_module(".".join(names[:cut]))
        except ImportError:
            continue
        for name in [*names[cut:], *filter(None, attribute_part.split("."))]:
            if not hasattr(target, name):
                return False
            target = getattr(target, name)
        return True
    return False


@cache
def _folders() -> frozenset[str]:
    return frozenset(path.name for package in TOP for path in (ROOT / package).rglob("*")
                     if path.is_dir()) | frozenset(TOP)


@cache
def _members() -> dict[str, frozenset[str]]:
    """Per class and per module of the repository (by name), the names defined in it:
    what `Class.attribute` and `module.attribute` may name."""
    members: dict[str, set[str]] = {}
    for package in PACKAGES:
        for path in (ROOT / package).rglob("*.py"):
            tree = ast.parse(path.read_text())
            members.setdefault(path.stem, set()).update(_defined(tree.body))
            for node in ast.walk(tree):
                if isinstance(node, ast.ClassDef):
                    members.setdefault(node.name, set()).update(_defined(node.body))
                    members[node.name].update(  # and what its methods set on self
                        target.attr for target in ast.walk(node)
                        if isinstance(target, ast.Attribute) and isinstance(target.ctx, ast.Store)
                        and isinstance(target.value, ast.Name) and target.value.id == "self")
    return {name: frozenset(names) for name, names in members.items()}


def _defined(body: list[ast.stmt]) -> Iterator[str]:
    for node in body:
        if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)):
            yield node.name
        elif isinstance(node, ast.AnnAssign) and isinstance(node.target, ast.Name):
            yield node.target.id
        elif isinstance(node, ast.Assign):
            yield from (target.id for target in node.targets if isinstance(target, ast.Name))
        elif isinstance(node, (ast.Import, ast.ImportFrom)):
            yield from (alias.asname or alias.name.split(".")[0] for alias in node.names)


@cache
def _test_names() -> frozenset[str]:
    return frozenset(re.findall(r"^\s*(?:async )?def (test_\w+)", "\n".join(
        path.read_text() for path in (ROOT / "tests").rglob("*.py")), re.M))


@cache
def _make_targets() -> frozenset[str]:
    return frozenset(re.findall(r"^([\w-]+):", (ROOT / "Makefile").read_text(), re.M))


def _link_resolves(reference: Reference) -> bool:
    target, _, anchor = reference.text.partition("#")
    page = (reference.source.parent / target).resolve() if target else reference.source
    if not page.exists():
        return False
    return not anchor or page.suffix != ".md" or anchor in _anchors(page)


@cache
def _anchors(page: Path) -> frozenset[str]:
    """The heading anchors a Markdown page has, as GitHub makes them."""
    anchors = set()
    fenced = False
    for line in page.read_text().splitlines():
        if _FENCE.match(line):
            fenced = not fenced
        elif not fenced and (heading := re.match(r"^#+\s+(.*?)\s*$", line)):
            slug = re.sub(r"[^\w\- ]", "", heading.group(1).lower()).replace(" ", "-")
            anchors.add(slug)
    return frozenset(anchors)
