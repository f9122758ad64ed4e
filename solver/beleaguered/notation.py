"""A move's text both ways, in our notation and in standard notation, read against the
position it is played in (the card of a standard move is in its source place, and so is
the size of the run it moves).

Ours: `7H tableau:2 foundation`, piles and cells from 0 (solver/beleaguered/rules.py).
Standard notation, as Freecell Solver (`fc-solve -m -snx`), PySolFC and FreeCell sites
write it: piles 1..N, free cells a, b, c... (a-g, then k for an eighth: h is home, so
fc-solve skips h, i and j), h the foundations; a move is its two places (`3a`, `a8`,
`54`, `2h`), and a run of k > 1 cards moved onto an empty pile adds `v` and k in
hexadecimal (`24v2`), as fc-solve -snx writes it. Read back, a count is taken where it is
given; onto a pile that is not empty it is implied (the one card of the source's built
run that builds on the target's top); onto an empty pile a move without one moves one
card, as fc-solve -snx means it (it writes the count whenever more goes). Cells are
places, as ours are: `5b` puts pile 5's top card into cell b (the rules refuse it when b
holds one).

Standard notation names no reserve slot and no move off a foundation: a variant with a
reserve, or one where a card may come back from its foundation, has none (`refusal`),
and reads a move in ours alone.

A move as `solve` prints it reads back too, in either notation: its step number, `->`
and the cards it carries (`13. JH tableau:3 -> tableau:5 (3 cards)`, `13. 35 (3 cards)`),
a count checked against the run it names.
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from enum import StrEnum
from typing import Any

from solver.beleaguered.position import Position
from solver.beleaguered.rules import (
    CELL,
    FOUNDATION,
    TABLEAU,
    Location,
    Move,
    apply,
    builds_on,
    place,
)
from solver.beleaguered.variant import SequenceMoves, Variant
from solver.errors import InvalidInput
from solver.json_text import json_of


class Notation(StrEnum):
    """How moves are written: ours (`7H tableau:2 foundation`) or standard (`3a`)."""

    OURS = "ours"
    STANDARD = "standard"


HOME = "h"
_CELLS = "abcdefgk"  # fc-solve's cell letters: h is home, so the eighth cell is k
_EXAMPLES = "such as 3a, a8, 54, 2h or 24v2"
_STEP = re.compile(r"^\s*[0-9]+\.\s")  # "  12. ", a step's number as `solve` prints it
_CARRIED = re.compile(r"\s*\(\s*([0-9]+)\s+cards?\s*\)\s*$")  # " (3 cards)" after a move
_STANDARD = re.compile(r"([0-9]+|[a-z])([0-9]+|[a-z])(?:v([0-9a-f]+))?")


def refusal(variant: Variant) -> str | None:
    """Why standard notation cannot write the moves of `variant`; None when it can."""
    if variant.reserve:
        return (f"{variant.name} has a reserve, which standard notation cannot name (it "
                "names piles, cells and h, the foundations)")
    if variant.worrying_back:
        return (f"in {variant.name} a card may come back from its foundation, which "
                "standard notation cannot write (h is where cards go)")
    return None


def check(variant: Variant) -> None:
    """InvalidInput, in one line saying why, unless `variant` has standard notation."""
    reason = refusal(variant)
    if reason is not None:
        raise InvalidInput(f"notation standard: {reason}")


def run_size(position: Position, move: Move) -> int:
    """How many cards `move` carries: its card and the cards on it in its pile (one from
    anywhere else, or for a card not where the move says)."""
    if move.source.kind != TABLEAU or move.source.index is None:
        return 1
    pile = position.tableau[move.source.index]
    return len(pile) - pile.index(move.card) if move.card in pile else 1


def write(position: Position, move: Move) -> str:
    """`move`, legal in `position`, in standard notation; InvalidInput for a place it has
    no name for (a reserve slot, a foundation left)."""
    text = _place(move.source) + _place(move.target)
    if move.target.kind == TABLEAU and not position.tableau[move.target.index or 0]:
        carried = run_size(position, move)
        if carried > 1:
            text += f"v{carried:x}"
    return text


def _place(location: Location) -> str:
    if location.kind == TABLEAU:
        return str((location.index or 0) + 1)
    if location.kind == CELL:
        return _CELLS[location.index or 0]
    if location.kind == FOUNDATION:
        return HOME
    raise InvalidInput(f"standard notation has no name for {location}")


def move_json(position: Position | None, move: Move) -> dict[str, Any]:
    """A move's JSON with what it says beside its card and places, where it is played is
    known (`position`): `cards`, how many it carries, and `standard`, the move in
    standard notation where the variant has it."""
    if position is None:
        return move.to_json()
    data: dict[str, Any] = {**move.to_json(), "cards": run_size(position, move)}
    if refusal(position.variant) is None:
        data["standard"] = write(position, move)
    return data


def line_json(start: Position | None, moves: Iterable[Move]) -> list[dict[str, Any]]:
    """Each move's JSON (`move_json`) along a line played from `start` (None: unknown)."""
    if start is None:
        return [move.to_json() for move in moves]
    shown = []
    for move in moves:
        shown.append(move_json(start, move))
        start = apply(start, move)
    return shown


