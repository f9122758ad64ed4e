"""Beleaguered Fortress's commands: `deal`, its questions (`solve`, `hint`, `grade`: made
by service/generic/commands.py, printed here), `batch`, `census`, `deal-info`,
`variants`, and under `client` the questions and `batch` with `--server`, and `generate`.

Each plays any variant of the family: `--variant NAME` (a shipped one, listed by
`variants`) or `--rules FILE` (a user's own rules file). A position file that names its
variant is read as that variant; one that names none is read as the variant chosen, and
Beleaguered Fortress when none is. The shared `show`, `apply` and `schema` commands reach
the family through `in_variant` and `schemas`.
"""

from __future__ import annotations

import argparse
import json
import os
import sys
from collections.abc import Callable, Iterator
from dataclasses import replace
from functools import partial
from itertools import accumulate
from pathlib import Path
from typing import TYPE_CHECKING, Any, TextIO

from service.arguments import (
    PER_CORE,
    Number,
    Shortfall,
    add_budget,
    add_disk,
    add_progress,
    add_retry,
    add_server,
    add_variant,
    appending,
    budget_of,
    positive,
    processes,
    progress_bar,
    ranged,
    sigterm_as_interrupt,
    source_name,
    worker_pool,
)
from service.frontends import OWN
from service.generic.commands import Commands
from service.generic.runs import Runs, add_batch, run_deals
from solver.beleaguered import (
    Engine,
    Mode,
    Move,
    Position,
    apply,
    deal,
    engines,
)
from solver.beleaguered.deals import LARGEST_DEAL, MAX_DEAL, NUMBERED, check_deals
from solver.beleaguered.drawing import picture
from solver.beleaguered.game import GAME, HINT, SOLVE, HintOptions, SolveOptions, play
from solver.beleaguered.generation import (
    FIRST_RUNG,
    HOPELESS_AFTER,
    RUNG_FACTOR,
    Band,
    Outcome,
    Tried,
)
from solver.beleaguered.notation import Notation, run_size
from solver.beleaguered.results import line, record
from solver.beleaguered.solve import Metric
from solver.beleaguered.variant import (
    DEFAULT,
    Numbering,
    Variant,
    find_variant,
    load_variant_file,
    rules_schema,
    variants,
)
from solver.budget import Budget
from solver.errors import InvalidInput
from solver.games import Game, Question
from solver.numerals import read_number
from solver.results import Settings

if TYPE_CHECKING:
    from service.api import fortress_solver_pb2 as pb
    from service.batch import Part
    from service.client import Client

# service.batch, service.beleaguered.messages, the census, the grading and the reader (with
# the wire schema's pydantic) are imported by the commands that use them: `deal` starts
# sooner without them.


class DealNumber(Number[int]):
    """--deal's type, and a range's ends: any integer a request carries (int64); whether
    the variant deals it is checked with the variant once it is known (deals.py), so
    that a refusal says that variant's range ("FreeCell deals are numbered 1 to ...")."""

    def __call__(self, text: str) -> int:
        value = read_number(text, int)
        if value is not None and value > self.most:
            raise argparse.ArgumentTypeError(f"deal number {value} is out of range: no "
                                             f"variant numbers its deals past {self.bound}")
        if value is not None and self.least is not None and value < self.least:
            raise argparse.ArgumentTypeError(f"deal number {value} is out of range: deals "
                                             "are numbered from 1")
        return super().__call__(text)


deal_number = DealNumber(int, LARGEST_DEAL, -(2**63), name="deal number")
deal_range = ranged(deal_number)


_SERVER = "--server 127.0.0.1:50051"  # the examples' server, as `serve` starts it
TOGETHER = 64  # results `client batch` asks the server to send in one message at most
_HELP = OWN["patience"].commands  # the top-level help lists them from there


