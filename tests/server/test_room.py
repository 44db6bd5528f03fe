"""Room logic without sockets: peers are plain objects with a ``send``."""

from __future__ import annotations

from typing import Any

import pytest

from muggins.server.rooms.players import Peer, Player, Refusal
from muggins.server.rooms.room import Room
from muggins.server.store.games import StoreError
from muggins.server.store.memory_games import MemoryStore
from muggins.shared.actions import Action, Seat
from muggins.shared.protocol import RoomOptions, ServerMessage, State


class Inbox:
    def __init__(self) -> None:
        self.got: list[ServerMessage] = []

    def send(self, message: ServerMessage) -> None:
        self.got.append(message)

    def states(self) -> list[State]:
        return [m for m in self.got if isinstance(m, State)]


class FailingStore(MemoryStore):
    """Accepts rooms and matches, then fails every action write."""

    async def append_action(
        self, code: str, number: int, index: int, seat: Seat, action: Action, **tags: Any
    ) -> None:
        raise StoreError("disk full")


def no_bots(room: Room, seat: int, level: str) -> Peer:
    raise AssertionError("no computer in these tests")


async def full_room(
    store: MemoryStore, *, names: tuple[str, str] = ("Ann", "Ben")
) -> tuple[Room, list[Inbox], list[Player]]:
    room = Room("ABCDEF", RoomOptions(), store=store, grace=1.0, make_bot=no_bots)
    await store.create_room(room.record())
    inboxes = [Inbox(), Inbox()]
    players = [Player(id=f"p{i}", name=names[i], token_hash="h", peer=inboxes[i]) for i in (0, 1)]
    for player in players:
        await room.sit(player)
    return room, inboxes, players


async def test_each_seat_gets_its_own_view_and_spectators_none() -> None:
    """States go out per seat; a spectator's view holds no hand."""
    room, (ann, ben), _ = await full_room(MemoryStore())
    watcher = Inbox()
    room.spectators.add(watcher)
    assert room.match is not None
    [ann_state] = ann.states()
    assert ann_state.view.seat == 0 and ann_state.view.hand == room.match.view(0).hand
    assert ben.states()[-1].view.seat == 1
    move = ann_state.view.legal[0]
    await room.act(0, move, origin=ann, id="m1")
    assert ann.states()[-1].id == "m1" and ben.states()[-1].id is None
    [seen] = watcher.states()
    assert seen.view.seat is None and seen.view.hand == ()
    assert [line.text for line in seen.events] == ["Ann lays away two cards"]


async def test_a_move_the_store_cannot_save_is_refused_and_undone() -> None:
    """Persist before send: a failed write leaves the match as it was and tells nobody."""
    room, (ann, ben), _ = await full_room(FailingStore())
    assert room.match is not None
    before = room.match.view(0)
    sent = len(ben.got)
    with pytest.raises(Refusal) as refused:
        await room.act(0, before.legal[0], origin=ann)
    assert refused.value.code == "storage"
    assert room.match.log == [] and room.match.view(0) == before
    assert len(ben.got) == sent


async def test_two_players_of_one_name_are_told_apart() -> None:
    """Sentences name the second of two same-named players "Ann (2)"."""
    room, _, _ = await full_room(MemoryStore(), names=("Ann", "Ann"))
    assert room.names() == ("Ann", "Ann (2)")
