"""fortress-solver: the command line. Each game adds its commands (service/frontends.py);
bad input exits 2 with one line naming the fault; a failing server, or a command that
ends with less than it was asked for, exits 1."""

from __future__ import annotations

import argparse
import json
import os
import signal
import sys
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import TYPE_CHECKING, Any, NoReturn

from service.arguments import (
    PER_CORE,
    SERVER,
    SERVER_VARIABLE,
    HelpFormatter,
    Number,
    Shortfall,
    Version,
    add_variant,
    integer,
    positive,
    processes,
    read_bytes,
    source_name,
)
from service.frontends import (
    OWN,
    front_end,
    generic_games,
    named_game,
    own_commands,
    read_any,
    text_game,
    words_of,
)
from solver.budget import DEFAULT_MEMORY_MIB
from solver.errors import InvalidInput, OtherGame
from solver.games import Game, each_game, find_game, games
from solver.json_text import is_json_text

if TYPE_CHECKING:
    from service.clients import Network

PROG = "fortress-solver"


class _Parser(argparse.ArgumentParser):
    """Every parser and subparser: defaults shown in the help, one-line argument errors."""

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        kwargs.setdefault("formatter_class", HelpFormatter)
        super().__init__(*args, **kwargs)

    def error(self, message: str) -> NoReturn:
        self.exit(2, f"{self.prog}: error: {message} (see --help)\n")


class ServiceError(Exception):
    """The server could not be reached or failed: exit 1."""


# a port: 1..65535, or 0 for any free one
port_number = Number(int, 65535, 0, name="port", said="65535 (0: any free port)")


def build_parser(argv: Sequence[str] | None = None) -> argparse.ArgumentParser:
    """The command line's parser: every command's (`argv` None), or those `argv` reaches,
    every other command listed by its help alone, so that a quick command imports only
    what it uses, and no game it does not play."""
    word = None if argv is None else next((a for a in argv if not a.startswith("-")), "")
    parser = _Parser(prog=PROG,
                     description="Exact solvers and hints for fortress-and-siege card games.",
                     epilog=f"examples:\n  {PROG} deal 1\n  {PROG} hint --deal 2\n"
                            f"(each command has its own --help)")
    parser.add_argument("--version", action=Version)
    commands = parser.add_subparsers(dest="command", required=True, parser_class=_Parser,
                                     help="what to do (each has its own --help)")
    for own in OWN.values():
        if word is None or word in own.commands:
            own_commands(own).add_commands(commands if word is None else _Only(commands, word))
        else:
            for name, about in own.commands.items():
                commands.add_parser(name, help=about)
    # the games without front ends of their own: every such game's for a command word
    # none of the above knows, the plug-ins' alone for the top-level help
    known = word in SHARED or any(word in own.commands for own in OWN.values())
    if not known and "--version" not in (argv or ()):
        for game in generic_games(every=word != ""):
            front_end(game).commands.add_commands(commands)
    for name, (about, add) in SHARED.items():
        if word is None or word == name:
            add(commands.add_parser(name, help=about))
        else:
            commands.add_parser(name, help=about)
    return parser


class _Only:
    """The subparsers of the top level as a game's front end sees them, building only the
    parser of the command given: the others get their help, and calls that go nowhere."""

    def __init__(self, commands: Any, word: str) -> None:
        self.commands, self.word = commands, word

    def add_parser(self, name: str, **kwargs: Any) -> Any:
        if name == self.word:
            return self.commands.add_parser(name, **kwargs)
        self.commands.add_parser(name, help=kwargs.get("help"))
        return _Nowhere()


class _Nowhere:
    """A parser not built: every call on it, and on what it returns, does nothing."""

    def __getattr__(self, name: str) -> Callable[..., _Nowhere]:
        return lambda *args, **kwargs: self


def _add_show(show: argparse.ArgumentParser) -> None:
    show.description = ("Draw a position of any game: the game is its \"game\" key, or "
                        "--game; a file of board text, not JSON, is the game's that reads it.")
    show.epilog = f"examples:\n  {PROG} show --deal 5\n  {PROG} deal 5 --json | {PROG} show -"
    _add_any_position(show)
    show.set_defaults(run=_show)


