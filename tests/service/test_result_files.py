"""Result files that know what they hold: each line `batch --out` and `census --out` write
records its game, variant (a user's rules by their digest), mode and budget, so that a run
of other settings may not resume the file, `census --pack` takes only the census of the
variant it packs (and writes inside the package only when --to names it), and
--retry-unknown redoes the deals left unknown with a new budget. Real processes."""

from __future__ import annotations

import json
import re
import subprocess
import sys
from pathlib import Path

from solver.beleaguered.census import census_path
from solver.beleaguered.variant import find_variant
from tests.support.batch_output import batch_records, batch_summary, check_summary
from tests.support.castle_one_cell import CASTLE_ONE_CELL

CLI = [sys.executable, "-m", "service.cli"]
ROOT = Path(__file__).resolve().parents[2]


def run(*args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run([*CLI, *args], capture_output=True, text=True, timeout=300)


def refused(done: subprocess.CompletedProcess[str], *fragments: str) -> str:
    """The one line of a refusal (exit 2, nothing on stdout, no traceback), holding each
    fragment."""
    assert (done.returncode, done.stdout) == (2, ""), done.stderr
    assert "Traceback" not in done.stderr
    [line] = done.stderr.splitlines()
    for fragment in fragments:
        assert fragment in line, (fragment, line)
    return line


def batch(out: Path, *args: str) -> subprocess.CompletedProcess[str]:
    return run("batch", "--deals", "1-3", "--jobs", "1", "--out", str(out), *args)


def census(out: Path, *args: str) -> subprocess.CompletedProcess[str]:
    return run("census", "--deals", "1-6", "--jobs", "1", "--out", str(out), *args)


def test_each_line_of_the_file_records_its_settings(tmp_path):
    out = tmp_path / "results.jsonl"
    assert batch(out, "--variant", "citadel", "--nodes", "5000").returncode == 0
    for record in batch_records(out.read_text()):
        assert (record["game"], record["variant"], record["mode"]) == (
            "patience", "citadel", "any")
        assert record["budget"] == {"seconds": 30, "nodes": 5000, "table_entries": None,
                                    "memory_mib": 512}
        assert "rules" not in record  # a shipped variant is known by its name
    stdout = run("batch", "--deals", "1-2", "--jobs", "1")
    assert all("variant" not in record for record in batch_records(stdout.stdout))


def documented_fields() -> tuple[list[str], list[str]]:
    """What docs/beleaguered-fortress.md says a batch line holds, and what a line of
    --out's file holds besides (a user's rules file's digest aside)."""
    text = " ".join((ROOT / "docs" / "beleaguered-fortress.md").read_text().split())
    held = text[text.index("A batch line holds "):]
    fields = re.findall(r"`(\w+)`", held[:held.index(":")])
    recorded = held[held.index("Each line written to `--out`"):]
    recorded = recorded[:recorded.index("So a file cut short")]
    return fields, [name for name in re.findall(r'`"(\w+)"`', recorded) if name != "rules"]


def test_a_batch_line_holds_what_the_docs_say_on_standard_output_and_in_the_file(tmp_path):
    fields, recorded = documented_fields()
    assert "metric" in fields and "budget" in recorded
    for metric in ("moves", "cards"):
        shown = run("batch", "--deals", "1-3", "--jobs", "1", "--variant", "freecell",
                    "--metric", metric, "--seconds", "5")
        assert shown.returncode == 0, shown.stderr
        out = tmp_path / f"{metric}.jsonl"
        assert batch(out, "--variant", "freecell", "--metric", metric,
                     "--seconds", "5").returncode == 0
        for record in batch_records(shown.stdout):
            assert list(record) == fields and record["metric"] == metric
        for record in batch_records(out.read_text()):
            assert sorted(record) == sorted(fields + recorded) and record["metric"] == metric


def test_resuming_with_another_variant_is_refused_naming_both(tmp_path):
    out = tmp_path / "results.jsonl"
    assert batch(out, "--variant", "citadel").returncode == 0
    before = out.read_bytes()
    refused(batch(out, "--variant", "fortress"),
            f"{out} holds citadel any-mode results (30 s a search); this run is fortress "
            "any-mode (30 s a search): use another --out")
    refused(census(out, "--variant", "citadel"), "holds citadel any-mode results",
            "this run is citadel census")
    assert out.read_bytes() == before


def test_a_file_written_under_the_games_former_name_resumes(tmp_path):
    out = tmp_path / "results.jsonl"
    assert batch(out).returncode == 0
    lines = [json.loads(line) for line in out.read_text().splitlines()]
    assert {line["game"] for line in lines} == {"patience"}
    out.write_text("".join(json.dumps({**line, "game": "beleaguered-fortress"}) + "\n"
                           for line in lines))
    done = run("batch", "--deals", "1-5", "--jobs", "1", "--out", str(out))
    assert done.returncode == 0, done.stderr
    assert [record["deal"] for record in batch_records(out.read_text())] == [1, 2, 3, 4, 5]


def test_resuming_with_another_mode_is_refused(tmp_path):
    out = tmp_path / "results.jsonl"
    assert batch(out).returncode == 0
    refused(batch(out, "--mode", "optimal"), "holds beleaguered-fortress any-mode results",
            "this run is beleaguered-fortress optimal-mode", "use another --out")


def test_resuming_with_another_budget_needs_retry_unknown(tmp_path):
    out = tmp_path / "results.jsonl"
    assert batch(out, "--nodes", "30").returncode == 0
    refused(batch(out), "holds beleaguered-fortress any-mode results (30 s, 30 nodes a "
            "search); this run is beleaguered-fortress any-mode (30 s a search)",
            "--retry-unknown")
    assert batch(out, "--nodes", "30").returncode == 0  # the same budget resumes


def test_another_rules_file_of_the_same_name_is_refused(tmp_path):
    rules, out = tmp_path / "castle-one-cell.toml", tmp_path / "results.jsonl"
    rules.write_text(CASTLE_ONE_CELL, encoding="utf-8")
    assert batch(out, "--rules", str(rules)).returncode == 0
    rules.write_text("# the same rules, said again, listed elsewhere\nlisted = 40\n"
                     + CASTLE_ONE_CELL, encoding="utf-8")
    assert batch(out, "--rules", str(rules)).returncode == 0  # the rules, not the text
    rules.write_text(CASTLE_ONE_CELL + 'empty = "kings"\n', encoding="utf-8")
    line = refused(batch(out, "--rules", str(rules)), "holds castle-one-cell (rules sha256 ",
                   "this run is castle-one-cell (rules sha256 ", "use another --out")
    first, second = (part.split(")")[0] for part in line.split("sha256 ")[1:])
    assert first != second


def test_a_file_of_lines_that_record_no_settings_is_refused(tmp_path):
    out = tmp_path / "results.jsonl"
    text = ('{"deal": 1, "status": "unsolvable", "optimal": false, "length": null, '
            '"nodes": 36, "seconds": 0.0001}\n')
    out.write_text(text)
    refused(batch(out), f"{out} does not say what its results are of", "use another --out")
    refused(run("census", "--pack", str(out), "--to", str(tmp_path / "census.bin")),
            f"{out} does not say what its lines are of")
    assert out.read_text() == text and not (tmp_path / "census.bin").exists()


def test_a_line_of_broken_settings_is_one_line(tmp_path):
    out = tmp_path / "results.jsonl"
    out.write_text('{"deal": 1, "status": "unknown", "game": "beleaguered-fortress"}\n')
    refused(batch(out), f"{out} line 1: its settings are not whole")


def test_census_pack_refuses_a_mixed_file_and_another_variants_lines(tmp_path):
    fortress, citadel = tmp_path / "fortress.jsonl", tmp_path / "citadel.jsonl"
    assert census(fortress).returncode == 0
    assert census(citadel, "--variant", "citadel").returncode == 0
    mixed = tmp_path / "mixed.jsonl"
    mixed.write_bytes(fortress.read_bytes() + citadel.read_bytes())
    to = tmp_path / "census.bin"
    refused(run("census", "--pack", str(mixed), "--to", str(to)),
            f"{mixed} mixes beleaguered-fortress census results (line 1) and citadel "
            "census results (line 7)")
    refused(run("census", "--summary", str(mixed)), "mixes")
    refused(run("census", "--pack", str(citadel), "--to", str(to)),
            "holds citadel census results, not a beleaguered-fortress census",
            "give --variant citadel")
    batched = tmp_path / "batch.jsonl"
    assert batch(batched).returncode == 0
    refused(run("census", "--pack", str(batched), "--to", str(to)),
            "holds beleaguered-fortress any-mode results, not a beleaguered-fortress census")
    assert not to.exists()
    packed = run("census", "--pack", str(citadel), "--to", str(to), "--variant", "citadel")
    assert packed.returncode == 0, packed.stderr


def test_census_pack_without_to_leaves_the_shipped_census_alone(tmp_path):
    for variant in ("beleaguered-fortress", "citadel"):
        out = tmp_path / f"{variant}.jsonl"
        assert census(out, "--variant", variant).returncode == 0
        shipped = census_path(find_variant(variant))
        before = shipped.read_bytes()
        refused(run("census", "--pack", str(out), "--variant", variant),
                f"census --pack would overwrite the census the package ships, {shipped}",
                "--to")
        assert shipped.read_bytes() == before


def test_retry_unknown_redoes_the_unknown_deals_with_a_new_budget(tmp_path):
    out = tmp_path / "results.jsonl"
    first = batch(out, "--nodes", "30")  # deals 1 and 3 need more than 30 nodes
    assert first.returncode == 0, first.stderr
    statuses = {r["deal"]: r["status"] for r in batch_records(out.read_text())}
    assert statuses == {1: "unknown", 2: "solved", 3: "unknown"}

    retried = batch(out, "--retry-unknown")
    assert retried.returncode == 0, retried.stderr
    records = batch_records(out.read_text())
    assert sorted(r["deal"] for r in records[3:]) == [1, 3]  # appended, the rest kept
    latest = {r["deal"]: r for r in records}
    assert [latest[n]["status"] for n in (1, 2, 3)] == ["unsolvable", "solved", "unsolvable"]
    check_summary(batch_summary(retried.stderr), list(latest.values()), processed=2)

    again = batch(out, "--retry-unknown")  # nothing is left unknown: nothing to redo
    assert again.returncode == 0 and len(batch_records(out.read_text())) == 5
    check_summary(batch_summary(again.stderr), list(latest.values()), processed=0)


def test_retry_unknown_in_a_census_counts_each_deal_once(tmp_path):
    out = tmp_path / "census.jsonl"
    assert census(out, "--nodes", "100").returncode == 0
    unknown = json.loads(run("census", "--summary", str(out), "--json").stdout)["unknown"]
    assert unknown > 0
    retried = census(out, "--retry-unknown")
    assert retried.returncode == 0, retried.stderr
    assert f"{unknown} run in" in retried.stderr
    summary = json.loads(run("census", "--summary", str(out), "--json").stdout)
    fresh = tmp_path / "fresh.jsonl"
    assert census(fresh).returncode == 0
    expected = json.loads(run("census", "--summary", str(fresh), "--json").stdout)
    verdicts = ("deals", "winnable", "unwinnable", "unknown")
    assert [summary[key] for key in verdicts] == [expected[key] for key in verdicts]
    assert (summary["deals"], summary["unknown"]) == (6, 0)


def test_retry_unknown_needs_an_out_file():
    refused(run("batch", "--deals", "1-3", "--retry-unknown"),
            "--retry-unknown needs --out FILE.jsonl")


def test_retry_unproven_proves_the_lengths_a_small_budget_left_open(tmp_path):
    """A Beleaguered Castle census within 3,000 nodes proves few optimal lengths; redone
    with --retry-unproven and room, each deal won is proven, its line no longer than
    before, and the deals already proven or decided otherwise are not run again."""
    out = tmp_path / "census.jsonl"
    castle = ("--variant", "beleaguered-castle")
    assert census(out, *castle, "--nodes", "3000").returncode == 0
    first = {r["deal"]: r for r in batch_records(out.read_text())}
    unproven = sorted(n for n, r in first.items() if r["status"] == "solved" and not r["optimal"])
    assert unproven  # the small budget left some open
    retried = census(out, *castle, "--nodes", "3000000", "--retry-unproven")
    assert retried.returncode == 0, retried.stderr
    records = batch_records(out.read_text())
    assert sorted(r["deal"] for r in records[len(first):]) == unproven  # those alone redone
    summary = json.loads(run("census", "--summary", str(out), "--json").stdout)
    assert summary["winnable"] == summary["optimal"] == sum(
        r["status"] == "solved" for r in first.values())
    for number in unproven:
        last = [r for r in records if r["deal"] == number][-1]
        assert last["optimal"] and last["length"] <= first[number]["length"]
