"""The census of the first deals of each variant: each one's verdict and optimal length (or
the best line found and a proven lower bound), shipped with the package, so a deal's
difficulty is known without a search.

Two formats, both a header and then the deals in order, zlib-compressed:

FSC1, Beleaguered Fortress's census.bin: header (magic, first deal, count), then one byte
a deal: 0 unknown (the census's budget ran out), 1 unwinnable (proven), 2 winnable (its
optimal length not proven within the budget), 3 + L winnable with optimal length L.

FSC2, one file a variant, censuses/<variant>.bin: header (magic, first deal, count, the
variant's name as a length byte and ASCII), then three bytes a deal: the status (0 unknown,
1 unwinnable, 2 winnable, 3 winnable with its length proven optimal), the length of the
best winning line found, and a proven lower bound on the optimal length (equal to the
length when it is proven optimal); 255 in either length byte means none.

Every verdict in either file was proven by a search; `unknown` is not a guess, and neither
is a lower bound.
"""

from __future__ import annotations

import struct
import zlib
from collections.abc import Iterable, Iterator
from dataclasses import dataclass
from functools import cache
from pathlib import Path

from solver.beleaguered.variant import DEFAULT, Variant, find_variant, is_shipped
from solver.budget import Status

PATH = Path(__file__).with_name("census.bin")  # Beleaguered Fortress's census (FSC1)
FOLDER = Path(__file__).with_name("censuses")  # the other variants' (FSC2), by name
_MAGIC = b"FSC1"
_HEADER = struct.Struct("<4sII")  # magic, first deal, count
_UNKNOWN, _UNWINNABLE, _WON, _WINNABLE = 0, 1, 2, 3
MAX_LENGTH = 255 - _WINNABLE

_MAGIC2 = b"FSC2"
_HEADER2 = struct.Struct("<4sIIB")  # magic, first deal, count, the name's length
_NONE = 255  # FSC2: no length, no lower bound
MAX_LENGTH2 = _NONE - 1
_STATUS2 = {Status.UNKNOWN: 0, Status.UNSOLVABLE: 1, Status.SOLVED: 2}
_OPTIMAL2 = 3  # FSC2 status: winnable, its length proven optimal
_VERDICT2 = {code: verdict for verdict, code in _STATUS2.items()}


@dataclass(frozen=True, init=False)
class DealInfo:
    """What the census knows of one deal.

    `length` is the best winning line found (None: no line known); `optimal` says it is
    proven optimal; `lower_bound` is a proven lower bound on the optimal length (None:
    none known), equal to the length when that is proven optimal. Left out, `optimal` is
    true exactly when there is a length and no smaller lower bound (Beleaguered Fortress's
    census, which knows a length only when it is optimal).
    """

    deal: int
    status: Status           # SOLVED (winnable), UNSOLVABLE, or UNKNOWN within its budget
    length: int | None
    lower_bound: int | None
    optimal: bool

    def __init__(self, deal: int, status: Status, length: int | None,
                 lower_bound: int | None = None, optimal: bool | None = None) -> None:
        if length is not None and status is not Status.SOLVED:
            raise ValueError(f"deal {deal}: a length, {length}, for a deal not won")
        if optimal is None:
            optimal = length is not None and lower_bound in (None, length)
        if optimal:
            if length is None:
                raise ValueError(f"deal {deal}: optimal, but no length")
            if lower_bound not in (None, length):
                raise ValueError(f"deal {deal}: optimal length {length}, but lower bound "
                                 f"{lower_bound}")
            lower_bound = length
        if lower_bound is not None and length is not None and lower_bound > length:
            raise ValueError(f"deal {deal}: lower bound {lower_bound} above the length "
                             f"{length} of a line found")
        for name, value in (("deal", deal), ("status", status), ("length", length),
                            ("lower_bound", lower_bound), ("optimal", optimal)):
            object.__setattr__(self, name, value)

    def to_json(self) -> dict[str, object]:
        """`length` is optimal unless `optimal` is false; `lower_bound` and `optimal` are
        given only when they tell more than that (never for Beleaguered Fortress's
        census)."""
        data: dict[str, object] = {"deal": self.deal, "status": self.status.value,
                                   "length": self.length}
        if self.optimal != (self.length is not None) or self.lower_bound != self.length:
            data.update(lower_bound=self.lower_bound, optimal=self.optimal)
        return data

    def in_words(self) -> str:
        """The verdict for a person: "winnable in 66 moves (optimal)", "not winnable
        (proven)", ..."""
        if self.status is Status.UNSOLVABLE:
            return "not winnable (proven)"
        if self.status is not Status.SOLVED:
            return "unknown (the census's budget ran out)"
        bound = "" if self.lower_bound is None else f" (at least {self.lower_bound})"
        if self.length is None:
            return f"winnable its optimal length unknown{bound}"
        if self.optimal:
            return f"winnable in {self.length} moves (optimal)"
        return f"winnable in at most {self.length} moves{bound}"  # the best line found


