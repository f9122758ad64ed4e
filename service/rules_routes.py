"""The games' rules on the HTTP face, for the playground: `GET /docs/NAME.md`, a rules
page of docs/ read from the source checkout the package runs from (`make run`), and each
game's own routes (service/frontends.py). Only the pages the games name are served, so no
path reaches any other file; an installed package has no docs/, and the answer is 404,
saying so."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from starlette.requests import Request
from starlette.responses import PlainTextResponse, Response
from starlette.routing import Route

from service.frontends import http_routes, rules_pages

DOCS = Path(__file__).resolve().parent.parent / "docs"


def rules_page(request: Request) -> Response:
    """A rules page as Markdown text, or 404 with one line."""
    name = request.path_params["name"]
    pages = rules_pages()
    if name not in pages:
        return PlainTextResponse(f"no rules page is called {name!r} "
                                 f"(there are {', '.join(pages)})\n", status_code=404)
    path = DOCS / name
    if not path.is_file():
        return PlainTextResponse(f"{name} is in docs/ of the source checkout; this server "
                                 "runs from an installed package without it\n",
                                 status_code=404)
    return Response(path.read_bytes(), media_type="text/markdown; charset=utf-8")


def routes() -> list[Any]:
    """The rules pages' route and the games' own."""
    return [Route("/docs/{name}", rules_page, methods=["GET"]), *http_routes()]
