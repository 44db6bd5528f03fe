"""The load generator's sockets: websockets' sans-I/O client protocol under a plain
:class:`asyncio.Protocol`.

A frame received is handled in the callback that read it and a move is written at once, with no
task, future or async iterator per message: websockets' asyncio client spent more CPU per move
than the server under test did.
"""

from __future__ import annotations

import asyncio
from collections import deque
from collections.abc import Callable
from typing import cast

from websockets.client import ClientProtocol
from websockets.extensions.permessage_deflate import enable_client_permessage_deflate
from websockets.frames import Frame, Opcode
from websockets.http11 import Response
from websockets.protocol import Event, State
from websockets.uri import parse_uri

DATA_OPCODES = (Opcode.TEXT, Opcode.BINARY, Opcode.CONT)


class LeanSocket(asyncio.Protocol):
    """A websocket client: websockets' sans-I/O :class:`ClientProtocol` driven by the transport.

    Messages (text or binary, as their bytes) go to :attr:`on_message` from the callback that
    received them; before one is set they wait for :meth:`recv`. Pings are answered by the
    protocol itself (its pong is written with whatever else it has to send after each read)."""

    def __init__(self, url: str, *, deflate: bool) -> None:
        extensions = enable_client_permessage_deflate(None) if deflate else None
        self.protocol = ClientProtocol(parse_uri(url), extensions=extensions, max_size=2**20)
        self.transport: asyncio.Transport | None = None
        loop = asyncio.get_running_loop()
        self.opened: asyncio.Future[None] = loop.create_future()
        self.on_message: Callable[[bytes], None] | None = None
        self.on_lost: Callable[[], None] | None = None
        self.backlog: deque[bytes] = deque()
        self.waiter: asyncio.Future[None] | None = None
        self.fragments: list[bytes] = []
        self.lost = False

    @classmethod
    async def open(cls, url: str, *, deflate: bool) -> LeanSocket:
        """Connect and finish the opening handshake."""
        uri = parse_uri(url)
        loop = asyncio.get_running_loop()
        _, sock = await loop.create_connection(
            lambda: cls(url, deflate=deflate), uri.host, uri.port, ssl=True if uri.secure else None
        )
        try:
            await sock.opened
        except BaseException:
            sock.abort()
            raise
        return sock

    # asyncio.Protocol

    def connection_made(self, transport: asyncio.BaseTransport) -> None:
        # Not an isinstance check: uvloop's transports (--uvloop) have asyncio.Transport's
        # methods without deriving from it.
        self.transport = cast(asyncio.Transport, transport)
        try:
            self.protocol.send_request(self.protocol.connect())
            self._flush()
        except Exception as error:  # fail the open, rather than leave it waiting for ever
            if not self.opened.done():
                self.opened.set_exception(error)
            self.transport.abort()

    def data_received(self, data: bytes) -> None:
        self.protocol.receive_data(data)
        self._handle(self.protocol.events_received())
        self._flush()

    def eof_received(self) -> None:
        self.protocol.receive_eof()
        self._handle(self.protocol.events_received())
        self._flush()

    def connection_lost(self, exc: Exception | None) -> None:
        self.lost = True
        if not self.opened.done():
            self.opened.set_exception(ConnectionError("closed during the opening handshake"))
        self._wake()
        if self.on_lost is not None:
            self.on_lost()

    # sending and receiving

    def send(self, text: str) -> None:
        """Send a text message now; dropped, as a failed send task's was, once closing."""
        if self.protocol.state is State.OPEN and not self.lost:
            self.protocol.send_text(text.encode())
            self._flush()

    async def recv(self) -> bytes:
        """The next message (only while no :attr:`on_message` is set)."""
        while not self.backlog:
            if self.lost:
                raise ConnectionError("connection lost")
            self.waiter = asyncio.get_running_loop().create_future()
            await self.waiter
        return self.backlog.popleft()

    def attach(self, on_message: Callable[[bytes], None], on_lost: Callable[[], None]) -> None:
        """From now on deliver messages to ``on_message``, those waiting first."""
        self.on_message, self.on_lost = on_message, on_lost
        while self.backlog:
            on_message(self.backlog.popleft())
        if self.lost:
            on_lost()

    def abort(self) -> None:
        if self.transport is not None:
            self.transport.abort()

    def _handle(self, events: list[Event]) -> None:
        for event in events:
            if isinstance(event, Response):
                if self.protocol.handshake_exc is not None:
                    self.opened.set_exception(self.protocol.handshake_exc)
                else:
                    self.opened.set_result(None)
            elif isinstance(event, Frame) and event.opcode in DATA_OPCODES:
                data = bytes(event.data)  # bytes already: no copy
                if not event.fin:
                    self.fragments.append(data)
                    continue
                message = data
                if self.fragments:
                    message = b"".join([*self.fragments, message])
                    self.fragments.clear()
                if self.on_message is not None:
                    self.on_message(message)
                else:
                    self.backlog.append(message)
                    self._wake()

    def _wake(self) -> None:
        if self.waiter is not None and not self.waiter.done():
            self.waiter.set_result(None)

    def _flush(self) -> None:
        transport = self.transport
        if transport is None or transport.is_closing():
            return
        for data in self.protocol.data_to_send():
            if data:
                transport.write(data)
            elif transport.can_write_eof():
                transport.write_eof()  # the protocol's end of a closing handshake
        if self.protocol.state is State.CLOSED:
            transport.close()