def _add_apply(apply: argparse.ArgumentParser) -> None:
    apply.description = ("Play MOVEs in the game's own notation and print the position "
                         "after them; an illegal move is refused with the rule it breaks.")
    apply.epilog = (f'examples:\n  {PROG} apply --deal 2 "AS reserve:8 foundation" --json\n'
                    f'  {PROG} deal 2 --json | {PROG} apply - "AS reserve:8 foundation"')
    apply.add_argument("items", nargs="+", metavar="[FILE] MOVE",
                       help='the position JSON file (or - for standard input; none with '
                            '--deal), then the moves in the game\'s own notation, such as '
                            '"7H tableau:2 foundation" (or the move\'s JSON), "play katapult" '
                            'or "play joker blue"')
    apply.add_argument("--deal", type=integer, metavar="N",
                       help="start from deal N of the game that numbers its deals")
    apply.add_argument("--game", metavar="GAME",
                       help='the position\'s game, for a position without a "game" key')
    add_variant(apply)
    apply.add_argument("--notation", metavar="NOTATION",
                       help="for a game whose moves have more than one notation (the "
                            "patience games: ours or standard, as `solve --notation` "
                            "prints them): read every MOVE in that one alone (when not "
                            "given: each in whichever it is written)")
    apply.add_argument("--json", action="store_true", help="print the position as JSON")
    apply.set_defaults(run=_apply)


def _add_schema(schema: argparse.ArgumentParser) -> None:
    schema.description = ("Print the JSON Schema that every position of GAME satisfies, "
                          "for clients that validate before they send; or write every game's.")
    schema.epilog = (f"examples:\n  {PROG} schema {games()[0].name} > position.schema.json\n"
                     f"  {PROG} schema --all docs/schemas")
    wanted = schema.add_mutually_exclusive_group(required=True)
    wanted.add_argument("game", metavar="GAME", nargs="?",
                        help=f"one of {', '.join(game.name for game in games())} "
                             "(or an alias)")
    wanted.add_argument("--all", metavar="DIR", type=Path,
                        help="write every game's schema instead, the registry's and the "
                             "installed plug-ins', to DIR/GAME.json, and the other documents "
                             "below to DIR/NAME.json (each path written is printed)")
    for name, (about, _) in _documents().items():
        wanted.add_argument(f"--{name}", dest=f"document_{name}", action="store_true",
                            help=about)
    schema.set_defaults(run=_schema)


