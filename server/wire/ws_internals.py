"""Every use of websockets' undocumented internals, in one module.

The server writes a frame straight to the transport when nothing of websockets' waits before it,
and pings every connection from one shared loop instead of a task each. Both need attributes
websockets does not document (``protocol.writes``, ``paused``, ``send_data``,
``pending_pings``); an upgrade of websockets that changes them breaks this file and no other.
``websockets>=16.1`` in pyproject.toml is the version these were checked against. The one
other coupling, a subclass of its connection, is :mod:`~server.wire.get_only` (kept interpreted).
"""

from __future__ import annotations

import asyncio
import random
import struct

from websockets.asyncio.server import ServerConnection
from websockets.frames import CloseCode
from websockets.protocol import State

from muggins.server.wire.frames import text_frame


def can_frame_by_hand(ws: ServerConnection) -> bool:
    """Whether frames to ``ws`` may be made here: no extension (compression) and no debug
    logging, which websockets' own framing would apply."""
    return not ws.protocol.extensions and not ws.protocol.debug


def write_now(ws: ServerConnection, data: bytes, *, by_hand: bool) -> bool:
    """Write a text frame of ``data`` at once, as ``ws.send()`` would, when the socket keeps up
    and nothing waits before it; False (nothing written) when it must be queued instead.

    With ``by_hand`` (see :func:`can_frame_by_hand`) and nothing of websockets' under way, the
    frame is made by :func:`~server.wire.frames.text_frame`; else websockets makes it.
    """
    protocol = ws.protocol
    if ws.paused or protocol.state is not State.OPEN:
        return False
    if by_hand and not protocol.writes and not protocol.expect_continuation_frame:
        ws.transport.write(text_frame(data))
        return True
    protocol.send_text(data)
    ws.send_data()
    return True


def send_ping(ws: ServerConnection) -> asyncio.Future[float] | None:
    """Send ``ws`` a ping now, as ``ws.ping()`` does but without waiting for its buffer to
    drain; the future of its pong, or None when ``ws`` is closing."""
    if ws.protocol.state is not State.OPEN or ws.transport.is_closing():
        return None
    data = struct.pack("!I", random.getrandbits(32))
    while data in ws.pending_pings:
        data = struct.pack("!I", random.getrandbits(32))
    pong = ws.loop.create_future()
    ws.pending_pings[data] = (pong, ws.loop.time())
    ws.protocol.send_ping(data)
    ws.send_data()
    return pong


async def fail_keepalive(ws: ServerConnection) -> None:
    """Close ``ws`` as websockets' keepalive does when a pong does not come (1011)."""
    async with ws.send_context():
        ws.protocol.fail(CloseCode.INTERNAL_ERROR, "keepalive ping timeout")