def add_commands(commands: Any) -> None:
    show = commands.add_parser(
        "deal", help=_HELP["deal"],
        description="Print the starting position of Beleaguered Fortress deal N, or of "
                    "another variant's (--variant), laid out for reading or as JSON.",
        epilog="examples:\n  fortress-solver deal 1\n  fortress-solver deal 1 --json\n"
               "  fortress-solver deal 1 --variant bastion")
    show.add_argument("number", type=deal_number,
                      help=f"the deal number, {NUMBERED[Numbering.FREECELL]}; of the "
                           "variants dealt by PySolFC's game numbers, "
                           f"{NUMBERED[Numbering.PYSOL]}")
    show.add_argument("--json", action="store_true", help="print the position as JSON")
    add_variant(show)
    show.set_defaults(run=_deal)
    QUESTIONS.add_each(commands, remote=False, words="fortress-solver", titled=True)
    add_batch(commands, QUESTIONS, RUNS, remote=False, about=_HELP["batch"])
    _add_census_commands(commands)

    generate = commands.add_parser(
        "generate", help=_HELP["generate"],
        description="Find COUNT winnable deals of Beleaguered Fortress, or of another "
                    "variant (--variant), each with its optimal length proven (within the "
                    "band of --min-length and --max-length, if given), trying the deal "
                    "numbers of --deals in order; one JSON line a deal found: deal, "
                    "position, length and an optimal line (with --mode any or verdict: "
                    "winnable deals, each with the line found, of any length, and no "
                    "band). Each deal is searched first "
                    f"within {FIRST_RUNG:g} s (or --seconds when less), the deals the "
                    "shipped census proves out of the band skipped; a deal that budget "
                    "leaves unsettled is set aside, and the deals set aside are searched "
                    f"again with {RUNG_FACTOR} times more, up to --seconds, those with the "
                    "shortest line found first, each rung's "
                    "share of the time earned by the deals it finds (all of them once the "
                    "range is spent). When the range or the wall time "
                    "(--max-seconds) runs out first, or with no --max-seconds "
                    f"{HOPELESS_AFTER:g} s pass with no deal found (a band no deal meets), "
                    "it says what it found and tried and exits 1.",
        epilog="examples:\n  fortress-solver generate --count 2 --min-length 60 "
               "--max-length 70 --deals 1-20\n"
               "  fortress-solver generate --count 5 --mode verdict --variant citadel\n"
               "  fortress-solver generate --variant bakers-game --count 2 --min-length 78 "
               "--max-length 84 --deals 10001-20000 --max-seconds 60 --out deals.jsonl")
    _add_generate_options(generate, local=True)
    generate.add_argument("--jobs", type=processes, default=os.cpu_count() or 1,
                          help=f"worker processes, by default one per core (at most "
                               f"{PER_CORE} a core)")
    generate.set_defaults(run=_generate_local)

    listed = commands.add_parser(
        "variants", help=_HELP["variants"],
        description="List the variants of Beleaguered Fortress's family that --variant "
                    "names: each one's name, title, layout (tableau piles, open reserve "
                    "slots, free cells), how its tableau builds, and where its rules come "
                    "from.",
        epilog="examples:\n  fortress-solver variants\n  fortress-solver variants --json")
    listed.add_argument("--json", action="store_true",
                        help="print one JSON list of the variants' rules instead")
    listed.add_argument("--rules", type=Path, metavar="FILE",
                        help="read a rules file of your own and list its variant too")
    listed.set_defaults(run=_variants)


def chosen_variant(name: str | None, rules: Path | None) -> Variant | None:
    """The variant --variant and --rules choose, None when neither is given; an unknown
    name, a bad rules file, or a rules file of another variant than --variant names, is
    an InvalidInput of one line."""
    if rules is None:
        return None if name is None else find_variant(name)
    loaded = load_variant_file(rules)
    if name is not None and name != loaded.name:
        raise InvalidInput(f"{rules} holds the rules of {loaded.name!r}, not of --variant "
                           f"{name!r}: give --variant {loaded.name}, or leave it out")
    return loaded


def in_variant(game: Game[Position], name: str | None, rules: Path | None) -> Game[Position]:
    """The game dealing and reading positions as the variant --variant and --rules
    choose: what the shared `show` and `apply` commands play."""
    variant = chosen_variant(name, rules)
    if variant is None:
        return game
    from solver.beleaguered.board_text import read_board
    from solver.beleaguered.reading import read

    return replace(game, from_json=partial(read, variant=variant),
                   from_text=partial(read_board, variant=variant),
                   deal=partial(deal, variant=variant))


