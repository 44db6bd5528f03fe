"""A real PostgreSQL for tests: ``initdb`` into a temporary folder, ``pg_ctl`` on a free port.

Outside CI missing binaries skip the test with a visible reason; with ``CI=true`` they fail
(CI installs Debian's postgresql). PostgreSQL refuses to run as root: as root the server runs
as the ``postgres`` user (Debian's package creates it) or ``nobody``.
"""

from __future__ import annotations

import contextlib
import os
import pwd
import shutil
import subprocess
import tempfile
import time
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

import pytest
from redis_helpers import free_port

SEARCH = ("/usr/local/bin", "/usr/lib/postgresql/17/bin", "/usr/lib/postgresql/16/bin",
          "/usr/lib/postgresql/15/bin")  # fmt: skip


def pg_binary(name: str) -> str:
    """The path of ``initdb`` or ``pg_ctl``, or skip (fail under CI=true) when missing."""
    found = shutil.which(name) or next(
        (f"{d}/{name}" for d in SEARCH if Path(f"{d}/{name}").exists()), None
    )
    if found is None:
        message = f"PostgreSQL's {name} is not installed (apt-get install postgresql)"
        if os.environ.get("CI", "").lower() == "true":
            pytest.fail(message + "; CI must install it", pytrace=False)
        pytest.skip(message)
    return found


class PostgresServer:
    """One PostgreSQL cluster in ``directory`` on a free port; stop and start keep its data."""

    def __init__(self, directory: Path) -> None:
        self.initdb, self.pg_ctl = pg_binary("initdb"), pg_binary("pg_ctl")
        self.directory = directory
        self.data = directory / "pgdata"
        self.port = free_port()
        self.user: str | None = None
        if os.geteuid() == 0:
            self.user = "postgres" if _exists("postgres") else "nobody"
            shutil.chown(directory, self.user)
        self._run([self.initdb, "-D", str(self.data), "-U", "muggins", "--auth=trust", "-E",
                   "UTF8", "--no-sync"])  # fmt: skip

    @property
    def url(self) -> str:
        return f"postgresql://muggins@127.0.0.1:{self.port}/postgres"

    def _run(self, args: list[str]) -> None:
        if self.user is not None:
            args = ["runuser", "-u", self.user, "--", *args]
        subprocess.run(args, check=True, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)

    def start(self) -> None:
        options = f"-p {self.port} -k {self.directory} -c listen_addresses=127.0.0.1 -c fsync=off"
        self._run([self.pg_ctl, "-D", str(self.data), "-o", options, "-w", "-t", "60",
                   "-l", str(self.directory / "log"), "start"])  # fmt: skip

    def stop(self, *, mode: str = "fast") -> None:
        """Stop the server (``immediate``: as after a crash, no clean shutdown)."""
        self._run([self.pg_ctl, "-D", str(self.data), "-m", mode, "-w", "stop"])

    def pid(self) -> int:
        """The postmaster's process id."""
        return int((self.data / "postmaster.pid").read_text().split()[0])

    def kill(self) -> None:
        """SIGKILL the postmaster (as a crash would); start() recovers."""
        pid = self.pid()
        os.kill(pid, 9)
        while True:
            try:
                os.kill(pid, 0)
            except ProcessLookupError:
                break
            time.sleep(0.05)


def _exists(user: str) -> bool:
    try:
        pwd.getpwnam(user)
    except KeyError:
        return False
    return True


@contextmanager
def running_postgres() -> Iterator[PostgresServer]:
    """A started PostgresServer in a fresh temporary folder (one that the ``postgres`` user can
    reach when the tests run as root), stopped and removed on exit whatever happened."""
    folder = Path(tempfile.mkdtemp(prefix="muggins-pg-"))
    folder.chmod(0o755)
    try:
        server = PostgresServer(folder)
        server.start()
        try:
            yield server
        finally:
            with contextlib.suppress(subprocess.CalledProcessError):
                server.stop(mode="immediate")
    finally:
        shutil.rmtree(folder, ignore_errors=True)


@pytest.fixture
def postgres() -> Iterator[PostgresServer]:
    """A started PostgreSQL for one test (tests/server/conftest.py shares it)."""
    with running_postgres() as server:
        yield server