def _add_serve(serve: argparse.ArgumentParser) -> None:
    from service.messages import MAX_BATCH  # protobuf's, only for serve

    serve.description = ("Serve the Solver RPCs over gRPC and, with --http-port, over "
                         "HTTP/1.1 in the Connect protocol (JSON bodies, for browsers and "
                         "curl) beside the playground page at /.")
    serve.epilog = (f"example:\n  {PROG} serve --port 50051 --http-port 8080 "
                    "--cors-origin http://localhost:5173")
    serve.add_argument("--host", default="127.0.0.1",
                       help="address to listen on")
    serve.add_argument("--port", type=port_number, default=50051,
                       help="gRPC port, 0 for any free one")
    serve.add_argument("--http-port", type=port_number, metavar="PORT",
                       help="also serve the Connect face and the playground on this port "
                            "(none unless given)")
    serve.add_argument("--metrics-port", type=port_number, metavar="PORT",
                       help="also serve Prometheus metrics at /metrics on this port (none "
                            "unless given)")
    serve.add_argument("--cors-origin", action="append", default=[], metavar="ORIGIN",
                       help="an origin whose pages may call the HTTP face, such as "
                            "https://example.org; repeat for more (none unless given)")
    serve.add_argument("--workers", type=processes, default=os.cpu_count() or 1,
                       help="search processes (default: one per core, here %(default)s; at most "
                            f"{PER_CORE} a core)")
    serve.add_argument("--queue", type=positive(int), default=16,
                       help="calls that may wait for a worker")
    _add_memory(serve)
    serve.add_argument("--max-request-bytes", type=positive(int), default=1 << 20,
                       metavar="N", help="larger requests are refused (RESOURCE_EXHAUSTED, "
                                         "over HTTP 413, saying so)")
    serve.add_argument("--max-position-bytes", type=positive(int), default=64 << 10,
                       metavar="N", help="larger requests about one position (Solve, Hint, "
                                         "Play, Deal) are refused by their size, before "
                                         "they are read (RESOURCE_EXHAUSTED, over HTTP "
                                         "413, saying so)")
    serve.add_argument("--max-batch", type=positive(int), default=MAX_BATCH, metavar="N",
                       help="the most deals and positions of one SolveBatch, and the most "
                            "deals one GenerateDeals may ask for (more: OUT_OF_RANGE, "
                            "saying so)")
    serve.add_argument("--grace", type=positive(float), default=30.0, metavar="SECONDS",
                       help="after SIGTERM or SIGINT, how long calls in flight may take to "
                            "finish (a second signal stops at once)")
    serve.add_argument("--rules", action="append", type=Path, default=[], metavar="FILE",
                       help="a rules file of a patience variant of your own (`schema "
                            "--rules` describes one), read at start: its positions and "
                            "deals are served as the shipped variants' are; repeat for more")
    guard = serve.add_argument_group(
        "limits", "What one client may hold: every refusal is counted (the metrics' "
                  "fortress_solver_refusals_total) and logged once per cause every 10 s.")
    guard.add_argument("--max-connections", type=positive(int), metavar="N",
                       help="connections the gRPC port, and the HTTP port, keep open (past "
                            "it gRPC closes them, HTTP answers 503; by default what the "
                            "open-file limit leaves, at most 4096)")
    guard.add_argument("--max-streams-per-connection", type=positive(int), metavar="N",
                       help="Solver calls one gRPC connection may have open "
                            "(RESOURCE_EXHAUSTED past it; by default half the workers and "
                            "the queue, at least 4)")
    guard.add_argument("--max-calls-per-address", type=positive(int), metavar="N",
                       help="Solver calls one client address may have in flight, over "
                            "every connection and both ports (RESOURCE_EXHAUSTED past it; "
                            "by default the workers and the queue)")
    guard.add_argument("--max-workers-per-client", type=positive(int), metavar="N",
                       help="workers one client's searches may run on at once: a client "
                            "is an address, or a token with --token-file (by default all "
                            "but one, kept for clients running none; a SolveBatch or "
                            "GenerateDeals borrows past it while no one else waits)")
    guard.add_argument("--trusted-proxy", action="append", default=[], type=_network,
                       metavar="CIDR",
                       help="a proxy (an address, or a network such as 10.0.0.0/8) whose "
                            "Forwarded or X-Forwarded-For header names the client of the "
                            "calls it passes on, for the per-address limits and shares; "
                            "repeat for more (none unless given: every call is its peer's)")
    guard.add_argument("--receive-seconds", type=positive(float), default=10.0,
                       metavar="SECONDS",
                       help="how long a call's request may take to arrive (gRPC: "
                            "DEADLINE_EXCEEDED past it; HTTP: its headers and body, else the "
                            "connection is closed)")
    guard.add_argument("--allowed-host", action="append", metavar="HOST",
                       help="a name the HTTP face answers to in the Host header (421 for "
                            "others); repeat for more (by default on a loopback address: "
                            "127.0.0.1, localhost and ::1; elsewhere any)")
    secure = serve.add_argument_group(
        "security", "Off loopback, serve TLS (or say --insecure); with --token-file every "
                    "Solver call needs a token (health and reflection stay open for probes).")
    secure.add_argument("--tls-cert", type=Path, metavar="FILE",
                        help="the server's PEM certificate chain (with --tls-key: TLS on the "
                             "gRPC and the HTTP port)")
    secure.add_argument("--tls-key", type=Path, metavar="FILE",
                        help="the PEM private key of --tls-cert")
    secure.add_argument("--tls-client-ca", type=Path, metavar="FILE",
                        help="mutual TLS: every client must show a certificate this PEM CA "
                             "signed")
    secure.add_argument("--insecure", action="store_true",
                        help="serve plaintext on an address other machines can reach")
    secure.add_argument("--token-file", type=Path, metavar="FILE",
                        help="bearer tokens, one per line, that calls must show as "
                             "'authorization: Bearer TOKEN'; reread on SIGHUP")
    secure.add_argument("--max-calls-per-token", type=positive(int), metavar="N",
                        help="calls one token may have running at once (RESOURCE_EXHAUSTED "
                             "past it; no limit unless given)")
    serve.set_defaults(run=_serve)


