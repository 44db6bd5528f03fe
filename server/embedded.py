"""The client's one door into the server: a server embedded in ``muggins play``, and where it
keeps its games. Nothing else in ``client/`` imports from ``server/`` (tests/test_packaging.py).
The server itself is imported only when one is started, so the client starts quickly.
"""

from __future__ import annotations

from contextlib import AbstractAsyncContextManager
from typing import TYPE_CHECKING

from muggins.server.config import ServerConfig
from muggins.server.store.datafiles import data_dir, embedded_db

if TYPE_CHECKING:
    from muggins.server.app import Server

__all__ = ["ServerConfig", "data_dir", "embedded_db", "running_server"]


def running_server(config: ServerConfig) -> AbstractAsyncContextManager[Server]:
    """Start a server in this event loop (``server.app.running_server``)."""
    from muggins.server.app import running_server as started

    return started(config)