def in_notation(game: Game[Position], name: str) -> Game[Position]:
    """The game playing the moves `apply` is given in the notation --notation names
    alone (without it, each in whichever it is written)."""
    if name not in tuple(Notation):
        raise InvalidInput(f"--notation {name[:40]!r}: the patience games write their "
                           f"moves in {' or '.join(Notation)}")
    return replace(game, play=partial(play, notation=Notation(name)))


def schemas() -> dict[str, tuple[str, Callable[[], dict[str, Any]]]]:
    """The documents the shared `schema` command offers beside the games' positions: a
    flag's name, its help, and the schema."""
    return {"rules": ("print the JSON Schema of a patience rules file (--rules FILE) "
                      "instead; --all writes it too, as DIR/rules.json", rules_schema)}


def _variant_of(args: argparse.Namespace) -> Variant:
    """The variant a command's --variant and --rules choose, else Beleaguered Fortress."""
    return chosen_variant(args.variant, args.rules) or find_variant(None)


def _deal_name(number: int, variant: Variant) -> str:
    """A deal's name: "deal N", after the variant's name unless that is Beleaguered
    Fortress."""
    return f"deal {number}" if variant.name == DEFAULT else f"{variant.name} deal {number}"


def _variants(args: argparse.Namespace) -> None:
    if args.rules is not None:
        load_variant_file(args.rules)
    listed = variants()
    if args.json:
        _print_json([variant.to_json() for variant in listed])
        return
    width = max(len(variant.name) for variant in listed)
    for variant in listed:
        print(f"{variant.name:<{width}}  {variant.title}: {variant.in_words()}; from "
              f"{variant.source}")


def _add_census_commands(commands: Any) -> None:
    """census (run, summarise, pack) and deal-info (what the shipped census knows)."""
    census = commands.add_parser(
        "census", help=_HELP["census"],
        description="Decide every deal of --deals (--mode) and run optimal A* on every "
                    "winnable one, one JSON line per deal into --out (resumable, like "
                    "batch); or "
                    "summarise such a file (--summary), or pack it into the compact data "
                    "file the package ships (--pack).",
        epilog="examples:\n  fortress-solver census --deals 1-1000 --out census.jsonl\n"
               "  fortress-solver census --summary census.jsonl\n"
               "  fortress-solver census --pack census.jsonl --to census.bin")
    what = census.add_mutually_exclusive_group(required=True)
    what.add_argument("--deals", type=deal_range, metavar="A-B",
                      help="the deal numbers to decide, A to B (needs --out)")
    what.add_argument("--summary", type=Path, metavar="FILE.jsonl",
                      help="print the winnable share with its 95 %% interval, the histogram "
                           "of optimal lengths and the hardest deals of a census file")
    what.add_argument("--pack", type=Path, metavar="FILE.jsonl",
                      help="write a census file's verdicts as the compact data file --to")
    census.add_argument("--out", type=Path, metavar="FILE.jsonl",
                        help="with --deals: append the lines here; deals already in it are "
                             "skipped, so a run started again resumes (a run of the same "
                             "variant and budget: each line records them)")
    add_retry(census)
    census.add_argument("--mode", choices=[Mode.ANY.value, Mode.VERDICT.value],
                        default=Mode.ANY.value,
                        help="with --deals: the search that decides each deal before the "
                             "optimal one; any: a short line fast (best-first by the bound); "
                             "verdict: the first win found, or a proof there is none, as "
                             "fast as can be (its line, of any length, is what a variant's "
                             "line keeps when the optimal search finds none)")
    census.add_argument("--to", type=Path, metavar="FILE",
                        help="with --pack: the data file to write, needed (to replace the one "
                             "the package ships, name it: solver/beleaguered/census.bin, or "
                             "solver/beleaguered/censuses/VARIANT.bin)")
    census.add_argument("--jobs", type=processes, default=os.cpu_count() or 1,
                        help=f"worker processes, by default one per core, at most "
                             f"{PER_CORE} a core (not with --dask)")
    census.add_argument("--dask", metavar="SCHEDULER",
                        help="with --deals: run on a Dask cluster, as `batch --dask` does "
                             "(`local`, or a scheduler's address)")
    _add_engine(census)
    census.add_argument("--json", action="store_true", help="with --summary: one JSON object")
    add_budget(census, seconds=30)
    add_progress(census)
    add_variant(census)
    census.set_defaults(run=_census)

    info = commands.add_parser(
        "deal-info", help=_HELP["deal-info"],
        description="What the census shipped with the package knows of deal N: winnable "
                    "with its optimal length, unwinnable (proven), or unknown; at once, "
                    "without a search.",
        epilog="examples:\n  fortress-solver deal-info 2\n  fortress-solver deal-info 11982 "
               "--json")
    info.add_argument("number", type=deal_number, help="the deal number")
    info.add_argument("--json", action="store_true", help="print one JSON object")
    add_variant(info)
    info.set_defaults(run=_deal_info)