def read(position: Position, text: str, notation: Notation | None = None) -> Move:
    """The move `text` says in `position`: in our notation or standard notation (or only
    the one `notation` names), or as JSON (`{"card": "7H", "from": "tableau:2", "to":
    "foundation"}`); with the step number, arrow and cards carried `solve` prints. A
    count of cards given must be the run's; whether the move is legal is the rules'."""
    if text.lstrip().startswith("{"):
        data = json_of(text.encode(), "the move")
        move = Move.from_json(data)
        said = data.get("cards") if isinstance(data, dict) else None
        return _counted(position, move, said if type(said) is int else None, text)
    bare = _STEP.sub("", text)
    carried = _CARRIED.search(bare)
    said = None if carried is None else int(carried.group(1))
    bare = bare[:carried.start()] if carried else bare
    standard = _STANDARD.fullmatch(bare.strip().lower())
    if notation is Notation.STANDARD:
        check(position.variant)
        if standard is None:
            raise InvalidInput(f"{text.strip()[:40]!r} is not a move in standard notation "
                               f"({_EXAMPLES})")
    # a variant without standard notation reads ours alone, unless standard is asked for
    standard_read = refusal(position.variant) is None and notation is not Notation.OURS
    if standard_read and standard is not None:
        return _standard(position, standard, said, text.strip())
    if standard_read and len(bare.split()) == 1:
        raise InvalidInput(f"{text.strip()[:40]!r} is not a move: in standard notation "
                           f"{_EXAMPLES}; in ours card source target, such as "
                           "'7H tableau:2 foundation'")
    return _counted(position, Move.parse(bare), said, text)


def _counted(position: Position, move: Move, said: int | None, text: str) -> Move:
    """`move`, once the count of cards the text says it carries is its run's (a move of
    a card that is not where it says is the rules' to refuse)."""
    pile = (position.tableau[move.source.index]
            if move.source.kind == TABLEAU and move.source.index is not None
            and 0 <= move.source.index < len(position.tableau) else ())
    if said is not None and (move.card in pile or move.source.kind != TABLEAU):
        carried = run_size(position, move)
        if said != carried:
            raise InvalidInput(f"{text.strip()[:60]!r} says {_cards(said)}, but it "
                               f"moves {_cards(carried)}")
    return move


def _cards(count: int) -> str:
    return "1 card" if count == 1 else f"{count} cards"


