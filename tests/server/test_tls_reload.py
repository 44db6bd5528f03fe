"""SIGHUP makes ``muggins serve`` read its TLS certificate and key again: a ``wss://`` client
connecting after it sees the new certificate, with no restart. The log goes to --log-file."""

from __future__ import annotations

import asyncio
import shutil
import signal
import ssl
import subprocess
import sys
import time
from pathlib import Path

from redis_helpers import free_port
from tls_helpers import make_pair
from websockets.asyncio.client import connect


async def served_certificate(url: str) -> bytes:
    """The certificate a wss:// client is shown, in DER."""
    context = ssl.create_default_context()
    context.check_hostname = False
    context.verify_mode = ssl.CERT_NONE
    async with connect(url, ssl=context) as ws:
        tls = ws.transport.get_extra_info("ssl_object")
        der = tls.getpeercert(binary_form=True)
        assert der is not None
        return bytes(der)


def der(cert: Path) -> bytes:
    return ssl.PEM_cert_to_DER_cert(cert.read_text())


async def test_sighup_reloads_the_certificate_for_new_connections(tmp_path: Path) -> None:
    """The files are replaced (a renewal), SIGHUP; the next client sees the new certificate."""
    old_cert, old_key = make_pair(tmp_path, "old")
    new_cert, new_key = make_pair(tmp_path, "new")
    cert, key = tmp_path / "cert.pem", tmp_path / "key.pem"
    shutil.copy(old_cert, cert)
    shutil.copy(old_key, key)
    port, log = free_port(), tmp_path / "logs" / "muggins.log"
    process = subprocess.Popen(
        [sys.executable, "-m", "muggins.client.cli", "serve", "--memory", "--port", str(port),
         "--certfile", str(cert), "--keyfile", str(key), "--log-file", str(log)],
        stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
    )  # fmt: skip
    try:
        assert process.stdout is not None
        line = await asyncio.to_thread(process.stdout.readline)
        assert f"listening on wss://127.0.0.1:{port}" in line, line
        url = f"wss://127.0.0.1:{port}"
        assert await served_certificate(url) == der(old_cert)
        shutil.copy(new_cert, cert)
        shutil.copy(new_key, key)
        process.send_signal(signal.SIGHUP)
        deadline = time.monotonic() + 30  # a guard only
        while "TLS certificate reloaded" not in log.read_text():
            assert time.monotonic() < deadline, log.read_text()
            await asyncio.sleep(0.05)
        assert await served_certificate(url) == der(new_cert)
        assert process.poll() is None  # the same process: no restart
    finally:
        process.terminate()
        _, errors = process.communicate(timeout=30)
    written = log.read_text()
    assert "listening" in written and "stopped" in written
    assert "INFO" not in errors  # the log went to the file, not to stderr


async def test_a_broken_pair_on_sighup_keeps_the_old_certificate(tmp_path: Path) -> None:
    """A key that does not match is logged and refused; clients still get the old certificate."""
    old_cert, old_key = make_pair(tmp_path, "old")
    other_cert, _ = make_pair(tmp_path, "other")
    cert, key = tmp_path / "cert.pem", tmp_path / "key.pem"
    shutil.copy(old_cert, cert)
    shutil.copy(old_key, key)
    port, log = free_port(), tmp_path / "muggins.log"
    process = subprocess.Popen(
        [sys.executable, "-m", "muggins.client.cli", "serve", "--memory", "--port", str(port),
         "--certfile", str(cert), "--keyfile", str(key), "--log-file", str(log)],
        stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, text=True,
    )  # fmt: skip
    try:
        assert process.stdout is not None
        await asyncio.to_thread(process.stdout.readline)
        shutil.copy(other_cert, cert)  # a certificate whose key is not key.pem
        process.send_signal(signal.SIGHUP)
        deadline = time.monotonic() + 30
        while "not reloaded" not in log.read_text():
            assert time.monotonic() < deadline, log.read_text()
            await asyncio.sleep(0.05)
        assert await served_certificate(f"wss://127.0.0.1:{port}") == der(old_cert)
    finally:
        process.terminate()
        process.wait(timeout=30)
