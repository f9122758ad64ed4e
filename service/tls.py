"""TLS for the service: the server's certificate and key (with a client CA: mutual TLS,
every client must show a certificate it signed), and a client's trust and identity.

Each file is read and checked when the command starts, so that a wrong path or a key
that does not match its certificate is one line then, not a failed handshake later.
"""

from __future__ import annotations

import ipaddress
import socket
import ssl
from dataclasses import dataclass
from pathlib import Path

import grpc

from solver.errors import InvalidInput
from solver.operator_files import read_text

MAX_PEM_BYTES = 1 << 20  # a certificate chain, a key, a CA bundle: a few KB each


@dataclass(frozen=True)
class ServerTls:
    cert: Path  # PEM: the server's certificate chain
    key: Path  # PEM: its private key
    client_ca: Path | None = None  # PEM: the CA of client certificates; None: none asked

    def __post_init__(self) -> None:
        _check_pair(self.cert, self.key, ssl.PROTOCOL_TLS_SERVER, "--tls-cert", "--tls-key")
        if self.client_ca is not None:
            _check_ca(self.client_ca, "--tls-client-ca")

    def credentials(self) -> grpc.ServerCredentials:
        pair = [(_read(self.key, "--tls-key"), _read(self.cert, "--tls-cert"))]
        if self.client_ca is None:
            return grpc.ssl_server_credentials(pair)
        return grpc.ssl_server_credentials(pair, _read(self.client_ca, "--tls-client-ca"),
                                           require_client_auth=True)


@dataclass(frozen=True)
class ClientTls:
    ca: Path | None = None  # PEM: the CA of the server's certificate; None: the system's
    cert: Path | None = None  # PEM: this client's certificate, for mutual TLS
    key: Path | None = None

    def __post_init__(self) -> None:
        if (self.cert is None) != (self.key is None):
            raise InvalidInput("--tls-cert and --tls-key go together: a client certificate "
                               "needs its key")
        if self.ca is not None:
            _check_ca(self.ca, "--tls-ca")
        if self.cert is not None and self.key is not None:
            _check_pair(self.cert, self.key, ssl.PROTOCOL_TLS_CLIENT, "--tls-cert", "--tls-key")

    def credentials(self) -> grpc.ChannelCredentials:
        return grpc.ssl_channel_credentials(
            root_certificates=None if self.ca is None else _read(self.ca, "--tls-ca"),
            private_key=None if self.key is None else _read(self.key, "--tls-key"),
            certificate_chain=None if self.cert is None else _read(self.cert, "--tls-cert"))


def is_loopback(host: str) -> bool:
    """Whether every address `host` names is this machine's own (127.0.0.0/8, ::1):
    the only place plaintext is served without --insecure."""
    try:
        found = socket.getaddrinfo(host, None, type=socket.SOCK_STREAM)
    except (OSError, UnicodeError):
        return False
    return bool(found) and all(
        ipaddress.ip_address(str(address[0]).partition("%")[0]).is_loopback
        for _, _, _, _, address in found)


def _read(path: Path, option: str) -> bytes:
    return read_text(path, MAX_PEM_BYTES, option).encode()


def _check_pair(cert: Path, key: Path, protocol: int, cert_option: str,
                key_option: str) -> None:
    _read(cert, cert_option)
    _read(key, key_option)
    try:
        ssl.SSLContext(protocol).load_cert_chain(cert, key)
    except ssl.SSLError as err:
        raise InvalidInput(f"{cert_option} {cert} and {key_option} {key} are not a PEM "
                           f"certificate and its key ({err.reason or err})") from None


def _check_ca(path: Path, option: str) -> None:
    _read(path, option)
    try:
        ssl.SSLContext(ssl.PROTOCOL_TLS_CLIENT).load_verify_locations(path)
    except ssl.SSLError as err:
        raise InvalidInput(f"{option} {path} holds no PEM certificate "
                           f"({err.reason or err})") from None
