"""Throwaway certificates for the TLS tests and the soak test's TLS mode: a CA, a server
certificate it signed for localhost and 127.0.0.1, and a client certificate it signed.
`python -m bench.certs DIRECTORY` writes them for a person.
"""

from __future__ import annotations

import datetime
import ipaddress
from dataclasses import dataclass
from pathlib import Path

from cryptography import x509
from cryptography.hazmat.primitives import hashes, serialization
from cryptography.hazmat.primitives.asymmetric import ec
from cryptography.x509.oid import ExtendedKeyUsageOID, NameOID


@dataclass(frozen=True)
class Certificates:
    ca: Path
    server_cert: Path
    server_key: Path
    client_cert: Path
    client_key: Path


def make_certificates(directory: Path, ca_name: str = "fortress-solver test CA") -> Certificates:
    """Write a CA and the two certificates it signs into `directory` (PEM files)."""
    directory.mkdir(parents=True, exist_ok=True)
    ca_key = ec.generate_private_key(ec.SECP256R1())
    ca = _certificate(ca_name, ca_key, ca_key, None, is_ca=True)
    paths = Certificates(*(directory / name for name in (
        "ca.pem", "server.pem", "server-key.pem", "client.pem", "client-key.pem")))
    paths.ca.write_bytes(ca.public_bytes(serialization.Encoding.PEM))
    for cert_path, key_path, usage in (
            (paths.server_cert, paths.server_key, ExtendedKeyUsageOID.SERVER_AUTH),
            (paths.client_cert, paths.client_key, ExtendedKeyUsageOID.CLIENT_AUTH)):
        key = ec.generate_private_key(ec.SECP256R1())
        cert = _certificate("localhost", key, ca_key, ca, usage=usage)
        cert_path.write_bytes(cert.public_bytes(serialization.Encoding.PEM))
        key_path.write_bytes(key.private_bytes(serialization.Encoding.PEM,
                                               serialization.PrivateFormat.PKCS8,
                                               serialization.NoEncryption()))
    return paths


def _certificate(name: str, key: ec.EllipticCurvePrivateKey, signer: ec.EllipticCurvePrivateKey,
                 issuer: x509.Certificate | None, is_ca: bool = False,
                 usage: x509.ObjectIdentifier | None = None) -> x509.Certificate:
    now = datetime.datetime.now(datetime.UTC)
    subject = x509.Name([x509.NameAttribute(NameOID.COMMON_NAME, name)])
    builder = (x509.CertificateBuilder()
               .subject_name(subject)
               .issuer_name(subject if issuer is None else issuer.subject)
               .public_key(key.public_key())
               .serial_number(x509.random_serial_number())
               .not_valid_before(now - datetime.timedelta(minutes=5))
               .not_valid_after(now + datetime.timedelta(days=2))
               .add_extension(x509.BasicConstraints(ca=is_ca, path_length=None), critical=True))
    if not is_ca:
        builder = builder.add_extension(x509.SubjectAlternativeName(
            [x509.DNSName("localhost"), x509.IPAddress(ipaddress.ip_address("127.0.0.1"))]),
            critical=False)
        if usage is not None:
            builder = builder.add_extension(x509.ExtendedKeyUsage([usage]), critical=False)
    return builder.sign(signer, hashes.SHA256())
