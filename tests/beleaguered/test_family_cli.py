"""The command line plays the whole family: every patience command takes --variant NAME
and --rules FILE, a position file is read as the variant it names, the listing and the
rules file's schema, and each fault (an unknown variant, a bad rules file, a position of
another variant) is one line."""

from __future__ import annotations

import json
from collections.abc import Iterator
from pathlib import Path

import pytest

import solver.beleaguered.variant as variant_module
from solver.beleaguered import Algorithm, Mode, Move, apply, deal, legal_moves, replay, solve
from solver.beleaguered.drawing import picture
from solver.beleaguered.notation import move_json
from solver.beleaguered.reading import read
from solver.beleaguered.variant import (
    DEFAULT,
    Variant,
    find_variant,
    parse_variant_file,
    rules_schema,
    shipped_variants,
)
from tests.support.batch_output import batch_records
from tests.support.castle_one_cell import CASTLE_ONE_CELL
from tests.support.cli import assert_one_line_error, run, run_json, timeless
from tests.support.serve_process import ServeProcess

SHIPPED = [variant.name for variant in shipped_variants()]

# a deal of each variant that is won, and solved optimally and graded in well under a second
DEALS = {"beleaguered-fortress": 2, "fortress": 3, "bastion": 3, "beleaguered-castle": 2,
         "streets-and-alleys": 17, "citadel": 5}

OWN = parse_variant_file(CASTLE_ONE_CELL, "castle-one-cell.toml")  # read, not registered
OWN_DEAL = 2


@pytest.fixture(autouse=True)
def only_the_shipped_variants(monkeypatch) -> None:
    """Each test starts with the shipped variants alone: what --rules reads in one test
    is not known in the next."""
    monkeypatch.setattr(variant_module, "_added", {})


@pytest.fixture
def rules_file(tmp_path) -> Path:
    path = tmp_path / "castle-one-cell.toml"
    path.write_text(CASTLE_ONE_CELL, encoding="utf-8")
    return path


def _label(name: str, number: int) -> str:
    """How the commands name deal N of a variant."""
    return f"deal {number}" if name == DEFAULT else f"{name} deal {number}"


def _moves(items: list[dict[str, str]]) -> list[Move]:
    return [Move.from_json(item) for item in items]


def _write(tmp_path: Path, data: dict, name: str = "position.json") -> Path:
    path = tmp_path / name
    path.write_text(json.dumps(data))
    return path


# ---------------------------------------------------------------- variants


def test_variants_lists_the_shipped_ones_a_line_each(capsys):
    code, out, err = run(capsys, "variants")
    assert code == 0, err
    lines = out.splitlines()
    assert [line.split()[0] for line in lines] == SHIPPED
    for line, name in zip(lines, SHIPPED, strict=True):
        rules = find_variant(name)
        assert f" {rules.title}: {len(rules.piles)} piles " in line
        assert f"; builds {rules.build}" in line and line.endswith(f"; from {rules.source}")
        assert ("; a built run moves as one move;" in line) == (rules.sequence_moves != "none")
        assert ("; only kings fill an empty pile;" in line) == (rules.empty == "kings")
    assert ": 8 piles of 5, 12 reserve slots, no free cells;" in lines[0]
    assert ": 10 piles (6 6 5 5 5 5 5 5 5 5), no reserve, no free cells;" in lines[1]
    assert ": 10 piles of 5, no reserve, 2 free cells;" in lines[2]


def test_variants_json_is_the_rules_of_each(capsys):
    code, out, err = run(capsys, "variants", "--json")
    assert code == 0, err
    listed = json.loads(out)
    assert [entry["name"] for entry in listed] == SHIPPED
    for entry in listed:
        assert Variant.from_json(entry) == find_variant(entry["name"])


def test_variants_with_rules_adds_the_files_variant(capsys, rules_file):
    code, out, err = run(capsys, "variants", "--rules", str(rules_file))
    assert code == 0, err
    lines = out.splitlines()
    assert len(lines) == len(SHIPPED) + 1
    name, line = lines[-1].split(maxsplit=1)
    assert name == "castle-one-cell"
    assert line == ("Beleaguered Castle with one free cell: 8 piles (6 6 6 6 6 6 6 5), no "
                    "reserve, 1 free cell; builds any-suit-down; from the family command "
                    "line test: Beleaguered Castle's deal and play, one free cell")
    listed = run_json(capsys, "variants", "--rules", str(rules_file), "--json")
    assert listed[-1]["name"] == "castle-one-cell" and listed[-1]["cells"] == 1