class Census:
    """The verdicts of deals first .. first + len - 1 of one variant.

    `codes` are FSC1's, one byte a deal, when `variant` is None (Beleaguered Fortress's
    census.bin); else FSC2's, three bytes a deal, of the variant of that name."""

    def __init__(self, first: int, codes: bytes, variant: str | None = None) -> None:
        self._width = 1 if variant is None else 3
        if len(codes) % self._width:
            raise ValueError("not a census file")
        self.first = first
        self._name = variant
        self._codes = codes

    @property
    def variant(self) -> str:
        """The name of the census's variant."""
        return DEFAULT if self._name is None else self._name

    @property
    def format(self) -> str:
        return "FSC1" if self._name is None else "FSC2"

    def __len__(self) -> int:
        return len(self._codes) // self._width

    @property
    def last(self) -> int:
        return self.first + len(self) - 1

    def __contains__(self, number: int) -> bool:
        return self.first <= number <= self.last

    def info(self, number: int) -> DealInfo | None:
        """The deal's census entry; None outside the census."""
        if number not in self:
            return None
        at = (number - self.first) * self._width
        if self._name is not None:
            return _info2(number, *self._codes[at:at + 3])
        code = self._codes[at]
        if code >= _WINNABLE:
            return DealInfo(number, Status.SOLVED, code - _WINNABLE)
        status = {_WON: Status.SOLVED, _UNWINNABLE: Status.UNSOLVABLE}.get(code, Status.UNKNOWN)
        return DealInfo(number, status, None)

    def __iter__(self) -> Iterator[DealInfo]:
        for number in range(self.first, self.last + 1):
            info = self.info(number)
            assert info is not None
            yield info

    def candidates(self, first: int, last: int, low: int, high: float) -> Iterator[int]:
        """The deals of first..last, in order, that may be winnable in low..high moves:
        all but those the census proves unwinnable or of another optimal length (past the
        census, every deal). Where the optimal length is not proven, a deal is left out
        when its lower bound is above `high`, or a line it has is shorter than `low`."""
        for number in range(first, min(last, self.first - 1) + 1):
            yield number
        numbers = range(max(first, self.first), min(last, self.last) + 1)
        if self._name is None:
            for number in numbers:
                code = self._codes[number - self.first]
                if code != _UNWINNABLE and (code < _WINNABLE or low <= code - _WINNABLE <= high):
                    yield number
        else:
            for number in numbers:
                at = 3 * (number - self.first)
                status, length, bound = self._codes[at:at + 3]
                if status == _OPTIMAL2:
                    fits = low <= length <= high
                else:
                    fits = (status != _STATUS2[Status.UNSOLVABLE]
                            and (bound == _NONE or bound <= high)
                            and (length == _NONE or length >= low))
                if fits:
                    yield number
        yield from range(max(first, self.last + 1), last + 1)

    def to_bytes(self) -> bytes:
        if self._name is None:
            header = _HEADER.pack(_MAGIC, self.first, len(self))
        else:
            name = self._name.encode("ascii")
            header = _HEADER2.pack(_MAGIC2, self.first, len(self), len(name)) + name
        return zlib.compress(header + self._codes, 9)

    @classmethod
    def from_bytes(cls, raw: bytes) -> Census:
        try:
            data = zlib.decompress(raw)
            if data[:4] == _MAGIC:
                _, first, count = _HEADER.unpack_from(data)
                codes, name = data[_HEADER.size:], None
            elif data[:4] == _MAGIC2:
                _, first, count, size = _HEADER2.unpack_from(data)
                name = data[_HEADER2.size:_HEADER2.size + size].decode("ascii")
                codes, count = data[_HEADER2.size + size:], 3 * count
                if len(name) != size:
                    raise ValueError
            else:
                raise ValueError
        except (zlib.error, struct.error, ValueError):
            raise ValueError("not a census file") from None
        if len(codes) != count:
            raise ValueError("not a census file")
        return cls(first, codes, name)

    @classmethod
    def of(cls, entries: Iterable[DealInfo], variant: Variant | str | None = None) -> Census:
        """The census of entries for consecutive deals (any order): FSC1, which holds a
        length only when optimal and no lower bound, when `variant` is None; else FSC2 of
        that variant."""
        by_deal = {entry.deal: entry for entry in entries}
        if not by_deal:
            raise ValueError("the census has no deals")
        first, last = min(by_deal), max(by_deal)
        missing = [n for n in range(first, last + 1) if n not in by_deal]
        if missing:
            raise ValueError(f"the census lacks deal {missing[0]} "
                             f"({len(missing)} deals of {first}..{last} in all)")
        ordered = [by_deal[n] for n in range(first, last + 1)]
        if variant is None:
            return cls(first, bytes(_code(entry) for entry in ordered))
        name = variant if isinstance(variant, str) else variant.name
        if not name.isascii() or not 0 < len(name) < 256:
            raise ValueError(f"variant name {name[:40]!r} does not fit")
        return cls(first, b"".join(_row(entry) for entry in ordered), name)


