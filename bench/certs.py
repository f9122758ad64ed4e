"""Throwaway certificates for the soak test's TLS mode and for a person trying TLS: a CA,
a server certificate it signed for localhost and 127.0.0.1, and a client certificate it
signed (made by tests/support/certificates.py, which the TLS tests use too).

    .venv/bin/python -m bench.certs DIRECTORY
"""

from __future__ import annotations

import sys
from pathlib import Path

from tests.support.certificates import Certificates, make_certificates

__all__ = ["Certificates", "make_certificates"]

if __name__ == "__main__":
    if len(sys.argv) != 2:
        sys.exit(__doc__)
    print(make_certificates(Path(sys.argv[1])))