# ---------------------------------------------------------------- each shipped variant


@pytest.mark.parametrize("name", DEALS)
def test_deal_prints_the_variants_layout_and_show_draws_it(capsys, tmp_path, name):
    number, rules = DEALS[name], find_variant(name)
    position = deal(number, rules)
    code, out, err = run(capsys, "deal", str(number), "--variant", name)
    assert code == 0, err
    assert out == f"{_label(name, number)}\n{picture(position)}\n"
    board = out.split("\n", 1)[1]
    tableau = [line for line in board.splitlines() if line.startswith("tableau:")]
    assert len(tableau) == len(rules.piles)
    assert any(line.startswith("cells ") for line in board.splitlines()) == bool(rules.cells)
    assert any(line.startswith("reserve ") for line in board.splitlines()) == bool(rules.reserve)

    data = run_json(capsys, "deal", str(number), "--variant", name, "--json")
    assert data == position.to_json()
    assert data.get("variant") == (None if name == DEFAULT else name)
    assert ("cells" in data) == bool(rules.cells)
    path = _write(tmp_path, data)
    for argv in (["show", str(path)], ["show", "--deal", str(number), "--variant", name],
                 ["show", str(path), "--variant", name]):
        code, shown, err = run(capsys, *argv)
        assert (code, shown) == (0, board), (argv, err)


@pytest.mark.parametrize("name", DEALS)
def test_apply_plays_a_legal_move_of_the_variant(capsys, tmp_path, name):
    number, rules = DEALS[name], find_variant(name)
    position = deal(number, rules)
    move = legal_moves(position)[-1]
    after = apply(position, move).to_json()
    path = _write(tmp_path, position.to_json())
    assert run_json(capsys, "apply", str(path), str(move), "--json") == after
    assert run_json(capsys, "apply", "--deal", str(number), "--variant", name,
                    json.dumps(move.to_json()), "--json") == after
    code, out, err = run(capsys, "apply", "--deal", str(number), "--variant", name, str(move))
    assert (code, out) == (0, picture(apply(position, move)) + "\n"), err


@pytest.mark.parametrize("name", DEALS)
def test_solve_any_and_optimal_by_both_searches_replay_to_a_win(capsys, name):
    number, rules = DEALS[name], find_variant(name)
    start = deal(number, rules)
    argv = ("solve", "--deal", str(number), "--variant", name, "--json")
    found = run_json(capsys, *argv, "--mode", "any")
    assert found["status"] == "solved"
    assert replay(start, _moves(found["moves"])).is_won
    assert found["lower_bound"] is not None and found["lower_bound"] <= found["length"]

    best = run_json(capsys, *argv)
    assert best["status"] == "solved" and best["optimal"] is True
    assert best["length"] == best["lower_bound"] == len(best["moves"]) <= found["length"]
    assert replay(start, _moves(best["moves"])).is_won
    deepening = run_json(capsys, *argv, "--algorithm", "idastar")
    assert deepening["optimal"] is True and deepening["length"] == best["length"]
    assert replay(start, _moves(deepening["moves"])).is_won

    code, out, err = run(capsys, "solve", "--deal", str(number), "--variant", name)
    assert code == 0, err
    lines = out.splitlines()
    assert lines[0].startswith(f"{_label(name, number)}: solved, optimal, "
                               f"{best['length']} moves (")
    assert len(lines) == 1 + best["length"]


@pytest.mark.parametrize("name", DEALS)
def test_a_position_file_is_solved_as_the_variant_it_names(capsys, tmp_path, name):
    """A file naming its variant needs no --variant; one that names none is read as the
    variant --variant chooses."""
    number, rules = DEALS[name], find_variant(name)
    data = deal(number, rules).to_json()
    named = _write(tmp_path, data, "named.json")
    unnamed = _write(tmp_path, {key: value for key, value in data.items()
                                if key != "variant"}, "unnamed.json")
    expected = solve(deal(number, rules), Mode.ANY, Algorithm.ASTAR).length
    for argv in ([str(named)], [str(named), "--variant", name],
                 [str(unnamed), "--variant", name]):
        answer = run_json(capsys, "solve", *argv, "--mode", "any", "--json")
        assert answer["length"] == expected, argv


