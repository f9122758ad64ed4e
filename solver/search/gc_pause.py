"""Searches allocate millions of small tuples that never form reference cycles; the
cyclic garbage collector would walk all of them again and again (and every cached
value besides), so it is paused while a search runs. Reference counting still frees
everything as usual."""

from __future__ import annotations

import gc
from collections.abc import Iterator
from contextlib import contextmanager


@contextmanager
def paused_gc() -> Iterator[None]:
    was_enabled = gc.isenabled()
    gc.disable()
    try:
        yield
    finally:
        if was_enabled:
            gc.enable()
