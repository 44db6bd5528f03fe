"""A self-signed certificate for 127.0.0.1, made by openssl, for tests that serve wss://.

Outside CI a missing ``openssl`` skips the test with a visible reason; with ``CI=true`` it fails,
as a skip there would hide the TLS tests."""

from __future__ import annotations

import os
import shutil
import subprocess
from pathlib import Path

import pytest


def make_pair(folder: Path, name: str) -> tuple[Path, Path]:
    """A self-signed certificate for 127.0.0.1 and its key, made by openssl."""
    openssl = shutil.which("openssl")
    if openssl is None:
        message = "openssl is not installed (apt-get install openssl)"
        if os.environ.get("CI", "").lower() == "true":
            pytest.fail(message + "; CI must have it", pytrace=False)
        pytest.skip(message)
    cert, key = folder / f"{name}.pem", folder / f"{name}.key"
    subprocess.run(
        [openssl, "req", "-x509", "-newkey", "rsa:2048", "-nodes", "-days", "2",
         "-subj", f"/CN={name}", "-addext", "subjectAltName=IP:127.0.0.1",
         "-keyout", str(key), "-out", str(cert)],
        check=True, capture_output=True,
    )  # fmt: skip
    return cert, key
