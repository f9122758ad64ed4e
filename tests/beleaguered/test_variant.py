"""The rules files: every shipped one validates, a bad one is refused in one line naming
its fault, and a user's own variant is known by name once read."""

from __future__ import annotations

import re
from enum import StrEnum
from pathlib import Path

import pytest

from solver.beleaguered import variant as variant_module
from solver.beleaguered.deals import deal
from solver.beleaguered.reading import read
from solver.beleaguered.variant import (
    DEFAULT,
    Build,
    Fill,
    Numbering,
    SequenceMoves,
    find_variant,
    load_variant_file,
    parse_variant_file,
    rules_schema,
    shipped_variants,
    variants,
)
from solver.errors import InvalidInput
from solver.games import find_game, games
from tests.support.castle_one_cell import CASTLE_ONE_CELL

ROOT = Path(__file__).resolve().parents[2]


def test_the_shipped_variants_validate_and_come_first() -> None:
    shipped = shipped_variants()
    assert variants()[:len(shipped)] == shipped
    for variant in shipped:
        assert find_variant(variant.name) is variant
        assert variant.source and variant.title
        position = deal(1, variant)
        assert len(position.tableau) == len(variant.piles)
        assert read(position.to_json()) == position


def test_the_default_variant_is_beleaguered_fortress() -> None:
    assert find_variant(None).name == "beleaguered-fortress"
    assert find_variant(None).build is Build.SAME_SUIT_UP_OR_DOWN


@pytest.mark.parametrize(("text", "fault"), [
    ("name = ", "not TOML"),
    (CASTLE_ONE_CELL.replace('"any-suit-down"', '"sideways"'), "build"),
    (CASTLE_ONE_CELL.replace("[6, 6, 6, 6, 6, 6, 6, 5]", "[6, 6, 6, 6, 6, 6, 6, 6]"),
     "places 53 cards, not 52"),
    (CASTLE_ONE_CELL.replace("cells = 1", "cells = 0"), "cells_dealt is 1, but there are only 0"),
    (CASTLE_ONE_CELL + "colour = 3\n", "colour"),
    (CASTLE_ONE_CELL.replace('name = "castle-one-cell"', 'name = "Castle One"'), "name"),
])
def test_a_bad_rules_file_is_one_line_naming_its_fault(text: str, fault: str) -> None:
    with pytest.raises(InvalidInput) as refused:
        parse_variant_file(text, "mine.toml")
    message = str(refused.value)
    assert fault in message and message.startswith("mine.toml") and "\n" not in message


@pytest.mark.parametrize(("field", "enum"), [("build", Build), ("empty", Fill),
                                             ("sequence_moves", SequenceMoves),
                                             ("numbering", Numbering)])
@pytest.mark.parametrize("value", ['"sometimes"', "3"])
def test_a_bad_choice_names_the_allowed_values(field: str, enum: type[StrEnum],
                                              value: str) -> None:
    """Every enum field's fault names what it takes, in one line."""
    kept = [line for line in CASTLE_ONE_CELL.splitlines() if not line.startswith(field)]
    with pytest.raises(InvalidInput) as refused:
        parse_variant_file("\n".join([*kept, f"{field} = {value}"]), "mine.toml")
    shown = "'sometimes'" if value.startswith('"') else value
    assert str(refused.value) == (f"mine.toml: {field}: {shown} is not one of "
                                  f"{', '.join(enum)}")


def test_an_unknown_variant_is_one_line_naming_those_known() -> None:
    with pytest.raises(InvalidInput, match="unknown variant 'klondike': known are "
                                           "beleaguered-fortress, fortress"):
        find_variant("klondike")


def test_a_users_rules_file_makes_its_variant_known(tmp_path: Path,
                                                   monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(variant_module, "_added", {})  # known in this test only
    path = tmp_path / "castle-one-cell.toml"
    path.write_text(CASTLE_ONE_CELL)
    variant = load_variant_file(path)
    assert find_variant("castle-one-cell") == variant
    position = deal(7, variant)
    assert len(position.cells) == 1 and position.cells[0] is not None
    assert read(position.to_json()) == position


def test_a_position_of_one_variant_is_refused_as_another() -> None:
    data = deal(3, find_variant("citadel")).to_json()
    with pytest.raises(InvalidInput, match="this is a citadel position, not fortress"):
        read(data, find_variant("fortress"))


def test_a_shipped_name_cannot_be_taken_by_other_rules(tmp_path: Path) -> None:
    path = tmp_path / "mine.toml"
    path.write_text(CASTLE_ONE_CELL.replace('"castle-one-cell"', '"citadel"'))
    with pytest.raises(InvalidInput, match="is a shipped variant"):
        load_variant_file(path)


def test_the_rules_schema_names_every_field() -> None:
    assert {"name", "piles", "reserve", "cells", "build", "empty", "worrying_back",
            "aces_first", "citadel_deal", "numbering"} <= set(rules_schema()["properties"])


RULES_TABLE = "| field | type | default | meaning |"  # the header of the docs' table of them


def test_the_docs_rules_table_lists_every_field() -> None:
    """docs/castle-family.md's table of a rules file's fields has a row for each field
    of the schema, in its order, and no other (docs/freecell-family.md links to it)."""
    text = (ROOT / "docs" / "castle-family.md").read_text(encoding="utf-8")
    table = text[text.index(RULES_TABLE):].split("\n\n")[0].splitlines()[2:]
    rows = [re.match(r"^\| `(\w+)` \|", row) for row in table]
    assert all(rows), table
    assert [row[1] for row in rows if row] == list(rules_schema()["properties"])
    assert "castle-family.md#2-the-rules-file" in (ROOT / "docs" / "freecell-family.md"
                                                   ).read_text(encoding="utf-8")


def test_no_game_answers_to_a_variants_name_but_the_one_it_plays_by_default():
    """A variant is chosen by --variant (or a position's "variant"), never by a game's
    name: `--game fortress` is refused, not played as Beleaguered Fortress. The patience
    game keeps its former name, beleaguered-fortress, which is the variant it plays when
    none is named: a client that asks by that name gets what it always got."""
    patience = find_game("patience")
    assert patience.name == "patience"
    assert find_game("beleaguered-fortress") is patience
    aliases = {(alias, game.name) for game in games() for alias in game.aliases}
    named = {variant.name for variant in variants()}
    assert {pair for pair in aliases if pair[0] in named} == {(DEFAULT, "patience")}
    with pytest.raises(InvalidInput, match="no game is called 'fortress'"):
        find_game("fortress")
