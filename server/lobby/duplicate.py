"""Duplicate matches: two tables on the same deals with the seats swapped, one after the other.

A room made with ``options.duplicate`` is the first table. When its match is over, the second
table is made with the same match seed (so every deal deals the same cards to the same seat, see
:mod:`shared.duplicate`) and the two players sit down in it the other way round. When that one
is over, both players get a ``duplicate_result``: who won by how many points on the same cards,
and each hand as each of them played it. The match is settled (rated if the rooms are) once,
as one match, under the first table's game id; the tables themselves are not settled apart.

**Why one after the other, not both at once.** A person playing both tables at once would
hold both hands of every deal, so each table would show them the cards of the other. Played
one after the other, no message of the second table carries a card of the first, and the
comparison comes only when both tables are over. What the server cannot take away is memory:
at the second table a player meets the hands they held at the first. Duplicate tournaments
(docs/tournaments.md) avoid even that, by giving every pairing of a round the same deals.
"""

from __future__ import annotations

import asyncio
import logging
import time
from typing import TYPE_CHECKING, Protocol

from muggins.server.results.records import match_stats
from muggins.server.results.settle import PAIR_RATED_MAX, settle_result
from muggins.server.rooms.addresses import one_public_address
from muggins.server.rooms.players import Player, Refusal
from muggins.server.store.accounts import MatchResult, Stats, merge_stats
from muggins.server.store.games import Store, StoreError, match_id
from muggins.shared.actions import GameOptions
from muggins.shared.duplicate import compare, deal_lines, margin, verdict
from muggins.shared.match import Match
from muggins.shared.protocol import DuplicateResult, RoomOptions

if TYPE_CHECKING:
    from collections.abc import Callable

    from muggins.server.rooms.room import Room
    from muggins.server.rooms.seating import Table

log = logging.getLogger("muggins.duplicate")


class Lobby(Protocol):
    async def create_room(self, options: RoomOptions, *, second_table: bool = False) -> Room:
        """A new room with these options."""


class DuplicateTables:
    """One duplicate match: its first table, then its second (see the module doc)."""

    def __init__(
        self, lobby: Lobby, first: Room, *, on_result: Callable[[DuplicateResult], None] | None
    ) -> None:
        self.lobby = lobby
        self.first = first
        self.second: Room | None = None
        self.players: tuple[Player, Player] | None = None
        """The first player (seat 0 at the first table), then the second."""
        self.names: tuple[str, str] = ("", "")
        self.accounts: tuple[str | None, str | None] = (None, None)
        """The players' names and accounts as they sat at the first table."""
        self.result: DuplicateResult | None = None
        self.on_result = on_result
        """Told the result (from the first player's side) once the match is over."""
        self.done = asyncio.Event()
        self.tournament: str | None = None
        """The tournament this match is a game of, if any (its tables say so)."""
        self._task: asyncio.Task[None] | None = None
        first.duplicate_table = 1
        self._watch(first)

    def _watch(self, room: Room) -> None:
        told = room.on_change

        def changed(table: Table) -> None:
            if told is not None:
                told(table)
            if table.status == "over":
                self._next(table)

        room.on_change = changed

    def _next(self, table: Table) -> None:
        if table is self.first and self._task is None:
            self._task = asyncio.get_running_loop().create_task(self._second_table())
        elif table is self.second and self.result is None and not self.done.is_set():
            self.done.set()
            asyncio.get_running_loop().create_task(self._finish())

    async def _second_table(self) -> None:
        first = self.first
        one, two = (s.player for s in first.seats)
        if first.match is None or one is None or two is None:
            return
        self.players = (one, two)
        self.names = first.names()
        self.accounts = (first.seats[0].account, first.seats[1].account)
        seed = first.match.seed
        try:
            room = await self.lobby.create_room(first.options, second_table=True)
        except Refusal as refusal:
            log.warning("duplicate %s: no second table: %s", first.code, refusal.message)
            return
        room.duplicate_table = 2
        room.tournament = self.tournament
        room.new_seed = lambda: seed if isinstance(seed, bytes) else seed.to_bytes(32, "big")
        self.second = room
        self._watch(room)
        first.notice(
            "duplicate",
            f"Table 1 is over. Table 2 ({room.code}) deals the same cards with the seats swapped",
        )
        for player in (two, one):  # the second player takes seat 0 this time
            if player.room is first:
                await first.leave(player)
            try:
                await room.sit(player)
            except Refusal as refusal:
                log.warning("duplicate %s: could not seat %s: %s", room.code, player.name, refusal)

    async def _finish(self) -> None:
        first, second, players = self.first, self.second, self.players
        assert second is not None and players is not None
        one, two = first.match, second.match
        if one is None or two is None or not one.over or not two.over:
            return
        games = (
            match_id(first.code, first.match_number),
            match_id(second.code, second.match_number),
        )
        result = duplicate_result(
            first.options.game, one, two, self.names, games, rated=first.options.rated
        )
        self.result = result
        tell_result(second, result)
        shared = one_public_address(players[0].address, players[1].address)
        moved = await settle_duplicate(
            first.store,
            result,
            one,
            two,
            self.accounts,
            shared_address=shared,
            pair_max=first.rated_pair_max,
        )
        if moved:
            second.notice("rating", moved)
        if self.on_result is not None:
            self.on_result(result)