def add_client_commands(commands: Any) -> None:
    QUESTIONS.add_each(commands, remote=True, words="fortress-solver client", titled=True)
    add_batch(commands, QUESTIONS, RUNS, remote=True, about=_HELP["batch"])
    generate = commands.add_parser(
        "generate", help="winnable deals, one JSON line each",
        description="Ask the server for COUNT winnable Beleaguered Fortress deals, each "
                    "solved optimally within the budget (and within the band of optimal "
                    "lengths, if given), trying the deal numbers of --deals in order, as "
                    "`fortress-solver generate` does. When the range is spent first, or the "
                    "server's --max-batch tries, or the wall time (--max-seconds, else the "
                    "server's most), it says how many it found and exits 1. With --out, "
                    "the deals sent are recorded, and a run started again prints them and "
                    "asks only for the rest, from the deal after the last one recorded.",
        epilog="example:\n  fortress-solver client generate "
               f"{_SERVER} --count 3 --min-length 75 --deals 1-500")
    add_server(generate)
    _add_generate_options(generate, local=False)
    generate.set_defaults(run_remote=_generate)


def _add_generate_options(parser: argparse.ArgumentParser, local: bool) -> None:
    """What `generate` and `client generate` share: the count, the band, the range, the
    wall time, the --out file, the budget, the variant."""
    parser.add_argument("--count", type=positive(int), required=True,
                        help="deals to find (exit 1 when the range or the time yields fewer)")
    parser.add_argument("--min-length", type=positive(int),
                        help="only deals whose optimal solution has at least this many "
                             "moves (no minimum when not given)")
    parser.add_argument("--max-length", type=positive(int),
                        help="only deals whose optimal solution has at most this many "
                             "moves (no maximum when not given)")
    parser.add_argument("--deals", type=deal_range, default=f"1-{MAX_DEAL}", metavar="A-B",
                        help="the deal numbers to try, in order")
    parser.add_argument("--mode", choices=[mode.value for mode in Mode],
                        default=Mode.OPTIMAL.value,
                        help="optimal: each deal's optimal length proven, its line an "
                             "optimal one; any: a short line fast (best-first by the bound); "
                             "verdict: the first line that wins, as fast as can be. any and "
                             "verdict find winnable deals, their lines of any length, and "
                             "take no band (--min-length, --max-length)")
    parser.add_argument("--max-seconds", type=positive(float), metavar="SECONDS",
                        help="the most wall time to take: then it stops, says what it found "
                             "and tried, and exits 1 (" + (
                                 "when not given: no limit, but a run that has found no "
                                 f"deal within {HOPELESS_AFTER:g} s ends so)" if local else
                                 "the server's most when not given, and at most that; a "
                                 f"call then ends when it has found no deal within "
                                 f"{HOPELESS_AFTER:g} s)"))
    records = ("every deal tried, with its outcome and budget; a run started again skips "
               "the deals tried, prints those found, and tries the unknown ones again only "
               "with a larger budget" if local else
               "the deals sent; a run started again prints them and asks only for the rest, "
               "from the deal after the last one recorded")
    parser.add_argument("--out", type=Path, metavar="FILE.jsonl",
                        help=f"record here {records} (a run of the same variant and band: "
                             "each line records them)")
    add_budget(parser, seconds=30)
    add_progress(parser)
    add_variant(parser)
    parser.add_argument("--json", action="store_true", help="(the output is always JSON)")


