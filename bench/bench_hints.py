"""make bench-hints: how fast a hint comes when the client gives no budget, and how long
the line it starts is, for the opening of every deal of the FreeCell family and the
castle variants.

It exists to check the promise a hint with no budget makes (the server's default second,
the best line found when the proof takes longer): per variant, the latency of Hint over
gRPC against a server this benchmark starts on 127.0.0.1 (`fortress-solver serve`, a
process of its own, as bench/load.py starts it), its p50, p95 and max; how many hints
were proven optimal; and the hint's moves left minus the optimal length the shipped
census proves (solver/beleaguered/census.py), median and max over the deals it proves.
The calls go one at a time, deal after deal, each deal's opening asked once (a cold
cache; Beleaguered Fortress's deals go by number, as `client hint --deal` sends them,
so that the census answers the unwinnable ones; the other variants' as positions). Each
hinted move is played by our plain rules; a hint shorter than a proven optimum, or
calling a deal the census proves winnable unwinnable, is listed as a fault. Then the
command line a user runs, `fortress-solver hint --deal N --variant V`, is timed whole
(process start included) on a few deals of each variant.

    .venv/bin/python -m bench.bench_hints [--deals 1-200] [--variants a,b]
        [--cli-deals 1-3] [--json out.json]
"""

from __future__ import annotations

import argparse
import json
import shlex
import signal
import statistics
import subprocess
import sys
import time
from collections.abc import Sequence
from datetime import datetime
from pathlib import Path

import grpc

from bench.bench_beleaguered import nearest_rank
from bench.bench_family import Record, num, render, variant_list
from bench.load import start_server
from service.api import fortress_solver_pb2 as pb
from service.api import fortress_solver_pb2_grpc as pb_grpc
from service.beleaguered import messages
from solver.beleaguered.census import shipped
from solver.beleaguered.deals import deal
from solver.beleaguered.rules import apply
from solver.beleaguered.variant import DEFAULT, Variant, variants
from solver.budget import Status

TIMEOUT = 120.0  # seconds a call may take: only against a hung server


def default_variants() -> tuple[Variant, ...]:
    """Every shipped variant: the castle family and the FreeCell family."""
    return tuple(variants())


def source(rules: Variant, number: int) -> pb.PositionSource:
    """What `client hint --deal N` sends: Beleaguered Fortress's deal by number, another
    variant's deal as its position."""
    if rules.name == DEFAULT:
        return messages.deal_source(number)
    return messages.position_source(deal(number, rules))


def hint_record(stub: pb_grpc.SolverStub, rules: Variant, number: int) -> Record:
    """One Hint with no budget: its latency and answer, its move played by our rules."""
    request = pb.HintRequest(position=source(rules, number))
    started = time.perf_counter()
    answer = stub.Hint(request, timeout=TIMEOUT)
    seconds = time.perf_counter() - started
    if answer.HasField("move"):
        apply(deal(number, rules), messages.move_from_proto(answer.move))  # IllegalMove
    census = shipped(rules)
    known = None if census is None else census.info(number)
    return {
        "deal": number, "seconds": seconds, "status": _STATUS[answer.status].value,
        "winnable": answer.winnable if answer.HasField("winnable") else None,
        "moves_left": answer.moves_left if answer.HasField("moves_left") else None,
        # absent when the line is proven optimal (false: the budget ran out first)
        "optimal": (not answer.HasField("optimal") or answer.optimal
                    if answer.HasField("moves_left") else None),
        "at_least": answer.at_least if answer.HasField("at_least") else None,
        "cached": answer.cached,
        "census": None if known is None else {"status": known.status.value,
                                              "length": known.length,
                                              "optimal": known.optimal,
                                              "lower_bound": known.lower_bound}}


_STATUS = {pb.SOLVED: Status.SOLVED, pb.UNSOLVABLE: Status.UNSOLVABLE, pb.UNKNOWN: Status.UNKNOWN}


def summarise(records: Sequence[Record]) -> Record:
    """Latency p50/p95/max, the hints' verdicts and proofs, the excess over the census's
    proven optima, and the faults listed."""
    latency = [r["seconds"] for r in records]
    won = [r for r in records if r["winnable"] and r["moves_left"] is not None]
    proven = [(r, r["census"]) for r in won if r["census"] and r["census"]["optimal"]]
    excess = [r["moves_left"] - c["length"] for r, c in proven]
    above = [r["moves_left"] - r["census"]["lower_bound"] for r in won
             if r["census"] and not r["census"]["optimal"]
             and r["census"]["lower_bound"] is not None]
    faults = [f"{r['deal']} (hint {r['moves_left']} moves, census optimum {c['length']})"
              for r, c in proven if r["moves_left"] < c["length"]]
    faults += [f"{r['deal']} (hint unwinnable, census winnable)" for r in records
               if r["winnable"] is False and r["census"]
               and r["census"]["status"] == Status.SOLVED.value]
    return {
        "deals": len(records), "winnable": len(won),
        "unwinnable": sum(r["winnable"] is False for r in records),
        "unknown": sum(r["winnable"] is None for r in records),
        "proven": sum(bool(r["optimal"]) for r in won),
        "cached": sum(r["cached"] for r in records),
        "p50": nearest_rank(latency, 50), "p95": nearest_rank(latency, 95),
        "max": max(latency, default=None),
        "census_proven": len(excess),
        "excess_median": statistics.median(excess) if excess else None,
        "excess_p95": nearest_rank(excess, 95), "excess_max": max(excess, default=None),
        "bounded": len(above), "above_bound_median": statistics.median(above) if above else None,
        "faults": faults,
    }


