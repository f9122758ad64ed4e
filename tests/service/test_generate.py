"""fortress-solver generate and client generate: the ladder of budgets, the wall time
(--max-seconds) and its status line, and resuming from --out; real processes, and a real
server for the client. Past the census (streets-and-alleys deals above 10000) every deal
is searched."""

from __future__ import annotations

import json
import re
import subprocess
import sys
from pathlib import Path

import grpc
import pytest

from service.api import fortress_solver_pb2 as pb
from service.beleaguered import commands, handler
from solver.beleaguered import Move, deal, replay, solve
from solver.beleaguered.variant import find_variant
from solver.budget import Budget
from tests.support.killed import kill_after_lines
from tests.support.servers import address, connect, running_server

CLI = [sys.executable, "-m", "service.cli"]
PAST_CENSUS = ["--variant", "streets-and-alleys", "--deals", "10001-2000000000"]
# Baker's Game proves most deals' optimal lengths within 0.25 s: the tests that need a few
# deals found find them sooner there.
QUICKLY = ["--variant", "bakers-game", "--deals", "10001-2000000000"]
BAND = ["--min-length", "78", "--max-length", "84"]  # streets-and-alleys' median, 81, ±3
NONE_MEETS = ["--min-length", "150"]  # no streets-and-alleys deal is that long


def gave_up(wall: str) -> str:
    """The head of the status line of a run given up on after 2 s, as a pattern."""
    return re.escape(f"gave up after 2 s with none found (with no {wall}, a run that finds "
                     "none by then ends)")