@pytest.mark.parametrize("name", DEALS)
def test_hint_and_every_move_graded(capsys, name):
    number, rules = DEALS[name], find_variant(name)
    start = deal(number, rules)
    length = solve(start, Mode.OPTIMAL, Algorithm.ASTAR).length
    argv = ("hint", "--deal", str(number), "--variant", name)
    advice = run_json(capsys, *argv, "--json")
    assert advice["status"] == "solved" and advice["winnable"] is True
    assert advice["moves_left"] == length and "optimal" not in advice
    after = apply(start, Move.from_json(advice["move"]))
    assert solve(after, Mode.OPTIMAL, Algorithm.ASTAR).length == length - 1

    code, out, err = run(capsys, *argv)
    move = Move.from_json(advice["move"])
    assert (code, out) == (0, f"{_label(name, number)}: {move.card} {move.source} -> "
                              f"{move.target} ({length} moves left, winnable)\n"), err

    graded = run_json(capsys, *argv, "--all-moves", "--json")["all_moves"]
    assert sorted(json.dumps(g["move"]) for g in graded) == \
        sorted(json.dumps(move_json(start, m)) for m in legal_moves(start))
    assert graded[0]["outcome"] == "wins" and graded[0]["moves_left"] == length
    code, out, err = run(capsys, *argv, "--all-moves")
    assert code == 0, err
    assert len(out.splitlines()) == 1 + len(graded)


@pytest.mark.parametrize("name", DEALS)
def test_batch_decides_a_few_deals_of_the_variant(capsys, name):
    rules = find_variant(name)
    code, out, err = run(capsys, "batch", "--deals", "1-3", "--variant", name, "--jobs", "1",
                         "--seconds", "5")
    assert code == 0, err
    records = batch_records(out)
    assert sorted(record["deal"] for record in records) == [1, 2, 3]
    for record in records:
        alone = solve(deal(record["deal"], rules), Mode.ANY, Algorithm.ASTAR)
        assert (record["status"], record["length"]) == (alone.status.value, alone.length)


# ---------------------------------------------------------------- a rules file of one's own


def test_a_rules_files_variant_is_dealt_solved_hinted_and_batched(capsys, rules_file):
    rules = ("--rules", str(rules_file))
    start = deal(OWN_DEAL, OWN)
    assert start.cells[0] is not None and start.foundations == (1, 1, 1, 1)
    code, out, err = run(capsys, "deal", str(OWN_DEAL), *rules)
    assert code == 0, err
    assert out == f"castle-one-cell deal {OWN_DEAL}\n{picture(start)}\n"
    assert f"cells      {start.cells[0]}\n" in out

    best = run_json(capsys, "solve", "--deal", str(OWN_DEAL), *rules, "--json")
    assert best["status"] == "solved" and best["optimal"] is True
    assert replay(start, _moves(best["moves"])).is_won
    named = run_json(capsys, "solve", "--deal", str(OWN_DEAL), *rules,
                     "--variant", "castle-one-cell", "--json")
    assert named["length"] == best["length"]
    advice = run_json(capsys, "hint", "--deal", str(OWN_DEAL), *rules, "--json")
    assert advice["moves_left"] == best["length"]

    code, out, err = run(capsys, "batch", "--deals", "2-3", *rules, "--jobs", "1")
    assert code == 0, err  # the workers get the variant with the work, by value
    assert {record["deal"]: record["status"] for record in batch_records(out)} == \
        {2: "solved", 3: "solved"}


def test_a_position_of_a_rules_files_variant_needs_its_rules(capsys, tmp_path, rules_file):
    path = _write(tmp_path, deal(OWN_DEAL, OWN).to_json())
    assert_one_line_error(*run(capsys, "solve", str(path)), "unknown variant",
                          "castle-one-cell", "--rules FILE")
    code, out, err = run(capsys, "show", str(path), "--rules", str(rules_file))
    assert (code, out) == (0, picture(deal(OWN_DEAL, OWN)) + "\n"), err


# ---------------------------------------------------------------- answers not proven optimal


def test_a_solution_not_proven_optimal_says_its_lower_bound(capsys):
    budget = ("--deal", "2", "--nodes", "200")  # too few to prove 66, enough for a line
    data = run_json(capsys, "solve", *budget, "--json")
    assert data["status"] == "solved" and data["optimal"] is False
    assert data["lower_bound"] is not None and data["lower_bound"] <= data["length"]
    code, out, _ = run(capsys, "solve", *budget)
    assert out.splitlines()[0].startswith(
        f"deal 2: solved, {data['length']} moves, not proven optimal: at least "
        f"{data['lower_bound']} moves (")

    advice = run_json(capsys, "hint", *budget, "--json")
    assert advice["optimal"] is False and advice["at_least"] == data["lower_bound"]
    code, out, _ = run(capsys, "hint", *budget)
    assert out == (f"deal 2: AS reserve:8 -> foundation (wins in at most "
                   f"{advice['moves_left']} (at least {advice['at_least']}), winnable)\n")