HEADER = ["variant", "deals", "won/unw/unk", "proven", "cached", "p50 ms", "p95 ms", "max ms",
          "census proven", "excess med", "p95", "max", "bounded", "above bound med"]


def row(name: str, s: Record) -> list[str]:
    ms = [num(None if s[k] is None else 1000 * s[k]) for k in ("p50", "p95", "max")]
    return [name, str(s["deals"]), f"{s['winnable']}/{s['unwinnable']}/{s['unknown']}",
            str(s["proven"]), str(s["cached"]), *ms, str(s["census_proven"]),
            num(s["excess_median"], 1), num(s["excess_p95"]), num(s["excess_max"]),
            str(s["bounded"]), num(s["above_bound_median"], 1)]


def cli_seconds(executable: str, rules: Variant, number: int) -> float:
    """`fortress-solver hint --deal N --variant V`'s wall clock; its failure ends the
    benchmark."""
    command = [executable, "hint", "--deal", str(number), "--variant", rules.name]
    started = time.perf_counter()
    done = subprocess.run(command, capture_output=True, text=True, check=False)
    seconds = time.perf_counter() - started
    if done.returncode != 0:
        sys.exit(f"bench-hints: {shlex.join(command)} failed: {done.stderr.strip()[-300:]}")
    return seconds


def deals_or_none(text: str) -> range:
    """--cli-deals: a range, or `none`."""
    from service.beleaguered.commands import deal_range

    return range(0) if text == "none" else deal_range(text)


def main(argv: Sequence[str] | None = None) -> None:
    from service.arguments import add_progress, progress_bar
    from service.beleaguered.commands import deal_range

    parser = argparse.ArgumentParser(description=" ".join(__doc__.split("\n\n")[0].split()))
    parser.add_argument("--deals", type=deal_range, default=deal_range("1-200"),
                        metavar="A-B", help="deals hinted over gRPC (default 1-200)")
    parser.add_argument("--variants", type=variant_list, metavar="A,B",
                        help="variants (default: every shipped one)")
    parser.add_argument("--cli-deals", type=deals_or_none, default=deal_range("1-3"),
                        metavar="A-B", help="deals hinted by the command line, each variant "
                                            "(default 1-3; none: no such run)")
    parser.add_argument("--fortress-solver", metavar="PATH",
                        default=str(Path(sys.executable).with_name("fortress-solver")),
                        help="the command line timed (default: the one beside this Python)")
    parser.add_argument("--json", metavar="FILE", help="also write the figures here")
    add_progress(parser)
    args = parser.parse_args(argv)
    deals: range = args.deals
    chosen: tuple[Variant, ...] = args.variants or default_variants()

    started = datetime.now().astimezone()
    server, reached = start_server(None)
    results: dict[str, Record] = {}
    try:
        with reached.channel() as channel:
            stub = pb_grpc.SolverStub(channel)
            stub.GetServerInfo(pb.GetServerInfoRequest(), timeout=60, wait_for_ready=True)
            for rules in chosen:
                records = [hint_record(stub, rules, n) for n in progress_bar(
                    deals, total=len(deals), unit="hint", desc=rules.name,
                    forced=args.progress)]
                results[rules.name] = {"summary": summarise(records), "records": records}
    except grpc.RpcError as error:
        sys.exit(f"bench-hints: a Hint failed: {error.code().name} {error.details()}")
    finally:
        server.send_signal(signal.SIGTERM)
        server.wait(timeout=60)
    cli: dict[str, list[float]] = {
        rules.name: [cli_seconds(args.fortress_solver, rules, n) for n in args.cli_deals]
        for rules in chosen} if len(args.cli_deals) else {}

    command_line = shlex.join(["python", "-m", "bench.bench_hints",
                               *(sys.argv[1:] if argv is None else argv)])
    print(f"{started:%Y-%m-%d %H:%M %Z}: {command_line}")
    print(f"Hint with no budget over gRPC (fortress-solver serve on {reached.address}, its "
          f"default workers), one call at a time, deals {deals.start}-{deals.stop - 1} of "
          "each variant, each deal's opening once\n")
    print(render("hints", HEADER, [row(name, r["summary"]) for name, r in results.items()]))
    print("proven: hints proven optimal; cached: answered from the census or the cache; "
          "excess: moves left - the census's proven optimum;\nbounded: the other winnable "
          "hints with a census lower bound, above bound: moves left - bound (>= the excess)")
    faults = [f"  {name}, faults: {', '.join(r['summary']['faults'])}"
              for name, r in results.items() if r["summary"]["faults"]]
    print("\n".join(faults) or "  no hint shorter than a proven optimum, no winnable deal "
                               "called unwinnable")
    if cli:
        print()
        print(render(f"the command line: fortress-solver hint --deal N --variant V, wall clock "
                     f"(s), deals {args.cli_deals.start}-{args.cli_deals.stop - 1}",
                     ["variant", *(str(n) for n in args.cli_deals), "median"],
                     [[name, *(f"{s:.2f}" for s in found), f"{statistics.median(found):.2f}"]
                      for name, found in cli.items()]))

    if args.json:
        with open(args.json, "w") as out:
            json.dump({"date": started.isoformat(timespec="seconds"), "command": command_line,
                       "variants": results, "cli_seconds": cli}, out, indent=1)


if __name__ == "__main__":
    main()
