"""The shipped variants are read without the rules file's schema (so that dealing one
imports no pydantic): each shipped file meets that schema all the same, as read."""

from __future__ import annotations

import tomllib
from pathlib import Path

import pytest

import solver.beleaguered
from solver.beleaguered.variant import (
    DEFAULT,
    Variant,
    find_variant,
    parse_variant_file,
    shipped_variants,
)

FILES = sorted((Path(solver.beleaguered.__file__).parent / "variants").glob("*.toml"))


@pytest.mark.parametrize("path", FILES, ids=[path.stem for path in FILES])
def test_a_shipped_rules_file_meets_the_schema_as_it_is_read(path: Path) -> None:
    checked = parse_variant_file(path.read_text(encoding="utf-8"), path.name)
    assert checked == find_variant(checked.name)
    assert Variant.from_json(checked.to_json()) == checked


def test_every_shipped_variant_has_its_file() -> None:
    assert sorted(path.stem for path in FILES) == sorted(v.name for v in shipped_variants())


def test_the_variants_are_listed_in_the_order_their_files_give() -> None:
    places = sorted((tomllib.loads(path.read_text(encoding="utf-8"))["listed"], path.stem)
                    for path in FILES)
    assert [name for _, name in places] == [v.name for v in shipped_variants()]
    assert len({place for place, _ in places}) == len(FILES)  # no two at one place
    assert places[0][1] == DEFAULT  # the seed game first
