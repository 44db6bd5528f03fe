"""The link to a server: one WebSocket, hello and resume, and reconnection with backoff.

:class:`Connection` knows nothing of the screen. It hands every server message to ``on_message``
and every change of link state to ``on_status``; the full-screen app posts them as Textual
messages, the plain mode prints them. When the link drops, or the server restarts (close code
1012), it reconnects with exponential backoff and sends its resume token, so the seat comes back.
Given several URLs (the nodes of a cluster), it moves on to the next one at once when one fails.
Once it knows its room (joined, created, or resumed into), every connection names it in the URL
(``?room=CODE``, :mod:`muggins.shared.protocol.routing`), so a cluster's proxy routes it to the
node of that room; a node that sends it on to the room's owner (close code 4001, ``MOVED``) is
followed at once, and the next drop starts again from the given URLs.

A server can also hang without closing anything (a frozen process, a dead machine behind a live
load balancer): TCP stays open and nothing comes back. So the link sends an application ``ping``
whenever it has heard nothing for ``ping_every`` seconds, and gives the link up as dead when
nothing at all (no answer, no other frame) has arrived for ``dead_after`` seconds; it then moves
on to the next URL like after any other drop.
"""

from __future__ import annotations

import asyncio
import itertools
import logging
import random
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass

from pydantic import BaseModel, ValidationError
from websockets.asyncio.client import ClientConnection, connect
from websockets.exceptions import ConnectionClosed, InvalidHandshake, InvalidURI

from muggins.shared.protocol import (
    PROTOCOL_VERSION,
    Error,
    Hello,
    Left,
    Ping,
    Pong,
    Room,
    ServerMessage,
    Welcome,
    encode,
    parse_server,
)
from muggins.shared.protocol.routing import MOVED, moved_to, room_url, secure

log = logging.getLogger("muggins.client")

PING_EVERY = 2.0
"""Seconds of silence from the server after which the link sends an application ping."""
DEAD_AFTER = 5.0
"""Seconds of silence (pings unanswered) after which the link is taken for dead."""
HEARTBEAT = "heartbeat-"
"""The prefix of the ids of the link's own pings; their pongs are not passed on."""


class DeadLink(Exception):
    """The server stopped answering (not even pings) though the socket is still open."""


REPLACED = 4000
"""The close code of a connection whose seat another connection with the same token took over."""
MAX_MOVES = 3
"""Owners followed in a row (close code 4001) before the link waits like after any drop."""