def _add_engine(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--engine", choices=[e.value for e in Engine], action=_Engine,
                        help=f"deprecated: the compiled kernel searches where it is built; "
                             f"{engines.VARIABLE}=python picks the Python reference")


class _Engine(argparse.Action):
    """--engine, deprecated: one line says so, and this process and the ones it starts
    search with the engine named (solver/beleaguered/engines.py)."""

    def __call__(self, parser: argparse.ArgumentParser, namespace: argparse.Namespace,
                 values: Any, option_string: str | None = None) -> None:
        print(f"fortress-solver: --engine is deprecated: set "
              f"{engines.VARIABLE}={values} instead", file=sys.stderr)
        engines.use(Engine(values))


def _flags(parser: argparse.ArgumentParser, question: Question[Any, Any, Any],
           remote: bool) -> None:
    """The questions' commands' own flags: the deprecated --engine, where they search;
    solve's --disk and --disk-budget."""
    if not remote:
        _add_engine(parser)
    if not remote and question.name == "solve":
        add_disk(parser)


def _source(position: Position, args: argparse.Namespace) -> Any:
    """What a client sends: a Beleaguered Fortress deal as its number (so that the
    server's census answers for it), any other position, a variant's deal too, as the
    position with its variant."""
    from service.beleaguered import messages

    if args.deal is not None and position.variant.name == DEFAULT:
        return messages.deal_source(args.deal)
    return messages.position_source(position)


def _census(args: argparse.Namespace) -> None:
    from solver.beleaguered import census_lines

    if args.summary is not None:
        found = census_lines.summary(args.summary)
        print(json.dumps(found.to_json()) if args.json else found)
        return
    variant = _variant_of(args)
    if args.pack is not None:
        if args.to is None:
            from solver.beleaguered.census import census_path

            raise InvalidInput(f"census --pack would overwrite the census the package ships, "
                               f"{census_path(variant)}: give --to FILE (that path to "
                               "replace it)")
        packed = census_lines.pack(args.pack, args.to, variant=variant)
        print(f"{args.to}: deals {packed.first}-{packed.last}", file=sys.stderr)
    else:
        if args.out is None:
            raise InvalidInput("census --deals needs --out FILE.jsonl (it runs for long "
                               "and resumes from that file)")
        check_deals(args.deals.start, args.deals.stop - 1, variant)
        from service.batch import runner
        from solver.beleaguered.results import census_mode, settings_of

        work = partial(census_lines.census_deal, budget=budget_of(args), variant=variant,
                       mode=Mode(args.mode))
        parts = (partial(census_lines.census_part, budget=budget_of(args), variant=variant,
                         mode=Mode(args.mode))
                 if engines.current() is Engine.NATIVE else None)  # a run at a time there
        settings = settings_of(variant, census_mode(Mode(args.mode) is Mode.VERDICT),
                               budget_of(args))
        run_deals(args, settings,
                  runner(work, args.jobs, args.dask, parts))


def _deal_info(args: argparse.Namespace) -> None:
    from solver.beleaguered import census as census_data

    variant = _variant_of(args)
    info = census_data.deal_info(args.number, variant)
    name = _deal_name(args.number, variant)
    if info is None:
        raise InvalidInput(f"{name} is not in the shipped census ({_census_range(variant)})")
    print(json.dumps(info.to_json()) if args.json else f"{name}: {info.in_words()}")


def _census_range(variant: Variant) -> str:
    from solver.beleaguered import census as census_data

    shipped = census_data.shipped(variant)
    return "none is shipped" if shipped is None else f"deals {shipped.first}-{shipped.last}"


def _print_json(data: Any) -> None:
    print(json.dumps(data))


def _deal(args: argparse.Namespace) -> None:
    variant = _variant_of(args)
    position = deal(args.number, variant)
    if args.json:
        _print_json(position.to_json())
    else:
        print(f"{_deal_name(args.number, variant)}\n{picture(position)}")


