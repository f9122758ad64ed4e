"""Freecell Solver's board text, both ways: the text `fc-solve` reads, which its board
makers (`make-microsoft-freecell-board`, with `-t` or without) and PySolFC's exporter
write, so that a board from those tools is a position here and one of ours goes to them.

A board is a line a pile, bottom card first, optionally after a `:` (as `fc-solve -p -t`
prints piles); a blank line is an empty pile, as PySolFC writes one. A `Foundations:` line
(or `Founds:`, `Found:`, `Foundation:`, `Decks:`, `Deck:`) gives each suit's top as
`H-5` (`0` empty, a suit not named is empty), and a `Freecells:` line (or `FC:`,
`Freecell:`) the cells in order, `-` or `*` for an empty one (`fc-solve -p` writes an
empty cell as blanks, which read as nothing: its cards move to the first cells, as
fc-solve reads them too); either line may come anywhere, once, in any case, and cells
not written are empty. Cards read as anywhere here (`TH` or `10H`, lower case).
fc-solve takes no comments, nor does this. Blank lines after the last pile are ignored;
a line of cards beyond it is refused, where fc-solve would drop it unread.

Freecell Solver has no open reserve, so a variant with one has no board text. Without
a variant named, a board is FreeCell's (`DEFAULT_VARIANT`); a fault the variant decides
(how many piles and cells, the deck) then says so. A line that does not read is named
with the first fault on it ("line 3: 'XX' is not a card"); a board that reads is then
checked as a position, its missing and duplicate cards named.
"""

from __future__ import annotations

from solver.beleaguered.position import Position
from solver.beleaguered.variant import Variant, find_variant
from solver.cards import FULL_DECK, Card, Rank, Suit
from solver.errors import InvalidInput

DEFAULT_VARIANT = "freecell"  # what a board is read as when no variant is named
# fc-solve writes the foundations in the order H C D S; ours are C D H S.
FOUNDATION_SUITS = (Suit.HEARTS, Suit.CLUBS, Suit.DIAMONDS, Suit.SPADES)
FOUNDATION_WORDS = ("foundations:", "foundation:", "founds:", "found:", "decks:", "deck:")
CELL_WORDS = ("freecells:", "freecell:", "fc:")
EMPTY_CELL = ("-", "*")
_WRITTEN = {str(card): card for card in FULL_DECK}  # the usual spelling, looked up


def board_text(position: Position) -> str:
    """fc-solve's board text of `position` (as `fc-solve -p -t` prints it, with `-` for
    an empty cell so that every card keeps its cell): InvalidInput for a variant with
    a reserve."""
    _refuse_reserve(position.variant)
    lines = ["Foundations: " + " ".join(f"{suit}-{_rank(position.foundations[suit.index])}"
                                        for suit in FOUNDATION_SUITS)]
    if position.cells:
        lines.append("Freecells: " + " ".join("-" if card is None else str(card)
                                              for card in position.cells))
    lines += [(": " + " ".join(map(str, pile))).rstrip() for pile in position.tableau]
    return "\n".join(lines) + "\n"


