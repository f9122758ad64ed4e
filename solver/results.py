"""What a file of results over numbered deals holds, for any game that numbers its deals.
Each line that `--out` writes carries the settings of its run beside its deal's result:
the game, the variant (with the digest of a user's rules), the mode, the metric of its
lengths and the budget. A file cut short,
filtered or joined with another still says what each of its lines is, so a run that
would add results of other settings to it, or a pack of another variant's, is refused
in one line before anything starts."""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass, replace
from pathlib import Path
from typing import Any

from solver.budget import Budget
from solver.errors import InvalidInput

_MODES = {"any": "any-mode", "optimal": "optimal-mode", "verdict": "verdict-mode",
          "census": "census"}
_KEYS = ("game", "variant", "rules", "mode", "metric", "budget")  # what `fields` adds to a line


@dataclass(frozen=True)
class Settings:
    """What a run's results are of (game, variant, a user's rules), found how (mode) and
    within what budget. Results of one file agree on all but the budget, which
    --retry-unknown raises for the deals it redoes."""

    game: str
    variant: str
    mode: str
    budget: Budget
    rules: str | None = None  # sha256 of a user's rules; None for a shipped variant's
    metric: str = "moves"  # what lengths count: moves, or single cards ("cards")

    def fields(self) -> dict[str, Any]:
        """The keys each line of the file carries."""
        budget = {"seconds": self.budget.seconds, "nodes": self.budget.nodes,
                  "table_entries": self.budget.table_entries,
                  "memory_mib": self.budget.memory_mib}
        own = {} if self.rules is None else {"rules": self.rules}
        return {"game": self.game, "variant": self.variant, **own, "mode": self.mode,
                "metric": self.metric, "budget": budget}

    def carried(self, recorded: bool) -> dict[str, Any]:
        """The settings a line carries beside its result: in a file (`recorded`) all of
        them, on standard output what its lengths count (the metric) alone."""
        return self.fields() if recorded else {"metric": self.metric}

    @classmethod
    def of_line(cls, line: dict[str, Any]) -> Settings | None:
        """The settings a line records; None for one that records none (written by an
        earlier fortress-solver). ValueError for settings not whole."""
        if "game" not in line:
            return None
        try:
            budget = line["budget"]
            found = cls(_game(line["game"]), line["variant"], line["mode"],
                        Budget(budget["seconds"], budget["nodes"], budget["table_entries"],
                               memory_mib=budget.get("memory_mib")),
                        line.get("rules"), line.get("metric", "moves"))
        except (KeyError, TypeError, ValueError):
            raise ValueError("its settings are not whole") from None
        texts = (found.variant, found.mode, found.game, found.rules or "", found.metric)
        if not all(isinstance(text, str) for text in texts):
            raise ValueError("its settings are not whole")
        return found

    def alike(self, other: Settings) -> bool:
        """Whether results of both may share a file: all but the budget agree."""
        return replace(other, budget=self.budget) == self

    def __str__(self) -> str:
        """The results' kind in words: "citadel census", "castle-one-cell (rules
        sha256 1a2b3c4d5e6f) any-mode"."""
        own = "" if self.rules is None else f" (rules sha256 {self.rules[:12]})"
        counted = "" if self.metric == "moves" else f" in {self.metric}"
        return f"{self.variant}{own} {_MODES.get(self.mode, self.mode)}{counted}"

    def budget_words(self) -> str:
        """The budget in words: "30 s a search", "30 s, 1,000 nodes a search"."""
        budget = self.budget
        words = [] if budget.seconds is None else [f"{budget.seconds:g} s"]
        if budget.nodes is not None:
            words.append(f"{budget.nodes:,} nodes")
        if budget.table_entries is not None:
            words.append(f"{budget.table_entries:,} table entries")
        if budget.memory_mib != Budget().memory_mib:
            words.append("no memory cap" if budget.memory_mib is None
                         else f"{budget.memory_mib:,} MiB")
        return f"{', '.join(words) or 'no limit'} a search"


def _game(written: Any) -> Any:
    """The game a line names, by its name today: a line written before its game was
    renamed names it by what is now one of its aliases, and resumes as its lines."""
    from solver.games import find_game

    if not isinstance(written, str):
        return written
    try:
        return find_game(written).name
    except InvalidInput:  # a game not installed here: its lines stay its own
        return written


def whole_lines(raw: bytes) -> list[tuple[int, bytes]]:
    """The lines of a results file's bytes, numbered from 1, blank ones left out, up to
    its last newline: a last line without one was cut short (a run killed mid-write)."""
    whole = raw.rfind(b"\n") + 1
    return [(number, line) for number, line in enumerate(raw[:whole].splitlines(), 1)
            if line.strip()]


def drop_cut_line(path: Path, raw: bytes) -> None:
    """Cut a last line without its newline from the file whose bytes are `raw`: its deal
    runs again, and the lines appended start on a line of their own."""
    whole = raw.rfind(b"\n") + 1
    if whole < len(raw):
        with path.open("r+b") as file:
            file.truncate(whole)



def recorded(path: Path, lines: Iterable[tuple[int, dict[str, Any]]]) -> Settings | None:
    """The settings of a file's lines (numbered), with its last line's budget; None when
    there are none, or they record none. Lines whose settings differ in more than the
    budget are refused, naming two of them."""
    first: tuple[int, Settings | None] | None = None
    found: Settings | None = None
    before: list[Any] | None = None
    for number, line in lines:
        written = [line.get(key) for key in _KEYS]
        if written == before:  # a run's lines come together: its settings are read once
            continue
        before = written
        try:
            found = Settings.of_line(line)
        except ValueError as err:
            raise InvalidInput(f"{path} line {number}: {err}") from None
        if first is None:
            first = (number, found)
        elif not _alike(first[1], found):
            raise InvalidInput(f"{path} mixes {_kind(first[1])} results (line {first[0]}) "
                               f"and {_kind(found)} results (line {number})")
    return found


def check_resume(path: Path, found: Settings | None, run: Settings,
                 retrying: bool) -> None:
    """Refuse in one line adding this run's results to a file of results it holds
    (`found`): those of an earlier fortress-solver, which say not what they are, those of
    other settings, and those of another budget unless `retrying` (--retry-unknown or
    --retry-unproven)."""
    if found is None:
        raise InvalidInput(f"{path} does not say what its results are of (written by an "
                           "earlier fortress-solver): use another --out")
    both = (f"{path} holds {found} results ({found.budget_words()}); this run is {run} "
            f"({run.budget_words()})")
    if not found.alike(run):
        raise InvalidInput(f"{both}: use another --out")
    if found.budget != run.budget and not retrying:
        raise InvalidInput(f"{both}: give the file's budget, or --retry-unknown to redo "
                           "its unknown deals with this one")


def _alike(one: Settings | None, other: Settings | None) -> bool:
    if one is None or other is None:
        return one is other
    return one.alike(other)


def _kind(settings: Settings | None) -> str:
    return "unlabelled" if settings is None else str(settings)