def _name(position: Position, args: argparse.Namespace) -> str:
    """What a command's line calls its position: its deal, or its file."""
    if args.deal is not None:
        return _deal_name(args.deal, position.variant)
    return source_name(args.file)


def _print_solution(answer: dict[str, Any], start: Position, options: SolveOptions,
                    args: argparse.Namespace) -> None:
    """The verdict and the moves in the notation asked for, a sequence move with the
    cards it carries (as `apply` reads them back); with --steps, the board at the start
    and after each move too."""
    moves = [Move.from_json(move) for move in answer["moves"]]
    before = list(accumulate(moves, apply, initial=start))
    stats = answer["stats"]
    found = "" if stats.get("line_seconds") is None else \
        f", line found at {stats['line_seconds']:.2f} s"
    print(f"{_name(start, args)}: {_verdict(answer)} ({stats['nodes']} nodes, "
          f"{stats['seconds']:.2f} s{found})")
    if options.steps:
        print(picture(start))
    for number, (move, shown) in enumerate(zip(moves, answer["moves"], strict=True), 1):
        carried = shown.get("cards") or run_size(before[number - 1], move)
        run = "" if carried == 1 else f" ({carried} cards)"
        print(f"{number:4}. {_said_move(shown, options.notation)}{run}")
        if options.steps:
            print(picture(before[number]))


def _verdict(answer: dict[str, Any]) -> str:
    """A solution's verdict in words: "solved, optimal, 66 moves", or for a line not
    proven optimal its length and the lower bound proven."""
    verdict, length, cards = answer["status"], answer["length"], answer["single_card_moves"]
    if length is None:
        return str(verdict)
    metric = Metric(answer["metric"])
    if metric is Metric.CARDS:
        counted = _counted(cards, metric)
    elif cards is not None and cards != length:  # a line with sequence moves
        counted = f"{_counted(length, metric)} ({_counted(cards, Metric.CARDS)})"
    else:
        counted = _counted(length, metric)
    if answer["optimal"]:
        return f"{verdict}, optimal, {counted}"
    if answer["lower_bound"] is None:
        return f"{verdict}, not proven optimal, {counted}"
    return (f"{verdict}, {counted}, not proven optimal: at least "
            f"{_counted(answer['lower_bound'], metric)}")


_UNITS = {Metric.MOVES: "move", Metric.CARDS: "single-card move"}


def _counted(number: int, metric: Metric) -> str:
    """A count of moves in words: "1 move", "66 moves", "75 single-card moves"."""
    return f"{number} {_UNITS[metric]}{'' if number == 1 else 's'}"


def _said_move(move: dict[str, Any], notation: Notation) -> str:
    """A move's JSON for a person: `JH tableau:3 -> tableau:5`, or in standard notation
    `35` (an answer from a server that writes none: ours)."""
    if notation is Notation.STANDARD and "standard" in move:
        return str(move["standard"])
    said = Move.from_json(move)
    return f"{said.card} {said.source} -> {said.target}"


def _with_run(move: dict[str, Any], notation: Notation) -> str:
    """The move, and the cards it carries when more than one: `35 (3 cards)`."""
    carried = move.get("cards") or 1
    return _said_move(move, notation) + ("" if carried == 1 else f" ({carried} cards)")


def _print_hint(advice: dict[str, Any], position: Position, options: HintOptions,
                args: argparse.Namespace) -> None:
    """The hint's move (with the cards it carries, when more than one) and the moves
    left, and with --all-moves each move graded, in the notation asked for."""
    name = _name(position, args)
    move, left = advice["move"], advice["moves_left"]
    if move is not None:
        if advice.get("optimal", True):
            said = f"{_counted(left, options.metric)} left"
        else:  # the best line found in the budget, its optimality not proven
            bound = "" if advice.get("at_least") is None else f" (at least {advice['at_least']})"
            said = f"wins in at most {left}{bound}"
        carried = move.get("cards") or 1
        run = "" if carried == 1 else f"{carried} cards; "
        print(f"{name}: {_said_move(move, options.notation)} ({run}{said}, winnable)")
    elif left == 0:
        print(f"{name}: already won")
    else:
        print(f"{name}: {advice['status']}, no hint")
    for graded in advice.get("all_moves") or ():
        verdict = (f"wins in {graded['moves_left']}" if graded["moves_left"] is not None
                   else graded["outcome"])
        print(f"  {_with_run(graded['move'], options.notation)}: {verdict}")