def run(*args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run([*CLI, *args], capture_output=True, text=True, timeout=300)


def printed(out: str) -> list[dict]:
    return [json.loads(line) for line in out.splitlines()]


def lines(path: Path) -> list[dict]:
    return [json.loads(line) for line in path.read_text().splitlines()]


def assert_proven(found: dict, variant: str, low: int, high: int) -> None:
    """A deal printed is the variant's deal, its line wins, and its length is the optimal
    length an independent search proves, within the band."""
    position = deal(found["deal"], find_variant(variant))
    assert found["position"] == position.to_json()
    moves = [Move.from_json(move) for move in found["moves"]]
    assert replay(position, moves).is_won and len(moves) == found["length"]
    alone = solve(position, budget=Budget(seconds=60))
    assert alone.optimal and alone.length == found["length"]
    assert low <= found["length"] <= high


def time_up_counts(err: str, seconds: int = 2, why: str | None = None
                   ) -> tuple[int, int, int]:
    """(tried, out of band, unknown) of the status line of a band no deal meets, its time
    up (or given up on, `why`): the whole of standard error. Those out of band are each
    counted by why, those winnable (a line found) and in the band too."""
    why = why or f"time up after {seconds} s"
    matched = re.fullmatch(rf"fortress-solver: {why}: 0 of 2 deals found within "
                           r"150-\.\.\. moves; (\d+) tried: (\d+) winnable, 0 in band, "
                           r"(\d+) out of band(?: \(([^)]+)\))?"
                           r"(?:, (\d+) unknown set aside (?:at [\d.]+ s|\([^)]+\)))?\n",
                           err)
    assert matched, err
    tried, winnable, out, reasons, unknown = matched.groups()
    counted = re.findall(r"(\d+) (unwinnable|with a line below the band|with a bound above "
                         r"it)", reasons or "")
    assert sum(int(n) for n, _ in counted) == int(out)
    assert int(winnable) <= int(tried)
    return int(tried), int(out), int(unknown or 0)


# -------------------------------------------------------------------- generate, locally


def test_generate_past_the_census_finds_deals_of_the_band_each_optimal_and_replayed():
    done = run("generate", *QUICKLY, *BAND, "--count", "3", "--seconds", "1",
               "--max-seconds", "120")
    assert (done.returncode, done.stderr) == (0, "")
    found = printed(done.stdout)
    assert len(found) == 3 == len({each["deal"] for each in found})
    for each in found:
        assert each["deal"] > 10000
        assert_proven(each, "bakers-game", 78, 84)


def test_a_band_no_deal_meets_ends_at_max_seconds_with_a_status_and_its_counts(tmp_path):
    out = tmp_path / "tries.jsonl"
    done = run("generate", *PAST_CENSUS, *NONE_MEETS, "--count", "2", "--max-seconds", "2",
               "--out", str(out))
    assert (done.returncode, done.stdout) == (1, "")
    tried, out_of_band, unknown = time_up_counts(done.stderr)
    assert tried == out_of_band + unknown > 0
    last = {line["deal"]: line for line in lines(out)}  # a deal set aside may climb
    assert len(last) == tried
    assert sum(line["outcome"] == "out" for line in last.values()) == out_of_band
    assert {line["budget"]["seconds"] for line in last.values()
            if line["outcome"] == "unknown"} <= {0.25, 1.0}


def test_a_band_no_deal_meets_given_no_wall_time_gives_up_with_its_counts(monkeypatch,
                                                                         capsys):
    """With no --max-seconds, a run that has found none within HOPELESS_AFTER (2 s here,
    so that the test is quick) ends, exit 1, its status and counts in one line."""
    from service import cli

    monkeypatch.setattr(commands, "HOPELESS_AFTER", 2.0)
    code = cli.main(["generate", *PAST_CENSUS, *NONE_MEETS, "--count", "2", "--jobs", "1"])
    out, err = capsys.readouterr()
    assert (code, out) == (1, "")
    tried, out_of_band, unknown = time_up_counts(err, why=gave_up("--max-seconds"))
    assert tried == out_of_band + unknown > 0


def test_a_band_above_max_length_is_refused_in_one_line():
    done = run("generate", "--count", "1", "--min-length", "80", "--max-length", "70")
    assert (done.returncode, done.stdout) == (2, "")
    assert done.stderr == ("fortress-solver: --min-length 80 is above --max-length 70: no "
                           "deal can meet the band\n")


def test_a_rerun_prints_the_deals_found_and_tries_none_twice(tmp_path):
    out = tmp_path / "deals.jsonl"
    common = ["generate", *QUICKLY, *BAND, "--seconds", "1", "--out", str(out)]
    first = run(*common, "--count", "1")
    assert first.returncode == 0, first.stderr
    tried_first = [line["deal"] for line in lines(out)]
    again = run(*common, "--count", "3")
    assert again.returncode == 0, again.stderr
    found = printed(again.stdout)
    assert found[0] == printed(first.stdout)[0] and len(found) == 3
    tried = [line["deal"] for line in lines(out)]
    assert tried[:len(tried_first)] == tried_first
    # none tried twice: fresh deals never run out, so those set aside wait
    assert len(set(tried)) == len(tried)
    assert {line["deal"] for line in lines(out) if line["outcome"] == "found"} >= \
        {each["deal"] for each in found}


def test_a_rerun_of_other_deals_prints_and_counts_only_its_own(tmp_path):
    """A file that holds a deal found in an earlier run of other --deals: a run of deals
    past it prints (and counts) only deals of its own range, found afresh."""
    out = tmp_path / "deals.jsonl"
    common = ["generate", "--variant", "bakers-game", *BAND, "--seconds", "1", "--count",
              "1", "--out", str(out)]
    first = run(*common, "--deals", "10001-2000000000")
    assert first.returncode == 0, first.stderr
    [earlier] = printed(first.stdout)
    after = run(*common, "--deals", f"{earlier['deal'] + 1}-2000000000")
    assert after.returncode == 0, after.stderr
    [found] = printed(after.stdout)
    assert found["deal"] > earlier["deal"]
    assert_proven(found, "bakers-game", 78, 84)


def test_a_generate_killed_midway_resumes_without_trying_a_deal_again(tmp_path):
    out = tmp_path / "deals.jsonl"
    command = [*CLI, "generate", *PAST_CENSUS, *NONE_MEETS, "--count", "2", "--seconds",
               "0.25", "--out", str(out)]
    kill_after_lines(command, out, 10)
    before = {json.loads(line)["deal"] for line in out.read_bytes().splitlines()[:-1]}
    assert len(before) >= 9
    done = run(*command[len(CLI):], "--max-seconds", "1")
    assert done.returncode == 1
    tries = lines(out)  # each line whole again: a line cut by the kill was dropped
    after = [line["deal"] for line in tries]
    assert len(after) == len(set(after)) > len(before)
    assert set(after) >= before
    assert time_up_counts(done.stderr, seconds=1)[0] == len(after)  # the file's, all


def test_a_rerun_tries_the_deals_set_aside_again_only_with_a_larger_budget(tmp_path):
    """A node budget leaves the same deals unknown whatever the machine's speed."""
    out = tmp_path / "deals.jsonl"
    common = ["generate", "--variant", "streets-and-alleys", "--deals", "10001-10030", *BAND,
              "--count", "30", "--nodes", "3000", "--out", str(out)]
    first = run(*common, "--seconds", "0.25")
    assert first.returncode == 1
    unknown = {line["deal"] for line in lines(out) if line["outcome"] == "unknown"}
    assert unknown and f"{len(unknown)} deal" in first.stderr
    tried = len(lines(out))
    same = run(*common, "--seconds", "0.25")
    assert same.returncode == 1 and len(lines(out)) == tried  # nothing to try again
    larger = run(*common, "--seconds", "1")
    assert larger.returncode == 1
    again = lines(out)[tried:]
    assert {line["deal"] for line in again} == unknown
    assert {line["budget"]["seconds"] for line in again} == {1}


def test_an_out_file_of_other_settings_is_refused_in_one_line(tmp_path):
    out = tmp_path / "deals.jsonl"
    assert run("generate", "--count", "1", "--min-length", "60", "--max-length", "70",
               "--deals", "1-20", "--out", str(out)).returncode == 0
    other_variant = run("generate", "--count", "1", "--min-length", "60", "--max-length", "70",
                        "--variant", "citadel", "--deals", "1-20", "--out", str(out))
    assert other_variant.returncode == 2
    assert other_variant.stderr == (
        f"fortress-solver: {out} holds beleaguered-fortress deals within 60-70 moves (line "
        "1); this run asks for citadel deals within 60-70 moves: use another --out\n")
    other_band = run("generate", "--count", "1", "--min-length", "61", "--max-length", "70",
                     "--deals", "1-20", "--out", str(out))
    assert other_band.returncode == 2 and "within 61-70 moves: use another" in other_band.stderr
    batch = tmp_path / "batch.jsonl"
    assert run("batch", "--deals", "1-2", "--out", str(batch)).returncode == 0
    not_ours = run("generate", "--count", "1", "--deals", "1-20", "--out", str(batch))
    assert not_ours.returncode == 2
    assert not_ours.stderr.startswith(f"fortress-solver: {batch} line 1 is not a deal "
                                      "generate tried: ")


# ----------------------------------------------------------------- client generate


def test_client_generate_ends_at_max_seconds_with_the_servers_status(solver_server):
    done = run("client", "generate", "--server", address(solver_server), *PAST_CENSUS,
               *NONE_MEETS, "--count", "2", "--max-seconds", "2")
    assert (done.returncode, done.stdout) == (1, "")
    tried, out_of_band, unknown = time_up_counts(done.stderr)
    assert tried == out_of_band + unknown > 0


def test_client_generate_resumes_from_after_the_last_deal_recorded(solver_server, tmp_path):
    out = tmp_path / "deals.jsonl"
    common = ["client", "generate", "--server", address(solver_server), *QUICKLY, *BAND,
              "--seconds", "1", "--out", str(out)]
    first = run(*common, "--count", "1")
    assert first.returncode == 0, first.stderr
    [one] = printed(first.stdout)
    again = run(*common, "--count", "2")
    assert again.returncode == 0, again.stderr
    found = printed(again.stdout)
    assert found[0] == one and found[1]["deal"] > one["deal"]
    assert [line["deal"] for line in lines(out)] == [one["deal"], found[1]["deal"]]
    assert {line["outcome"] for line in lines(out)} == {"found"}
    assert_proven(found[1], "bakers-game", 78, 84)


def test_client_generate_resumed_over_other_deals_prints_only_its_own(solver_server,
                                                                     tmp_path):
    out = tmp_path / "deals.jsonl"
    common = ["client", "generate", "--server", address(solver_server), "--variant",
              "bakers-game", *BAND, "--seconds", "1", "--count", "1", "--out", str(out)]
    first = run(*common, "--deals", "10001-2000000000")
    assert first.returncode == 0, first.stderr
    [earlier] = printed(first.stdout)
    after = run(*common, "--deals", f"{earlier['deal'] + 1}-2000000000")
    assert after.returncode == 0, after.stderr
    [found] = printed(after.stdout)
    assert found["deal"] > earlier["deal"]
    assert_proven(found, "bakers-game", 78, 84)


def test_a_call_with_no_wall_time_gives_up_on_a_band_no_deal_meets(monkeypatch):
    """A call that sets no max_seconds, on a server that would give it 10 s, ends when it
    has found none within HOPELESS_AFTER (2 s here): OUT_OF_RANGE, with its counts."""
    monkeypatch.setattr(handler, "HOPELESS_AFTER", 2.0)
    with running_server(workers=1, queue=4, limits=Budget(seconds=1.0)) as server, \
            connect(server) as stub:
        request = pb.GenerateDealsRequest(count=2, min_length=150, first_deal=10001,
                                          variant="streets-and-alleys")
        with pytest.raises(grpc.RpcError) as caught:
            list(stub.GenerateDeals(request, timeout=60))
    assert caught.value.code() is grpc.StatusCode.OUT_OF_RANGE
    tried, out_of_band, unknown = time_up_counts(
        f"fortress-solver: {caught.value.details()}\n", why=gave_up("max_seconds"))
    assert tried == out_of_band + unknown > 0


def test_a_server_caps_a_calls_wall_time_at_ten_of_its_searches():
    """A server whose searches take at most 0.2 s gives a call 2 s, when it asks for none
    and when it asks for more."""
    with running_server(workers=2, queue=4, limits=Budget(seconds=0.2)) as server, \
            connect(server) as stub:
        for asked in (0.0, 3600.0):
            request = pb.GenerateDealsRequest(count=2, min_length=150, first_deal=10001,
                                              variant="streets-and-alleys",
                                              max_seconds=asked)
            with pytest.raises(grpc.RpcError) as caught:
                list(stub.GenerateDeals(request, timeout=60))
            assert caught.value.code() is grpc.StatusCode.OUT_OF_RANGE
            assert caught.value.details().startswith(
                "time up after 2 s (this server's most for one call): 0 of 2 deals found")


# ------------------------------------------------------ any and verdict modes: no band

WINNABLE_OF_1_TO_40 = {2, 6, 13, 15, 22, 23, 28, 29, 38}  # as the shipped census has it


def assert_winnable_line(found: dict) -> None:
    """A deal printed in a mode that proves no length: Beleaguered Fortress's deal, one
    the census proves winnable, and its line replays to a win."""
    position = deal(found["deal"])
    assert found["position"] == position.to_json()
    moves = [Move.from_json(move) for move in found["moves"]]
    assert replay(position, moves).is_won and len(moves) == found["length"]
    assert found["deal"] in WINNABLE_OF_1_TO_40


@pytest.mark.parametrize("mode", ["verdict", "any"])
def test_generate_in_a_mode_without_lengths_finds_winnable_deals_with_lines_that_win(mode):
    done = run("generate", "--mode", mode, "--count", "4", "--deals", "1-40", "--jobs", "1")
    assert (done.returncode, done.stderr) == (0, "")
    found = printed(done.stdout)
    assert len(found) == 4
    for each in found:
        assert_winnable_line(each)
    # one job tries the deals in order, and each of these is settled at the first rung
    assert [each["deal"] for each in found] == [2, 6, 13, 15]


def test_a_band_in_verdict_mode_is_refused_in_one_line():
    done = run("generate", "--mode", "verdict", "--count", "1", "--min-length", "60")
    assert (done.returncode, done.stdout) == (2, "")
    assert done.stderr == ("fortress-solver: --min-length and --max-length bound optimal "
                           "lengths: the lines of --mode verdict are of any length; leave "
                           "them out, or give --mode optimal\n")


def test_an_out_file_of_another_mode_is_refused_in_one_line(tmp_path):
    out = tmp_path / "deals.jsonl"
    assert run("generate", "--mode", "verdict", "--count", "1", "--deals", "1-20", "--out",
               str(out)).returncode == 0
    optimal = run("generate", "--count", "1", "--deals", "1-20", "--out", str(out))
    assert optimal.returncode == 2
    assert optimal.stderr == (
        f"fortress-solver: {out} holds beleaguered-fortress deals of any length found in "
        "verdict mode (line 1); this run asks for beleaguered-fortress deals of any length: "
        "use another --out\n")


def test_client_generate_in_verdict_mode_and_its_resumed_run(solver_server, tmp_path):
    out = tmp_path / "deals.jsonl"
    common = ["client", "generate", "--server", address(solver_server), "--mode", "verdict",
              "--deals", "1-40", "--out", str(out)]
    first = run(*common, "--count", "2")
    assert first.returncode == 0, first.stderr
    again = run(*common, "--count", "3")
    assert again.returncode == 0, again.stderr
    found = printed(again.stdout)
    assert found[:2] == printed(first.stdout) and len(found) == 3
    for each in found:
        assert_winnable_line(each)
    assert {line["mode"] for line in lines(out)} == {"generate-verdict"}
    assert all(line["lower_bound"] is None for line in lines(out))


@pytest.mark.parametrize("mode", [pb.MODE_ANY, pb.MODE_VERDICT])
def test_generate_deals_takes_no_band_in_a_mode_without_lengths(stub, mode):
    request = pb.GenerateDealsRequest(count=1, min_length=60, mode=mode)
    with pytest.raises(grpc.RpcError) as caught:
        list(stub.GenerateDeals(request, timeout=30))
    assert caught.value.code() is grpc.StatusCode.INVALID_ARGUMENT
    assert caught.value.details() == (
        f"min_length and max_length bound optimal lengths: the lines of {pb.Mode.Name(mode)} "
        "are of any length; leave them out, or send MODE_OPTIMAL")
    unknown = pb.GenerateDealsRequest(count=1, mode=99)
    with pytest.raises(grpc.RpcError) as caught:
        list(stub.GenerateDeals(unknown, timeout=30))
    assert caught.value.code() is grpc.StatusCode.INVALID_ARGUMENT
    assert caught.value.details().startswith("GenerateDealsRequest.mode: 99 is no Mode")
