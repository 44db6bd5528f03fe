"""One WebSocket connection: limits, parsing, and turning client messages into lobby/room calls.

Frames are validated as one discriminated union straight from the JSON text. Outgoing frames are
written at once while the socket keeps up; once its buffer is full they wait in a bounded queue
drained by a writer task, so a room never waits on a slow reader, and a reader too slow to keep
up is disconnected.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import time
from collections import deque

from pydantic import ValidationError
from websockets.asyncio.server import ServerConnection
from websockets.exceptions import ConnectionClosed
from websockets.frames import CloseCode

from muggins.server.lobby.lobby import Lobby
from muggins.server.net.dispatch import HANDLERS
from muggins.server.net.frames import describe_invalid, salvage_id
from muggins.server.rooms.players import Player, Refusal
from muggins.server.rooms.room import Room
from muggins.server.store.games import StoreError
from muggins.server.wire.send_cache import encoded
from muggins.server.wire.ws_internals import can_frame_by_hand, write_now
from muggins.shared.bots import LEVELS
from muggins.shared.bots.strength import level_ratings
from muggins.shared.build import version
from muggins.shared.protocol import (
    GAME_MOVES,
    PROTOCOL_VERSION,
    ClientMessage,
    Error,
    ErrorCode,
    Hello,
    Ping,
    Pong,
    ServerMessage,
    Welcome,
    parse_client,
)
from muggins.shared.protocol.client import MessageId
from muggins.shared.token_bucket import TokenBucket

log = logging.getLogger("muggins.connection")
SLOW_CLOSE = 1.0
"""Seconds a reader closed for not reading has to complete the closing handshake (it will not
read the close frame either, most likely) before its socket is dropped."""
VERSION = version()
"""This server's version, sent in every welcome."""


