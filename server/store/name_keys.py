"""Accounts' name keys brought up to today's folding (see :func:`muggins.shared.names.name_key`).

The folding grew to take off accents and other marks and to read dotless ``ı`` and dotted ``İ``
as ``i``. An account registered before kept its key of that time (``Alíce`` under ``alíce``), so
a new ``Alice`` would not collide with it. The stores recompute every key once (SQLite: the
migration that makes version 7; PostgreSQL: migration 5 of
:data:`server.store.postgres.MIGRATIONS`; Redis: on a node's start, see
:meth:`~server.cluster.redis_accounts.RedisAccounts.fold_name_keys`).

When two existing accounts now fold to one key, both are kept. The one that already holds the
key keeps it (sign-ins by that name found it already); among accounts that both have to move,
the one registered first (then by id) takes it. The other keeps its old key, so its owner still
signs in by its exact name, and an open report asks the moderators to rename it (``rename``).
"""

from __future__ import annotations

import json
import logging
import secrets
import sqlite3
import time
from collections.abc import Iterable
from dataclasses import dataclass, field, replace
from typing import Any, Final

import psycopg

from muggins.server.store.accounts import AccountRecord, account_from_json, account_json
from muggins.shared.names import name_key

log = logging.getLogger("muggins.store")

FOLDING: Final = "2"
"""The folding's version that the keys in a store follow (Redis keeps it under ``name-keys``)."""
REPORTER: Final = "Muggins"
"""Who files the report asking for a rename (the server itself, no account)."""


@dataclass(slots=True)
class Rekeying:
    moved: list[tuple[AccountRecord, str]] = field(default_factory=list)
    """Accounts and their new keys."""
    clashes: list[tuple[AccountRecord, AccountRecord]] = field(default_factory=list)
    """(an account left on its old key, the account that holds its new key)"""


def plan(accounts: Iterable[AccountRecord]) -> Rekeying:
    """Which accounts move to their new key and which clash (see the module doc)."""
    found = list(accounts)
    holders = {account.key: account for account in found}
    rekeying = Rekeying()
    stale = [a for a in found if name_key(a.name) != a.key]
    for account in sorted(stale, key=lambda a: (a.created, a.id)):
        new = name_key(account.name)
        holder = holders.get(new)
        if holder is not None:
            rekeying.clashes.append((account, holder))
            continue
        del holders[account.key]
        holders[new] = account
        rekeying.moved.append((account, new))
    return rekeying


@dataclass(frozen=True, slots=True)
class ClashReport:
    """An open report asking the moderators to rename ``account``, as the moderation records
    keep reports (:class:`server.accounts.sanctions.ReportRecord`, read back by that)."""

    id: str
    at: float
    name: str
    account: str
    reason: str

    def json(self) -> str:
        return json.dumps(
            {
                "id": self.id,
                "at": self.at,
                "by": REPORTER,
                "by_account": None,
                "name": self.name,
                "account": self.account,
                "reason": self.reason,
                "room": None,
                "game": None,
                "line": None,
                "closed_by": None,
            }
        )


def clash_report(account: AccountRecord, holder: AccountRecord, *, at: float) -> ClashReport:
    """The open report asking the moderators to rename ``account``."""
    log.warning(
        "account %s (%s) reads as %s (%s): it keeps its old name key and is reported for a rename",
        account.name,
        account.id,
        holder.name,
        holder.id,
    )
    return ClashReport(
        id="r" + secrets.token_hex(6),
        at=at,
        name=account.name,
        account=account.id,
        reason=(
            f"{account.name} and {holder.name} now read as one name (names fold accents, ı and "
            f"İ since {account.name} registered). Both accounts are kept; please rename "
            f"{account.name} so that each name is one account."
        ),
    )


def fold_sqlite(db: sqlite3.Connection) -> None:
    """The SQLite migration to version 7 (inside its transaction): every key recomputed."""
    accounts = [account_from_json(r) for (r,) in db.execute("SELECT record FROM accounts")]
    rekeying = plan(accounts)
    for account, key in rekeying.moved:
        db.execute(
            "UPDATE accounts SET key = ?, record = ? WHERE id = ?",
            (key, account_json(replace(account, key=key)), account.id),
        )
    for account, holder in rekeying.clashes:
        report = clash_report(account, holder, at=time.time())
        db.execute(
            "INSERT INTO moderation_records (kind, key, value) VALUES ('report', ?, ?)",
            (report.id, report.json()),
        )
    folded(rekeying)


async def fold_postgres(connection: psycopg.AsyncConnection[Any]) -> None:
    """PostgreSQL's migration 5 (inside its transaction): every key recomputed. Only the
    columns the plan reads are loaded; each move is one update, in the plan's order, so a key
    is free when an account takes it."""
    cursor = await connection.execute("SELECT id, name, key, created FROM accounts")
    accounts = [
        AccountRecord(id=id, name=name, key=key, password_hash="", created=float(created))
        for id, name, key, created in await cursor.fetchall()
    ]
    rekeying = plan(accounts)
    for account, key in rekeying.moved:
        await connection.execute("UPDATE accounts SET key = %s WHERE id = %s", (key, account.id))
    for account, holder in rekeying.clashes:
        report = clash_report(account, holder, at=time.time())
        await connection.execute(
            "INSERT INTO moderation_records (kind, key, value) VALUES ('report', %s, %s)",
            (report.id, report.json()),
        )
    folded(rekeying)


def folded(rekeying: Rekeying) -> None:
    """Log what a fold did (each clash was logged when reported)."""
    log.info("name keys folded: %d moved, %d reported", len(rekeying.moved), len(rekeying.clashes))