QUESTIONS = Commands(GAME, in_variant, {SOLVE.name: _print_solution, HINT.name: _print_hint},
                     deal_number, _flags, _source)


def _settings(args: argparse.Namespace, deals: range, options: SolveOptions,
              budget: Budget) -> Settings:
    """A batch's settings, its deals checked against the variant's numbering."""
    from solver.beleaguered.results import settings_of

    variant = _variant_of(args)
    check_deals(deals.start, deals.stop - 1, variant)
    return settings_of(variant, options.mode.value, budget, options.metric.value)


def _request(settings: Settings, deals: list[int], options: SolveOptions,
             budget: Budget) -> pb.SolveBatchRequest:
    """The SolveBatch of some of a batch's deals, of the variant its settings name."""
    from service.beleaguered import messages

    return messages.batch_request(deals, options.mode, options.algorithm, budget,
                                  without_moves=True, variant=find_variant(settings.variant),
                                  metric=options.metric, together=TOGETHER)


def _result(result: pb.BatchResult) -> dict[str, Any]:
    from service.beleaguered import messages

    return line(result.deal, *messages.verdict_from_proto(result.result))


def _parts(args: argparse.Namespace, options: SolveOptions, budget: Budget) -> Part | None:
    """Where the kernel searches, a batch's deals solved a run at a time there
    (solver/beleaguered/ranges.py): its lines need no moves."""
    if engines.current() is not Engine.NATIVE:
        return None
    from solver.beleaguered.ranges import batch_lines

    return partial(batch_lines, variant=_variant_of(args), mode=options.mode,
                   algorithm=options.algorithm, metric=options.metric, budget=budget)


RUNS = Runs(SOLVE, ("mode", "algorithm", "metric"), {"mode": Mode.ANY.value, "moves": False},
            "solvability", record, _settings, _request, _result, _parts)


def _band_of(args: argparse.Namespace) -> Band:
    """The band --min-length and --max-length ask for; an empty one is refused, and so
    is any band in a mode that proves no length."""
    band = Band(args.min_length, args.max_length)
    if args.mode != Mode.OPTIMAL.value and band != Band():
        raise InvalidInput(f"--min-length and --max-length bound optimal lengths: the lines "
                           f"of --mode {args.mode} are of any length; leave them out, or "
                           "give --mode optimal")
    if band.empty:
        raise InvalidInput(f"--min-length {args.min_length} is above --max-length "
                           f"{args.max_length}: no deal can meet the band")
    return band


def _earlier(args: argparse.Namespace, variant: Variant, band: Band) -> list[Tried]:
    """The tries of --out's file of this run's --deals (the file may hold a run's of
    others, which are neither printed, counted nor tried again), the file refused when of
    other settings (none without --out)."""
    from solver.beleaguered.generated import earlier_tries, generate_mode
    from solver.beleaguered.results import settings_of

    if args.out is None:
        return []
    settings = settings_of(variant, generate_mode(Mode(args.mode)), budget_of(args))
    tries = earlier_tries(args.out, settings, band)
    return [tried for tried in tries if tried.deal in args.deals]


class _Found:
    """The deals found, printed as they come (at most the count), and the tries recorded
    in --out when it is given: every try of the local command, the deals a server sent."""

    def __init__(self, args: argparse.Namespace, variant: Variant, band: Band,
                 out: TextIO | None, bar: Any) -> None:
        from solver.beleaguered.generated import generate_mode
        from solver.beleaguered.results import settings_of

        self._settings = settings_of(variant, generate_mode(Mode(args.mode)),
                                     budget_of(args))
        self._count, self._variant, self._band = args.count, variant, band
        self._out, self._bar = out, bar
        self.printed = 0

    def show(self, tried: Tried) -> None:
        """Print a deal found, unless the count is printed already."""
        from solver.beleaguered.generated import printed

        if tried.outcome is not Outcome.FOUND or self.printed >= self._count:
            return
        _print_json(printed(tried, deal(tried.deal, self._variant)))
        sys.stdout.flush()  # each deal as soon as it is found
        self.printed += 1
        self._bar.update()

    def record(self, tried: Tried) -> None:
        from solver.beleaguered.generated import record

        if self._out is not None:
            self._out.write(json.dumps(record(tried, self._settings, self._band)) + "\n")
            self._out.flush()


