"""What each client message does: one handler per message type, looked up in :data:`HANDLERS`.

A :class:`~server.net.connection.Connection` reads, limits and parses frames, answers ``ping``
and ``hello`` itself and sends game moves straight to their room (the most frequent message by
far); every other message goes to its handler here, given the connection as a :class:`Session`.
A handler refuses with :class:`~server.rooms.players.Refusal`; nothing it refused has changed.
"""

from __future__ import annotations

import time
from collections.abc import Awaitable, Callable
from typing import Any, Protocol, runtime_checkable

from muggins.server.config import ServerConfig
from muggins.server.lobby.lobby import Lobby, strongest_level
from muggins.server.lobby.moderation import sanction_text
from muggins.server.lobby.seat_holders import games_of
from muggins.server.rooms.coach import hint_for
from muggins.server.rooms.players import Player, Refusal
from muggins.server.rooms.rated import rated_options
from muggins.server.rooms.room import Room
from muggins.server.store.games import StoreError
from muggins.shared.bots import LEVELS
from muggins.shared.names import clean_text
from muggins.shared.protocol import (
    AnswerRestart,
    AskHint,
    Chat,
    ChatLine,
    Claim,
    ClientMessage,
    CreateRoom,
    JoinRoom,
    Leave,
    Left,
    ListRooms,
    MyGames,
    ProposeRestart,
    Rematch,
    SeatBot,
    ServerMessage,
    Spectate,
)
from muggins.shared.protocol.accounts import ACCOUNT_REQUESTS
from muggins.shared.protocol.moderation import MODERATION_REQUESTS
from muggins.shared.protocol.review import GetReview
from muggins.shared.protocol.tournaments import (
    TOURNAMENT_REQUESTS,
    CreateTournament,
    GetTournament,
    JoinTournament,
    LeaveTournament,
    StartTournament,
    TournamentReply,
)


class Session(Protocol):
    """What a handler may use of the connection a message came on."""

    player: Player[Room] | None
    watching: Room | None
    lobby: Lobby
    config: ServerConfig
    address: str
    """The client's address, for limits per address (behind a proxy, the forwarded one)."""

    @property
    def peer_address(self) -> str: ...

    def send(self, message: ServerMessage) -> None: ...

    def seat(self) -> tuple[Room, int]: ...

    async def free(self, player: Player[Room], *, joining: Room | None = None) -> None: ...

    def stop_watching(self) -> Room | None: ...

    async def unwatch(self) -> None: ...


@runtime_checkable
class Closable(Protocol):
    """A peer that is a connection (a replaced tab's is closed)."""

    def close(self, code: int, reason: str) -> None: ...


REPLACED = 4000
"""The close code telling a client its seat was taken up by a newer connection."""


Handler = Callable[[Session, Player[Room], Any], Awaitable[None]]


async def create_room(session: Session, player: Player[Room], message: CreateRoom) -> None:
    options = message.options
    if options.rated:
        options = rated_options(options, player)
    await session.free(player)
    session.lobby.allow_room(player, session.address)
    room = await session.lobby.create_room(options)
    await session.unwatch()
    await room.sit(player, id=message.id)


async def join_room(session: Session, player: Player[Room], message: JoinRoom) -> None:
    room = session.lobby.find(message.code)
    if player.room is not None and player.room is not room:
        await session.free(player, joining=room)
    if session.watching is not room:
        await session.unwatch()
    else:
        session.stop_watching()
    held = room.held_for(player)
    older = held.player if held is not None else None
    await room.sit(player, id=message.id)
    if older is not None and older.room is None and isinstance(older.peer, Closable):
        older.peer.close(REPLACED, "replaced by a newer connection")


async def my_games(session: Session, player: Player[Room], message: MyGames) -> None:
    lobby = session.lobby
    games = games_of(player, message.tokens, holders=lobby.holders, players=lobby.players.get)
    session.send(games.model_copy(update={"id": message.id}))


async def spectate(session: Session, player: Player[Room], message: Spectate) -> None:
    room = session.lobby.find(message.code)
    if not room.options.spectators:
        raise Refusal("spectators_off", f"Room {room.code} does not allow spectators")
    if session not in room.spectators and len(room.spectators) >= session.config.max_spectators:
        raise Refusal(
            "spectators_full", f"Room {room.code} has as many spectators as it may; try later"
        )
    await session.free(player)
    if session.watching is not room:
        await session.unwatch()
    session.watching = room
    room.spectators.add(session)
    room.welcome_back(session, None, id=message.id)
    room.send_room()