def _add_memory(serve: argparse.ArgumentParser) -> None:
    """serve's memory: the whole server's, a worker's, the answer caches'."""
    memory = serve.add_argument_group(
        "memory", "What the server may hold (docs/operations.md): with --memory, the "
                  "workers have what the main process, the caches and the helpers leave.")
    memory.add_argument("--memory", type=positive(int), metavar="MIB",
                        help="the MiB the whole server may hold, its workers, its main "
                             "process with its caches and multiprocessing's helpers: the "
                             "workers' limit is what the rest leaves them, shared out "
                             "(docs/operations.md; no total unless given)")
    memory.add_argument("--memory-per-worker", type=positive(int), metavar="MIB",
                        help="the MiB one worker process may hold: its own memory (some "
                             "100 MiB) and its search's tables (a worker runs one search at a "
                             "time); a request's Budget.memory_mib is capped by what that "
                             "leaves, and is that when the request gives none "
                             f"(docs/operations.md; by default {DEFAULT_MEMORY_MIB}, or what "
                             "--memory leaves)")
    memory.add_argument("--cache-mib", type=positive(int), default=64, metavar="MIB",
                        help="the MiB the answer caches (a hint for each position along an "
                             "optimal line found) may hold in the main process, shared "
                             "between clients as the workers are")
    memory.add_argument("--cache-entries", type=positive(int), default=200_000, metavar="N",
                        help="the answers the caches may hold, whatever their size")


def _network(text: str) -> Network:
    """A --trusted-proxy: argparse's one line for a value that is no network."""
    from service.clients import network

    try:
        return network(text)
    except ValueError as error:
        raise argparse.ArgumentTypeError(str(error)) from None


def _add_client(client: argparse.ArgumentParser) -> None:
    client.description = ("The solving commands, each sent to a running `serve` (by "
                          f"default the one at {SERVER}, as `make run` starts it; --server, "
                          f"or the environment variable {SERVER_VARIABLE}, names another), "
                          "or spread over several replicas of it (a list of them, or a DNS "
                          "name that resolves to them all).")
    client.epilog = f"example:\n  {PROG} client hint --server 127.0.0.1:50051 --deal 2"
    remote = client.add_subparsers(dest="remote", required=True, parser_class=_Parser,
                                   help="the command to send (each has its own --help)")
    for game in games():
        front_end(game).commands.add_client_commands(remote)
    _add_ask(remote.add_parser("ask", help=SHARED["ask"][0]), remote=True)
    client.set_defaults(run=_client)


def _add_ask(ask: argparse.ArgumentParser, remote: bool = False) -> None:
    """`ask GAME QUESTION FILE`: every game's questions, as its descriptor has them."""
    from service.generic.commands import Commands as Questions

    ask.description = ("Any question of any game, its options as flags, the answer as the "
                       "JSON the service's answer_json holds: the one way to ask every game "
                       "(`ask GAME --help` lists its questions).")
    under, first = "client ask" if remote else "ask", games()[0]
    ask.epilog = "example:\n  " + Questions(first).example(
        f"{PROG} {under} {first.name}", first.questions[0], remote)
    chosen = ask.add_subparsers(dest="game", required=True, parser_class=_Parser,
                                help="the game to ask (each has its own --help)")
    for game in games():
        in_variant = getattr(front_end(game).commands, "in_variant", None)
        Questions(game, in_variant).add_questions(chosen, remote, under)


# The commands of every game, after the games' own: each one's help and its parser's maker.
SHARED: dict[str, tuple[str, Callable[[argparse.ArgumentParser], None]]] = {
    "ask": ("any question of any game, answered as JSON", _add_ask),
    "show": ("draw any game's position for a person", _add_show),
    "apply": ("play moves and print the position after them", _add_apply),
    "schema": ("the JSON Schema of a game's positions", _add_schema),
    "serve": ("run the gRPC server (and the HTTP face) until SIGTERM or SIGINT", _add_serve),
    "client": ("the same commands, answered by a server", _add_client),
}


def _add_any_position(parser: argparse.ArgumentParser) -> None:
    """FILE, - or --deal N, of any game; --game for a position without a "game" key."""
    source = parser.add_mutually_exclusive_group(required=True)
    source.add_argument("file", nargs="?", help="position file (JSON, or board text a game "
                        "reads), or - for standard input")
    source.add_argument("--deal", type=integer, metavar="N",
                        help="deal N of the game that numbers its deals")
    parser.add_argument("--game", metavar="GAME",
                        help='the position\'s game, for a position without a "game" key')
    add_variant(parser)


def _position_of(args: argparse.Namespace) -> tuple[Game[Any], Any]:
    """The game and the position of FILE, - or --deal N, in the variant chosen."""
    game = None if args.game is None else find_game(args.game)
    if args.deal is not None:
        dealer = game or next((g for g in each_game() if g.deal is not None), None)
        if dealer is not None:
            dealer = _in_variant(dealer, args)
        if dealer is None or dealer.deal is None:
            raise InvalidInput(f"{dealer.name if dealer else 'no game'} numbers no deals")
        return dealer, dealer.deal(args.deal)
    raw, source = read_bytes(args.file), source_name(args.file)
    if game is None and not is_json_text(raw):  # board text, which one game reads
        game = text_game()
    if game is None and (args.variant is not None or args.rules is not None):
        game, data = named_game(raw, source)
        game = _in_variant(game, args)
        return game, game.from_json(data)
    return read_any(raw, source, None if game is None else _in_variant(game, args))


