"""The names of the keys and channels a :class:`~server.cluster.redis_store.RedisStore` uses, and
its wake-ups, in one place so every script call names them the same way.

Keys (all under a prefix, ``muggins:`` by default):

- ``room:{code}`` hash: options, created, seats, closed, match (the current match number),
  status (waiting, playing or over, as listed), touched (the time of the last write).
- ``rooms:open`` set: the codes of open rooms.
- ``retired:XX`` hashes: the codes of closed rooms whose matches moved to PostgreSQL (the room
  hash is gone), so a code is never given out twice.
- ``rooms:listed`` sorted set and ``rooms:summary`` hash: the lobby's listing index, kept by the
  scripts that change rooms (see :data:`server.cluster.scripts.RELIST`), so a page of the
  listing costs three commands however many rooms there are.
- ``rooms:vacant`` hash: since when each waiting room has had nobody connected for it (see
  :meth:`server.cluster.coordination.ClusterStore.vacant_rooms`).
- ``player:{id}``: the room where a player was last seated (so any node can resume them).
- ``match:{code}:{n}`` hash: seed, options, names, started, finished, result, winner, and
  ``handover:{seat}:{at}`` for each time a seat changed hands (JSON; set once, HSETNX).
- ``log:{code}:{n}`` list: the accepted actions of match ``n``; its length is the next index.
  Each entry is JSON: seat, action, the ``seq`` its move named and the move's ``key``.
- ``voided:{code}:{n}`` set: attempts to append that timed out and were then reported as not
  stored (:meth:`~server.cluster.redis_matches.RedisMatches.confirm_action`); if such a write
  reaches Redis late, it is refused.
- ``finished`` sorted set: ``{code}-{n}`` of finished matches by finish time (history).
- ``unsettled`` sorted set: ``{code}-{n}`` of every match started and not settled yet, by its
  start time; a settlement removes it, and the sweep settles what a dead node left (see
  :mod:`server.cluster.settling`).
- ``watch:{code}`` set: the nodes that keep the room cached (they hold, or held lately, one of
  its connections); a change wakes only them.
- channel ``node:{node}``: a node's wake-ups, one channel per node. Each names its room; an
  appended action's carries the action, so the other nodes apply it without reading the log.
  Any other wake-up makes them catch up by index, so a lost wake-up only costs latency.
"""

from __future__ import annotations

import json
from typing import Any

from muggins.server.store.games import SeatRecord
from muggins.shared.actions import Seat


class RedisKeys:
    """The store's keys under its prefix, and the channels that wake its nodes."""

    prefix: str
    node: str

    def room_key(self, code: str) -> str:
        return f"{self.prefix}room:{code}"

    def match_key(self, code: str, number: int) -> str:
        return f"{self.prefix}match:{code}:{number}"

    def log_key(self, code: str, number: int) -> str:
        return f"{self.prefix}log:{code}:{number}"

    def voided_key(self, code: str, number: int) -> str:
        return f"{self.prefix}voided:{code}:{number}"

    def player_key(self, player: str) -> str:
        return f"{self.prefix}player:{player}"

    def _player_keys(self, seats: tuple[SeatRecord, SeatRecord]) -> list[str]:
        return [self.player_key(s.player) for s in seats if s.kind == "human" and s.player]

    def watch_key(self, code: str) -> str:
        return f"{self.prefix}watch:{code}"

    @property
    def node_prefix(self) -> str:
        """The channel of node ``n`` is this prefix followed by ``n``."""
        return f"{self.prefix}node:"

    def node_channel(self, node: str) -> str:
        return self.node_prefix + node

    def _waking(self, code: str, kind: str, **facts: Any) -> list[Any]:
        """The ARGV head of a script that wakes the room's nodes (see scripts.WAKE)."""
        return [self.node_prefix, self.wake(kind, room=code, **facts), self.node]

    @property
    def open_key(self) -> str:
        return f"{self.prefix}rooms:open"

    @property
    def listed_key(self) -> str:
        return f"{self.prefix}rooms:listed"

    @property
    def summary_key(self) -> str:
        return f"{self.prefix}rooms:summary"

    @property
    def vacant_key(self) -> str:
        return f"{self.prefix}rooms:vacant"

    @property
    def finished_key(self) -> str:
        return f"{self.prefix}finished"

    @property
    def unsettled_key(self) -> str:
        return f"{self.prefix}unsettled"

    def presence_key(self, code: str, seat: Seat) -> str:
        return f"{self.prefix}here:{code}:{seat}"

    @staticmethod
    def wake(kind: str, **facts: Any) -> str:
        return json.dumps({"kind": kind, **facts}, separators=(",", ":"))
