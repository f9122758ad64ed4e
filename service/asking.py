"""A command's question asked here or of a server, through one code path: the command
takes an `Ask`, the same call either way, so its local and its client form cannot drift
apart. A game's messages module says how each of its questions travels (`ASKED`): the
RPC, the typed request, the answer read back."""

from __future__ import annotations

import argparse
import importlib
from collections.abc import Callable
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from solver.budget import Budget
from solver.games import Question

if TYPE_CHECKING:
    from service.client import Client

# (question, position, options, budget) -> the answer
Ask = Callable[[Question[Any, Any, Any], Any, Any, Budget], Any]


@dataclass(frozen=True)
class Asked:
    """How a client asks one question: the Client method ("solve" or "hint"), the
    request it sends, and the answer read back from the response (and the position)."""

    rpc: str
    request: Callable[[Any, Any, Budget], Any]
    answer: Callable[[Any, Any], Any]


def here(question: Question[Any, Any, Any], position: Any, options: Any,
         budget: Budget) -> Any:
    """The question asked in this process."""
    return question.ask(position, options, budget)


def of_server(client: Client, messages: str) -> Ask:
    """The questions asked of the server, as the game's messages module (imported only
    now: protobuf is for the client commands) says they travel."""
    asked: dict[str, Asked] = importlib.import_module(messages).ASKED

    def ask(question: Question[Any, Any, Any], position: Any, options: Any,
            budget: Budget) -> Any:
        way = asked[question.name]
        response = getattr(client, way.rpc)(way.request(position, options, budget))
        return way.answer(response, position)
    return ask


def remotely(command: Callable[[argparse.Namespace, Ask], None],
             messages: str) -> Callable[[argparse.Namespace, Client], None]:
    """A command's client form: the same command, asking the server."""
    return lambda args, client: command(args, of_server(client, messages))
