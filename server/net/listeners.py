"""The server's listeners, opened with a sentence when a port or an address cannot be had."""

from __future__ import annotations

import errno
import socket
from typing import Any

from websockets.asyncio.server import Server as WsServer
from websockets.asyncio.server import serve as ws_serve


class ListenRefused(ValueError):
    """A listener cannot be opened (a port in use or not allowed, an unknown address); the
    message names where, the option behind it and what to do."""


async def listen(option: str, handler: Any, host: str, port: int, **options: Any) -> WsServer:
    """``websockets.serve`` on ``host``:``port``, which ``option`` chose (``--port``)."""
    try:
        return await ws_serve(handler, host, port, **options)
    except socket.gaierror as error:
        raise ListenRefused(
            f"cannot listen on {host!r} (--host): no such address here ({error.strerror})"
        ) from error
    except OSError as error:
        where = f"{host}:{port}"
        if error.errno == errno.EADDRINUSE:
            reason = "the port is in use (another muggins serve?): stop that, or choose another"
            raise ListenRefused(f"cannot listen on {where}: {reason} {option}") from error
        if error.errno == errno.EACCES:
            reason = "this user may not use that port (below 1024): choose another"
            raise ListenRefused(f"cannot listen on {where}: {reason} {option}") from error
        if error.errno == errno.EADDRNOTAVAIL:
            reason = "this machine has no such address: choose one of its own with --host"
            raise ListenRefused(f"cannot listen on {where}: {reason}") from error
        raise
