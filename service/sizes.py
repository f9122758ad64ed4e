"""How large a request may be, by its method: a call about one position (Solve, Hint,
Play, ...) far less than a batch. The largest position any game takes is a few KB (a
six-player Farbduell game with every hand full, a Stronghold grid with 64 units), so
64 KB is room to spare; a request past its method's size is refused by its size alone,
before a byte of it is decoded, however many cards it claims to hold."""

from __future__ import annotations

from dataclasses import dataclass

from service.api import fortress_solver_pb2 as pb

# The methods whose requests carry many positions or deals.
BATCHES = frozenset({"SolveBatch", "GenerateDeals"})
METHODS = frozenset(pb.DESCRIPTOR.services_by_name["Solver"].methods_by_name)


@dataclass(frozen=True)
class RequestSizes:
    request_bytes: int = 1 << 20  # any request (--max-request-bytes)
    position_bytes: int = 64 << 10  # a request about one position (--max-position-bytes)

    def limit(self, method: str) -> int:
        """The most bytes a request to `method` may have."""
        if method in METHODS and method not in BATCHES:
            return min(self.position_bytes, self.request_bytes)
        return self.request_bytes

    def fault(self, method: str, size: int, counted: str = "") -> str | None:
        """Why a request of `size` bytes to `method` is refused, or None. `counted`:
        how the size is known, when it is not the whole body's ("at least ")."""
        if method in METHODS and method not in BATCHES and size > self.position_bytes:
            return (f"the {method} request's {counted}{size} bytes are larger than a call "
                    f"about one position may send, {self.position_bytes} "
                    "(--max-position-bytes)")
        if size > self.request_bytes:
            return (f"the request's {counted}{size} bytes are larger than this server's "
                    f"limit of {self.request_bytes} (--max-request-bytes)")
        return None
