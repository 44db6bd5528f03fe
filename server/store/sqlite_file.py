"""The SQLite file itself: created private, upgraded with a copy kept beside it, refused when a
newer Muggins wrote it, copied whole while a server writes to it (``muggins backup``) and put
back (``muggins restore``).

Copies are made with SQLite's online backup API, which reads one consistent snapshot, the log
(``-wal``) included, while the server goes on writing: a plain ``cp`` of the file alone misses
whatever the log has not yet handed to the database.
"""

from __future__ import annotations

import logging
import os
import sqlite3
import stat
from dataclasses import dataclass
from pathlib import Path

from muggins.server.store.games import StoreError
from muggins.server.store.sqlite_accounts import VERSION

log = logging.getLogger("muggins.store")

HOSTING = "see Upgrading in docs/hosting.md"


class DatabaseRefused(StoreError, ValueError):
    """The file cannot be used by this version of Muggins; the message says why and what to do."""


class CopyRefused(StoreError, ValueError):
    """A copy cannot be written where it was asked (no such folder, a folder, no permission)."""


def create_private(path: Path) -> None:
    """Make ``path``'s folder (0700, when it is made here) and an empty file (0600) unless they
    exist; an existing file of this user that others may read is made private (the file holds
    password and session hashes). SQLite gives its ``-wal`` and ``-shm`` files the file's mode."""
    if path.is_dir():
        raise DatabaseRefused(
            f"{path} is a folder: give the database file, e.g. {path / 'muggins.db'}"
        )
    folder = path.parent
    if not folder.exists():
        folder.mkdir(parents=True, mode=0o700)
        folder.chmod(0o700)  # mkdir's mode is cut by the umask
    if not path.exists():
        os.close(os.open(path, os.O_CREAT | os.O_WRONLY, 0o600))
    info = path.stat()
    loose = stat.S_IMODE(info.st_mode) & 0o077
    if loose and info.st_uid == os.geteuid():
        path.chmod(stat.S_IMODE(info.st_mode) & 0o700)
        log.warning("made %s private (others could read it: mode %o)", path, info.st_mode & 0o777)


def hold(path: Path) -> int:
    """Claim ``path`` for this process alone (``muggins serve``), or :class:`DatabaseRefused`
    when another process holds it: two servers on one file would both rebuild its rooms and
    apply their moves apart. The claim is an ``flock`` on the file, apart from SQLite's own
    locks, kept until the process ends: the descriptor returned is never to be closed, since
    closing any descriptor of the file would drop SQLite's locks in this process too."""
    import fcntl

    create_private(path)
    held = os.open(path, os.O_RDONLY)
    try:
        fcntl.flock(held, fcntl.LOCK_EX | fcntl.LOCK_NB)
    except BlockingIOError:
        os.close(held)
        raise DatabaseRefused(
            f"{path} is in use by another muggins serve: stop that one, or give this one "
            "another --db"
        ) from None
    return held


def version(db: sqlite3.Connection) -> int:
    (found,) = db.execute("PRAGMA user_version").fetchone()
    return int(found)


def tables(db: sqlite3.Connection) -> set[str]:
    return {name for (name,) in db.execute("SELECT name FROM sqlite_master WHERE type='table'")}


def check_known(db: sqlite3.Connection, path: Path) -> int:
    """The file's version, or :class:`DatabaseRefused` when a newer Muggins wrote it or it is
    some other program's database."""
    found = version(db)
    if found > VERSION:
        copy = path.with_name(f"{path.name}.v{VERSION}.bak")
        before = f"the copy taken before the upgrade ({copy})" if copy.exists() else "a backup"
        raise DatabaseRefused(
            f"{path} was written by a newer Muggins (database version {found}; this one knows "
            f"versions up to {VERSION}): run the newer Muggins, or restore {before} with "
            f"muggins restore; {HOSTING}"
        )
    present = tables(db)
    if present and "rooms" not in present:
        raise DatabaseRefused(f"{path} is not a Muggins database (it has no rooms table)")
    return found


def upgrade_copy(db: sqlite3.Connection, path: Path) -> Path | None:
    """Before a migration: copy the file (as ``muggins.db.v4.bak`` beside it) and return where;
    None when the file is new or already current (nothing to migrate)."""
    found = version(db)
    if found >= VERSION or not tables(db):
        return None
    copy = path.with_name(f"{path.name}.v{found}.bak")
    copy_to(db, copy)
    return copy


def copy_to(db: sqlite3.Connection, dest: Path) -> None:
    """Copy the database ``db`` is connected to into ``dest`` (0600), whole or not at all: the
    copy is written beside ``dest`` and renamed over it once it is complete and checked."""
    partial = dest.with_name(dest.name + ".partial")
    partial.unlink(missing_ok=True)
    os.close(os.open(partial, os.O_CREAT | os.O_WRONLY, 0o600))
    out = sqlite3.connect(partial, isolation_level=None)
    try:
        db.backup(out)
        out.execute("PRAGMA journal_mode=DELETE")  # one self-contained file
        problem = integrity(out)
    finally:
        out.close()
    if problem:
        partial.unlink(missing_ok=True)
        raise StoreError(f"the copy of the database failed its integrity check: {problem}")
    partial.replace(dest)