def test_beleaguered_fortress_output_is_as_before_variants(capsys):
    """Without --variant nothing names a variant, draws cells, or words a verdict anew."""
    code, out, _ = run(capsys, "deal", "2")
    assert out.splitlines()[0] == "deal 2" and "cells" not in out
    assert set(run_json(capsys, "deal", "2", "--json")) == {"game", "tableau", "reserve",
                                                            "foundations"}
    code, out, _ = run(capsys, "solve", "--deal", "2")
    assert out.startswith("deal 2: solved, optimal, 66 moves (")
    code, out, _ = run(capsys, "hint", "--deal", "2")
    assert out == "deal 2: AS reserve:8 -> foundation (66 moves left, winnable)\n"
    assert run(capsys, "deal", "2", "--variant", DEFAULT)[1] == run(capsys, "deal", "2")[1]


# ---------------------------------------------------------------- faults, one line each


@pytest.mark.parametrize("argv", [
    ["deal", "2"], ["show", "--deal", "2"], ["apply", "--deal", "2", "AS reserve:8 foundation"],
    ["solve", "--deal", "2"], ["hint", "--deal", "2"], ["batch", "--deals", "1-2"],
    ["deal-info", "2"], ["census", "--deals", "1-2", "--out", "census.jsonl"],
    ["client", "solve", "--server", "127.0.0.1:1", "--deal", "2"],
])
def test_an_unknown_variant_is_one_line_naming_those_known(capsys, argv):
    assert_one_line_error(*run(capsys, *argv, "--variant", "klondike"),
                          "unknown variant 'klondike'", "bastion", "--rules FILE")


@pytest.mark.parametrize(("text", "fault"), [
    (CASTLE_ONE_CELL.replace("[6, 6, 6, 6, 6, 6, 6, 5]", "[6, 6, 6, 6, 6, 6, 6, 4]"),
     "the deal places 51 cards, not 52"),
    (CASTLE_ONE_CELL.replace("any-suit-down", "sideways"), "build"),
    ("name = [", "not TOML"),
    (CASTLE_ONE_CELL.replace('name = "castle-one-cell"', 'name = "bastion"'),
     "is a shipped variant"),
])
def test_a_bad_rules_file_is_one_line_naming_its_fault(capsys, tmp_path, text, fault):
    path = tmp_path / "bad.toml"
    path.write_text(text, encoding="utf-8")
    for argv in (["deal", "2"], ["solve", "--deal", "2"], ["show", "--deal", "2"],
                 ["variants"]):
        assert_one_line_error(*run(capsys, *argv, "--rules", str(path)), str(path), fault)


def test_a_missing_rules_file_and_one_of_another_variant_are_one_line(capsys, tmp_path,
                                                                      rules_file):
    assert_one_line_error(*run(capsys, "deal", "2", "--rules", str(tmp_path / "none.toml")),
                          "cannot read rules file", "none.toml")
    assert_one_line_error(*run(capsys, "solve", "--deal", "2", "--rules", str(rules_file),
                               "--variant", "fortress"),
                          "castle-one-cell", "--variant 'fortress'")


@pytest.mark.parametrize("command", [["show"], ["apply", "AH tableau:4 foundation"],
                                     ["solve"], ["hint"], ["hint", "--all-moves"]])
def test_a_position_of_another_variant_is_one_line(capsys, tmp_path, command):
    path = _write(tmp_path, deal(3, find_variant("bastion")).to_json())
    name, *rest = command
    assert_one_line_error(*run(capsys, name, str(path), *rest, "--variant", "fortress"),
                          "this is a bastion position, not fortress", "--variant bastion")


def test_a_file_of_no_variant_read_as_another_names_its_fault(capsys, tmp_path):
    """Fortress's ten piles in a file that names no variant: not a Beleaguered Fortress
    position, which the reader says in one line."""
    data = deal(3, find_variant("fortress")).to_json()
    del data["variant"]
    path = _write(tmp_path, data)
    assert_one_line_error(*run(capsys, "solve", str(path)), "tableau", "at most 8")
    assert run_json(capsys, "solve", str(path), "--variant", "fortress", "--mode", "any",
                    "--json")["status"] == "solved"


def test_a_game_without_variants_says_so(capsys):
    assert_one_line_error(*run(capsys, "show", "--deal", "2", "--game", "stronghold",
                               "--variant", "bastion"), "stronghold has no variants")


