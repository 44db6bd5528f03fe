"""Moderation records and lists in memory (the :class:`ModerationStore` of
:class:`~server.store.memory_games.MemoryStore`)."""

from __future__ import annotations


class MemoryModeration:
    def __init__(self) -> None:
        self.moderation_records: dict[str, dict[str, str]] = {}
        self.moderation_lists: dict[str, list[str]] = {}

    async def record_put(self, kind: str, key: str, value: str | None) -> None:
        found = self.moderation_records.setdefault(kind, {})
        if value is None:
            found.pop(key, None)
        else:
            found[key] = value

    async def record_get(self, kind: str, key: str) -> str | None:
        return self.moderation_records.get(kind, {}).get(key)

    async def records(self, kind: str) -> dict[str, str]:
        return dict(self.moderation_records.get(kind, {}))

    async def list_append(self, name: str, value: str, *, keep: int | None = None) -> None:
        found = self.moderation_lists.setdefault(name, [])
        found.append(value)
        if keep is not None:
            del found[:-keep]

    async def list_read(self, name: str, *, limit: int) -> list[str]:
        return self.moderation_lists.get(name, [])[-limit:] if limit > 0 else []

    async def list_names(self, prefix: str) -> list[str]:
        return sorted(n for n, v in self.moderation_lists.items() if v and n.startswith(prefix))

    async def list_drop_through(self, name: str, value: str) -> int:
        found = self.moderation_lists.get(name, [])
        if value not in found:
            return 0
        count = found.index(value) + 1
        del found[:count]
        if not found:
            del self.moderation_lists[name]
        return count
