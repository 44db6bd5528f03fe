# ruff: noqa: F811  (the store fixture is imported from the room contract and used by name)
"""The moderation contract every Store keeps (memory, SQLite and a real redis-server): records by
kind and key, append-only lists trimmed only when asked, and the typed sanctions over them."""

from __future__ import annotations

from test_store_contract import redis_server, store  # noqa: F401  (the shared fixtures)

from muggins.server.accounts.sanctions import LogEntry, ReportRecord, Sanction, Sanctions
from muggins.server.store.games import Store


async def test_records_are_replaced_whole_and_removed(store: Store) -> None:
    """A record is kept by kind and key, replaced by a second put, removed by None."""
    await store.record_put("ban", "a1", '{"x": 1}')
    await store.record_put("ban", "a2", '{"x": 2}')
    await store.record_put("mute", "a1", '{"y": 1}')
    await store.record_put("ban", "a1", '{"x": 3}')
    assert await store.record_get("ban", "a1") == '{"x": 3}'
    assert await store.records("ban") == {"a1": '{"x": 3}', "a2": '{"x": 2}'}
    await store.record_put("ban", "a1", None)
    assert await store.record_get("ban", "a1") is None
    assert await store.records("ban") == {"a2": '{"x": 2}'}
    assert await store.records("nothing") == {}


async def test_lists_keep_their_order_and_trim_only_when_asked(store: Store) -> None:
    """Appended entries read back oldest first, the newest ``limit``; ``keep`` trims."""
    for n in range(5):
        await store.list_append("log", f"e{n}")
    assert await store.list_read("log", limit=3) == ["e2", "e3", "e4"]
    for n in range(5):
        await store.list_append("chat:ROOM", f"c{n}", keep=2)
    assert await store.list_read("chat:ROOM", limit=10) == ["c3", "c4"]
    assert await store.list_read("log", limit=10) == [f"e{n}" for n in range(5)]


async def test_sanctions_reports_blocks_log_and_chat_round_trip(store: Store) -> None:
    """Bans end when their time is up, reports close, blocks pair up, the log reads newest
    first, removed chat lines and lines past the retention are not shown."""
    sanctions = Sanctions(store, chat_days=1)
    ban = Sanction("ban", "a1", "Ann", "spam", "Mod", at=100.0, until=200.0, address="10.0.0.1")
    await sanctions.put(ban)
    assert await sanctions.of("ban", "a1", now=150.0) == ban
    assert await sanctions.of("ban", "a1", now=250.0) is None
    assert await sanctions.address_ban("10.0.0.1", now=150.0) == ban
    assert await sanctions.lift("ban", "a1") == ban
    assert await sanctions.of("ban", "a1", now=150.0) is None
    line = await sanctions.keep_line("ROOM", at=1000.0, sender="Bob", account="a2", text="boo")
    await sanctions.report(
        ReportRecord("r1", 10.0, "Ann", "a1", "Bob", "a2", "rude", room="ROOM", line=line)
    )
    [open_report] = await sanctions.reports()
    assert open_report.line == line
    await sanctions.close_report("r1", "Mod")
    assert await sanctions.reports() == []
    await sanctions.block("a1", "a2", on=True)
    assert await sanctions.apart() == {frozenset(("a1", "a2"))}
    await sanctions.log(LogEntry(1.0, "Mod", "ban", "Ann", "spam"))
    await sanctions.log(LogEntry(2.0, "Mod", "unban", "Ann"))
    assert [e.action for e in await sanctions.read_log(limit=10)] == ["unban", "ban"]
    other = await sanctions.keep_line("ROOM", at=1001.0, sender="Ann", account="a1", text="hi")
    await sanctions.remove_line("ROOM", line.id, by="Mod")
    assert await sanctions.chat("ROOM", now=1002.0) == [other]
    assert await sanctions.chat("ROOM", now=1001.0 + 2 * 86400) == []
