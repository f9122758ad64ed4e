"""The census data files: written and read back losslessly (Beleaguered Fortress's FSC1
and the other variants' FSC2), and the shipped ones agree with fresh searches on a sample
of their deals."""

from __future__ import annotations

import json
import random
from dataclasses import replace

import pytest

from solver.beleaguered import Algorithm, Engine, Mode, census_lines, deal, solve
from solver.beleaguered.census import Census, DealInfo, census_path, deal_info, shipped
from solver.beleaguered.results import CENSUS, GAME
from solver.beleaguered.variant import find_variant, variants
from solver.budget import Budget, Status
from solver.errors import InvalidInput
from solver.results import Settings
from tests.support.engines import by

ENTRIES = [DealInfo(10, Status.SOLVED, 73), DealInfo(11, Status.UNSOLVABLE, None),
           DealInfo(12, Status.UNKNOWN, None), DealInfo(13, Status.SOLVED, None),
           DealInfo(14, Status.SOLVED, 0), DealInfo(15, Status.SOLVED, 252)]


def test_a_census_reads_back_what_was_written():
    census = Census.from_bytes(Census.of(reversed(ENTRIES)).to_bytes())
    assert (census.first, census.last) == (10, 15)
    assert [census.info(entry.deal) for entry in ENTRIES] == ENTRIES
    assert census.info(9) is None and census.info(16) is None


def test_a_census_refuses_gaps_lengths_it_cannot_hold_and_other_files():
    with pytest.raises(ValueError, match="lacks deal 11"):
        Census.of([ENTRIES[0], ENTRIES[2]])
    with pytest.raises(ValueError, match="does not fit"):
        Census.of([DealInfo(1, Status.SOLVED, 253)])
    with pytest.raises(ValueError, match="not a census file"):
        Census.from_bytes(__import__("zlib").compress(b"XXXX" + bytes(8)))


def test_candidates_skip_only_what_the_census_proves_out_of_the_band():
    census = Census.of(ENTRIES)
    # 11 is unwinnable, 10 (73) and 15 (252) and 14 (0) are out of 70..80; the unknown 12
    # and the winnable 13 of unknown length may be in it; 5..9 and 16..18 lie outside.
    assert list(census.candidates(5, 18, 70, 80)) == [5, 6, 7, 8, 9, 10, 12, 13, 16, 17, 18]
    assert list(census.candidates(5, 18, 74, 80)) == [5, 6, 7, 8, 9, 12, 13, 16, 17, 18]
    assert list(census.candidates(11, 12, 0, float("inf"))) == [12]


SHIPPED = shipped()
needs_census = pytest.mark.skipif(SHIPPED is None, reason="no census is shipped")


@needs_census
def test_the_shipped_census_covers_the_first_million_deals():
    assert SHIPPED is not None and (SHIPPED.first, SHIPPED.last) == (1, 1_000_000)
    assert deal_info(1_000_001) is None


@needs_census
@pytest.mark.parametrize("number", [1, 2, 4, 126, 11982] + random.Random(7).sample(
    range(1, 1_000_001), 40))
def test_the_shipped_census_agrees_with_a_fresh_search(number):
    info = deal_info(number)
    assert info is not None and info.status is not Status.UNKNOWN
    verdict = solve(deal(number), Mode.OPTIMAL, Algorithm.ASTAR, Budget(seconds=60))
    assert verdict.status is info.status
    if info.length is not None:
        assert verdict.optimal and verdict.length == info.length


@needs_census
@pytest.mark.parametrize("number", random.Random(8).sample(range(1, 1_000_001), 3))
def test_the_shipped_census_agrees_with_the_python_engine(number):
    info = deal_info(number)
    assert info is not None
    verdict = by(Engine.PYTHON, solve, deal(number), Mode.OPTIMAL, Algorithm.ASTAR,
                 Budget(seconds=120))
    assert verdict.status is info.status and verdict.length == info.length


# ---- the census of another variant (FSC2) --------------------------------------------

VARIANT_ENTRIES = [
    DealInfo(20, Status.SOLVED, 61),                                  # proven optimal
    DealInfo(21, Status.SOLVED, 76, 61),                              # a line and a bound
    DealInfo(22, Status.UNSOLVABLE, None),
    DealInfo(23, Status.UNKNOWN, None, 43),                           # undecided, bounded
    DealInfo(24, Status.UNKNOWN, None),
    DealInfo(25, Status.SOLVED, 90, optimal=False),                   # no bound
    DealInfo(26, Status.SOLVED, None, 70),                            # winnable, no line
    DealInfo(27, Status.SOLVED, 0),
    DealInfo(28, Status.SOLVED, 254),
    DealInfo(29, Status.SOLVED, 80, 80, optimal=False),               # as written
]