class Connection:
    def __init__(self, ws: ServerConnection, lobby: Lobby, *, address: str = "?") -> None:
        self.ws = ws
        self.address = address
        """The client's IP address, for limits per address."""
        self.lobby = lobby
        self.config = lobby.config
        self.metrics = lobby.metrics
        self.player: Player[Room] | None = None
        self.watching: Room | None = None
        self.queue: deque[bytes] = deque()
        """Frames' texts (UTF-8) waiting for a full socket buffer to drain, ``queued`` bytes in
        all."""
        self.queued = 0
        self.bucket = TokenBucket(
            rate=self.config.rate, burst=float(self.config.burst), now=time.monotonic()
        )
        self.refused = 0
        self.closing = False
        self._close_wait = 5.0
        self._closer: asyncio.Task[None] | None = None
        self._writer: asyncio.Task[None] | None = None
        """Drains ``queue``; runs only while frames wait for a full socket buffer."""
        self._prepare = lobby.cluster.prepare
        """What fetches before a message what handling it looks up (a cluster node's rooms);
        None on one server, where nothing is awaited for it."""
        self._plain = can_frame_by_hand(ws)
        """Frames may be written without websockets' framing (see :meth:`send`)."""
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
        data = encoded(message)
        # The socket keeps up: write the frame now, as ws.send() would, without a task.
        if self._writer is None and write_now(ws, data, by_hand=self._plain):
            return
        if self.queued + len(data) > self.config.send_buffer:
            log.warning("disconnecting a reader that fell %d bytes behind", self.queued)
            self.close(CloseCode.POLICY_VIOLATION, "too slow to read", wait=SLOW_CLOSE)
            return
        self.queue.append(data)
        self.queued += len(data)
        if self._writer is None:
            self._writer = self._loop.create_task(self._write_queued())

    def error(
        self, code: ErrorCode, message: str, id: MessageId = None, *, seq: int | None = None
    ) -> None:
        self.send(Error(code=code, message=message, id=id, seq=seq))

    def close(self, code: int, reason: str, *, wait: float = 5.0) -> None:
        """Close with ``code``; the connection leaves its room at once, before the handshake.

        The socket is dropped if the closing handshake has not completed ``wait`` seconds on.
        """
        if not self.closing:
            self.closing = True
            self._gone()
            self._closer = self._loop.create_task(self.ws.close(code, reason))
            self.last_frame = self._loop.time()
            self._close_wait = wait
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
            return self._close_wait
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
        """Send what queued up while the socket's buffer was full, waiting for it to drain.

        A reader that lets a frame wait ``slow_reader`` seconds is closed with 1008.
        """
        try:
            while self.queue:
                data = self.queue.popleft()
                self.queued -= len(data)
                async with asyncio.timeout(self.config.slow_reader):
                    await self.ws.send(data, text=True)
        except ConnectionClosed:
            pass
        except TimeoutError:
            if not self.closing:
                waited = self.config.slow_reader
                log.warning("disconnecting a reader that read nothing for %.0f s", waited)
            self.queue.clear()
            self.queued = 0
            self.close(CloseCode.POLICY_VIOLATION, "too slow to read", wait=SLOW_CLOSE)
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
        while self.queue:
            await asyncio.sleep(0.01)

    async def _read(self) -> None:
        while True:
            frame = await self.ws.recv()
            if self.closing:
                # Read on, unanswered, so the closing handshake can complete; frames sent
                # meanwhile do not put off the deadline for it.
                continue
            self.last_frame = self._loop.time()
            if not self._allow(frame):
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
            except Exception as fault:  # not expected; a line in the log, never a traceback
                log.warning("unreadable frame refused: %s", str(fault)[:200])
                self.error("bad_message", "That frame could not be read as a message")
                continue
            self.metrics.message(message.type)
            try:
                await self._handle(message)
                if isinstance(message, Hello):
                    self._rearm()  # from the hello timeout to the (usually longer) idle one
            except Refusal as refusal:
                if message.type == "sign_in":
                    self.metrics.sign_ins_refused.labels(
                        "locked_out" if refusal.code == "rate_limited" else refusal.code
                    ).inc()
                self.error(refusal.code, refusal.message, message.id, seq=refusal.seq)
            except StoreError as error:  # a store the message needed is unreachable
                log.warning("%s not handled: %s", message.type, error)
                self.error("storage", "The server cannot reach its store; try again", message.id)
            except Exception:
                log.exception("failed to handle %s", message.type)
                self.error(
                    "internal", "The server failed on that message; it was not applied", message.id
                )

    def _allow(self, frame: str | bytes) -> bool:
        """Token bucket: ``rate`` per second, ``burst`` at once.

        A message over the limit is not handled but answered: a ``rate_limited`` error carrying
        its ``id``, so a client waiting for that answer never hangs. The flood ends when the
        bucket has refilled; one that goes on past ``flood_close_after`` refused messages is
        closed with 1008.
        """
        bucket = self.bucket
        now = time.monotonic()
        if bucket.full(now):
            self.refused = 0
        if bucket.take(now):
            return True
        self.refused += 1
        if self.refused > self.config.flood_close_after:
            if not self.closing:
                self.metrics.rate_limit_closes.inc()
            self.close(CloseCode.POLICY_VIOLATION, "rate limit")
        else:
            id = salvage_id(frame) if isinstance(frame, str) else None
            self.error("rate_limited", "Too many messages: slow down or be disconnected", id)
        return False

    @property
    def peer_address(self) -> str:
        """The address of the socket's other end (the proxy's, behind one)."""
        peer = self.ws.remote_address
        return str(peer[0]) if peer else "?"

    def _gone(self) -> None:
        watched = self.stop_watching()
        if watched is not None and not watched.spectators:
            self._loop.create_task(self.lobby.release(watched))
        player = self.player
        if player is not None and player.peer is self:
            player.peer = None
            player.gone_since = self.lobby.clock()
            if player.room is not None:
                player.room.detach(player)

    # --- messages ------------------------------------------------------------------------------

    def seat(self) -> tuple[Room, int]:
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
        if isinstance(message, GAME_MOVES) and self.player is not None:
            # The most frequent by far, and nothing to prepare: straight to the room (a move
            # before the hello falls through to hello_first below).
            room, seat = self.seat()
            await room.act(seat, message, origin=self, id=message.id)
            return
        prepare = self._prepare
        if prepare is not None:
            await prepare(message)
        if isinstance(message, Hello):
            await self._hello(message)
            return
        player = self.player
        if player is None:
            raise Refusal("hello_first", "Say hello first (your name and protocol version)")
        await HANDLERS[type(message)](self, player, message)

    async def _hello(self, message: Hello) -> None:
        if self.player is not None:
            raise Refusal("already_welcomed", "You already said hello on this connection")
        if message.protocol != PROTOCOL_VERSION:
            raise Refusal(
                "unsupported_protocol",
                f"This server speaks protocol {PROTOCOL_VERSION}, not {message.protocol}: "
                + (
                    f"update Muggins with: {self.config.update_command}"
                    if message.protocol < PROTOCOL_VERSION
                    else "this server is older than your client; ask its host to update it"
                )
                + " (since protocol 4 a brief view leaves out every part its "
                "step cannot have changed; since protocol 3 a state carries its events; "
                "since protocol 2 every move names the seq it answers)",
            )
        if message.token:
            player = self.lobby.resume(message.token)
            token = await self.lobby.rotate(player, message.token)
            if self.closing:  # closed while the new token was saved: nothing to attach
                return
            resumed = True
        else:
            player, token = self.lobby.new_player(message.name)
            player.name = await self.lobby.accounts.guest_name(player.name)
            resumed = False
        old = player.peer
        if isinstance(old, Connection) and old is not self:
            old.player = None
            old.close(4000, "replaced by a newer connection")
        player.peer, player.gone_since = self, None
        player.address = self.address
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
                level_ratings={k: v for k, v in level_ratings().items() if k in LEVELS},
                resumed=resumed,
                room=room.code if room else None,
                public_url=self.config.public_url,
            )
        )
        if room is not None:
            room.attach(player)

    async def free(self, player: Player[Room], *, joining: Room | None = None) -> None:
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
        await self.lobby.release(room)

    def stop_watching(self) -> Room | None:
        """Stop watching (if watching); the room that was watched."""
        room = self.watching
        if room is not None:
            room.spectators.discard(self)
            room.send_room()
            self.watching = None
        return room

    async def unwatch(self) -> None:
        """Stop watching, and close the watched room if that leaves it without anyone."""
        room = self.stop_watching()
        if room is not None:
            await self.lobby.release(room)
