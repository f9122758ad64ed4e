"""An answer's typed message is its JSON: each key that names a field (after its view's
renames) holds the JSON's value, at every depth; a text in an enum field is the value
named for it; a null leaves its field unset."""

from __future__ import annotations

from typing import Any

import pytest

from service.answer_messages import message_fields
from service.api import fortress_solver_pb2 as pb
from service.beleaguered.messages import ANSWER, MOVE_KEYS
from service.farbduell.messages import VIEW as FARBDUELL
from service.ffkingdom.messages import VIEW as FFK
from service.messages import STATUS
from service.stronghold.messages import VIEW as STRONGHOLD
from solver.beleaguered import deal
from solver.beleaguered.game import HINT, SOLVE, HintOptions, SolveOptions
from solver.beleaguered.solve import Metric
from solver.budget import Budget
from solver.farbduell.game import GAME as FARBDUELL_GAME
from solver.ffkingdom.game import GAME as FFK_GAME
from solver.stronghold.game import GAME as STRONGHOLD_GAME
from solver.stronghold.schema import EXAMPLE
from tests.support.ffkingdom import WIN_THIS_TURN

BUDGET = Budget(seconds=30.0)


def test_a_text_is_the_enum_value_named_for_it_and_a_null_is_left_out():
    answer = {"status": "unsolvable", "moves_left": None, "winnable": False, "not_a_field": 1,
              "all_moves": [{"move": {"card": "7H", "from": "tableau:2", "to": "foundation"},
                             "outcome": "loses", "moves_left": None}]}
    graded = pb.HintResponse(**message_fields(pb.HintResponse.DESCRIPTOR, answer, MOVE_KEYS))
    assert graded.status == pb.STATUS_UNSOLVABLE and not graded.HasField("moves_left")
    assert graded.HasField("winnable") and not graded.winnable
    (move,) = graded.all_moves
    assert move.outcome == pb.MOVE_OUTCOME_LOSES and not move.HasField("moves_left")
    assert (move.move.card, move.move.source, move.move.target) == ("7H", "tableau:2",
                                                                    "foundation")


def _holds(message: Any, data: Any, renamed: dict[str, str], path: str = "") -> None:
    """Every key of `data` that names a field of `message` holds its value there (the
    statistics come from the answer itself, their seconds not rounded)."""
    fields = message.DESCRIPTOR.fields_by_name
    for key, value in data.items():
        field = fields.get(renamed.get(key, key))
        if field is None or key == "stats":
            continue
        where, held = f"{path}.{key}", getattr(message, field.name)
        if value is None:
            assert field.is_repeated or not message.HasField(field.name), where
        elif field.message_type is not None and field.message_type.GetOptions().map_entry:
            assert dict(held) == value, where
        elif field.message_type is not None and field.is_repeated:
            assert len(held) == len(value), where
            for k, (item, each) in enumerate(zip(held, value, strict=True)):
                _holds(item, each, renamed, f"{where}[{k}]")
        elif field.message_type is not None:
            _holds(held, value, renamed, where)
        elif field.enum_type is not None:
            named = field.enum_type.values_by_number[held].name
            assert named.endswith("_" + value.upper()), where
        elif field.is_repeated:
            assert list(held) == value, where
        else:
            assert held == value, where


# each typed game's view, its descriptor and a position whose answers are quick
TYPED = {"ffkingdom": (FFK, FFK_GAME, lambda: FFK_GAME.from_json(WIN_THIS_TURN)),
         "farbduell": (FARBDUELL, FARBDUELL_GAME, lambda: FARBDUELL_GAME.start(3)),
         "stronghold": (STRONGHOLD, STRONGHOLD_GAME, lambda: STRONGHOLD_GAME.from_json(EXAMPLE))}


@pytest.mark.parametrize(("name", "question"), [
    (name, question.name) for name, (_, game, _) in TYPED.items() for question in game.questions])
def test_each_typed_answer_holds_its_json(name, question):
    view, game, position = TYPED[name]
    asked = game.question(question)
    kind = pb.HintResponse if asked is view.hint else pb.SolveResponse
    answer = asked.ask(position(), asked.options(), BUDGET)
    reply = view.answers[question]
    response = reply(kind, answer, position())
    assert response.status == STATUS[answer.status]
    _holds(getattr(response, reply.within) if reply.within else response, answer.to_json(),
           dict(reply.renamed))


@pytest.mark.parametrize(("question", "options", "kind"), [
    (SOLVE, SolveOptions(), pb.SolveResponse),
    (SOLVE, SolveOptions(single_cards=True), pb.SolveResponse),
    (SOLVE, SolveOptions(metric=Metric.CARDS), pb.SolveResponse),
    (HINT, HintOptions(all_moves=True), pb.HintResponse)],
    ids=["solve", "single-cards", "in-cards", "hint"])
def test_a_patience_answer_holds_its_json(question, options, kind):
    answer = question.ask(deal(2), options, BUDGET)
    _holds(ANSWER(kind, answer, None), answer.to_json(), MOVE_KEYS)