@pytest.mark.parametrize(("entry", "words"), [
    (VARIANT_ENTRIES[0], "winnable in 61 moves (optimal)"),
    (VARIANT_ENTRIES[1], "winnable in at most 76 moves (at least 61)"),
    (VARIANT_ENTRIES[2], "not winnable (proven)"),
    (VARIANT_ENTRIES[3], "unknown (the census's budget ran out)"),
    (VARIANT_ENTRIES[5], "winnable in at most 90 moves"),
    (VARIANT_ENTRIES[6], "winnable its optimal length unknown (at least 70)"),
])
def test_a_census_entry_in_words_says_what_is_proven(entry, words):
    assert entry.in_words() == words


def test_a_variant_census_reads_back_what_was_written():
    census = Census.from_bytes(Census.of(reversed(VARIANT_ENTRIES), "citadel").to_bytes())
    assert (census.first, census.last, census.variant, census.format) == (
        20, 29, "citadel", "FSC2")
    assert list(census) == VARIANT_ENTRIES
    assert census.info(19) is None and census.info(30) is None
    assert census.info(20) == DealInfo(20, Status.SOLVED, 61, 61, True)


def test_a_variant_census_keeps_what_fits_a_byte_and_refuses_the_rest():
    census = Census.of([DealInfo(1, Status.SOLVED, 300, 260, optimal=False),
                        DealInfo(2, Status.UNKNOWN, None, 400)], "fortress")
    # a bound stays a bound when lowered; a long line not proven optimal is dropped
    assert list(census) == [DealInfo(1, Status.SOLVED, None, 254, False),
                            DealInfo(2, Status.UNKNOWN, None, 254, False)]
    with pytest.raises(ValueError, match="does not fit"):
        Census.of([DealInfo(1, Status.SOLVED, 255)], "fortress")
    with pytest.raises(ValueError, match="not a census file"):
        Census.from_bytes(Census.of(VARIANT_ENTRIES, "citadel").to_bytes()[:-3])
    with pytest.raises(ValueError, match="not a census file"):
        Census.from_bytes(b"not zlib")


def test_deal_info_refuses_what_cannot_be():
    with pytest.raises(ValueError, match="above the length"):
        DealInfo(1, Status.SOLVED, 60, 61)
    with pytest.raises(ValueError, match="optimal length 60, but lower bound 59"):
        DealInfo(1, Status.SOLVED, 60, 59, optimal=True)
    with pytest.raises(ValueError, match="optimal, but no length"):
        DealInfo(1, Status.UNKNOWN, None, optimal=True)
    with pytest.raises(ValueError, match="not won"):
        DealInfo(1, Status.UNSOLVABLE, 60)


def test_deal_info_keeps_beleaguered_fortress_meaning_and_json():
    assert DealInfo(2, Status.SOLVED, 66) == DealInfo(2, Status.SOLVED, 66, 66, True)
    assert not DealInfo(3, Status.SOLVED, None).optimal
    assert not DealInfo(1, Status.UNSOLVABLE, None).optimal
    for entry in ENTRIES:  # the FSC1 census: no new keys
        assert set(entry.to_json()) == {"deal", "status", "length"}
    assert DealInfo(20, Status.SOLVED, 61).to_json() == {
        "deal": 20, "status": "solved", "length": 61}
    assert DealInfo(21, Status.SOLVED, 76, 61).to_json() == {
        "deal": 21, "status": "solved", "length": 76, "lower_bound": 61, "optimal": False}
    assert DealInfo(23, Status.UNKNOWN, None, 43).to_json() == {
        "deal": 23, "status": "unknown", "length": None, "lower_bound": 43, "optimal": False}


def test_a_variant_census_candidates_respect_the_band():
    census = Census.of(VARIANT_ENTRIES, "citadel")
    # 20 is 61 (proven); 21 is 61..76; 22 unwinnable; 23 at least 43; 24 anything;
    # 25 at most 90; 26 at least 70; 27 is 0; 28 is 254; 29 is 80 (60..80 bound).
    assert list(census.candidates(18, 31, 60, 62)) == [18, 19, 20, 21, 23, 24, 25, 30, 31]
    assert list(census.candidates(20, 29, 77, 85)) == [23, 24, 25, 26, 29]
    assert list(census.candidates(20, 29, 0, 42)) == [24, 25, 27]
    assert list(census.candidates(20, 29, 91, 300)) == [23, 24, 26, 28]
    assert list(census.candidates(22, 22, 0, float("inf"))) == []


