"""Moderation kept in the store: bans and mutes, reports, blocks, the moderation log and each
room's chat, as typed records over :class:`~server.store.moderation.ModerationStore`.

- A **ban** keeps an account (and, when asked, its address) from signing in, registering and
  playing signed in until it ends (``until``; None: for good). A **mute** keeps it from chat.
  The address an account last signed in from is kept for that (:meth:`Sanctions.seen`).
- A **report** is open until a moderator closes it; it keeps the reported chat line and room.
- A **block** is one account's: matchmaking never pairs the two.
- The **moderation log** is append-only: who did what, when and why.
- **Chat** is kept per room (the newest :data:`CHAT_KEPT` lines), shown to moderators and
  never in a public replay; lines older than the retention are deleted by
  :meth:`Sanctions.sweep_chat` (and not shown meanwhile).
"""

from __future__ import annotations

import json
import secrets
from dataclasses import asdict, dataclass, field
from typing import Final, Literal

from muggins.server.store.moderation import ModerationStore

SanctionKind = Literal["ban", "mute"]
CHAT_KEPT: Final = 200
"""Chat lines kept per room (the newest)."""
LOG: Final = "log"
CHAT: Final = "chat:"
"""The prefix of each room's list of kept chat lines."""


@dataclass(frozen=True, slots=True)
class Sanction:
    kind: SanctionKind
    account: str
    name: str
    reason: str
    by: str
    at: float
    until: float | None = None
    """When it ends (Unix time); None: for good."""
    address: str | None = None
    """With a ban: the address banned with the account (its registrations and sign-ins)."""

    def active(self, now: float) -> bool:
        return self.until is None or now < self.until


@dataclass(frozen=True, slots=True)
class KeptLine:
    """A chat line as kept for moderators."""

    id: str
    room: str
    at: float
    sender: str
    account: str | None
    text: str
    seat: int | None = None
    """The sender's seat (None: watching, or a line kept before seats were)."""


@dataclass(frozen=True, slots=True)
class ReportRecord:
    id: str
    at: float
    by: str
    """The reporter's name."""
    by_account: str | None
    name: str
    """The reported player's name."""
    account: str | None
    reason: str
    room: str | None = None
    game: str | None = None
    line: KeptLine | None = None
    closed_by: str | None = None


@dataclass(frozen=True, slots=True)
class LogEntry:
    at: float
    by: str
    action: str
    target: str
    reason: str = ""
    detail: dict[str, str] = field(default_factory=dict)