async def list_rooms(session: Session, player: Player[Room], message: ListRooms) -> None:
    page = await session.lobby.listing(message.after, message.limit)
    session.send(page.model_copy(update={"id": message.id}))


async def seat_bot(session: Session, player: Player[Room], message: SeatBot) -> None:
    level = message.level or strongest_level()
    if level not in LEVELS:
        raise Refusal("unknown_level", f"No level {level!r}; choose from {', '.join(LEVELS)}")
    room, _ = session.seat()
    await room.seat_bot(level, by=player, id=message.id)


async def propose_restart(session: Session, player: Player[Room], message: ProposeRestart) -> None:
    room, seat = session.seat()
    await room.propose_restart(seat, origin=session, id=message.id, seq=message.seq)


async def answer_restart(session: Session, player: Player[Room], message: AnswerRestart) -> None:
    room, seat = session.seat()
    await room.answer_restart(seat, message.accept, origin=session, id=message.id, seq=message.seq)


async def rematch(session: Session, player: Player[Room], message: Rematch) -> None:
    room, seat = session.seat()
    await room.ask_rematch(seat, origin=session, id=message.id, seq=message.seq)


async def claim(session: Session, player: Player[Room], message: Claim) -> None:
    room, seat = session.seat()
    await room.claim(seat, message.take, origin=session, id=message.id, seq=message.seq)


async def chat(session: Session, player: Player[Room], message: Chat) -> None:
    room = player.room or session.watching
    if room is None:
        raise Refusal("not_in_room", "Chat goes to a room; join or watch one first")
    text = clean_text(message.text)
    if not text:
        raise Refusal("bad_message", "That chat line is empty")
    sanctions = session.lobby.sanctions
    now = time.time()
    seat = room.seat_of(player)
    try:  # said only once kept (moderation reads kept lines), after the mute is checked
        if player.account is not None:
            muted = await sanctions.of("mute", player.account, now=now)
            if muted is not None:
                raise Refusal("muted", sanction_text(muted))
        kept = await sanctions.keep_line(
            room.code, at=now, sender=player.name, account=player.account, text=text, seat=seat
        )
    except StoreError as error:
        raise Refusal(
            "storage",
            "Chat is unavailable for a moment: the server cannot keep the line; try again",
        ) from error
    line = ChatLine(sender=player.name, seat=seat, text=text, line=kept.id)
    room.say(line, origin=session, id=message.id, sender=player.account)


async def leave(session: Session, player: Player[Room], message: Leave) -> None:
    room = player.room or session.watching
    if room is None:
        raise Refusal("not_in_room", "You are not in a room")
    if session.watching is room:
        await session.unwatch()
    else:
        await room.leave(player)
        await session.lobby.release(room)
    session.send(Left(code=room.code, id=message.id))


async def account(session: Session, player: Player[Room], message: Any) -> None:
    await session.lobby.accounts.handle(player, message, peer=session, address=session.address)


async def tournament(session: Session, player: Player[Room], message: Any) -> None:
    director = session.lobby.tournaments
    reply: TournamentReply
    if isinstance(message, CreateTournament):
        reply = await director.create(player, message)
    elif isinstance(message, JoinTournament):
        reply = await director.join(player, message.tournament)
    elif isinstance(message, LeaveTournament):
        reply = await director.leave(player, message.tournament)
    elif isinstance(message, StartTournament):
        reply = await director.start(player, message.tournament, finish=message.finish)
    elif isinstance(message, GetTournament):
        reply = await director.get(player, message.tournament)
    else:
        reply = await director.listing()
    session.send(reply.model_copy(update={"id": message.id}))


async def moderation(session: Session, player: Player[Room], message: Any) -> None:
    await session.lobby.moderation.handle(player, message, peer=session)


async def ask_hint(session: Session, player: Player[Room], message: AskHint) -> None:
    room, seat = session.seat()
    session.send(await hint_for(room, seat, message.id))


HANDLERS: dict[type[ClientMessage], Handler] = {
    CreateRoom: create_room,
    JoinRoom: join_room,
    Spectate: spectate,
    ListRooms: list_rooms,
    SeatBot: seat_bot,
    ProposeRestart: propose_restart,
    AnswerRestart: answer_restart,
    Rematch: rematch,
    Claim: claim,
    Chat: chat,
    Leave: leave,
    AskHint: ask_hint,
    MyGames: my_games,
    **{request: account for request in (*ACCOUNT_REQUESTS, GetReview)},
    **{request: tournament for request in TOURNAMENT_REQUESTS},
    **{request: moderation for request in MODERATION_REQUESTS},
}
"""Every client message but ``ping``, ``hello`` and the game moves, to its handler."""
