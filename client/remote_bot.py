"""A computer player that connects to a server over the wire protocol, like any other client.

It says hello, creates or joins a room (or signs in to a bot account and seeks rated games), and
answers every ``state`` that waits for its seat with its strategy's choice. It sees exactly what a
person in that seat would: the view in ``state``.

In a room it made or joined, a lost connection is not the end: like the terminal client it
connects again, with growing pauses (:data:`PAUSES`), and its hello carries the token of its
seat, so any node behind the balancer puts it back where it was. Every connection for a known
room names it in the URL (``?room=CODE``), so a cluster's proxy routes it to that room's node,
and a node that sends it on to the room's owner (close code 4001) is followed at once.
An opponent gone past the grace is waited for, or claimed (the game won, or the seat given to
the computer) as ``claim`` says.
"""

from __future__ import annotations

import asyncio
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Literal

from websockets.asyncio.client import ClientConnection, connect
from websockets.exceptions import (
    ConnectionClosed,
    InvalidHandshake,
    InvalidURI,
    WebSocketException,
)

from muggins.shared.actions import Event, Outcome
from muggins.shared.bots.base import Strategy, make_strategy
from muggins.shared.protocol import (
    PROTOCOL_VERSION,
    Claim,
    CreateRoom,
    Error,
    Hello,
    JoinRoom,
    Notice,
    Room,
    RoomOptions,
    ServerMessage,
    State,
    Welcome,
    encode,
    from_action,
    parse_server,
)
from muggins.shared.protocol.routing import MOVED, moved_to, room_url, secure
from muggins.shared.protocol.unpack import Unpacker
from muggins.shared.token_bucket import TokenBucket
from muggins.shared.view import SeatView


class RemoteError(RuntimeError):
    """The server refused the bot (a bad room code, a full room, an old protocol...)."""


PAUSES = (0.25, 0.5, 1.0, 2.0, 4.0, 8.0, 15.0)
"""Seconds between attempts to connect again after a lost connection; the last repeats."""
MAX_MOVES = 3
"""Owners followed in a row (close code 4001) before a pause like after any lost connection."""
GIVE_UP_AFTER = 600.0
"""Seconds of failed attempts after which the bot stops trying."""

ClaimChoice = Literal["wait", "win", "bot"]
"""What the bot does when its opponent has been gone past the grace."""


class Lost(Exception):
    """The connection went (closed, refused, unreachable): connect again."""


@dataclass
class Progress:
    """What a match played over several connections keeps from one to the next."""

    events: list[Event] = field(default_factory=list)
    first_dealer: int | None = None
    room: str | None = None
    """The room's code once known: named in the URL of each connection after."""


@dataclass
class RemoteResult:
    """How a bot's match over the network went."""

    seat: int
    code: str
    outcomes: tuple[Outcome, ...]
    events: list[Event] = field(default_factory=list)
    first_dealer: int | None = None


class Pacer:
    """Keeps a fast bot under the server's message rate (a client-side token bucket)."""

    def __init__(self, rate: float, burst: int) -> None:
        self.bucket = TokenBucket(rate=rate, burst=burst, now=time.monotonic())

    async def wait(self) -> None:
        now = time.monotonic()
        while not self.bucket.take(now):
            await asyncio.sleep(self.bucket.wait(now))
            now = time.monotonic()


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
    claim: ClaimChoice = "wait",
    reconnect: bool = True,
) -> RemoteResult:
    """Play one match on the server at ``url``: create a room (``create``) or join ``code``.
    A lost connection is made again (``reconnect``) and the seat resumed with its token."""
    if (create is None) == (code is None):
        raise ValueError("either create a room or join one by its code")
    strategy = make_strategy(level, seed=seed)
    pacer = Pacer(rate, burst)
    progress = Progress()
    token: str | None = None
    failing_since: float | None = None
    attempt = moves = 0
    moved: str | None = None
    stay = stayed = False
    while True:
        try:
            sent_on, moved, served = moved, None, False
            address = sent_on or room_url(url, progress.room or code, stay=stay)
            async with connect(address, max_size=2**22, open_timeout=10) as ws:
                welcome = await _hello(ws, name or f"{level} bot", token=token)
                served = True
                if token is None:
                    token = welcome.token
                    first: CreateRoom | JoinRoom = (
                        CreateRoom(options=create) if create is not None else JoinRoom(code=code)
                    )
                    await _send(ws, first)
                elif not welcome.resumed:
                    raise RemoteError("the server no longer keeps the bot's seat")
                failing_since, attempt, stay, stayed = None, 0, False, False
                result = await _play_match(
                    ws, strategy, pacer, code or "", on_room, on_event,
                    progress=progress, claim=claim,
                )  # fmt: skip
                assert result is not None
                return result
        except InvalidURI as error:
            raise RemoteError(f"{url!r} is not a WebSocket address like ws://HOST:PORT") from error
        except (ConnectionClosed, InvalidHandshake, OSError, TimeoutError) as error:
            received = error.rcvd if isinstance(error, ConnectionClosed) else None
            sent_away = received is not None and received.code == MOVED
            moved = (
                moved_to(received.code, received.reason, secure=secure(address))
                if received is not None
                else None
            )
            if moved is not None and moves < MAX_MOVES:
                moves += 1  # sent on to the node that owns the room: go there at once
                continue
            # Sent on and not let in there (or bounced too often, or sent from wss:// to a
            # plain ws:// address, not followed): the next node serves us.
            stay = (sent_on is not None and not served) or sent_away
            moved, moves = None, 0
            if stay and not stayed:
                stayed = True  # at once, where we were (before the first seat too), once
                continue
            if token is None or not reconnect:
                raise _lost(url, error) from error
            now = time.monotonic()
            failing_since = failing_since or now
            if now - failing_since > GIVE_UP_AFTER:
                raise _lost(url, error) from error
            pause = PAUSES[min(attempt, len(PAUSES) - 1)]
            attempt += 1
            if on_event is not None:
                on_event(f"(connection lost: {_why(error)}; connecting again in {pause:g} s)")
            await asyncio.sleep(pause)
        except WebSocketException as error:
            raise RemoteError(f"could not talk to {url}: {error}") from error