@dataclass(frozen=True)
class LinkStatus:
    """The state of the link, for the status line."""

    state: str
    """"connecting", "connected", "reconnecting", "closed", "failed" or "replaced" (another
    client took this seat over: this one stops rather than take it back)."""
    detail: str = ""
    attempt: int = 0

    def sentence(self) -> str:
        if self.state == "reconnecting":
            return f"reconnecting… ({self.detail})" if self.detail else "reconnecting…"
        if self.state == "failed":
            return f"cannot connect: {self.detail}"
        if self.state == "replaced":
            return (
                "another client took over this seat with the same saved token, so this one has "
                "stopped (quit, and play in one window at a time)"
            )
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
        room: str | None = None,
        first_delay: float = 0.2,
        max_delay: float = 5.0,
        give_up_after: int | None = None,
        ping_every: float = PING_EVERY,
        dead_after: float = DEAD_AFTER,
    ) -> None:
        self.urls = (url,) if isinstance(url, str) else tuple(url)
        if not self.urls:
            raise ValueError("a connection needs at least one server URL")
        self.url = self.urls[0]
        self.name = name
        self.token = token
        self.room = room
        """The room this client is in or is joining, named in every connection's URL."""
        self.on_message = on_message
        self.on_status = on_status
        self.first_delay = first_delay
        self.max_delay = max_delay
        self.give_up_after = give_up_after
        self.ping_every = ping_every
        self.dead_after = dead_after
        self._heard = time.monotonic()
        self._pings = itertools.count(1)
        self._ws: ClientConnection | None = None
        self._closing = False
        self._moved_to: str | None = None
        """Where the last close sent this client (the room's owner), for the next attempt."""
        self._stay = False
        """The room's owner could not be reached: ask the next node to serve the room itself."""
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
        delay, attempt, moves = self.first_delay, 0, 0
        while not self._closing:
            self.on_status(LinkStatus("connecting" if attempt == 0 else "reconnecting"))
            reason, replaced, moved, served, sent_away = "", False, None, False, False
            try:
                sent_on, self._moved_to = self._moved_to, None
                address = sent_on or room_url(self.url, self.room, stay=self._stay)
                async with connect(address, open_timeout=5, close_timeout=1, max_size=2**22) as ws:
                    self._ws = ws
                    self._heard = time.monotonic()
                    await self._hello()
                    delay, attempt = self.first_delay, 0
                    await self._serve(ws)
                    reason = _close_reason(ws)
                    replaced = ws.close_code == REPLACED
                    sent_away = ws.close_code == MOVED
                    moved = moved_to(ws.close_code, ws.close_reason or "", secure=secure(address))
            except InvalidURI as error:
                self.on_status(LinkStatus("failed", str(error)))
                return
            except (OSError, TimeoutError, InvalidHandshake, ConnectionClosed, DeadLink) as error:
                reason = _describe(error)
                replaced = isinstance(error, ConnectionClosed) and _code(error) == REPLACED
                if isinstance(error, ConnectionClosed) and error.rcvd is not None:
                    sent_away = error.rcvd.code == MOVED
                    moved = moved_to(error.rcvd.code, error.rcvd.reason, secure=secure(address))
            finally:
                self._ws = None
                served, self.welcomed = self.welcomed, False
            if self._closing:
                break
            if replaced:
                # Taking the seat back would knock the other client off, and it would do the
                # same: two clients fighting over one seat forever. The newer one keeps it.
                self.on_status(LinkStatus("replaced"))
                return
            if moved is not None and moves < MAX_MOVES:
                # Sent on to the node that owns the room: go there at once (a few times in a
                # row at most, so nodes that disagree cannot bounce the client for ever).
                moves += 1
                self._moved_to = moved
                continue
            # Sent on and not welcomed there (or bounced too often, or sent from wss:// to a
            # plain ws:// address, not followed): the next node serves us.
            self._stay = (sent_on is not None and not served) or sent_away
            moves = 0
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

    async def _serve(self, ws: ClientConnection) -> None:
        """Receive until the socket closes, or until the server falls silent (DeadLink)."""
        receiving = asyncio.ensure_future(self._receive(ws))
        watching = asyncio.ensure_future(self._heartbeat(ws))
        try:
            done, _ = await asyncio.wait((receiving, watching), return_when=asyncio.FIRST_COMPLETED)
        finally:
            for task in (receiving, watching):
                task.cancel()
            await asyncio.gather(receiving, watching, return_exceptions=True)
        if watching in done and isinstance(watching.exception(), DeadLink):
            ws.transport.abort()  # no closing handshake with a server that does not answer
        for task in done:
            task.result()  # the reason it ended, if any

    async def _heartbeat(self, ws: ClientConnection) -> None:
        """Ping when the server is quiet; raise DeadLink when it stays silent too long."""
        while True:
            await asyncio.sleep(min(self.ping_every, self.dead_after) / 2)
            silent = time.monotonic() - self._heard
            if silent >= self.dead_after:
                raise DeadLink(f"the server stopped answering ({silent:.0f} s without a word)")
            if silent >= self.ping_every:
                try:
                    await ws.send(encode(Ping(id=f"{HEARTBEAT}{next(self._pings)}")))
                except ConnectionClosed:
                    return

    async def _receive(self, ws: ClientConnection) -> None:
        async for frame in ws:
            self._heard = time.monotonic()
            try:
                message = parse_server(frame)
            except ValidationError as error:
                log.warning("ignoring a server message this client cannot read: %s", error)
                continue
            if isinstance(message, Room):
                self.room = message.code
            elif isinstance(message, Left):
                self.room = None
            elif isinstance(message, Welcome):
                self._stay = False
                self.token = message.token
                if message.resumed:
                    self.room = message.room
                self.welcomed = True
                self.on_status(LinkStatus("connected"))
            elif isinstance(message, Error) and message.code == "bad_token":
                # The server forgot us (or the token is stale): start afresh under our name.
                self.token = None
                await self._hello()
            elif (
                isinstance(message, Pong)
                and isinstance(message.id, str)
                and message.id.startswith(HEARTBEAT)
            ):
                continue  # the link's own ping: nobody else asked
            self.on_message(message)


def _close_reason(ws: ClientConnection) -> str:
    code = ws.close_code
    if code == 1012:
        return "the server is restarting"
    if code is None:
        return "the connection dropped"
    return f"closed by the server ({code}{': ' + ws.close_reason if ws.close_reason else ''})"


def _code(error: ConnectionClosed) -> int | None:
    return error.rcvd.code if error.rcvd is not None else None


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
    if isinstance(error, DeadLink):
        return "the server stopped answering"
    return str(error) or type(error).__name__