def _code(entry: DealInfo) -> int:
    if entry.status is Status.SOLVED:
        if not entry.optimal or entry.length is None:
            return _WON
        if entry.length > MAX_LENGTH:
            raise ValueError(f"deal {entry.deal}: length {entry.length} does not fit")
        return _WINNABLE + entry.length
    return _UNWINNABLE if entry.status is Status.UNSOLVABLE else _UNKNOWN


def _row(entry: DealInfo) -> bytes:
    """FSC2's three bytes. A lower bound past the byte is stored as its largest value (still
    a lower bound), and so is a line too long for it that is not proven optimal (dropped:
    the deal stays winnable, its bound kept)."""
    length, bound = entry.length, entry.lower_bound
    if length is not None and length > MAX_LENGTH2:
        if entry.optimal:
            raise ValueError(f"deal {entry.deal}: length {entry.length} does not fit")
        length = None
    if bound is not None:
        bound = min(bound, MAX_LENGTH2)
    status = _OPTIMAL2 if entry.optimal else _STATUS2[entry.status]
    return bytes((status, _NONE if length is None else length,
                  _NONE if bound is None else bound))


def _info2(number: int, status: int, length: int, bound: int) -> DealInfo:
    if status == _OPTIMAL2:
        return DealInfo(number, Status.SOLVED, length, length, True)
    verdict = _VERDICT2.get(status)
    if verdict is None:
        raise ValueError(f"deal {number}: status {status} in the census")
    return DealInfo(number, verdict, None if length == _NONE else length,
                    None if bound == _NONE else bound, False)


def census_path(variant: Variant | None = None) -> Path:
    """Where the census of `variant` (None: Beleaguered Fortress) is shipped."""
    if variant is None or variant.name == DEFAULT:
        return PATH
    return FOLDER / f"{variant.name}.bin"


def shipped(variant: Variant | None = None) -> Census | None:
    """The census shipped with the package for `variant` (None: Beleaguered Fortress),
    read once; None when there is none (or the variant is not one shipped: a rules
    file's own)."""
    if variant is None:
        return _read(DEFAULT)
    if not is_shipped(variant):
        return None
    return _read(variant.name)


@cache
def _read(name: str) -> Census | None:
    path = census_path(None if name == DEFAULT else find_variant(name))
    if not path.exists():
        return None
    census = Census.from_bytes(path.read_bytes())
    if census.variant != name:
        raise ValueError(f"{path} holds the census of {census.variant!r}, not {name!r}")
    return census


def deal_info(number: int, variant: Variant | None = None) -> DealInfo | None:
    """The shipped census's entry for deal `number` of `variant` (None: Beleaguered
    Fortress); None outside it, or when no census of the variant is shipped."""
    census = shipped(variant)
    return None if census is None else census.info(number)