def _generate_local(args: argparse.Namespace) -> None:
    """Runs the plan of solver/beleaguered/generation.py in a pool of --jobs processes."""
    from service.generate_pool import in_pool
    from solver.beleaguered.generation import Generation, fresh_deals, ladder, try_deal

    variant = _variant_of(args)
    band = _band_of(args)
    first, last = args.deals.start, args.deals.stop - 1
    check_deals(first, last, variant)
    earlier = _earlier(args, variant, band)
    fresh = fresh_deals(first, last, band, variant)
    give_up = HOPELESS_AFTER if args.max_seconds is None else None
    plan = Generation(args.count, band, fresh, ladder(args.seconds), args.max_seconds, earlier,
                      Mode(args.mode), give_up)
    with progress_bar(total=args.count, unit="deal", forced=args.progress) as bar, \
            appending(args.out) as out:
        found = _Found(args, variant, band, out, bar)
        for tried in plan.found:
            found.show(tried)
        if not plan.done:
            with sigterm_as_interrupt(), worker_pool(args.jobs) as pool:
                attempt = partial(try_deal, budget=budget_of(args), variant=variant,
                                  mode=Mode(args.mode))
                run = in_pool(pool, args.jobs, attempt, lambda: plan.deadline)
                for tried in plan.run(run):
                    found.record(tried)
                    found.show(tried)
    if not plan.done:
        raise Shortfall(plan.status(f"deals {first}-{last} spent"))


def _generate(args: argparse.Namespace, client: Client) -> None:
    """Prints each deal as it arrives (after those --out's file holds); the stream ends
    early, with OUT_OF_RANGE, when the server has tried every deal of the range, or as
    many as it lets one call try, or its wall time is up: a Shortfall, in the server's
    words with the deals found counted from the start of the file."""
    import grpc

    from service.beleaguered import messages
    from solver.beleaguered.generation import restated

    variant = _variant_of(args)
    band = _band_of(args)
    first, last = args.deals.start, args.deals.stop - 1
    earlier = _earlier(args, variant, band)
    had = [tried for tried in earlier if tried.outcome is Outcome.FOUND]
    start = max([first, *(tried.deal + 1 for tried in earlier)])
    seconds = budget_of(args).seconds or 0.0
    with progress_bar(total=args.count, unit="deal", forced=args.progress) as bar, \
            appending(args.out) as out:
        found = _Found(args, variant, band, out, bar)
        for tried in had:
            found.show(tried)
        if found.printed >= args.count:
            return
        spent = f"deals {first}-{last} spent: "
        if start > last:
            raise Shortfall(f"{spent}{found.printed} of {args.count} deals found{band}")
        mode = Mode(args.mode)
        request = messages.generate_request(args.count - found.printed, args.min_length,
                                           args.max_length, budget_of(args), variant,
                                           args.max_seconds, mode)
        request.first_deal, request.last_deal = start, last
        stream: Iterator[Any] = client.generate_deals(request)
        try:
            for message in stream:
                proven = message.length if mode is Mode.OPTIMAL else None  # its lower bound
                tried = Tried(message.deal, Outcome.FOUND, seconds, message.length, proven,
                              tuple(messages.move_from_proto(m) for m in message.moves))
                found.record(tried)
                found.show(tried)
        except grpc.RpcError as error:
            before = "" if not had else f" ({len(had)} of them from {args.out})"
            status = (restated(error.details() or "", found.printed, args.count, before)
                      if error.code() == grpc.StatusCode.OUT_OF_RANGE else None)
            if status is None:
                raise
            raise Shortfall(status) from None
    if found.printed < args.count:  # the stream ended without saying why
        raise Shortfall(f"{spent}{found.printed} of {args.count} deals found{band}")