def read_board(text: str, variant: Variant | None = None) -> Position:
    """The position of a board text, as `variant` (None: DEFAULT_VARIANT), or one line of
    InvalidInput: the first line that does not read, else every fault of its deck."""
    rules = variant or find_variant(DEFAULT_VARIANT)
    _refuse_reserve(rules)
    note = ("" if variant is not None else  # the default, said where the variant decides
            f"a board is read as {rules.name} unless --variant names another variant")
    if not text.strip():
        raise InvalidInput("the board is empty: give a line of cards a pile")
    piles: list[tuple[Card, ...]] = []
    foundations: tuple[int, int, int, int] | None = None
    cells: tuple[Card | None, ...] | None = None
    held = 0
    for number, line in enumerate(text.splitlines(), 1):
        words = line.split()
        if not words and len(piles) == len(rules.piles):
            continue  # a blank line after the last pile
        where, head = f"line {number}", words[0].casefold() if words else ""
        if head.startswith(FOUNDATION_WORDS):
            if foundations is not None:
                raise InvalidInput(f"{where}: a second foundations line")
            foundations = _foundations(_after(":", words), where)
        elif head.startswith(CELL_WORDS):
            if cells is not None:
                raise InvalidInput(f"{where}: a second free cells line")
            cells = _cells(_after(":", words), where, rules, note)
            held += sum(card is not None for card in cells)
        elif len(piles) < len(rules.piles):
            if head.startswith(":"):
                words = _after(":", words)
            piles.append(tuple(_card(word, where) for word in words))
            held += len(piles[-1])
        else:
            raise InvalidInput([f"{where}: a pile past the {len(rules.piles)} of {rules.name} "
                                "(a blank line is an empty pile)", *_said(note)])
        if held > len(FULL_DECK):
            raise InvalidInput(f"{where}: more than the {len(FULL_DECK)} cards of a deck")
    piles += [()] * (len(rules.piles) - len(piles))
    cells = (cells or ()) + (None,) * (rules.cells - len(cells or ()))
    try:
        return Position(tuple(piles), (), foundations or (0, 0, 0, 0), cells, rules)
    except InvalidInput as faults:
        raise InvalidInput([*faults.problems, *_said(note)]) from None


def _refuse_reserve(variant: Variant) -> None:
    if variant.reserve:
        raise InvalidInput(f"{variant.name} has a reserve, which Freecell Solver's board "
                           "text cannot hold: give its position as JSON")


def _after(mark: str, words: list[str]) -> list[str]:
    """The words after the first `mark` of the first word: "FC:KS -" is "KS -"."""
    rest = words[0].partition(mark)[2]
    return [rest, *words[1:]] if rest else words[1:]


def _foundations(words: list[str], where: str) -> tuple[int, int, int, int]:
    """Each suit's top from words such as `H-5` (`S-0` empty, `C-A`, `D-10`)."""
    tops: dict[Suit, int] = {}
    for word in words:
        suit_text, dash, rank_text = word.partition("-")
        rank_text = rank_text.lstrip("-")  # fc-solve reads H--5 as H-5
        try:
            if not dash:
                raise ValueError(word)
            suit = Suit.parse(suit_text)
            rank = 0 if rank_text == "0" else int(Rank.parse(rank_text))
        except ValueError:
            raise InvalidInput(f"{where}: {_shown(word)} is not a foundation such as H-5 "
                               "(a suit, a dash, its top rank or 0)") from None
        if suit in tops:
            raise InvalidInput(f"{where}: the {suit} foundation given twice")
        tops[suit] = rank
    found = [tops.get(suit, 0) for suit in Suit]
    return found[0], found[1], found[2], found[3]


def _cells(words: list[str], where: str, rules: Variant,
           note: str) -> tuple[Card | None, ...]:
    """The cells in order, None for `-`; empty ones after the last card are left out."""
    cells = [None if word in EMPTY_CELL else _card(word, where) for word in words]
    while cells and cells[-1] is None:
        cells.pop()
    if len(cells) > rules.cells:
        raise InvalidInput([f"{where}: {rules.name} has {rules.cells} free cells, not "
                            f"{len(cells)}", *_said(note)])
    return tuple(cells)


def _said(note: str) -> list[str]:
    """The note on the variant assumed, as a fault's last part, when there is one."""
    return [note] if note else []


def _card(word: str, where: str) -> Card:
    card = _WRITTEN.get(word)
    if card is not None:
        return card
    try:
        return Card.parse(word)
    except ValueError:
        raise InvalidInput(f"{where}: {_shown(word)} is not a card") from None


def _rank(top: int) -> str:
    return "0" if top == 0 else str(Rank(top))


def _shown(word: str) -> str:
    """A word as a fault quotes it, cut short: a fault is one short line."""
    text = repr(word)
    return text if len(text) <= 40 else text[:37] + "..."
