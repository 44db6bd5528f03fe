"""Resume tokens kept between runs, so ``muggins play`` gets your seat back, and only yours.

The file holds, for each server, the tokens this account was issued, each with the room, the
seat and the name it was issued for. A token is offered again only for what it was issued for:
``--join CODE`` uses a token that holds a seat in room CODE, ``--watch`` never uses one, and a
token in use by a live client on this machine (a lock file held while that client runs) is not
offered to a second client, so two players on one account (a friend game in two terminals)
never resume each other's seat.
"""

from __future__ import annotations

import hashlib
import json
import os
import sys
from pathlib import Path
from typing import Any, TextIO

from muggins.client.session import Goal, Session

if sys.platform != "win32":
    import fcntl

KEEP = 20
"""Saved tokens kept per server (the newest)."""


class Seats:
    """The saved tokens in ``path`` (a JSON file), and the tokens this process holds."""

    def __init__(self, path: Path) -> None:
        self.path = path
        self._held: dict[str, TextIO] = {}

    def load(self) -> dict[str, list[dict[str, Any]]]:
        try:
            data = json.loads(self.path.read_text())
        except (OSError, ValueError):
            return {}
        if not isinstance(data, dict):
            return {}
        saved: dict[str, list[dict[str, Any]]] = {}
        for key, entries in data.items():
            if isinstance(entries, dict):  # the old format: one token per server
                entries = [entries]
            if isinstance(entries, list):
                saved[key] = [e for e in entries if isinstance(e, dict) and e.get("token")]
        return saved

    def token_for(
        self, key: str, goal: Goal, *, fresh: bool, name: str | None = None
    ) -> str | None:
        """A saved token for what ``goal`` asks, not held by another live client; else None.

        Newest first, and tokens saved under ``name`` before others.
        """
        if fresh or goal.kind == "spectate":
            return None
        entries = list(reversed(self.load().get(key, [])))
        if goal.kind == "join":
            entries = [
                e for e in entries if e.get("room") == goal.code and e.get("seat") is not None
            ]
        entries.sort(key=lambda e: e.get("name") != name)  # stable: newest first within
        for entry in entries:
            token = str(entry["token"])
            if self.hold(token):
                return token
        return None

    def hold(self, token: str) -> bool:
        """Mark ``token`` as in use by this process until it ends; False if another holds it."""
        if token in self._held:
            return True
        if sys.platform == "win32":  # no advisory locks there: tokens are not guarded
            return True
        lock = self._lock_path(token)
        try:
            lock.parent.mkdir(parents=True, exist_ok=True)
            handle = open(lock, "w")  # noqa: SIM115 (held until exit)
        except OSError:
            return True
        try:
            fcntl.flock(handle, fcntl.LOCK_EX | fcntl.LOCK_NB)
        except OSError:
            handle.close()
            return False
        self._held[token] = handle
        return True

    def _lock_path(self, token: str) -> Path:
        digest = hashlib.sha256(token.encode()).hexdigest()[:24]
        return self.path.parent / "locks" / f"{digest}.lock"

    def release(self) -> None:
        """Let other clients use the tokens this process held (also done at exit)."""
        for handle in self._held.values():
            handle.close()
        self._held.clear()

    def save(self, key: str, token: str | None, session: Session) -> None:
        """Keep ``token`` for what it was issued for; a spectator's is not kept."""
        if not token or session.goal.kind == "spectate":
            return
        self.hold(token)
        room = session.room
        entry = {
            "token": token,
            "room": room.code if room else "",
            "seat": room.you if room else None,
            "name": session.name,
        }
        data = self.load()
        entries = [*(e for e in data.get(key, []) if e.get("token") != token), entry]
        data[key] = entries[-KEEP:]
        for dropped in entries[:-KEEP]:  # never offered again: its lock file can go
            if dropped["token"] not in self._held:
                self._lock_path(str(dropped["token"])).unlink(missing_ok=True)
        try:
            self.path.parent.mkdir(parents=True, exist_ok=True)
            temporary = self.path.with_suffix(".tmp")
            temporary.write_text(json.dumps(data, indent=1) + "\n")
            temporary.chmod(0o600)
            os.replace(temporary, self.path)
        except OSError as error:
            print(f"muggins play: could not save your seat: {error}", file=sys.stderr)
