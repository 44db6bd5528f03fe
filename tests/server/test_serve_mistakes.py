"""An operator's slips with ``muggins serve`` (a port in use, a port out of range, a negative
limit, a certificate that is missing or not a pair) stop it with one sentence, not a traceback,
and leave nothing open behind."""

from __future__ import annotations

import shutil
import socket
import subprocess
import sys
from pathlib import Path

import pytest
from test_tls_reload import make_pair


def serve(*flags: str, cwd: Path) -> subprocess.CompletedProcess[str]:
    store = () if "--redis" in flags else ("--memory",)
    return subprocess.run(
        [sys.executable, "-m", "muggins.client.cli", "serve", *store, *flags],
        capture_output=True, text=True, timeout=60, check=False, cwd=cwd,
    )  # fmt: skip


def said(result: subprocess.CompletedProcess[str]) -> str:
    """The one line the command printed for the operator, checked to be no traceback."""
    assert "Traceback" not in result.stderr, result.stderr
    assert result.returncode in (1, 2), result
    (line,) = result.stdout.splitlines()
    return line


@pytest.mark.parametrize("flag", ["--port", "--metrics-port"])
def test_a_port_in_use_is_named_with_the_option_to_change(tmp_path: Path, flag: str) -> None:
    with socket.socket() as taken:
        taken.bind(("127.0.0.1", 0))
        taken.listen()
        port = taken.getsockname()[1]
        flags = ("--port", str(port)) if flag == "--port" else ("--port", "0", flag, str(port))
        line = said(serve(*flags, cwd=tmp_path))
    assert line == (
        f"muggins serve: cannot listen on 127.0.0.1:{port}: the port is in use (another "
        f"muggins serve?): stop that, or choose another {flag}"
    )


@pytest.mark.parametrize(
    ("flags", "sentence"),
    [
        (("--port", "99999"), "--port 99999: a port is a number from 0 to 65535"),
        (("--grace", "-5"), "--grace -5: give a number of 0 or more"),
        (("--send-buffer", "-1"), "--send-buffer -1: give a number of 0 or more"),
        (
            ("--allowed-origin", "cribbage.example"),
            "--allowed-origin 'cribbage.example' is not an origin like https://cribbage.example",
        ),
        (
            ("--node-url", "ws://10.0.0.2:8765"),
            "--node-url is a cluster node's address: give --redis URL too",
        ),
        (
            ("--redis", "redis://127.0.0.1:1/0", "--node-url", "10.0.0.2:8765"),
            "--node-url '10.0.0.2:8765' is not an address like ws://HOST:PORT",
        ),
        (
            (
                "--redis",
                "redis://127.0.0.1:1/0",
                "--postgres",
                "postgresql://m@127.0.0.1:1/m",
                "--postgres-pool",
                "0",
            ),
            "--postgres-pool 0: give 1 or more",
        ),
        (
            ("--redis-batch-ms", "5"),
            "--redis-batch-ms holds a cluster node's writes: give --redis URL too",
        ),
        (
            ("--redis", "redis://127.0.0.1:1/0", "--redis-batch-ms", "2500"),
            "--redis-batch-ms 2500: give 100 or less (every move waits that long)",
        ),
    ],
)
def test_a_value_no_option_takes_is_refused(
    tmp_path: Path, flags: tuple[str, ...], sentence: str
) -> None:
    assert said(serve(*flags, cwd=tmp_path)) == f"muggins serve: {sentence}"


def test_a_missing_certificate_is_named(tmp_path: Path) -> None:
    line = said(
        serve("--port", "0", "--certfile", "cert.pem", "--keyfile", "key.pem", cwd=tmp_path)
    )
    assert line == "muggins serve: --certfile cert.pem: no such file"


def test_a_key_that_is_not_the_certificate_s_is_refused_in_words(tmp_path: Path) -> None:
    if shutil.which("openssl") is None:
        pytest.fail("openssl is needed to make the certificates")
    cert, _ = make_pair(tmp_path, "one")
    _, other_key = make_pair(tmp_path, "two")
    line = said(
        serve("--port", "0", "--certfile", str(cert), "--keyfile", str(other_key), cwd=tmp_path)
    )
    assert line.startswith(
        f"muggins serve: cannot load the TLS certificate ({cert} and {other_key}):"
    )
    assert "not a PEM certificate and its matching key" in line


def test_a_folder_given_as_the_database_is_refused_and_left_alone(tmp_path: Path) -> None:
    folder = tmp_path / "data"
    folder.mkdir()
    folder.chmod(0o755)
    result = subprocess.run(
        [sys.executable, "-m", "muggins.client.cli", "serve", "--port", "0", "--db", str(folder)],
        capture_output=True, text=True, timeout=60, check=False, cwd=tmp_path,
    )  # fmt: skip
    assert said(result) == (
        f"muggins serve: {folder} is a folder: give the database file, e.g. {folder / 'muggins.db'}"
    )
    assert folder.stat().st_mode & 0o777 == 0o755 and list(folder.iterdir()) == []


def test_a_database_another_server_uses_is_refused(tmp_path: Path) -> None:
    """Two servers on one file would both rebuild its rooms and take their moves apart: the
    second is refused while the first runs, and starts once it has stopped."""
    db = tmp_path / "muggins.db"
    command = [sys.executable, "-m", "muggins.client.cli", "serve", "--port", "0", "--db", str(db)]
    first = subprocess.Popen(
        command, stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, text=True, cwd=tmp_path
    )
    try:
        assert first.stdout is not None
        assert "listening on ws://" in first.stdout.readline()
        second = subprocess.run(
            command, capture_output=True, text=True, timeout=60, check=False, cwd=tmp_path
        )
        assert said(second) == (
            f"muggins serve: {db} is in use by another muggins serve: stop that one, or give "
            "this one another --db"
        )
    finally:
        first.terminate()
        assert first.wait(timeout=30) == 0
    again = subprocess.Popen(
        command, stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, text=True, cwd=tmp_path
    )
    try:
        assert again.stdout is not None
        assert "listening on ws://" in again.stdout.readline()
    finally:
        again.terminate()
        again.wait(timeout=30)


def test_a_redis_address_that_is_no_url_is_refused(tmp_path: Path) -> None:
    result = subprocess.run(
        [sys.executable, "-m", "muggins.client.cli", "serve", "--redis", "redis-host:6379"],
        capture_output=True, text=True, timeout=60, check=False, cwd=tmp_path,
    )  # fmt: skip
    assert said(result) == (
        "muggins serve: --redis 'redis-host:6379' is not a Redis URL (redis://HOST:6379/0)"
    )
