"""What the stores keep for moderation: records by kind and key, and append-only lists.

Every :class:`~server.store.games.Store` (memory, SQLite, Redis) is also a
:class:`ModerationStore`. Its two shapes are all moderation needs (the meaning is in
:mod:`server.accounts.sanctions`):

- **records**: a JSON text per (kind, key), replaced or removed whole: the bans and mutes by
  account, the reports by id, each account's blocks;
- **lists**: JSON texts appended in order, read newest last: the moderation log (never trimmed,
  never edited: there is no call that could) and each room's chat (trimmed to the newest
  ``keep``, and its oldest entries dropped once past the retention, see
  :meth:`ModerationStore.list_drop_through`).
"""

from __future__ import annotations

from typing import Protocol


class ModerationStore(Protocol):
    async def record_put(self, kind: str, key: str, value: str | None) -> None:
        """Keep ``value`` under (kind, key); None removes it."""

    async def record_get(self, kind: str, key: str) -> str | None: ...

    async def records(self, kind: str) -> dict[str, str]:
        """Every record of a kind, by key."""

    async def list_append(self, name: str, value: str, *, keep: int | None = None) -> None:
        """Append to the list ``name``; with ``keep``, only the newest ``keep`` stay."""

    async def list_read(self, name: str, *, limit: int) -> list[str]:
        """The newest ``limit`` entries of a list, oldest first."""

    async def list_names(self, prefix: str) -> list[str]:
        """The names of the lists that start with ``prefix`` and hold an entry."""

    async def list_drop_through(self, name: str, value: str) -> int:
        """Delete the entries of a list from its oldest through the first equal to ``value``;
        the number deleted (0 when ``value`` is not there: trimmed already, with all before it)."""