# ---------------------------------------------------------------- the rules file's schema


def test_pysolfcs_game_numbers_past_31_bits_are_dealt_and_the_freecell_ones_refused(capsys):
    for number in (2**31, 10**12, 2**63 - 1):
        dealt = run_json(capsys, "deal", str(number), "--variant", "streets-and-alleys", "--json")
        assert dealt == deal(number, find_variant("streets-and-alleys")).to_json()
    assert_one_line_error(*run(capsys, "deal", str(2**31)),
                          "deal 2147483648 is out of range: Beleaguered Fortress deals are "
                          "numbered 1 to 2147483647 (2^31 - 1)")
    assert_one_line_error(*run(capsys, "deal", str(2**63), "--variant", "fortress"),
                          "deal number 9223372036854775808 is out of range: no variant "
                          "numbers its deals past 2^63 - 1")
    assert_one_line_error(*run(capsys, "batch", "--deals", f"{2**31 - 1}-{2**31}"),
                          "deal range 2147483647-2147483648 is out of range: Beleaguered "
                          "Fortress deals are numbered 1 to 2147483647 (2^31 - 1)")


def test_schema_rules_prints_the_rules_files_schema_and_the_published_one_is_fresh(capsys):
    code, out, err = run(capsys, "schema", "--rules")
    assert code == 0, err
    assert json.loads(out) == rules_schema()
    published = Path(__file__).parents[2] / "docs" / "schemas" / "rules.json"
    assert published.read_text(encoding="utf-8") == out, "run `make schemas`"


def test_schema_all_writes_the_rules_schema_beside_the_games(capsys, tmp_path):
    code, out, err = run(capsys, "schema", "--all", str(tmp_path))
    assert code == 0, err
    assert str(tmp_path / "rules.json") in out.splitlines()
    assert json.loads((tmp_path / "rules.json").read_text()) == rules_schema()
    assert (tmp_path / "patience.json").is_file()


# ---------------------------------------------------------------- the client commands


@pytest.fixture(scope="module")
def server(tmp_path_factory) -> Iterator[ServeProcess]:
    """`serve --rules FILE` as a process of its own: the rules it reads stay there."""
    folder = tmp_path_factory.mktemp("client")
    rules = folder / "castle-one-cell.toml"
    rules.write_text(CASTLE_ONE_CELL, encoding="utf-8")
    process = ServeProcess(folder / "serve.log", "--rules", str(rules))
    try:
        process.wait_serving()
        yield process
    finally:
        process.stop()


@pytest.mark.parametrize("name", ["bastion", "citadel"])
def test_client_solve_and_hint_print_what_the_local_commands_print(capsys, server, name):
    """A variant's deal travels as its position, which names the variant."""
    number = str(DEALS[name])
    for command in (["solve", "--deal", number, "--json"],
                    ["solve", "--deal", number, "--mode", "any", "--steps"],
                    ["hint", "--deal", number, "--all-moves"]):
        local = run(capsys, *command, "--variant", name)
        remote = run(capsys, "client", command[0], "--server", server.address, *command[1:],
                     "--variant", name)
        assert (remote[0], timeless(remote[1])) == (local[0], timeless(local[1])), command


def test_client_batch_and_generate_send_the_variant(capsys, server):
    code, out, err = run(capsys, "client", "batch", "--server", server.address, "--deals",
                         "1-3", "--variant", "citadel", "--seconds", "5")
    assert code == 0, err
    rules = find_variant("citadel")
    for record in batch_records(out):
        alone = solve(deal(record["deal"], rules), Mode.ANY, Algorithm.ASTAR)
        assert (record["status"], record["length"]) == (alone.status.value, alone.length)

    code, out, err = run(capsys, "client", "generate", "--server", server.address,
                         "--count", "1", "--deals", "2-9", "--variant", "fortress")
    assert code == 0, err
    found = json.loads(out)
    assert read(found["position"]) == deal(found["deal"], find_variant("fortress"))


def test_client_plays_a_rules_files_variant_the_server_was_given(capsys, server, rules_file):
    start = deal(OWN_DEAL, OWN)
    best = run_json(capsys, "client", "solve", "--server", server.address, "--deal",
                    str(OWN_DEAL), "--rules", str(rules_file), "--json")
    assert best["optimal"] is True and replay(start, _moves(best["moves"])).is_won
    code, out, err = run(capsys, "client", "batch", "--server", server.address, "--deals",
                         "2-3", "--rules", str(rules_file))
    assert code == 0, err
    assert len(batch_records(out)) == 2
