"""One WebSocket connection: limits, parsing, and turning client messages into lobby/room calls.

Frames are validated as one discriminated union straight from the JSON text. Outgoing frames are
written at once while the socket keeps up; once its buffer is full they wait in a bounded queue
drained by a writer task, so a room never waits on a slow reader, and a reader too slow to keep
up is disconnected.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import logging
import time

from pydantic import ValidationError
from websockets.asyncio.server import ServerConnection
from websockets.exceptions import ConnectionClosed
from websockets.frames import CloseCode
from websockets.protocol import State

from server.identity import clean_text
from server.lobby import Lobby, strongest_level
from server.players import Player, Refusal, encoded
from server.room import Room
from shared.bots import LEVELS
from shared.protocol import (
    GAME_MOVES,
    PROTOCOL_VERSION,
    AnswerRestart,
    Chat,
    ChatLine,
    Claim,
    ClientMessage,
    CreateRoom,
    Error,
    ErrorCode,
    Hello,
    JoinRoom,
    Leave,
    Left,
    ListRooms,
    Ping,
    Pong,
    ProposeRestart,
    Rematch,
    SeatBot,
    ServerMessage,
    Spectate,
    Welcome,
    parse_client,
)
from shared.protocol.client import MessageId

log = logging.getLogger("muggins.connection")
VERSION = "0.1.0"


def describe_invalid(error: ValidationError) -> tuple[ErrorCode, str]:
    """A stable code and one sentence for a frame that failed validation."""
    first = error.errors()[0]
    kind, loc = first["type"], [str(part) for part in first["loc"]]
    if kind == "json_invalid":
        return "bad_json", "That frame is not valid JSON"
    if kind == "union_tag_invalid":
        tag = first["input"].get("type") if isinstance(first["input"], dict) else None
        return "bad_message", f"Unknown message type {str(tag)[:40]!r}"
    if kind == "union_tag_not_found":
        return "bad_message", "A message needs a 'type' field"
    if not loc:
        return "bad_message", "A message must be a JSON object with a 'type' field"
    tag, field = loc[0], ".".join(loc[1:]) or loc[0]
    if kind == "extra_forbidden":
        return "bad_message", f"A {tag} message has no field {field[:40]!r}"
    if kind == "missing":
        return "bad_message", f"A {tag} message needs the field {field!r}"
    if kind in ("string_pattern_mismatch", "value_error") and "card" in field:
        return "bad_message", (
            f"{str(first['input'])[:12]!r} is not a card; write cards like 5H, 10S, JD or AS"
        )
    return "bad_message", f"Field {field!r} of a {tag} message: {first['msg']}"


def salvage_id(frame: str) -> MessageId:
    """The ``id`` of a frame that failed validation, if it has a usable one, for the error."""
    try:
        data = json.loads(frame)
    except ValueError:
        return None
    found = data.get("id") if isinstance(data, dict) else None
    if isinstance(found, bool) or not isinstance(found, int | str):
        return None
    return found if isinstance(found, int) or len(found) <= 64 else None


class Connection:
    def __init__(self, ws: ServerConnection, lobby: Lobby) -> None:
        self.ws = ws
        self.lobby = lobby
        self.config = lobby.config
        self.metrics = lobby.metrics
        self.player: Player | None = None
        self.watching: Room | None = None
        self.queue: asyncio.Queue[str] = asyncio.Queue(self.config.send_queue)
        self.tokens = float(self.config.burst)
        self.stamp = time.monotonic()
        self.refused = 0
        self.closing = False
        self._closer: asyncio.Task[None] | None = None
        self._writer: asyncio.Task[None] | None = None
        """Drains ``queue``; runs only while frames wait for a full socket buffer."""
        self._loop = asyncio.get_running_loop()
        self.last_frame = self._loop.time()
        self._timer = self._loop.call_at(self.last_frame + self._limit(), self._check_timeout)

    # --- sending -------------------------------------------------------------------------------

    def send(self, message: ServerMessage) -> None:
        if self.closing:
            return
        if isinstance(message, Error):
            self.metrics.errors.labels(message.code).inc()
        ws = self.ws
        if ws.transport.is_closing():
            return  # the socket is gone or going; the reader sees the close and cleans up
        text = encoded(message)
        if self._writer is None and not ws.paused and ws.protocol.state is State.OPEN:
            # The socket keeps up: write the frame now, as ws.send() would, without a task.
            ws.protocol.send_text(text.encode())
            ws.send_data()
            return
        try:
            self.queue.put_nowait(text)
        except asyncio.QueueFull:
            log.warning("disconnecting a reader that fell %d frames behind", self.queue.qsize())
            self.close(CloseCode.POLICY_VIOLATION, "too slow to read")
            return
        if self._writer is None:
            self._writer = self._loop.create_task(self._write_queued())

    def error(self, code: ErrorCode, message: str, id: MessageId = None) -> None:
        self.send(Error(code=code, message=message, id=id))

    def close(self, code: int, reason: str) -> None:
        """Close with ``code``; the connection leaves its room at once, before the handshake."""
        if not self.closing:
            self.closing = True
            self._gone()
            self._closer = self._loop.create_task(self.ws.close(code, reason))
            self.last_frame = self._loop.time()
            self._rearm()

    # --- timeouts ------------------------------------------------------------------------------
    #
    # One timer per connection, not one per frame: each frame only notes its time, and the timer,
    # when it fires, either finds a later deadline and sleeps again or acts. With tens of
    # thousands of sockets a timeout object per frame was measurable CPU and, worse, young
    # objects alive while every socket waits, which the garbage collector walks again and again.

    def _limit(self) -> float:
        """Seconds of silence allowed now: for a hello, between messages, or to finish closing."""
        if self.closing:
            return 5.0
        return self.config.idle_timeout if self.player else self.config.hello_timeout

    def _rearm(self) -> None:
        """Set the timer for the current deadline (after a shorter limit, or if it fired early)."""
        self._timer.cancel()
        self._timer = self._loop.call_at(self.last_frame + self._limit(), self._check_timeout)

    def _check_timeout(self) -> None:
        if self._loop.time() < self.last_frame + self._limit():
            self._rearm()  # a frame came since this timer was set: sleep until the new deadline
        elif self.closing:
            self.ws.transport.abort()  # the peer never finished the closing handshake
        elif self.player is None:
            self.close(CloseCode.POLICY_VIOLATION, "no hello in time")
        else:
            self.close(CloseCode.GOING_AWAY, "idle")

    async def _write_queued(self) -> None:
        """Send what queued up while the socket's buffer was full, waiting for it to drain."""
        try:
            while not self.queue.empty():
                await self.ws.send(self.queue.get_nowait())
        except ConnectionClosed:
            pass
        finally:
            self._writer = None

    # --- the connection's life -----------------------------------------------------------------

    async def run(self) -> None:
        self.metrics.connections.inc()
        peer = self.ws.remote_address
        log.debug(
            "connected", extra={"peer": peer[0] if peer else None, "conn": self.ws.id.hex[:8]}
        )
        try:
            await self._read()
        except ConnectionClosed:
            pass
        finally:
            self.closing = True
            self._timer.cancel()
            self.metrics.connections.dec()
            self._gone()
            code = self.ws.close_code
            log.debug("disconnected", extra={"conn": self.ws.id.hex[:8], "code": code})
            with contextlib.suppress(Exception):
                await asyncio.wait_for(self._drain(), 1.0)
            if self._writer is not None:
                self._writer.cancel()

    async def _drain(self) -> None:
        while not self.queue.empty():
            await asyncio.sleep(0.01)

    async def _read(self) -> None:
        while True:
            frame = await self.ws.recv()
            self.last_frame = self._loop.time()
            if self.closing:
                continue  # read on, unanswered, so the closing handshake can complete
            if not self._allow():
                continue
            if isinstance(frame, bytes):
                self.error("binary_frame", "Send text frames holding JSON; binary is not used")
                continue
            try:
                message = parse_client(frame)
            except ValidationError as invalid:
                code, sentence = describe_invalid(invalid)
                self.error(code, sentence, salvage_id(frame))
                continue
            self.metrics.messages.labels(message.type).inc()
            try:
                await self._handle(message)
                if isinstance(message, Hello):
                    self._rearm()  # from the hello timeout to the (usually longer) idle one
            except Refusal as refusal:
                self.error(refusal.code, refusal.message, message.id)
            except Exception:
                log.exception("failed to handle %s", message.type)
                self.error(
                    "internal", "The server failed on that message; it was not applied", message.id
                )

    def _allow(self) -> bool:
        """Token bucket: ``rate`` per second, ``burst`` at once.

        The first refused message of a flood gets a ``rate_limited`` error; the flood ends when
        the bucket has refilled. A flood that goes on past ``flood_close_after`` refused
        messages is closed with 1008.
        """
        now = time.monotonic()
        burst = self.config.burst
        self.tokens = min(burst, self.tokens + (now - self.stamp) * self.config.rate)
        self.stamp = now
        if self.tokens >= burst:
            self.refused = 0
        if self.tokens >= 1:
            self.tokens -= 1
            return True
        self.refused += 1
        if self.refused == 1:
            self.error("rate_limited", "Too many messages: slow down or be disconnected")
        elif self.refused > self.config.flood_close_after:
            self.close(CloseCode.POLICY_VIOLATION, "rate limit")
        return False

    def _gone(self) -> None:
        if self.watching is not None:
            self.watching.spectators.discard(self)
            self.watching.send_room()
            self.watching = None
        player = self.player
        if player is not None and player.peer is self:
            player.peer = None
            player.gone_since = self.lobby.clock()
            if player.room is not None:
                player.room.detach(player)

    # --- messages ------------------------------------------------------------------------------

    def _seat(self) -> tuple[Room, int]:
        player = self.player
        room = player.room if player else None
        seat = room.seat_of(player) if room and player else None
        if room is None or seat is None:
            if self.watching is not None:
                raise Refusal("not_seated", "Spectators cannot play; join a room with a free seat")
            raise Refusal("not_in_room", "You are not seated in a room; create or join one first")
        return room, seat

    async def _handle(self, message: ClientMessage) -> None:
        if isinstance(message, Ping):
            self.send(Pong(id=message.id))
            return
        await self.lobby.prepare(message)
        if isinstance(message, Hello):
            self._hello(message)
            return
        player = self.player
        if player is None:
            raise Refusal("hello_first", "Say hello first (your name and protocol version)")
        if isinstance(message, GAME_MOVES):
            room, seat = self._seat()
            await room.act(seat, message, origin=self, id=message.id)
        elif isinstance(message, CreateRoom):
            await self._free(player)
            room = await self.lobby.create_room(message.options)
            self._stop_watching()
            await room.sit(player, id=message.id)
        elif isinstance(message, JoinRoom):
            room = self.lobby.find(message.code)
            if player.room is not None and player.room is not room:
                await self._free(player, joining=room)
            self._stop_watching()
            await room.sit(player, id=message.id)
        elif isinstance(message, Spectate):
            await self._spectate(player, message)
        elif isinstance(message, ListRooms):
            self.send(self.lobby.listing().model_copy(update={"id": message.id}))
        elif isinstance(message, SeatBot):
            level = message.level or strongest_level()
            if level not in LEVELS:
                raise Refusal(
                    "unknown_level", f"No level {level!r}; choose from {', '.join(LEVELS)}"
                )
            room, _ = self._seat()
            await room.seat_bot(level, by=player, id=message.id)
        elif isinstance(message, ProposeRestart):
            room, seat = self._seat()
            await room.propose_restart(seat, origin=self, id=message.id)
        elif isinstance(message, AnswerRestart):
            room, seat = self._seat()
            await room.answer_restart(seat, message.accept, origin=self, id=message.id)
        elif isinstance(message, Rematch):
            room, seat = self._seat()
            await room.ask_rematch(seat, origin=self, id=message.id)
        elif isinstance(message, Claim):
            room, seat = self._seat()
            await room.claim(seat, message.take, origin=self, id=message.id)
        elif isinstance(message, Chat):
            self._chat(player, message)
        elif isinstance(message, Leave):
            await self._leave(player, message.id)

    def _hello(self, message: Hello) -> None:
        if self.player is not None:
            raise Refusal("already_welcomed", "You already said hello on this connection")
        if message.protocol != PROTOCOL_VERSION:
            raise Refusal(
                "unsupported_protocol",
                f"This server speaks protocol {PROTOCOL_VERSION}, not {message.protocol}",
            )
        if message.token:
            player = self.lobby.resume(message.token)
            token = message.token
            resumed = True
        else:
            player, token = self.lobby.new_player(message.name)
            resumed = False
        old = player.peer
        if isinstance(old, Connection) and old is not self:
            old.player = None
            old.close(4000, "replaced by a newer connection")
        player.peer, player.gone_since = self, None
        self.player = player
        room = player.room
        self.send(
            Welcome(
                id=message.id,
                player=player.id,
                name=player.name,
                token=token,
                protocol=PROTOCOL_VERSION,
                server=VERSION,
                levels=tuple(LEVELS),
                resumed=resumed,
                room=room.code if room else None,
            )
        )
        if room is not None:
            room.attach(player)

    async def _free(self, player: Player, *, joining: Room | None = None) -> None:
        """Before taking another seat: leave a room whose match is over, else refuse.

        When ``joining`` a room, a full one is refused before anything is left.
        """
        room = player.room
        if room is None:
            return
        if room.status != "over":
            raise Refusal("already_in_room", f"You have a seat in room {room.code}; leave it first")
        if joining is not None and all(s.kind != "empty" for s in joining.seats):
            raise Refusal("room_full", f"Room {joining.code} has no empty seat")
        await room.leave(player)

    def _stop_watching(self) -> None:
        if self.watching is not None:
            self.watching.spectators.discard(self)
            self.watching.send_room()
            self.watching = None

    async def _spectate(self, player: Player, message: Spectate) -> None:
        room = self.lobby.find(message.code)
        if not room.options.spectators:
            raise Refusal("spectators_off", f"Room {room.code} does not allow spectators")
        await self._free(player)
        self._stop_watching()
        self.watching = room
        room.spectators.add(self)
        room.welcome_back(self, None, id=message.id)
        room.send_room()

    def _chat(self, player: Player, message: Chat) -> None:
        room = player.room or self.watching
        if room is None:
            raise Refusal("not_in_room", "Chat goes to a room; join or watch one first")
        text = clean_text(message.text)
        if not text:
            raise Refusal("bad_message", "That chat line is empty")
        line = ChatLine(sender=player.name, seat=room.seat_of(player), text=text)
        room.say(line, origin=self, id=message.id)

    async def _leave(self, player: Player, id: MessageId) -> None:
        room = player.room or self.watching
        if room is None:
            raise Refusal("not_in_room", "You are not in a room")
        if self.watching is room:
            self._stop_watching()
        else:
            await room.leave(player)
        self.send(Left(code=room.code, id=id))
