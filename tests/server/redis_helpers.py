"""Real redis-server processes for tests: a free port, a temporary directory, AOF on.

Outside CI a missing ``redis-server`` binary skips the test with a visible reason. With ``CI=true``
it fails instead: CI installs Redis, so a skip there would hide a broken set-up.
"""

from __future__ import annotations

import os
import shutil
import signal
import socket
import subprocess
import tempfile
import time
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

import pytest


def free_port() -> int:
    """A TCP port on 127.0.0.1 that was free a moment ago."""
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        port: int = sock.getsockname()[1]
        return port


def redis_binary() -> str:
    """The redis-server path, or skip (fail under CI=true) when it is not installed."""
    found = shutil.which("redis-server") or (
        "/usr/bin/redis-server" if Path("/usr/bin/redis-server").exists() else None
    )
    if found is None:
        message = "redis-server is not installed (apt-get install redis-server)"
        if os.environ.get("CI", "").lower() == "true":
            pytest.fail(message + "; CI must install it", pytrace=False)
        pytest.skip(message)
    return found


class RedisServer:
    """One redis-server on a free port with its data in ``directory``; stop and start keep data."""

    def __init__(self, directory: Path, *, fsync: str = "always", unix: bool = False) -> None:
        self.binary = redis_binary()
        self.directory = directory
        self.port = free_port()
        self.fsync = fsync
        self.process: subprocess.Popen[bytes] | None = None
        self.socket: Path | None = None
        """With ``unix``, the Unix socket it listens on too (in a short folder of its own: a
        socket's path may not be longer than about 100 bytes); ``url`` then names it."""
        if unix:
            self.socket = Path(tempfile.mkdtemp(prefix="redis-")) / "redis.sock"

    @property
    def url(self) -> str:
        if self.socket is not None:
            return f"unix://{self.socket}?db=0"
        return f"redis://127.0.0.1:{self.port}/0"

    def start(self) -> None:
        """Start (or restart) the server on the same port and directory, and wait for PING."""
        args = [
            self.binary,
            "--port", str(self.port),
            "--bind", "127.0.0.1",
            "--dir", str(self.directory),
            "--appendonly", "yes",
            "--appendfsync", self.fsync,
            "--save", "",
            "--daemonize", "no",
            "--loglevel", "warning",
        ]  # fmt: skip
        if self.socket is not None:
            args += ["--unixsocket", str(self.socket), "--unixsocketperm", "700"]
        self.process = subprocess.Popen(args, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        deadline = time.monotonic() + 10
        while time.monotonic() < deadline:
            if self.process.poll() is not None:
                raise RuntimeError(f"redis-server exited with {self.process.returncode}")
            if self._ping():
                return
            time.sleep(0.02)
        raise RuntimeError("redis-server did not answer PING within 10 s")

    def _ping(self) -> bool:
        try:
            with socket.create_connection(("127.0.0.1", self.port), timeout=0.2) as sock:
                sock.sendall(b"PING\r\n")
                return sock.recv(16).startswith(b"+PONG")
        except OSError:
            return False

    def freeze(self) -> None:
        """Stop the process with SIGSTOP: connections stay open and nothing is answered."""
        if self.process is not None:
            self.process.send_signal(signal.SIGSTOP)

    def thaw(self) -> None:
        if self.process is not None:
            self.process.send_signal(signal.SIGCONT)

    def stop(self, *, kill: bool = False) -> None:
        """Stop the server: SIGTERM (a clean shutdown) or SIGKILL."""
        if self.process is None:
            return
        self.thaw()
        if kill:
            self.process.kill()
        else:
            self.process.terminate()
        self.process.wait(timeout=10)
        self.process = None


@contextmanager
def running_redis(
    directory: Path, *, fsync: str = "always", unix: bool = False
) -> Iterator[RedisServer]:
    """A started RedisServer, stopped on exit whatever happened."""
    server = RedisServer(directory, fsync=fsync, unix=unix)
    server.start()
    try:
        yield server
    finally:
        server.stop(kill=True)


@pytest.fixture
def redis_server(tmp_path: Path) -> Iterator[RedisServer]:
    """A redis-server of the test's own (a conftest imports this fixture; a module that shares
    one server between its tests defines its own)."""
    with running_redis(tmp_path) as server:
        yield server


async def redis_flush(redis: RedisServer) -> None:
    """Empty the server (tests sharing one redis-server start each from nothing)."""
    import redis.asyncio as aioredis

    client = aioredis.Redis.from_url(redis.url)
    await client.flushall()
    await client.aclose()
