"""Fortress Fight Kingdom's own route on the HTTP face: its card table for a person,
`GET /games/fortress-fight-kingdom/cards.json`, every card of the shipped table
(solver/ffkingdom/cards.toml) in words (solver/ffkingdom/card_text.py)."""

from __future__ import annotations

from starlette.requests import Request
from starlette.responses import JSONResponse, Response
from starlette.routing import Route

from solver.ffkingdom.card_text import table_json
from solver.ffkingdom.data import shipped_cards


def ffk_cards(request: Request) -> Response:
    return JSONResponse(table_json(shipped_cards()))


ROUTES = [Route("/games/fortress-fight-kingdom/cards.json", ffk_cards, methods=["GET"])]