def _in_variant(game: Game[Any], args: argparse.Namespace) -> Game[Any]:
    """The game as the variant --variant and --rules choose, when given: its front end's
    commands say how (`in_variant(game, name, rules)`)."""
    if args.variant is None and args.rules is None:
        return game
    chooser = getattr(front_end(game).commands, "in_variant", None)
    if chooser is None:
        raise InvalidInput(f"{game.name} has no variants: --variant and --rules are for a "
                           "game that has")
    varied: Game[Any] = chooser(game, args.variant, args.rules)
    return varied


def _in_notation(game: Game[Any], name: str) -> Game[Any]:
    """The game reading moves in the notation --notation names: its front end's commands
    say how (`in_notation(game, name)`)."""
    chooser = getattr(front_end(game).commands, "in_notation", None)
    if chooser is None:
        raise InvalidInput(f"{game.name} writes its moves one way: --notation is for a game "
                           "that has more")
    chosen: Game[Any] = chooser(game, name)
    return chosen


def _documents() -> dict[str, tuple[str, Callable[[], dict[str, Any]]]]:
    """The schemas beside the games' positions that the games' front ends offer, such as
    a rules file's (each front end's `schemas()`): a name, its help, the schema."""
    found: dict[str, tuple[str, Callable[[], dict[str, Any]]]] = {}
    for game in games():
        offered = getattr(front_end(game).commands, "schemas", None)
        if offered is not None:
            found.update(offered())
    return found


def _show(args: argparse.Namespace) -> None:
    game, position = _position_of(args)
    print(game.picture(position))


def _apply(args: argparse.Namespace) -> None:
    args.file, moves = (None, args.items) if args.deal is not None else \
        (args.items[0], args.items[1:])
    game, position = _position_of(args)
    if args.notation is not None:
        game = _in_notation(game, args.notation)
    if game.play is None:
        raise InvalidInput(f"{game.name} has no moves to apply")
    for number, move in enumerate(moves, 1):
        try:
            position = game.play(position, move)
        except ValueError as error:  # InvalidInput, IllegalMove: the move's fault in words
            quoted = move if len(move) <= 80 else f"{move[:77]}..."  # a line, not a page
            named = f"move {number}" if move in str(error) else f"move {number} ({quoted})"
            raise InvalidInput(f"{named}: {error}") from None
    print(json.dumps(game.to_json(position)) if args.json else game.picture(position))


def _schema(args: argparse.Namespace) -> None:
    documents = _documents()
    for name, (_, document) in documents.items():
        if getattr(args, f"document_{name}", False):
            print(json.dumps(document(), indent=2, ensure_ascii=False))
            return
    if args.all is None:
        print(json.dumps(find_game(args.game).schema(), indent=2, ensure_ascii=False))
        return
    folder: Path = args.all
    written = [(game.name, game.schema) for game in games()]
    written += [(name, document) for name, (_, document) in documents.items()]
    for name, make in written:  # each file what `schema NAME` (or --NAME) prints
        path = folder / f"{name}.json"
        try:
            folder.mkdir(parents=True, exist_ok=True)
            path.write_text(json.dumps(make(), indent=2, ensure_ascii=False) + "\n",
                            encoding="utf-8")
        except OSError as error:
            raise InvalidInput(f"cannot write {path}: {error.strerror}") from None
        print(path)


