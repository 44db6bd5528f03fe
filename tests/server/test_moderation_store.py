# ruff: noqa: F811  (the store fixture is imported from the account contract and used by name)
"""The moderation contract every Store keeps (memory, SQLite, a real redis-server, and a cluster
store keeping it in a real PostgreSQL): records by kind and key, append-only lists trimmed only
when asked, and the typed sanctions over them."""

from __future__ import annotations

import json
import logging
import time

import pytest
from test_account_store_contract import postgres_server, store  # noqa: F401  (shared fixtures)
from test_store_contract import redis_server  # noqa: F401  (the shared fixture)

from muggins.server.accounts.sanctions import LogEntry, ReportRecord, Sanction, Sanctions
from muggins.server.config import ServerConfig
from muggins.server.lobby.lobby import Lobby
from muggins.server.runtime.metrics import Metrics
from muggins.server.store.games import Store
from muggins.server.store.memory_games import MemoryStore


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


async def test_a_list_drops_its_oldest_through_a_value(store: Store) -> None:
    """``list_drop_through`` deletes from the oldest through the value (none when it is not
    there); ``list_names`` lists the lists of a prefix that hold an entry."""
    for n in range(4):
        await store.list_append("chat:A", f"a{n}", keep=10)
    await store.list_append("chat:B", "b0", keep=10)
    await store.list_append("log", "e0")
    assert await store.list_names("chat:") == ["chat:A", "chat:B"]
    assert await store.list_drop_through("chat:A", "a1") == 2
    assert await store.list_read("chat:A", limit=10) == ["a2", "a3"]
    assert await store.list_drop_through("chat:A", "a1") == 0
    assert await store.list_drop_through("chat:B", "b0") == 1
    assert await store.list_read("chat:B", limit=10) == []
    assert await store.list_names("chat:") == ["chat:A"]
    assert await store.list_read("log", limit=10) == ["e0"]


async def test_chat_past_its_retention_is_deleted_from_the_store(store: Store) -> None:
    """The sweep deletes (not only hides) each room's lines older than the retention, and the
    marks of removed lines that are gone; newer lines, the log and reports stay."""
    day = 86400.0
    sanctions = Sanctions(store, chat_days=1)
    old = [
        await sanctions.keep_line("ROOM", at=n, sender="Bob", account="a2", text=f"old {n}")
        for n in range(3)
    ]
    await sanctions.keep_line("ROOM", at=1.5 * day, sender="Ann", account=None, text="new")
    gone = await sanctions.keep_line("DONE", at=1.0, sender="Ann", account=None, text="bye")
    await sanctions.remove_line("ROOM", old[1].id, by="Mod")
    await sanctions.remove_line("DONE", gone.id, by="Mod")
    await sanctions.report(
        ReportRecord("r1", 10.0, "Ann", None, "Bob", "a2", "rude", room="ROOM", line=old[0])
    )
    await sanctions.log(LogEntry(1.0, "Mod", "ban", "Bob", "spam"))
    assert await sanctions.sweep_chat(now=day + 1.5) == 3  # old 0, old 1 and "bye"
    assert [json.loads(t)["text"] for t in await store.list_read("chat:ROOM", limit=10)] == [
        "old 2",
        "new",
    ]
    assert await store.list_names("chat:") == ["chat:ROOM"]
    assert await store.records("removed:ROOM") == {}
    assert await store.records("removed:DONE") == {}
    assert await sanctions.sweep_chat(now=day + 1.5) == 0
    assert await sanctions.sweep_chat(now=3 * day) == 2
    assert await store.list_names("chat:") == []
    assert [r.line for r in await sanctions.reports()] == [old[0]]
    assert len(await sanctions.read_log(limit=10)) == 1


async def test_the_server_sweeps_kept_chat_hourly_and_logs_the_count(
    caplog: pytest.LogCaptureFixture,
) -> None:
    """The lobby's sweep deletes kept chat past the retention at once, then not again within the
    hour, and logs how many lines went."""
    store = MemoryStore()
    lobby = Lobby(store, ServerConfig(chat_days=1), Metrics())
    await lobby.sanctions.keep_line("ROOM", at=100.0, sender="Bob", account=None, text="old")
    caplog.set_level(logging.INFO, logger="muggins.lobby")
    await lobby.sweep()  # now: time.time(), far past 100 + 1 day
    assert await store.list_read("chat:ROOM", limit=10) == []
    assert "kept chat swept: 1 lines older than 1 days deleted" in caplog.text
    await lobby.sanctions.keep_line("ROOM", at=200.0, sender="Bob", account=None, text="old")
    assert await lobby.sweep_chat(time.time() + 3599) is None
    assert len(await store.list_read("chat:ROOM", limit=10)) == 1
    assert await lobby.sweep_chat(time.time() + 3601) == 1
