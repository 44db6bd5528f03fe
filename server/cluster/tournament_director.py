"""The director of a cluster's tournament (see :mod:`server.cluster.tournaments`): the node that
holds its lease takes each table's result from Redis, answers a start or a finish asked for on
any node, pairs the members who are free and connected, makes their tables and writes the state,
fenced by the lease."""

from __future__ import annotations

import logging
import secrets
import time
from typing import TYPE_CHECKING

from muggins.server.cluster.duplicate import pair_result, read_link
from muggins.server.cluster.tournament_state import Entry, Game, State, arithmetic
from muggins.server.lobby.tournament_rules import finish
from muggins.server.lobby.tournaments import MOVE_SECONDS
from muggins.server.rooms.players import Refusal
from muggins.shared.actions import GameOptions
from muggins.shared.match import Match
from muggins.shared.protocol import RoomOptions
from muggins.shared.tournament import Swiss

if TYPE_CHECKING:
    from muggins.server.cluster.coordination import ClusterStore
    from muggins.server.cluster.tournament_records import TournamentRecords
    from muggins.server.lobby.lobby import Lobby

log = logging.getLogger("muggins.tournaments")


async def direct(records: TournamentRecords, lobby: Lobby, id: str) -> bool:
    """Direct tournament ``id`` once (this node holds the lease): results in, asks answered, new
    pairings, the state written. True when the state changed (every node is to look again)."""
    state, members = await records.read(id)
    before = state.text()
    for index, game in enumerate(state.games):
        if game.result is None:
            game.result = await score(records.store, state, game)
            if game.result is not None:
                state.recorded.append(index)
    asks = await records.asks(id)
    if "finish" in asks and state.status != "finished":
        finish(state, busy=bool(state.busy()))
    elif "start" in asks and state.kind == "swiss" and state.status == "waiting":
        state.status = "playing"
        state.entrants = sorted(members, key=lambda a: (members[a].at, a))
    over = state.ends_at is not None and time.time() >= state.ends_at
    if state.kind == "arena" and state.status == "playing" and over:
        state.status = "ending"
    if state.status == "ending" and not state.busy():
        state.status = "finished"
    if state.status == "playing":
        await _pair(records, lobby, state, members, await records.connected(id))
    changed = state.text() != before
    if changed:
        if not await records.write(state):
            return False  # the lease moved on meanwhile: the next director does it
        if state.status == "finished":
            await records.finished(id)
        log.info("tournament changed", extra={"tournament": id, "round": state.round})
    if asks:
        await records.answered(id, asks)
    return changed


async def _pair(
    records: TournamentRecords,
    lobby: Lobby,
    state: State,
    members: dict[str, Entry],
    connected: set[str],
) -> None:
    """Pair the members who are in and connected (see :mod:`server.cluster.tournaments`)."""
    calc = arithmetic(state, members)
    busy = state.busy()
    if isinstance(calc, Swiss):
        if busy:
            return
        if state.round >= state.rounds:
            state.status = "finished"
            return
        present = [a for a in state.entrants if members[a].active and a in connected]
        if len(present) < 2:
            return  # a round pairs nobody: it waits for two (else every round would pass empty)
        state.round += 1
        state.round_seed = secrets.token_bytes(32).hex()
        byes = {a: r.byes for a, r in calc.records.items()}
        pairs = calc.pair_round(present)
        state.byes += [a for a, r in calc.records.items() if r.byes > byes[a]]
        log.info("swiss round", extra={"tournament": state.id, "round": state.round})
        for first, second in pairs:
            await _table(records, lobby, state, first, second, state.round)
        return
    free = [a for a, e in members.items() if e.active and a in connected and a not in busy]
    for first, second in calc.pair(free):
        await _table(records, lobby, state, first, second, None)


async def _table(
    records: TournamentRecords,
    lobby: Lobby,
    state: State,
    first: str,
    second: str,
    round: int | None,
) -> None:
    """A new table for a pairing, recorded in ``state`` (seated by the players' nodes)."""
    options = RoomOptions(
        game=GameOptions(target=121 if state.target == 121 else 61),
        private=True,
        turn_timer=MOVE_SECONDS,
        spectators=not (state.duplicate and state.kind == "swiss"),
        duplicate=state.duplicate and state.kind == "arena",
    )
    try:
        room = await lobby.create_room(options)
    except Refusal as refusal:
        log.warning("tournament %s: no room: %s", state.id, refusal.message)
        return
    room.tournament = state.id
    seed = state.round_seed if state.duplicate and state.kind == "swiss" else ""
    if seed:
        pinned = bytes.fromhex(seed)
        room.new_seed = lambda: pinned
    await records.note_table(room.code, state.id, seed)
    state.games.append(Game(first, second, room.code, round))


async def score(store: ClusterStore, state: State, game: Game) -> float | None:
    """The first player's score at ``game``'s table once it is over (None: not yet)."""
    if state.duplicate and state.kind == "arena":
        link = await read_link(store, game.room)
        record = await store.load_match(link.second, 1) if link is not None else None
        if link is None or record is None:
            return None
        two = Match.replay(record.options, record.seed, record.actions, keep_events=False)
        found = await pair_result(store, link, two, 1, rated=False)
        if found is None:
            return None
        points = found[1].margin
        return 0.5 if points == 0 else 1.0 if points > 0 else 0.0
    record = await store.load_match(game.room, 1)
    if record is None:
        return None
    match = Match.replay(record.options, record.seed, record.actions, keep_events=False)
    if not match.over:
        return None
    return 1.0 if match.winner == 0 else 0.0
