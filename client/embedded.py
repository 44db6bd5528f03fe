"""A Muggins server run inside the client's process, for ``muggins play`` against the computer.

It runs in its own thread and event loop, so the computer's moves and the saving of each
action never wait on the screen being drawn. It listens on a free loopback port only.
"""

from __future__ import annotations

import asyncio
import logging
import threading
from pathlib import Path


class EmbeddedServer:
    """Start with :meth:`start` (returns the ``ws://`` address), end with :meth:`stop`."""

    def __init__(self, db: Path | None, *, bot_delay: float = 0.6) -> None:
        self.db = db
        self.bot_delay = bot_delay
        self.url = ""
        self._ready = threading.Event()
        self._error: BaseException | None = None
        self._loop: asyncio.AbstractEventLoop | None = None
        self._stop: asyncio.Event | None = None
        self._thread = threading.Thread(target=self._run, name="muggins-server", daemon=True)

    def start(self, timeout: float = 15.0) -> str:
        # The server logs for operators; in the player's terminal only real trouble shows.
        logging.getLogger("muggins").setLevel(logging.ERROR)
        self._thread.start()
        if not self._ready.wait(timeout):
            raise RuntimeError("the embedded server did not start in time")
        if self._error is not None:
            raise RuntimeError(str(self._error)) from self._error
        return self.url

    def stop(self) -> None:
        if self._loop is not None and self._stop is not None:
            self._loop.call_soon_threadsafe(self._stop.set)
        self._thread.join(timeout=10)

    def _run(self) -> None:
        try:
            asyncio.run(self._main())
        except BaseException as error:  # reported to start(), which raises it
            self._error = error
            self._ready.set()

    async def _main(self) -> None:
        from muggins.server.embedded import ServerConfig, running_server

        config = ServerConfig(
            host="127.0.0.1",
            port=0,
            db=self.db,
            memory=self.db is None,
            bot_delay=self.bot_delay,
        )
        self._loop = asyncio.get_running_loop()
        self._stop = asyncio.Event()
        async with running_server(config) as server:
            self.url = server.url
            self._ready.set()
            await self._stop.wait()