def test_a_variant_without_a_shipped_census_has_none():
    fortress = find_variant("fortress")
    assert census_path(fortress).name == "fortress.bin"
    assert census_path(None) == census_path(find_variant("beleaguered-fortress"))
    assert shipped(find_variant("beleaguered-fortress")) is shipped()
    assert shipped(replace(fortress, name="my-fortress")) is None
    assert shipped(replace(fortress, worrying_back=False)) is None
    assert deal_info(1, replace(fortress, name="my-fortress")) is None


SHIPPED_VARIANTS = {v.name: census for v in variants() if v.name != "beleaguered-fortress"
                    and (census := shipped(v)) is not None}


def _sample(name: str, census: Census) -> list[int]:
    """A few deals at random, and a few of each kind: proven optimal, of unproven length,
    undecided."""
    rng = random.Random(name)
    entries = list(census)
    picked = [entry.deal for entry in rng.sample(entries, 4)]
    for kind, count in (((Status.SOLVED, True), 3), ((Status.SOLVED, False), 2),
                        ((Status.UNKNOWN, False), 1)):
        of_kind = [e.deal for e in entries if (e.status, e.optimal) == kind]
        picked += rng.sample(of_kind, min(count, len(of_kind)))
    return sorted(set(picked))


@pytest.mark.parametrize("name", sorted(SHIPPED_VARIANTS))
def test_a_shipped_variant_census_covers_its_first_deals(name):
    census = SHIPPED_VARIANTS[name]
    assert (census.first, census.variant, census.format) == (1, name, "FSC2")
    assert census.last >= 10_000
    assert deal_info(census.last + 1, find_variant(name)) is None
    for entry in census:
        assert entry.lower_bound is None or entry.length is None \
            or entry.lower_bound <= entry.length


_LONG, _SHORT = Budget(seconds=60), Budget(nodes=100_000)


@pytest.mark.parametrize(("name", "number"), [
    (name, number) for name, census in sorted(SHIPPED_VARIANTS.items())
    for number in _sample(name, census)])
def test_a_shipped_variant_census_agrees_with_a_fresh_search(name, number):
    variant = find_variant(name)
    info = deal_info(number, variant)
    assert info is not None
    position = deal(number, variant)
    # the censuses decided and proved in 1 s a deal, some of them retried with more: a
    # minute for what they did (room for a busy machine), and for what they did not (only
    # their bounds to hold) 100,000 nodes, a tenth of a second, the same on any machine
    undecided = info.status is Status.UNKNOWN
    verdict = solve(position, Mode.ANY, Algorithm.ASTAR, _SHORT if undecided else _LONG)
    if undecided:  # undecided in the census: only its bound to hold
        assert verdict.status is not Status.SOLVED or info.lower_bound is None \
            or verdict.length >= info.lower_bound
        return
    assert verdict.status is info.status
    if info.status is not Status.SOLVED:
        return
    best = solve(position, Mode.OPTIMAL, Algorithm.ASTAR, _LONG if info.optimal else _SHORT)
    if info.optimal:
        assert best.optimal and best.length == info.length
        return
    assert best.status is not Status.UNSOLVABLE
    if best.status is Status.UNKNOWN:  # no line in its short budget: nothing to compare
        return
    # the census's bound and line (a line too long for its byte is left out) hold the
    # optimal length between them, as do the fresh search's
    assert info.lower_bound is None or info.lower_bound <= best.length
    if info.length is not None:
        assert best.length <= info.length or not best.optimal
        assert best.lower_bound is None or best.lower_bound <= info.length


# ---- computing and packing a census (solver/beleaguered/census_lines.py) ------------------