def _standard(position: Position, match: re.Match[str], said: int | None,
              text: str) -> Move:
    """The move of a standard notation match: its card from its source place, a run's
    size from its count, the count `solve` printed, or the target's top."""
    source_text, target_text, count_text = match.groups()
    if source_text.isdigit() and target_text.isdigit():
        source, target = _two_piles(position, source_text + target_text, text)
    else:
        source = _where(position, source_text, text)
        target = _where(position, target_text, text)
    if source.kind == FOUNDATION:
        raise InvalidInput(f"{text!r}: h, the foundations, is where cards go in standard "
                           "notation, never where they come from")
    counted = None if count_text is None else int(count_text, 16)
    if counted is not None and said is not None and counted != said:
        raise InvalidInput(f"{text!r} says v{count_text} ({_cards(counted)}) and "
                           f"{_cards(said)}")
    counted = counted if counted is not None else said
    if source.kind == CELL:
        card = position.cells[source.index or 0]
        if card is None:
            raise InvalidInput(f"{text!r}: cell {source_text} is empty")
        if counted not in (None, 1):
            raise InvalidInput(f"{text!r}: a cell holds one card, not {counted}")
        return Move(card, source, target)
    pile = position.tableau[source.index or 0]
    if not pile:
        raise InvalidInput(f"{text!r}: pile {source_text} is empty")
    if target.kind != TABLEAU:
        if counted not in (None, 1):
            raise InvalidInput(f"{text!r}: a run of {counted} cards moves only onto a pile")
        return Move(pile[-1], source, target)
    if counted is None:
        counted = _implied(position, source.index or 0, target.index or 0, text)
    if not 1 <= counted <= len(pile):
        raise InvalidInput(f"{text!r}: pile {source_text} holds {_cards(len(pile))}, "
                           f"not {counted}")
    return Move(pile[-counted], source, target)


def _implied(position: Position, source: int, target: int, text: str) -> int:
    """How many cards a move from pile `source` to pile `target` carries when its text
    says not: one onto an empty pile, else the depth of the card of the source's built
    run that builds on the target's top (the rules then say whether the room carries
    it)."""
    pile, onto = position.tableau[source], position.tableau[target]
    if not onto or position.variant.sequence_moves is SequenceMoves.NONE:
        return 1
    build = position.variant.build
    for depth in range(1, len(pile) + 1):
        if depth > 1 and not builds_on(build, pile[-depth + 1], pile[-depth]):
            break
        if builds_on(build, pile[-depth], onto[-1]):
            return depth
    raise InvalidInput(f"{text!r}: no card of the built run on top of pile {source + 1} "
                       f"goes onto {onto[-1]}, the top of pile {target + 1}")


def _where(position: Position, name: str, text: str) -> Location:
    """The place a standard name (one pile number, a cell letter or h) means."""
    if name == HOME:
        return place(FOUNDATION)
    if name.isdigit():
        index = _pile(position, name)
        if index is None:
            raise InvalidInput(f"{text!r}: {position.variant.name} has piles "
                               f"1-{len(position.tableau)}, no pile {name}")
        return place(TABLEAU, index)
    letters = _CELLS[:len(position.cells)]
    if name not in letters:
        held = f"cells {letters[0]}-{letters[-1]}" if letters else "no free cells"
        raise InvalidInput(f"{text!r}: {position.variant.name} has {held}, no cell {name}")
    return place(CELL, letters.index(name))


def _pile(position: Position, digits: str) -> int | None:
    """The pile index a pile number names (1..N, no leading zero), else None."""
    number = int(digits)
    return number - 1 if digits[0] != "0" and 1 <= number <= len(position.tableau) else None


def _two_piles(position: Position, digits: str, text: str) -> tuple[Location, Location]:
    """A pile-to-pile move's two piles from their numbers written together (`54`, `110`
    in a game of ten piles): the one split into two pile numbers there is."""
    splits = [(source, target) for cut in range(1, len(digits))
              if (source := _pile(position, digits[:cut])) is not None
              and (target := _pile(position, digits[cut:])) is not None]
    if not splits:
        raise InvalidInput(f"{text!r}: names no two piles of {position.variant.name}'s "
                           f"1-{len(position.tableau)}")
    if len(splits) > 1:
        said = " or ".join(f"{a + 1} to {b + 1}" for a, b in splits)
        raise InvalidInput(f"{text!r} may be pile {said}: write it in our notation")
    source, target = splits[0]
    return place(TABLEAU, source), place(TABLEAU, target)
