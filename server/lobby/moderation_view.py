"""The moderation view: open reports with the reported chat, bans and mutes in force, rooms
live and players online on this node, the newest of the moderation log, and an account's games,
chat and reports (for :mod:`server.lobby.moderation`)."""

from __future__ import annotations

import time
from dataclasses import replace
from typing import Protocol

from muggins.server.accounts.sanctions import KeptLine, ReportRecord, Sanction, Sanctions
from muggins.server.accounts.service import AccountService
from muggins.server.rooms.players import Player, Refusal
from muggins.server.rooms.room import Room
from muggins.server.store.games import Store
from muggins.shared.protocol.accounts import GetHistory
from muggins.shared.protocol.moderation import (
    AccountItem,
    GetModeration,
    KeptChatLine,
    LogItem,
    ModerationView,
    ReportItem,
    RoomItem,
    SanctionItem,
)


class ViewedLobby(Protocol):
    """What the view reads of the lobby."""

    store: Store
    players: dict[str, Player[Room]]
    rooms: dict[str, Room]
    accounts: AccountService


def kept(line: KeptLine) -> KeptChatLine:
    return KeptChatLine(id=line.id, room=line.room, at=line.at, sender=line.sender, text=line.text)


async def report_item(sanctions: Sanctions, report: ReportRecord, now: float) -> ReportItem:
    chat = await sanctions.chat(report.room, now=now, limit=30) if report.room else []
    return ReportItem(
        id=report.id,
        at=report.at,
        by=report.by,
        name=report.name,
        reason=report.reason,
        room=report.room,
        game=report.game,
        line=kept(report.line) if report.line else None,
        chat=tuple(kept(x) for x in chat),
    )


async def current(store: Store, sanction: Sanction) -> Sanction:
    """The sanction under the account's name now (it may have been renamed since)."""
    account = await store.find_account(id=sanction.account)
    return replace(sanction, name=account.name) if account else sanction


def sanction_item(s: Sanction) -> SanctionItem:
    return SanctionItem(
        kind=s.kind,
        name=s.name,
        reason=s.reason,
        by=s.by,
        at=s.at,
        until=s.until,
        address=s.address is not None,
    )


async def moderation_view(
    lobby: ViewedLobby, sanctions: Sanctions, player: Player[Room], message: GetModeration
) -> ModerationView:
    """The moderation view (see :class:`~shared.protocol.moderation.ModerationView`)."""
    now = time.time()
    reports = await sanctions.reports()
    inforce = await sanctions.all("ban", now=now) + await sanctions.all("mute", now=now)
    inforce = [await current(lobby.store, s) for s in inforce]
    account_item = None
    if message.name is not None:
        account = await lobby.accounts.find_named(message.name)
        if account is None:
            raise Refusal("no_account", f"No account here is called {message.name!r}")
        history = await lobby.accounts.history_of(player, GetHistory(name=account.name, limit=20))
        mine = [r for r in await sanctions.reports(open_only=False) if r.account == account.id]
        lines = []
        for room in {r.room for r in mine if r.room} | {
            p.room.code for p in lobby.players.values() if p.account == account.id and p.room
        }:
            lines += [x for x in await sanctions.chat(room, now=now) if x.account == account.id]
        account_item = AccountItem(
            name=account.name,
            role=account.role,
            games=history.games,
            chat=tuple(kept(x) for x in sorted(lines, key=lambda x: x.at)),
            reports=tuple([await report_item(sanctions, r, now) for r in mine]),
            sanctions=tuple(sanction_item(s) for s in inforce if s.account == account.id),
        )
    return ModerationView(
        reports=tuple([await report_item(sanctions, r, now) for r in reports]),
        sanctions=tuple(sanction_item(s) for s in sorted(inforce, key=lambda s: -s.at)),
        rooms=tuple(
            RoomItem(code=r.code, names=r.names(), status=r.status, rated=r.options.rated)
            for r in lobby.rooms.values()
            if not r.closed
        ),
        online=tuple(sorted(p.name for p in lobby.players.values() if p.peer is not None)),
        log=tuple(
            LogItem(at=e.at, by=e.by, action=e.action, target=e.target, reason=e.reason)
            for e in await sanctions.read_log(limit=50)
        ),
        account=account_item,
    )