def integrity(db: sqlite3.Connection) -> str:
    """SQLite's integrity check: an empty string when the file is sound, else what is wrong."""
    rows = [row for (row,) in db.execute("PRAGMA integrity_check")]
    return "" if rows == ["ok"] else "; ".join(rows[:5])


@dataclass(frozen=True, slots=True)
class Contents:
    """What a database file holds, as ``muggins backup`` and ``restore`` report it."""

    finished: int
    accounts: int
    version: int

    def __str__(self) -> str:
        matches = "match" if self.finished == 1 else "matches"
        accounts = "account" if self.accounts == 1 else "accounts"
        return (
            f"{self.finished} finished {matches}, {self.accounts} {accounts} "
            f"(database version {self.version})"
        )


def contents(db: sqlite3.Connection) -> Contents:
    present = tables(db)
    finished = accounts = 0
    if "matches" in present:
        (finished,) = db.execute(
            "SELECT COUNT(*) FROM matches WHERE finished IS NOT NULL"
        ).fetchone()
    if "accounts" in present:
        (accounts,) = db.execute("SELECT COUNT(*) FROM accounts").fetchone()
    return Contents(finished, accounts, version(db))


def census(db: sqlite3.Connection) -> dict[str, int]:
    """Rooms open and matches waiting for their review (``/metrics``)."""
    (rooms,) = db.execute("SELECT COUNT(*) FROM rooms WHERE closed = 0").fetchone()
    (backlog,) = db.execute("SELECT COUNT(*) FROM review_pending").fetchone()
    return {"rooms_open": int(rooms), "review_backlog": int(backlog)}


def backup(source: Path, dest: Path) -> Contents:
    """Copy ``source`` (a server may be writing to it) into ``dest``, checked; what it holds."""
    if not source.exists():
        raise StoreError(f"{source} does not exist")
    if dest.resolve() == source.resolve():
        raise StoreError("the backup must go to another file than the database")
    if dest.is_dir():
        raise CopyRefused(f"{dest} is a folder: name the file to write, e.g. {dest / source.name}")
    if not dest.parent.is_dir():
        raise CopyRefused(f"cannot write {dest}: the folder {dest.parent} does not exist")
    db = sqlite3.connect(source, isolation_level=None)
    try:
        db.execute("PRAGMA busy_timeout=5000")
        check_known(db, source)
        copy_to(db, dest)
    except sqlite3.Error as error:
        raise StoreError(f"cannot back up {source}: {error}") from error
    except OSError as error:
        raise CopyRefused(f"cannot write {dest}: {error.strerror or error}") from error
    finally:
        db.close()
    out = sqlite3.connect(dest)
    try:
        return contents(out)
    finally:
        out.close()


def restore(source: Path, dest: Path) -> tuple[Contents, Path | None]:
    """Put the backup ``source`` in place of ``dest``, refused while a server has ``dest`` open
    and unless ``source`` is a sound Muggins database this version knows. The file it replaces is
    kept as ``muggins.db.before-restore``; returns what was restored and where that copy is."""
    if not source.exists():
        raise StoreError(f"{source} does not exist")
    for path, what in ((source, "the backup to restore"), (dest, "the database to replace")):
        if path.is_dir():
            raise CopyRefused(f"{path} is a folder: name {what}, a file")
    backup_db = sqlite3.connect(source)
    try:
        problem = integrity(backup_db)
        if problem:
            raise DatabaseRefused(f"{source} failed its integrity check: {problem}")
        check_known(backup_db, source)
        if "matches" not in tables(backup_db):
            raise DatabaseRefused(f"{source} is not a Muggins database (it has no matches)")
        create_private(dest)
        target = sqlite3.connect(dest, isolation_level=None, timeout=0)
        try:
            try:
                # A server keeps its connections open: while it runs, this lock is refused.
                target.execute("PRAGMA locking_mode=EXCLUSIVE")
                target.execute("BEGIN EXCLUSIVE")
                target.execute("COMMIT")
            except sqlite3.OperationalError as error:
                raise DatabaseRefused(
                    f"{dest} is in use (a server has it open): stop the server, then restore"
                ) from error
            kept: Path | None = None
            if tables(target):
                kept = dest.with_name(dest.name + ".before-restore")
                copy_to(target, kept)
            backup_db.backup(target)
            restored = contents(target)
        finally:
            target.close()
    except sqlite3.Error as error:
        raise StoreError(f"cannot restore {source}: {error}") from error
    finally:
        backup_db.close()
    return restored, kept