def duplicate_result(
    options: GameOptions,
    one: Match,
    two: Match,
    names: tuple[str, str],
    games: tuple[str, str],
    *,
    rated: bool,
) -> DuplicateResult:
    """The result of a duplicate match whose tables played ``one`` then ``two`` (both over),
    from no one's side (``you`` is None)."""
    points = margin(one.games, two.games, target=options.target)
    hands = compare(deal_lines(options, one.seed, one.log), deal_lines(options, two.seed, two.log))
    return DuplicateResult(
        games=games,
        names=names,
        you=None,
        margin=points,
        rated=rated,
        text=verdict(names, points, None),
        hands=tuple(hands),
    )


def tell_result(second: Room, result: DuplicateResult) -> None:
    """Tell ``result`` to everyone at the second table (here), each from their side."""
    names, points = result.names, result.margin
    for seat, peer in second.receivers():
        # At the second table the first player sits in seat 1.
        you = None if seat is None else 1 - seat
        peer.send(result.model_copy(update={"you": you, "text": verdict(names, points, you)}))


async def settle_duplicate(
    store: Store,
    result: DuplicateResult,
    one: Match,
    two: Match,
    accounts: tuple[str | None, str | None],
    *,
    shared_address: bool = False,
    pair_max: int = PAIR_RATED_MAX,
) -> str:
    """Settle a duplicate match once, as one match under its first table's game id (see
    :func:`server.results.settle.settle_result`, whose rules a plain rated match meets too:
    ``shared_address``, one public address for both players; ``pair_max``, the server's
    rated_pair_per_day); how the ratings moved ("" if they did not here: settled before, or
    guests)."""
    if accounts == (None, None):
        return ""
    stats_one = match_stats(Match.replay(one.options, one.seed, one.log))
    stats_two = match_stats(Match.replay(two.options, two.seed, two.log))
    stats: tuple[Stats, Stats] = (
        merge_stats(stats_one[0], stats_two[1]),
        merge_stats(stats_one[1], stats_two[0]),
    )
    points = result.margin
    score = 0.5 if points == 0 else 1.0 if points > 0 else 0.0
    record = MatchResult(
        match=result.games[0],
        finished=time.time(),
        accounts=accounts,
        names=result.names,
        rated=result.rated,
        score=score,
        match_points=(int(points > 0), int(points < 0)),
        stats=stats,
    )
    try:
        return await settle_result(store, record, shared_address=shared_address, pair_max=pair_max)
    except StoreError as error:
        log.warning("duplicate %s: could not settle: %s", result.games[0], error)
        return ""
