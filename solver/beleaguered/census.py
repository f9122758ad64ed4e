"""The census of the first deals: each one's verdict and optimal length, shipped with the
package (census.bin), so a deal's difficulty is known without a search.

The file is a header (magic, first deal, count) and one byte per deal, zlib-compressed:
0 unknown (the census's budget ran out), 1 unwinnable (proven), 2 winnable (its optimal
length not proven within the budget), 3 + L winnable with optimal length L. Every
verdict in it was proven by a search; `unknown` is not a guess.
"""

from __future__ import annotations

import struct
import zlib
from collections.abc import Iterable, Iterator
from dataclasses import dataclass
from functools import cache
from pathlib import Path

from solver.budget import Status

PATH = Path(__file__).with_name("census.bin")
_MAGIC = b"FSC1"
_HEADER = struct.Struct("<4sII")  # magic, first deal, count
_UNKNOWN, _UNWINNABLE, _WON, _WINNABLE = 0, 1, 2, 3
MAX_LENGTH = 255 - _WINNABLE


@dataclass(frozen=True)
class DealInfo:
    """What the census knows of one deal."""

    deal: int
    status: Status           # SOLVED (winnable), UNSOLVABLE, or UNKNOWN within its budget
    length: int | None       # the optimal length of a winnable deal, when proven

    def to_json(self) -> dict[str, object]:
        return {"deal": self.deal, "status": self.status.value, "length": self.length}


class Census:
    """The verdicts of deals first .. first + len - 1."""

    def __init__(self, first: int, codes: bytes) -> None:
        self.first = first
        self._codes = codes

    @property
    def last(self) -> int:
        return self.first + len(self._codes) - 1

    def __contains__(self, number: int) -> bool:
        return self.first <= number <= self.last

    def info(self, number: int) -> DealInfo | None:
        """The deal's census entry; None outside the census."""
        if number not in self:
            return None
        code = self._codes[number - self.first]
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
        census, every deal)."""
        for number in range(first, min(last, self.first - 1) + 1):
            yield number
        for number in range(max(first, self.first), min(last, self.last) + 1):
            code = self._codes[number - self.first]
            if code != _UNWINNABLE and (code < _WINNABLE or low <= code - _WINNABLE <= high):
                yield number
        yield from range(max(first, self.last + 1), last + 1)

    def to_bytes(self) -> bytes:
        return zlib.compress(_HEADER.pack(_MAGIC, self.first, len(self._codes))
                             + self._codes, 9)

    @classmethod
    def from_bytes(cls, raw: bytes) -> Census:
        data = zlib.decompress(raw)
        magic, first, count = _HEADER.unpack_from(data)
        codes = data[_HEADER.size:]
        if magic != _MAGIC or len(codes) != count:
            raise ValueError("not a census file")
        return cls(first, codes)

    @classmethod
    def of(cls, entries: Iterable[DealInfo]) -> Census:
        """The census of entries for consecutive deals (any order)."""
        by_deal = {entry.deal: entry for entry in entries}
        first, last = min(by_deal), max(by_deal)
        missing = [n for n in range(first, last + 1) if n not in by_deal]
        if missing:
            raise ValueError(f"the census lacks deal {missing[0]} "
                             f"({len(missing)} deals of {first}..{last} in all)")
        return cls(first, bytes(_code(by_deal[n]) for n in range(first, last + 1)))


def _code(entry: DealInfo) -> int:
    if entry.status is Status.SOLVED:
        if entry.length is None:
            return _WON
        if entry.length > MAX_LENGTH:
            raise ValueError(f"deal {entry.deal}: length {entry.length} does not fit")
        return _WINNABLE + entry.length
    return _UNWINNABLE if entry.status is Status.UNSOLVABLE else _UNKNOWN


@cache
def shipped() -> Census | None:
    """The census shipped with the package, read once; None when there is none."""
    if not PATH.exists():
        return None
    return Census.from_bytes(PATH.read_bytes())


def deal_info(number: int) -> DealInfo | None:
    """The shipped census's entry for deal `number`; None outside it."""
    census = shipped()
    return None if census is None else census.info(number)
