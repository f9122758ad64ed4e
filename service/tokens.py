"""Bearer tokens: who may call the Solver RPCs, and how many calls each may have running.

The token file holds one token per line (blank lines and lines starting with # aside).
It is read at start and again on SIGHUP, so that tokens are added and revoked without a
restart. A call shows `authorization: Bearer <token>`; it is compared with every known
token in constant time, so that the time an answer takes says nothing of how much of a
guess was right. Each token may have at most `max_calls` calls running at once, so that
one client cannot starve the rest.
"""

from __future__ import annotations

import hashlib
import hmac
import os
import re
from collections.abc import Iterable, Iterator
from contextlib import contextmanager
from pathlib import Path

from service.clients import InFlight
from solver.errors import InvalidInput
from solver.operator_files import read_text

ENVIRONMENT = "FORTRESS_SOLVER_TOKEN"  # a client's token when no --token-file is given
MAX_TOKEN_FILE_BYTES = 1 << 20  # some ten thousand tokens
_TOKEN = re.compile(r"[A-Za-z0-9\-._~+/]+=*")  # RFC 6750's b64token: safe in a header


class Unauthenticated(Exception):
    """A call without a token, or with one this server does not know."""


class TokenBusy(Exception):
    """A token already has as many calls running as it may."""

    def __init__(self, most: int) -> None:
        super().__init__(f"this token already has {most} calls running, the most one "
                         "token may (--max-calls-per-token)")


def read_tokens(path: Path) -> list[str]:
    """The tokens of a token file; a file that cannot be read, holds none, or holds a
    line that cannot be a token is refused, naming the line."""
    lines = read_text(path, MAX_TOKEN_FILE_BYTES, "--token-file").splitlines()
    tokens = []
    for number, line in enumerate(lines, 1):
        token = line.strip()
        if not token or token.startswith("#"):
            continue
        if not _TOKEN.fullmatch(token):
            raise InvalidInput(f"--token-file {path} line {number} is not a token (letters, "
                               "digits and -._~+/ only, = at the end)")
        tokens.append(token)
    if not tokens:
        raise InvalidInput(f"--token-file {path} holds no token: no one could call")
    return tokens


def bearer(token: str | None) -> tuple[tuple[str, str], ...]:
    """The call metadata that shows `token` (none for no token)."""
    return () if token is None else (("authorization", f"Bearer {token}"),)


def client_token(path: Path | None) -> str | None:
    """The token a client command sends: the first of --token-file, else the
    FORTRESS_SOLVER_TOKEN environment variable, else none."""
    if path is not None:
        return read_tokens(path)[0]
    token = os.environ.get(ENVIRONMENT, "").strip()
    if token and not _TOKEN.fullmatch(token):
        raise InvalidInput(f"{ENVIRONMENT} is not a token (letters, digits and -._~+/ only)")
    return token or None


class Tokens:
    """The tokens a server accepts and the calls running under each."""

    def __init__(self, path: Path, max_calls: int | None = None) -> None:
        self.path = path
        self.max_calls = max_calls
        self._digests = self._digested(read_tokens(path))
        self._in_flight: InFlight[bytes] = InFlight(max_calls)

    def __len__(self) -> int:
        return len(self._digests)

    def reload(self) -> None:
        """Read the file again; on a fault the tokens before stay, and the fault is raised."""
        self._digests = self._digested(read_tokens(self.path))

    @contextmanager
    def admit(self, metadata: Iterable[tuple[str, str | bytes]]) -> Iterator[bytes]:
        """Hold one of the caller's token's calls for the duration (the token's digest);
        Unauthenticated or TokenBusy when it may not call now."""
        token = self.known(metadata)
        with self._in_flight.hold(token, TokenBusy):
            yield token

    def known(self, metadata: Iterable[tuple[str, str | bytes]]) -> bytes:
        """The digest of the call's token, when it is one of ours; Unauthenticated else."""
        shown = [value for key, value in metadata if key.lower() == "authorization"]
        if not shown:
            raise Unauthenticated("this server needs a token: send 'authorization: Bearer "
                                  "TOKEN' (the client commands' --token-file, or "
                                  f"{ENVIRONMENT})")
        value = shown[0] if isinstance(shown[0], str) else shown[0].decode("latin-1")
        scheme, _, token = value.strip().partition(" ")
        if scheme.lower() != "bearer" or not token.strip():
            raise Unauthenticated("authorization is not 'Bearer TOKEN'")
        digest = hashlib.sha256(token.strip().encode()).digest()
        found = False
        for known in self._digests:  # every one compared: the time says nothing
            found |= hmac.compare_digest(digest, known)
        if not found:
            raise Unauthenticated("the token is not one this server accepts")
        return digest

    @staticmethod
    def _digested(tokens: list[str]) -> list[bytes]:
        return [hashlib.sha256(token.encode()).digest() for token in dict.fromkeys(tokens)]