def _serve(args: argparse.Namespace) -> None:
    from dataclasses import replace

    from service.memory_plan import worker_mib
    from service.server import CannotServe, ServerConfig, serve  # grpc only for serve
    from service.tls import ServerTls

    if (args.tls_cert is None) != (args.tls_key is None):
        raise InvalidInput("--tls-cert and --tls-key go together")
    if args.tls_client_ca is not None and args.tls_cert is None:
        raise InvalidInput("--tls-client-ca needs --tls-cert and --tls-key: mutual TLS is TLS")
    tls = None if args.tls_cert is None else ServerTls(args.tls_cert, args.tls_key,
                                                       args.tls_client_ca)

    per_worker = worker_mib(args.workers, args.cache_mib, args.memory,
                            args.memory_per_worker, DEFAULT_MEMORY_MIB)
    try:
        serve(ServerConfig(host=args.host, port=args.port, workers=args.workers,
                           queue=args.queue, http_port=args.http_port,
                           limits=replace(ServerConfig.limits, memory_mib=per_worker),
                           memory_mib=args.memory, cache_mib=args.cache_mib,
                           cache_entries=args.cache_entries,
                           metrics_port=args.metrics_port,
                           cors_origins=tuple(args.cors_origin), grace_seconds=args.grace,
                           max_request_bytes=args.max_request_bytes, tls=tls,
                           max_position_bytes=args.max_position_bytes,
                           max_batch=args.max_batch,
                           insecure=args.insecure, token_file=args.token_file,
                           max_calls_per_token=args.max_calls_per_token,
                           max_calls_per_address=args.max_calls_per_address,
                           max_workers_per_client=args.max_workers_per_client,
                           max_connections=args.max_connections,
                           streams_per_connection=args.max_streams_per_connection,
                           receive_seconds=args.receive_seconds,
                           allowed_hosts=None if args.allowed_host is None
                           else tuple(args.allowed_host), rules=tuple(args.rules),
                           trusted_proxies=tuple(args.trusted_proxy)))
    except CannotServe as err:
        raise ServiceError(str(err)) from None


def _client(args: argparse.Namespace) -> None:
    import grpc

    from service.client import Client
    from service.tls import ClientTls
    from service.tokens import client_token

    secure = args.tls_ca is not None or args.tls_cert is not None or args.tls_key is not None
    tls = ClientTls(args.tls_ca, args.tls_cert, args.tls_key) if secure else None
    client = Client(args.server, args.deadline, tls, client_token(args.token_file))
    try:
        args.run_remote(args, client)
    except grpc.RpcError as error:
        if error.code() in (grpc.StatusCode.INVALID_ARGUMENT, grpc.StatusCode.OUT_OF_RANGE,
                            grpc.StatusCode.UNIMPLEMENTED):
            raise InvalidInput(error.details() or error.code().name) from None
        raise ServiceError(f"{args.server}: {error.code().name}: {error.details()}") from None
    finally:
        client.close()


def main(argv: list[str] | None = None) -> int:
    argv = sys.argv[1:] if argv is None else argv
    parser = build_parser(argv)
    args = parser.parse_args(argv)
    try:
        args.run(args)
        sys.stdout.flush()  # a closed pipe shows here, not in the interpreter's last flush
    except BrokenPipeError:  # `| head` has read enough: end quietly, with the shell's code
        os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())
        return 128 + signal.SIGPIPE
    except OtherGame as err:
        print(f"{PROG}: {_other_game(err, _words(parser, argv), args)}", file=sys.stderr)
        return 2
    except InvalidInput as err:
        print(f"{PROG}: {err}{err.command_line}", file=sys.stderr)
        return 2
    except (ServiceError, Shortfall) as err:
        print(f"{PROG}: {err}", file=sys.stderr)
        return 1
    except KeyboardInterrupt:  # Ctrl-C: one line, and the shell's code for SIGINT
        print(f"{PROG}: interrupted", file=sys.stderr)
        return 130
    return 0


def _words(parser: argparse.ArgumentParser, argv: Sequence[str]) -> list[str]:
    """The command words of `argv` (`client`, `GAME`, `QUESTION`), as far as its parsers go."""
    words: list[str] = []
    for item in argv:
        chosen = next((action.choices for action in parser._actions
                       if isinstance(action, argparse._SubParsersAction)), None)
        if not isinstance(chosen, dict):
            break
        if item in chosen:
            words.append(item)
            parser = chosen[item]
    return words


def _other_game(error: OtherGame, words: list[str], args: argparse.Namespace) -> str:
    """A position of another game: that first, then the command that asks that game the
    same question (else its hint, else its first), or the same shared command."""
    game, asked = error.game, words[-1] if words else ""
    file = getattr(args, "file", None) or "FILE"
    if asked in SHARED:
        command = f"{asked} {file}"
    else:
        answered = [question.name for question in game.questions]
        question = next((name for name in (asked, "hint") if name in answered),
                        answered[0] if answered else asked)
        client = "client " if words[:1] == ["client"] else ""
        asked_by = words[1:] if client else words
        command = (f"{client}ask {game.name} {question} {file}" if asked_by[:1] == ["ask"]
                   else f"{client}{words_of(game, question)} {file}")
    return f"this is a {game.title} position: try `{PROG} {command}`"


if __name__ == "__main__":
    sys.exit(main())