class Sanctions:
    """The typed view of the moderation records in one store."""

    def __init__(self, store: ModerationStore, *, chat_days: float = 30.0) -> None:
        self.store = store
        self.chat_days = chat_days

    # --- bans and mutes --------------------------------------------------------------------

    async def put(self, sanction: Sanction) -> None:
        await self.store.record_put(sanction.kind, sanction.account, json.dumps(asdict(sanction)))

    async def lift(self, kind: SanctionKind, account: str) -> Sanction | None:
        found = await self.of(kind, account, now=None)
        await self.store.record_put(kind, account, None)
        return found

    async def of(self, kind: SanctionKind, account: str, *, now: float | None) -> Sanction | None:
        """The account's ban or mute, if it has one (still active at ``now``, when given)."""
        text = await self.store.record_get(kind, account)
        found = Sanction(**json.loads(text)) if text else None
        return found if found and (now is None or found.active(now)) else None

    async def all(self, kind: SanctionKind, *, now: float) -> list[Sanction]:
        """The active ones, newest first."""
        found = [Sanction(**json.loads(t)) for t in (await self.store.records(kind)).values()]
        return sorted((s for s in found if s.active(now)), key=lambda s: -s.at)

    async def address_ban(self, address: str, *, now: float) -> Sanction | None:
        return next((s for s in await self.all("ban", now=now) if s.address == address), None)

    async def seen(self, account: str, address: str | None) -> None:
        """Where an account last signed in from (None: forget it, the account is gone): what a
        ban with the address uses when the account is connected to another node, or to none."""
        if address is None or address:
            await self.store.record_put("address", account, address)

    async def last_address(self, account: str) -> str | None:
        return await self.store.record_get("address", account)

    # --- reports ---------------------------------------------------------------------------

    async def report(self, report: ReportRecord) -> None:
        await self.store.record_put("report", report.id, json.dumps(asdict(report)))

    async def reports(self, *, open_only: bool = True) -> list[ReportRecord]:
        """Oldest first."""
        found = []
        for text in (await self.store.records("report")).values():
            data = json.loads(text)
            line = data.pop("line")
            found.append(ReportRecord(**data, line=KeptLine(**line) if line else None))
        return sorted(
            (r for r in found if not (open_only and r.closed_by)), key=lambda r: (r.at, r.id)
        )

    async def close_report(self, id: str, by: str) -> ReportRecord | None:
        found = next((r for r in await self.reports(open_only=False) if r.id == id), None)
        if found is not None:
            closed = ReportRecord(**{**asdict(found), "line": found.line, "closed_by": by})
            await self.report(closed)
        return found

    # --- blocks ----------------------------------------------------------------------------

    async def blocks(self, account: str) -> set[str]:
        text = await self.store.record_get("block", account)
        return set(json.loads(text)) if text else set()

    async def block(self, account: str, other: str, *, on: bool) -> None:
        mine = await self.blocks(account)
        mine = mine | {other} if on else mine - {other}
        await self.store.record_put("block", account, json.dumps(sorted(mine)) if mine else None)

    async def hidden(self, account: str) -> set[str]:
        """The accounts whose chat ``account`` hides."""
        text = await self.store.record_get("hide", account)
        return set(json.loads(text)) if text else set()

    async def hide(self, account: str, other: str, *, on: bool) -> None:
        mine = await self.hidden(account)
        mine = mine | {other} if on else mine - {other}
        await self.store.record_put("hide", account, json.dumps(sorted(mine)) if mine else None)

    async def apart(self) -> set[frozenset[str]]:
        """Every pair of accounts one of which blocks the other."""
        return {
            frozenset((account, other))
            for account, text in (await self.store.records("block")).items()
            for other in json.loads(text)
        }

    # --- the moderation log ----------------------------------------------------------------

    async def log(self, entry: LogEntry) -> None:
        await self.store.list_append(LOG, json.dumps(asdict(entry)))

    async def read_log(self, *, limit: int) -> list[LogEntry]:
        """Newest first."""
        return [
            LogEntry(**json.loads(t))
            for t in reversed(await self.store.list_read(LOG, limit=limit))
        ]

    # --- chat ------------------------------------------------------------------------------

    async def keep_line(
        self,
        room: str,
        *,
        at: float,
        sender: str,
        account: str | None,
        text: str,
        seat: int | None = None,
    ) -> KeptLine:
        line = KeptLine(
            id=secrets.token_hex(6),
            room=room,
            at=at,
            sender=sender,
            account=account,
            text=text,
            seat=seat,
        )
        await self.store.list_append(f"{CHAT}{room}", json.dumps(asdict(line)), keep=CHAT_KEPT)
        return line

    async def chat(self, room: str, *, now: float, limit: int = CHAT_KEPT) -> list[KeptLine]:
        """The room's kept lines within the retention, oldest first, without removed ones."""
        removed = await self.store.records(f"removed:{room}")
        oldest = now - self.chat_days * 86400
        lines = [
            KeptLine(**json.loads(t))
            for t in await self.store.list_read(f"{CHAT}{room}", limit=limit)
        ]
        return [line for line in lines if line.at >= oldest and line.id not in removed]

    async def remove_line(self, room: str, line: str, *, by: str) -> None:
        await self.store.record_put(f"removed:{room}", line, by)

    async def sweep_chat(self, *, now: float) -> int:
        """Delete every room's kept lines older than the retention from the store (with the marks
        of removed ones among them); the number of lines deleted. A report keeps its own copy of
        the line it reports."""
        oldest = now - self.chat_days * 86400
        deleted = 0
        for name in await self.store.list_names(CHAT):
            room = name[len(CHAT) :]
            texts = await self.store.list_read(name, limit=CHAT_KEPT)
            old = [t for t in texts if KeptLine(**json.loads(t)).at < oldest]
            if old:
                deleted += await self.store.list_drop_through(name, old[-1])
            # The marks first, then the lines: a mark read was put after its line was kept, so a
            # line missing from the list read after it is gone (dropped, or trimmed as too many).
            marks = await self.store.records(f"removed:{room}")
            if marks:
                kept = await self.store.list_read(name, limit=CHAT_KEPT)
                ids = {KeptLine(**json.loads(t)).id for t in kept}
                for line in marks:
                    if line not in ids:
                        await self.store.record_put(f"removed:{room}", line, None)
        return deleted


def new_report_id() -> str:
    return "r" + secrets.token_hex(6)