FORTRESS_LINES = [  # Beleaguered Fortress's shape: a length only when optimal
    {"deal": 1, "status": "unsolvable", "optimal": False, "length": None, "nodes": 5,
     "seconds": 0.1},
    {"deal": 2, "status": "solved", "optimal": True, "length": 66, "nodes": 900,
     "seconds": 0.5},
    {"deal": 3, "status": "solved", "optimal": False, "length": None, "nodes": 80,
     "seconds": 9.0},
]
VARIANT_LINES = [  # another variant's: the best line found and a lower bound
    {"deal": 1, "status": "solved", "length": 61, "optimal": True, "lower_bound": 61},
    {"deal": 2, "status": "solved", "length": 76, "optimal": False, "lower_bound": 61},
    {"deal": 3, "status": "unsolvable", "length": None, "optimal": False, "lower_bound": None},
    {"deal": 4, "status": "unknown", "length": None, "optimal": False, "lower_bound": 43},
    {"deal": 5, "status": "solved", "length": 80, "optimal": False, "lower_bound": 70},
    # deals written twice (two runs on one file): the best of both is kept
    {"deal": 2, "status": "solved", "length": 74, "optimal": False, "lower_bound": 60},
    {"deal": 4, "status": "unsolvable", "length": None, "optimal": False, "lower_bound": None},
    {"deal": 5, "status": "solved", "length": 72, "optimal": True, "lower_bound": 72},
]


def _write(path, lines, tail="", variant="beleaguered-fortress"):
    """The lines as a census of `variant` writes them, its settings on each."""
    settings = Settings(GAME, variant, CENSUS, Budget(seconds=30)).fields()
    path.write_text("".join(json.dumps(line | settings) + "\n" for line in lines) + tail)
    return path


def test_pack_writes_beleaguered_fortress_census_as_before(tmp_path):
    source = _write(tmp_path / "census.jsonl", FORTRESS_LINES)
    packed = census_lines.pack(source, tmp_path / "census.bin")
    assert packed.format == "FSC1"
    again = Census.from_bytes((tmp_path / "census.bin").read_bytes())
    assert list(again) == [DealInfo(1, Status.UNSOLVABLE, None),
                           DealInfo(2, Status.SOLVED, 66), DealInfo(3, Status.SOLVED, None)]
    assert census_lines.pack(source, tmp_path / "again.bin",
                               find_variant("beleaguered-fortress")).format == "FSC1"
    assert (tmp_path / "again.bin").read_bytes() == (tmp_path / "census.bin").read_bytes()


def test_pack_reads_a_variant_census_merging_deals_written_twice(tmp_path):
    source = _write(tmp_path / "citadel.jsonl", VARIANT_LINES, tail='{"deal": 6, "sta',
                    variant="citadel")
    before = source.read_bytes()
    packed = census_lines.pack(source, tmp_path / "censuses" / "citadel.bin",
                                 find_variant("citadel"))
    assert source.read_bytes() == before  # a census being written is read, not cut
    again = Census.from_bytes((tmp_path / "censuses" / "citadel.bin").read_bytes())
    assert (packed.format, again.variant, again.first, again.last) == ("FSC2", "citadel", 1, 5)
    assert list(again) == [DealInfo(1, Status.SOLVED, 61, 61, True),
                           DealInfo(2, Status.SOLVED, 74, 61, False),
                           DealInfo(3, Status.UNSOLVABLE, None),
                           DealInfo(4, Status.UNSOLVABLE, None),
                           DealInfo(5, Status.SOLVED, 72, 72, True)]


def test_pack_refuses_gaps_and_contradictions(tmp_path):
    gap = _write(tmp_path / "gap.jsonl", [VARIANT_LINES[0], VARIANT_LINES[2]],
                 variant="citadel")
    with pytest.raises(InvalidInput, match="lacks deal 2"):
        census_lines.pack(gap, tmp_path / "gap.bin", find_variant("citadel"))
    both = _write(tmp_path / "both.jsonl", [
        VARIANT_LINES[0], {**VARIANT_LINES[2], "deal": 1}], variant="citadel")
    with pytest.raises(InvalidInput, match="both winnable and unwinnable"):
        census_lines.pack(both, tmp_path / "both.bin", find_variant("citadel"))
    odd = _write(tmp_path / "odd.jsonl", [{**VARIANT_LINES[1], "lower_bound": 77}],
                 variant="citadel")
    with pytest.raises(InvalidInput, match="above the length"):
        census_lines.pack(odd, tmp_path / "odd.bin", find_variant("citadel"))
    (tmp_path / "not.jsonl").write_text("hello\n")
    with pytest.raises(InvalidInput, match="line 1 is not a census line"):
        census_lines.pack(tmp_path / "not.jsonl", tmp_path / "not.bin")


def test_lines_that_say_not_what_they_are_are_summarised_not_packed(tmp_path):
    """An earlier fortress-solver's census: its lines record no variant nor mode."""
    source = tmp_path / "census.jsonl"
    source.write_text("".join(json.dumps(line) + "\n" for line in FORTRESS_LINES))
    assert census_lines.summary(source).deals == 3
    with pytest.raises(InvalidInput, match="does not say what its lines are of"):
        census_lines.pack(source, tmp_path / "census.bin")
    assert not (tmp_path / "census.bin").exists()