def _why(error: BaseException) -> str:
    if isinstance(error, ConnectionClosed):
        return f"closed{f' ({error.rcvd.reason})' if error.rcvd and error.rcvd.reason else ''}"
    return str(error) or type(error).__name__


def _lost(url: str, error: BaseException) -> RemoteError | OSError:
    """What a lost connection that is not tried again is said as."""
    if isinstance(error, OSError):
        return error
    if isinstance(error, ConnectionClosed):
        return RemoteError(
            f"the server closed the connection before the match ended ({_why(error)})"
        )
    return RemoteError(f"could not talk to {url}: {error}")


async def _hello(ws: ClientConnection, name: str, *, token: str | None = None) -> Welcome:
    await _send(ws, Hello(name=name, protocol=PROTOCOL_VERSION, token=token))
    welcome = await _receive(ws)
    if not isinstance(welcome, Welcome):
        raise RemoteError(_refusal(welcome, "the server did not welcome the bot"))
    return welcome


async def _play_match(
    ws: ClientConnection,
    strategy: Strategy,
    pacer: Pacer,
    room_code: str,
    on_room: Callable[[str], None] | None,
    on_event: Callable[[str], None] | None,
    *,
    after: str | None = None,
    stop: Callable[[ServerMessage], bool] | None = None,
    progress: Progress | None = None,
    claim: ClaimChoice = "wait",
) -> RemoteResult | None:
    """Play the match of the room the bot is being seated in, to its end (the room ``after``
    is the one just played: what it still says is passed over). None if ``stop`` says a
    message ends the wait for a seat. ``progress`` carries a match over several connections;
    ``claim`` says what to do once the opponent has been gone past the grace."""
    seat: int | None = None
    sent: int | None = None  # the seq our move answered, until the server answers it
    latest: tuple[int, SeatView] | None = None  # the newest state's seq and whole view
    views = Unpacker()
    progress = progress or Progress()
    events = progress.events
    resumed = bool(events) or progress.first_dealer is not None
    claimed = False
    while True:
        message = await _receive(ws)
        if stop is not None and stop(message) and seat is None:
            return None  # (``stop`` sees every message, a seat or not)
        if isinstance(message, Room):
            # A room whose match is over is no table to play (unless it is this match's, come
            # back to): it is the last one's end told again (a node catching up, a leave).
            ours = message.status != "over" or message.code == progress.room
            table = ours and message.code != after
            if seat is None and message.you is not None and table:
                seat, room_code = message.you, message.code
                progress.room = room_code
                if on_room is not None and not resumed:
                    on_room(message.code)
            gone = seat is not None and message.seats[1 - seat].claimable_in == 0
            if gone and claim != "wait" and not claimed:
                claimed = True
                await _send(ws, Claim(take=claim))
        elif isinstance(message, Notice):
            if message.code == "claimable" and claim != "wait" and seat is not None:
                claimed = True
                await _send(ws, Claim(take=claim))
        elif isinstance(message, Error):
            if seat is None:
                raise RemoteError(message.message)
            sent = None  # refused (a 'stale' one came after the current state): look again
            if on_event is not None:
                on_event(f"(server: {message.message})")
        elif isinstance(message, State):
            if seat is None:
                continue  # the room comes before its state: this is the last table's
            view = views.whole(message)
            for line in message.events:
                events.append(line.event)
                if on_event is not None:
                    on_event(line.text)
            if latest is None or message.seq >= latest[0]:
                latest = (message.seq, view)
            if message.id is not None and message.id == sent:
                sent = None
            elif sent is not None and message.seq >= sent + 2:
                # Two actions on from the state our move answered: it was applied (its answer
                # lost) or never will be (it names an old state); this state stands.
                sent = None
            if progress.first_dealer is None and view.deal_number >= 1:
                progress.first_dealer = view.dealer
            if view.phase == "match_over":
                assert view.seat is not None
                return RemoteResult(view.seat, room_code, view.games, events, progress.first_dealer)
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


async def _send(ws: ClientConnection, message: object) -> None:
    from pydantic import BaseModel

    assert isinstance(message, BaseModel)
    await ws.send(encode(message))


async def _receive(ws: ClientConnection) -> ServerMessage:
    text = await ws.recv()
    return parse_server(text)


def _refusal(message: ServerMessage, default: str) -> str:
    return message.message if isinstance(message, Error) else default
