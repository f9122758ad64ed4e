"""French-deck cards as small immutable values with a canonical two-letter notation."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from enum import Enum, IntEnum


class Suit(Enum):
    """The four suits, in the order the deal shuffle indexes them."""

    CLUBS = "C"
    DIAMONDS = "D"
    HEARTS = "H"
    SPADES = "S"

    @property
    def index(self) -> int:
        return _SUIT_ORDER.index(self)

    @property
    def is_red(self) -> bool:
        return self in (Suit.DIAMONDS, Suit.HEARTS)

    def __str__(self) -> str:
        return self.value

    @classmethod
    def parse(cls, text: str) -> Suit:
        suit = _SUIT_NAMES.get(text.strip().upper())
        if suit is None:
            raise ValueError(f"{text!r} is not a suit (use C, D, H, S or ♣ ♦ ♥ ♠)")
        return suit


_SUIT_ORDER = tuple(Suit)
_SUIT_NAMES = {s.value: s for s in Suit} | {
    "♣": Suit.CLUBS, "♦": Suit.DIAMONDS, "♥": Suit.HEARTS, "♠": Suit.SPADES,
    "♧": Suit.CLUBS, "♢": Suit.DIAMONDS, "♡": Suit.HEARTS, "♤": Suit.SPADES,
}


class Rank(IntEnum):
    """Ace (1) to King (13)."""

    ACE = 1
    TWO = 2
    THREE = 3
    FOUR = 4
    FIVE = 5
    SIX = 6
    SEVEN = 7
    EIGHT = 8
    NINE = 9
    TEN = 10
    JACK = 11
    QUEEN = 12
    KING = 13

    def __str__(self) -> str:
        return _RANK_LETTERS[self - 1]

    @classmethod
    def parse(cls, text: str) -> Rank:
        key = text.strip().upper()
        if key == "10":
            return cls.TEN
        if len(key) == 1 and key in _RANK_LETTERS:
            return cls(_RANK_LETTERS.index(key) + 1)
        raise ValueError(f"{text!r} is not a rank (use A 2-9 T J Q K or 10)")


_RANK_LETTERS = "A23456789TJQK"


@dataclass(frozen=True, eq=False)
class Card:
    """Equal, hashed and ordered by `index`, so cards are cheap keys in sets and dicts."""

    rank: Rank
    suit: Suit
    index: int = field(init=False, repr=False, compare=False)

    def __post_init__(self) -> None:
        # 0..51 as rank*4 + suit with Ace = 0 and suits C D H S: the deal shuffle's order.
        object.__setattr__(self, "index", (self.rank - 1) * 4 + _SUIT_ORDER.index(self.suit))

    def __eq__(self, other: object) -> bool:
        return isinstance(other, Card) and self.index == other.index

    def __hash__(self) -> int:
        return self.index

    def __lt__(self, other: Card) -> bool:
        return self.index < other.index

    def __str__(self) -> str:
        return f"{self.rank}{self.suit}"

    def __repr__(self) -> str:
        return f"Card({self})"

    @classmethod
    def from_index(cls, index: int) -> Card:
        if not 0 <= index < 52:
            raise ValueError(f"card index {index} is out of range 0..51")
        return _BY_INDEX[index]

    def __reduce__(self) -> tuple[Callable[[int], Card], tuple[int]]:
        """Pickled as its index: positions and lines cross to worker processes by the
        thousand, and a card's rank and suit cost some twenty times as much."""
        return _card, (self.index,)

    @classmethod
    def parse(cls, text: str) -> Card:
        """Read '7H', 'th', '10♠' and the like; raise ValueError naming the text otherwise."""
        if not isinstance(text, str):
            raise ValueError(f"{text!r} is not a card")
        key = text.strip()
        if len(key) < 2 or any(ch.isspace() for ch in key):
            raise ValueError(f"{text!r} is not a card")
        try:
            return cls(Rank.parse(key[:-1]), Suit.parse(key[-1]))
        except ValueError:
            raise ValueError(f"{text!r} is not a card") from None


def _card(index: int) -> Card:
    return _BY_INDEX[index]


FULL_DECK: tuple[Card, ...] = tuple(
    Card(rank, suit) for rank in Rank for suit in _SUIT_ORDER
)
_BY_INDEX = FULL_DECK