def test_the_summary_of_a_variant_census(tmp_path):
    found = census_lines.summary(_write(tmp_path / "citadel.jsonl", VARIANT_LINES,
                                          variant="citadel"))
    assert (found.deals, found.winnable, found.unwinnable, found.unknown) == (5, 3, 2, 0)
    assert (found.optimal, found.unmeasured, found.gapped, found.median_gap) == (2, 1, 1, 13)
    assert found.lengths == {61: 1, 72: 1} and found.hardest == []
    data = found.to_json()
    assert data["optimal_share"] == round(2 / 3, 6) and data["median_gap"] == 13
    low, high = data["winnable_interval"]
    assert low < 3 / 5 < high
    text = str(found)
    assert "optimal length proven for 2 of 3 winnable deals" in text
    assert "median gap" in text and "most searched" not in text
    assert found.single_cards is None and "single-card" not in text  # the lines say none


def test_the_summary_sums_the_single_card_moves_of_the_best_lines(tmp_path):
    lines = [{**line, "single_card_moves": None if line["length"] is None
              else line["length"] + 10} for line in VARIANT_LINES]
    found = census_lines.summary(_write(tmp_path / "freecell.jsonl", lines,
                                          variant="freecell"))
    assert found.single_cards == (3, 61 + 10 + 74 + 10 + 72 + 10)  # each deal's last line
    assert found.to_json()["single_card_moves"] == {"deals": 3, "sum": 237}
    assert "the best lines of the 3 winnable deals, written out: 237 single-card moves" \
        in str(found)


@pytest.mark.parametrize("kept", [lambda line: line["status"] != "solved",
                                  lambda line: False], ids=["none-winnable", "empty"])
def test_the_summary_prints_no_empty_line(tmp_path, kept):
    """A census without a winnable deal (or without a deal) leaves out the lengths and
    the longest lines it has none of: no heading with nothing under it, no list empty."""
    lines = [line for line in VARIANT_LINES if kept(line)]
    found = census_lines.summary(_write(tmp_path / "citadel.jsonl", lines, variant="citadel"))
    for row in str(found).splitlines():
        assert row.strip() and not row.rstrip().endswith(":"), str(found)
    assert "deals 0-0" not in str(found)


def test_the_summary_of_beleaguered_fortress_census_is_as_before(tmp_path):
    found = census_lines.summary(_write(tmp_path / "census.jsonl", FORTRESS_LINES))
    assert (found.winnable, found.unmeasured, found.median_gap) == (2, 1, None)
    assert found.hardest[0] == (2, 900) and found.longest == [(2, 66)]
    assert "median gap" not in str(found)


@pytest.mark.parametrize(("name", "number"), [("citadel", 3129), ("citadel", 9),
                                              ("fortress", 2202), ("fortress", 1552),
                                              ("freecell", 2), ("forecell", 1)])
def test_census_deal_of_a_variant(name, number):
    variant = find_variant(name)
    line = census_lines.census_deal(number, Budget(seconds=10), variant=variant)
    assert set(line) == {"deal", "status", "length", "optimal", "lower_bound", "nodes",
                         "seconds", "single_card_moves"}
    assert (line["single_card_moves"] is None) == (line["length"] is None)
    if line["length"] is not None:  # in moves, a sequence move counting one
        assert line["single_card_moves"] >= line["length"]
    entry = DealInfo(number, Status(line["status"]), line["length"], line["lower_bound"],
                     line["optimal"])
    best = solve(deal(number, variant), Mode.OPTIMAL, Algorithm.ASTAR, Budget(seconds=10))
    assert entry.status is best.status
    if best.status is Status.SOLVED and best.optimal:
        assert entry.lower_bound is not None and entry.lower_bound <= best.length
        assert entry.length is not None and entry.length >= best.length
        assert entry.optimal == (entry.length == best.length)
    if entry.status is Status.UNSOLVABLE:
        assert (entry.length, entry.lower_bound) == (None, None)


def test_census_deal_of_beleaguered_fortress_is_as_before():
    line = census_lines.census_deal(2, Budget(seconds=30))
    assert set(line) == {"deal", "status", "optimal", "length", "nodes", "seconds"}
    assert (line["status"], line["optimal"], line["length"]) == ("solved", True, 66)
    assert census_lines.census_deal(
        2, Budget(seconds=30), variant=find_variant("beleaguered-fortress"))["length"] == 66
