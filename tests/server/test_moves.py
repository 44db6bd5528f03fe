"""Saving a move for certain: a write that failed after running, or whose fate is unknown."""

from __future__ import annotations

import asyncio
from typing import Any

import pytest

from muggins.server.rooms import moves
from muggins.server.rooms.computer import BotPeer
from muggins.server.rooms.players import Peer, Player, Refusal
from muggins.server.rooms.room import Room
from muggins.server.store.games import StoreError
from muggins.server.store.memory_games import MemoryStore
from muggins.shared.actions import Action, Seat
from muggins.shared.protocol import RoomOptions, ServerMessage, State, from_action


class Inbox:
    def __init__(self) -> None:
        self.got: list[ServerMessage] = []

    def send(self, message: ServerMessage) -> None:
        self.got.append(message)

    def states(self) -> list[State]:
        return [m for m in self.got if isinstance(m, State)]


class FlakyStore(MemoryStore):
    """A memory store whose next writes fail: after running (``lose``) or before (``fail``);
    while ``blind``, it cannot be asked what it holds either."""

    def __init__(self) -> None:
        super().__init__()
        self.lose = 0
        self.fail = 0
        self.blind = False

    async def append_action(
        self, code: str, number: int, index: int, seat: Seat, action: Action, **tags: Any
    ) -> None:
        if self.fail:
            self.fail -= 1
            raise StoreError("connection refused")
        await super().append_action(code, number, index, seat, action, **tags)
        if self.lose:
            self.lose -= 1
            raise StoreError("Timeout reading from socket")  # it ran; the answer was lost

    async def confirm_action(self, code: str, number: int, index: int, key: str) -> bool:
        if self.blind:
            raise StoreError("Timeout connecting to server")
        return await super().confirm_action(code, number, index, key)


def no_bots(room: Room, seat: int, level: str) -> Peer:
    raise AssertionError("no computer here")


async def full_room(store: MemoryStore) -> tuple[Room, list[Inbox]]:
    room = Room("ABCDEF", RoomOptions(), store=store, grace=1.0, make_bot=no_bots)
    await store.create_room(room.record())
    inboxes = [Inbox(), Inbox()]
    for i in (0, 1):
        await room.sit(Player(id=f"p{i}", name="AB"[i], token_hash="h", peer=inboxes[i]))
    return room, inboxes


async def test_a_move_stored_although_the_write_failed_is_accepted(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """A timed-out write that ran: the server asks the store and answers the move as made."""
    monkeypatch.setattr(moves, "CONFIRM_FIRST", 0.01)
    store = FlakyStore()
    room, (ann, _) = await full_room(store)
    assert room.match is not None
    seq, view = room.seq, room.match.view(0)
    store.lose = 1
    await room.act(0, from_action(view.legal[0], seq=seq, id="m1"), origin=ann, id="m1")
    assert ann.states()[-1].id == "m1" and ann.states()[-1].seq == seq + 1
    stored = await store.load_match("ABCDEF", 1)
    assert stored is not None and stored.actions == tuple(room.match.log)
    assert stored.tags == ((seq, '0:"m1"'),) and len(room.match.log) == 1


async def test_a_move_not_stored_is_refused_with_storage(monkeypatch: pytest.MonkeyPatch) -> None:
    """A write that failed before running: 'storage', the match as it was, nobody told."""
    monkeypatch.setattr(moves, "CONFIRM_FIRST", 0.01)
    store = FlakyStore()
    room, (ann, ben) = await full_room(store)
    assert room.match is not None
    seq, view, heard = room.seq, room.match.view(0), len(ben.got)
    store.fail = 1
    with pytest.raises(Refusal) as refused:
        await room.act(0, from_action(view.legal[0], seq=seq, id=1), origin=ann, id=1)
    assert refused.value.code == "storage"
    assert room.match.log == [] and len(ben.got) == heard


async def test_an_unknown_outcome_is_unconfirmed_and_a_retry_applies_it_once(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """Write ran, answer lost, store unreachable: 'unconfirmed'; the retry is stored once."""
    monkeypatch.setattr(moves, "CONFIRM_FIRST", 0.01)
    store = FlakyStore()
    room, (ann, _) = await full_room(store)
    assert room.match is not None
    seq, view = room.seq, room.match.view(0)
    move = from_action(view.legal[0], seq=seq, id=5)
    store.lose, store.blind = 1, True
    with pytest.raises(Refusal) as refused:
        await room.act(0, move, origin=ann, id=5)
    assert refused.value.code == "unconfirmed" and room.match.log == []
    store.blind = False
    await room.act(0, move, origin=ann, id=5)  # the player sends it again
    assert ann.states()[-1].id == 5 and len(room.match.log) == 1
    stored = await store.load_match("ABCDEF", 1)
    assert stored is not None and len(stored.actions) == 1


async def test_the_computer_retries_a_move_the_store_refused(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """The computer's move fails to save three times; it tries again until the move is made."""
    monkeypatch.setattr(moves, "CONFIRM_FIRST", 0.01)
    monkeypatch.setattr("muggins.server.rooms.computer.RETRY_FIRST", 0.01)
    store = FlakyStore()
    bots: list[BotPeer] = []

    def make_bot(room: Room, seat: int, level: str) -> Peer:
        bots.append(BotPeer(room, seat, level, delay=0.0))
        return bots[-1]

    room = Room("ABCDEF", RoomOptions(), store=store, grace=1.0, make_bot=make_bot)
    await store.create_room(room.record())
    ann = Inbox()
    player = Player(id="p0", name="Ann", token_hash="h", peer=ann)
    await room.sit(player)
    store.fail = 3
    await room.seat_bot("easy", by=player)
    assert room.match is not None
    for _ in range(200):
        if room.match.log:
            break
        await asyncio.sleep(0.01)
    assert room.match.log, "the computer never laid away"
    assert store.fail == 0 and [seat for seat, _ in room.match.log] == [1]
    room.close()
