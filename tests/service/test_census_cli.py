"""fortress-solver census and deal-info: real processes, a resumed run after SIGKILL, the
summary and the packed data file, and the service answering from the shipped census."""

from __future__ import annotations

import json
import subprocess
import sys
from collections import Counter
from pathlib import Path

import pytest

from service.api import fortress_solver_pb2 as pb
from solver.beleaguered import Algorithm, Mode, deal, solve
from solver.beleaguered.census import Census, shipped
from solver.budget import Budget, Status
from tests.support.killed import kill_after_lines
from tests.support.servers import connect, deal_source, running_server

CLI = [sys.executable, "-m", "service.cli"]


def run(*args: str, **kwargs) -> subprocess.CompletedProcess[str]:
    return subprocess.run([*CLI, *args], capture_output=True, text=True, timeout=300, **kwargs)


def lines(path: Path) -> list[dict]:
    return [json.loads(line) for line in path.read_text().splitlines()]


def test_a_census_decides_every_deal_and_solves_each_winnable_one_optimally(tmp_path):
    out = tmp_path / "census.jsonl"
    done = run("census", "--deals", "1-40", "--out", str(out), "--jobs", "2")
    assert done.returncode == 0, done.stderr
    records = {line["deal"]: line for line in lines(out)}
    assert sorted(records) == list(range(1, 41))
    for number in (1, 2, 6, 13, 29):
        fresh = solve(deal(number), Mode.OPTIMAL, Algorithm.ASTAR, Budget(seconds=60))
        assert records[number]["status"] == fresh.status.value
        assert records[number]["length"] == (fresh.length if fresh.optimal else None)
    assert {line["status"] for line in records.values()} == {"solved", "unsolvable"}


def test_a_census_killed_midway_resumes_without_losing_or_repeating_a_deal(tmp_path):
    out = tmp_path / "census.jsonl"
    command = [*CLI, "census", "--deals", "1-4000", "--out", str(out), "--jobs", "2"]
    kill_after_lines(command, out, 200)
    before = len(out.read_bytes().splitlines())
    assert 200 <= before < 4000
    done = run("census", "--deals", "1-4000", "--out", str(out), "--jobs", "2")
    assert done.returncode == 0, done.stderr
    counts = Counter(line["deal"] for line in lines(out))
    assert sorted(counts) == list(range(1, 4001)) and set(counts.values()) == {1}


@pytest.fixture(scope="module")
def census_file(tmp_path_factory) -> Path:
    out = tmp_path_factory.mktemp("census") / "census.jsonl"
    assert run("census", "--deals", "1-300", "--out", str(out)).returncode == 0
    return out


def test_the_summary_counts_the_file(census_file):
    records = lines(census_file)
    done = run("census", "--summary", str(census_file), "--json")
    summary = json.loads(done.stdout)
    winnable = [r for r in records if r["status"] == "solved"]
    assert summary["deals"] == 300 and summary["winnable"] == len(winnable)
    assert summary["unwinnable"] == 300 - len(winnable) and summary["unknown"] == 0
    assert {int(k): v for k, v in summary["lengths"].items()} == dict(
        Counter(r["length"] for r in winnable))
    assert summary["longest"][0]["length"] == max(r["length"] for r in winnable)
    low, high = summary["winnable_interval"]
    assert low < len(winnable) / 300 < high
    text = run("census", "--summary", str(census_file)).stdout
    assert f"{len(winnable)} winnable" in text and "optimal lengths:" in text


def test_the_packed_file_holds_every_verdict(census_file, tmp_path):
    packed = tmp_path / "census.bin"
    assert run("census", "--pack", str(census_file), "--to", str(packed)).returncode == 0
    census = Census.from_bytes(packed.read_bytes())
    for record in lines(census_file):
        info = census.info(record["deal"])
        assert info is not None and info.status is Status(record["status"])
        assert info.length == record["length"]


def test_census_deals_needs_an_out_file():
    done = run("census", "--deals", "1-5")
    assert done.returncode != 0 and "needs --out" in done.stderr
    assert len(done.stderr.strip().splitlines()) == 1


SHIPPED = shipped()
needs_census = pytest.mark.skipif(SHIPPED is None, reason="no census is shipped")


@needs_census
@pytest.mark.parametrize("mode", ["verdict", "any"])
def test_a_census_decides_each_deal_in_either_mode_as_the_shipped_census_has_it(tmp_path,
                                                                                 mode):
    out = tmp_path / "census.jsonl"
    done = run("census", "--deals", "1-150", "--out", str(out), "--mode", mode)
    assert done.returncode == 0, done.stderr
    records = lines(out)
    assert [line["deal"] for line in sorted(records, key=lambda r: r["deal"])] == list(
        range(1, 151))
    for line in records:
        known = SHIPPED.info(line["deal"])
        assert known is not None
        assert (line["status"], line["length"]) == (known.status.value, known.length)


def test_a_census_file_says_which_mode_decided_it_and_refuses_the_other(tmp_path):
    out = tmp_path / "census.jsonl"
    assert run("census", "--deals", "1-5", "--out", str(out), "--mode", "verdict",
               "--jobs", "1").returncode == 0
    assert {line["mode"] for line in lines(out)} == {"census-verdict"}
    other = run("census", "--deals", "1-10", "--out", str(out), "--mode", "any", "--jobs", "1")
    assert other.returncode != 0 and "census-verdict results" in other.stderr
    assert len(other.stderr.strip().splitlines()) == 1


@needs_census
def test_deal_info_answers_from_the_shipped_census():
    assert run("deal-info", "2").stdout == "deal 2: winnable in 66 moves (optimal)\n"
    assert json.loads(run("deal-info", "1", "--json").stdout) == {
        "deal": 1, "status": "unsolvable", "length": None}
    refused = run("deal-info", "1000001")
    assert refused.returncode != 0 and "not in the shipped census" in refused.stderr


@needs_census
def test_the_service_answers_an_unwinnable_deal_from_the_census_and_generates_from_it():
    with running_server(workers=1) as server, connect(server) as stub:
        answer = stub.Hint(pb.HintRequest(position=deal_source(1)), timeout=10)
        assert answer.status == pb.STATUS_UNSOLVABLE and not answer.winnable and answer.cached
        band = pb.GenerateDealsRequest(count=3, min_length=100, max_length=120, first_deal=1)
        found = list(stub.GenerateDeals(band, timeout=60))
        assert [d.length for d in found] == [SHIPPED.info(d.deal).length for d in found]
        assert all(100 <= d.length <= 120 for d in found) and len(found) == 3


def test_a_census_on_a_dask_cluster_equals_the_local_one(tmp_path):
    pytest.importorskip("distributed")
    local, on_dask = tmp_path / "local.jsonl", tmp_path / "dask.jsonl"
    assert run("census", "--deals", "1-80", "--out", str(local)).returncode == 0
    done = run("census", "--deals", "1-80", "--out", str(on_dask), "--dask", "local")
    assert done.returncode == 0, done.stderr

    def verdicts(path: Path) -> dict[int, tuple]:
        return {line["deal"]: (line["status"], line["optimal"], line["length"])
                for line in lines(path)}

    assert verdicts(on_dask) == verdicts(local) and len(verdicts(local)) == 80
