"""A computer player that connects to a server over the wire protocol, like any other client.

It says hello, creates or joins a room, and answers every ``state`` that waits for its seat with
its strategy's choice. It sees exactly what a person in that seat would: the view in ``state``.
"""

from __future__ import annotations

import asyncio
import time
from collections.abc import Callable
from dataclasses import dataclass, field

from websockets.asyncio.client import ClientConnection, connect
from websockets.exceptions import ConnectionClosed, InvalidURI, WebSocketException

from muggins.shared.actions import Event, Outcome
from muggins.shared.bots.base import make_strategy
from muggins.shared.protocol import (
    PROTOCOL_VERSION,
    CreateRoom,
    Error,
    Hello,
    JoinRoom,
    Room,
    RoomOptions,
    ServerMessage,
    State,
    Welcome,
    encode,
    from_action,
    parse_server,
)
from muggins.shared.protocol.unpack import Unpacker
from muggins.shared.view import SeatView


class RemoteError(RuntimeError):
    """The server refused the bot (a bad room code, a full room, an old protocol...)."""


@dataclass
class RemoteResult:
    """How a bot's match over the network went."""

    seat: int
    code: str
    outcomes: tuple[Outcome, ...]
    events: list[Event] = field(default_factory=list)
    first_dealer: int | None = None


class Pacer:
    """A client-side token bucket, so a fast bot stays under the server's message rate."""

    def __init__(self, rate: float, burst: int) -> None:
        self.rate = rate
        self.burst = burst
        self.tokens = float(burst)
        self.stamp = time.monotonic()

    async def wait(self) -> None:
        now = time.monotonic()
        self.tokens = min(self.burst, self.tokens + (now - self.stamp) * self.rate)
        self.stamp = now
        if self.tokens < 1:
            await asyncio.sleep((1 - self.tokens) / self.rate)
            self.tokens = 1
            self.stamp = time.monotonic()
        self.tokens -= 1


async def play_remote(
    url: str,
    *,
    level: str,
    seed: int = 0,
    name: str | None = None,
    create: RoomOptions | None = None,
    code: str | None = None,
    on_room: Callable[[str], None] | None = None,
    on_event: Callable[[str], None] | None = None,
    rate: float = 15.0,
    burst: int = 30,
) -> RemoteResult:
    """Play one match on the server at ``url``: create a room (``create``) or join ``code``."""
    if (create is None) == (code is None):
        raise ValueError("either create a room or join one by its code")
    try:
        return await _play(url, level, seed, name, create, code, on_room, on_event, rate, burst)
    except InvalidURI as error:
        raise RemoteError(f"{url!r} is not a WebSocket address like ws://HOST:PORT") from error
    except ConnectionClosed as error:
        reason = f" ({error.rcvd.reason})" if error.rcvd and error.rcvd.reason else ""
        raise RemoteError(
            f"the server closed the connection before the match ended{reason}"
        ) from error
    except WebSocketException as error:
        raise RemoteError(f"could not talk to {url}: {error}") from error


async def _play(
    url: str,
    level: str,
    seed: int,
    name: str | None,
    create: RoomOptions | None,
    code: str | None,
    on_room: Callable[[str], None] | None,
    on_event: Callable[[str], None] | None,
    rate: float,
    burst: int,
) -> RemoteResult:
    strategy = make_strategy(level, seed=seed)
    pacer = Pacer(rate, burst)
    async with connect(url, max_size=2**22) as ws:
        await _send(ws, Hello(name=name or f"{level} bot", protocol=PROTOCOL_VERSION))
        welcome = await _receive(ws)
        if not isinstance(welcome, Welcome):
            raise RemoteError(_refusal(welcome, "the server did not welcome the bot"))
        await _send(ws, CreateRoom(options=create) if create is not None else JoinRoom(code=code))
        seat: int | None = None
        room_code = code or ""
        result: RemoteResult | None = None
        sent: int | None = None  # the seq our move answered, until the server answers it
        latest: tuple[int, SeatView] | None = None  # the newest state's seq and whole view
        views = Unpacker()
        events: list[Event] = []
        first_dealer: int | None = None
        while True:
            message = await _receive(ws)
            if isinstance(message, Room):
                if seat is None and message.you is not None:
                    seat, room_code = message.you, message.code
                    if on_room is not None:
                        on_room(message.code)
            elif isinstance(message, Error):
                if seat is None:
                    raise RemoteError(message.message)
                sent = None  # refused (a 'stale' one came after the current state): look again
                if on_event is not None:
                    on_event(f"(server: {message.message})")
            elif isinstance(message, State):
                view = views.whole(message)
                for line in message.events:
                    events.append(line.event)
                    if on_event is not None:
                        on_event(line.text)
                if latest is None or message.seq >= latest[0]:
                    latest = (message.seq, view)
                if message.id is not None and message.id == sent:
                    sent = None
                if first_dealer is None and view.deal_number >= 1:
                    first_dealer = view.dealer
                if view.phase == "match_over":
                    assert view.seat is not None
                    result = RemoteResult(view.seat, room_code, view.games, events, first_dealer)
                    break
            if latest is None or sent is not None:
                continue
            seq, view = latest
            if view.seat is not None and view.seat in view.waiting_for and view.legal:
                # Each move names the state it answers (its seq, also our id for it), so one
                # that crosses a newer state is refused as stale, never applied late.
                sent = seq
                action = strategy.choose(view)
                await pacer.wait()
                await _send(ws, from_action(action, seq=sent, id=sent))
                latest = None
        return result


async def _send(ws: ClientConnection, message: object) -> None:
    from pydantic import BaseModel

    assert isinstance(message, BaseModel)
    await ws.send(encode(message))


async def _receive(ws: ClientConnection) -> ServerMessage:
    text = await ws.recv()
    return parse_server(text)


def _refusal(message: ServerMessage, default: str) -> str:
    return message.message if isinstance(message, Error) else default
