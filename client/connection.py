"""The link to a server: one WebSocket, hello and resume, and reconnection with backoff.

:class:`Connection` knows nothing of the screen. It hands every server message to ``on_message``
and every change of link state to ``on_status``; the full-screen app posts them as Textual
messages, the plain mode prints them. When the link drops, or the server restarts (close code
1012), it reconnects with exponential backoff and sends its resume token, so the seat comes back.
Given several URLs (the nodes of a cluster), it moves on to the next one at once when one fails.
"""

from __future__ import annotations

import asyncio
import logging
import random
from collections.abc import Callable, Sequence
from dataclasses import dataclass

from pydantic import BaseModel, ValidationError
from websockets.asyncio.client import ClientConnection, connect
from websockets.exceptions import ConnectionClosed, InvalidHandshake, InvalidURI

from shared.protocol import (
    PROTOCOL_VERSION,
    Error,
    Hello,
    ServerMessage,
    Welcome,
    encode,
    parse_server,
)

log = logging.getLogger("muggins.client")


@dataclass(frozen=True)
class LinkStatus:
    """The state of the link, for the status line."""

    state: str
    """"connecting", "connected", "reconnecting", "closed" or "failed"."""
    detail: str = ""
    attempt: int = 0

    def sentence(self) -> str:
        if self.state == "reconnecting":
            return f"reconnecting… ({self.detail})" if self.detail else "reconnecting…"
        if self.state == "failed":
            return f"cannot connect: {self.detail}"
        return self.state + (f": {self.detail}" if self.detail else "")


class Connection:
    """Keeps one seat's link to the server alive until :meth:`close`."""

    def __init__(
        self,
        url: str | Sequence[str],
        *,
        name: str,
        on_message: Callable[[ServerMessage], None],
        on_status: Callable[[LinkStatus], None],
        token: str | None = None,
        first_delay: float = 0.2,
        max_delay: float = 5.0,
        give_up_after: int | None = None,
    ) -> None:
        self.urls = (url,) if isinstance(url, str) else tuple(url)
        if not self.urls:
            raise ValueError("a connection needs at least one server URL")
        self.url = self.urls[0]
        self.name = name
        self.token = token
        self.on_message = on_message
        self.on_status = on_status
        self.first_delay = first_delay
        self.max_delay = max_delay
        self.give_up_after = give_up_after
        self._ws: ClientConnection | None = None
        self._closing = False
        self.welcomed = False

    @property
    def connected(self) -> bool:
        return self._ws is not None and self.welcomed

    async def send(self, message: BaseModel) -> bool:
        """Send one message; False (nothing sent) while the link is down."""
        ws = self._ws
        if ws is None:
            return False
        try:
            await ws.send(encode(message))
        except ConnectionClosed:
            return False
        return True

    async def close(self) -> None:
        self._closing = True
        if self._ws is not None:
            await self._ws.close()

    async def run(self) -> None:
        """Connect, and reconnect after every drop, until closed."""
        delay, attempt = self.first_delay, 0
        while not self._closing:
            self.on_status(LinkStatus("connecting" if attempt == 0 else "reconnecting"))
            reason = ""
            try:
                async with connect(self.url, open_timeout=5, max_size=2**22) as ws:
                    self._ws = ws
                    await self._hello()
                    delay, attempt = self.first_delay, 0
                    await self._receive(ws)
                    reason = _close_reason(ws)
            except InvalidURI as error:
                self.on_status(LinkStatus("failed", str(error)))
                return
            except (OSError, TimeoutError, InvalidHandshake, ConnectionClosed) as error:
                reason = _describe(error)
            finally:
                self._ws = None
                self.welcomed = False
            if self._closing:
                break
            attempt += 1
            if self.give_up_after is not None and attempt > self.give_up_after:
                self.on_status(LinkStatus("failed", reason or "the server went away"))
                return
            # The next server in the list; wait only once every server has been tried.
            self.url = self.urls[(self.urls.index(self.url) + 1) % len(self.urls)]
            if attempt % len(self.urls) != 0:
                self.on_status(LinkStatus("reconnecting", f"{reason}; trying {self.url}", attempt))
                continue
            wait = delay * (1 + random.random() / 4)
            self.on_status(LinkStatus("reconnecting", f"{reason}; retry in {wait:.1f}s", attempt))
            await asyncio.sleep(wait)
            delay = min(delay * 2, self.max_delay)
        self.on_status(LinkStatus("closed"))

    async def _hello(self) -> None:
        await self.send(Hello(name=self.name, protocol=PROTOCOL_VERSION, token=self.token))

    async def _receive(self, ws: ClientConnection) -> None:
        async for frame in ws:
            try:
                message = parse_server(frame)
            except ValidationError as error:
                log.warning("ignoring a server message this client cannot read: %s", error)
                continue
            if isinstance(message, Welcome):
                self.token = message.token
                self.welcomed = True
                self.on_status(LinkStatus("connected"))
            elif isinstance(message, Error) and message.code == "bad_token":
                # The server forgot us (or the token is stale): start afresh under our name.
                self.token = None
                await self._hello()
            self.on_message(message)


def _close_reason(ws: ClientConnection) -> str:
    code = ws.close_code
    if code == 1012:
        return "the server is restarting"
    if code is None:
        return "the connection dropped"
    return f"closed by the server ({code}{': ' + ws.close_reason if ws.close_reason else ''})"


def _describe(error: BaseException) -> str:
    if isinstance(error, ConnectionClosed):
        rcvd = error.rcvd
        if rcvd is not None and rcvd.code == 1012:
            return "the server is restarting"
        return "the connection dropped"
    if isinstance(error, ConnectionRefusedError):
        return "the server is not answering"
    if isinstance(error, TimeoutError):
        return "the server did not answer in time"
    return str(error) or type(error).__name__
