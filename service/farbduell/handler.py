"""Farbduell's RPCs: Solve (the puzzle, or the chain when one is asked for) and Hint,
through its typed messages as service/farbduell/messages.py maps them; its tables are
GameInfo's variants, and a new game is dealt on one of them."""

from __future__ import annotations

from service.api import fortress_solver_pb2 as pb
from service.farbduell.messages import VIEW
from service.generic.typed import Typed
from solver.errors import InvalidInput
from solver.farbduell.data import default_tables
from solver.farbduell.position import Position
from solver.farbduell.rules import new_game

# the tables' names as the rules spell them (GameInfo.variants)
TABLE_TITLES = {"classic": "Classic", "belagerung": "Belagerung", "tag_nacht": "Tag & Nacht"}


class Handler(Typed):
    view = VIEW

    def info(self) -> pb.GameInfo:
        info = super().info()
        info.variants.extend(pb.VariantInfo(name=name, title=TABLE_TITLES.get(name, name))
                             for name in default_tables())
        return info

    def deal(self, request: pb.DealRequest) -> Position:
        """A new game on the table asked for (DealRequest.variant), of 2 to 6 seats."""
        tables = default_tables()
        table = request.variant or "classic"
        if table not in tables:
            raise InvalidInput(f"Farbduell has no table {table!r} ({', '.join(tables)})")
        return new_game(tables[table], request.players or 2, request.seed, first=0)
