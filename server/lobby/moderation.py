"""Moderation on the server: players' reports, blocks and hidden chat; moderators' actions and
view. Every action is checked against the actor's role, done, then written to the append-only
moderation log. What each action does to games and ratings is in docs/moderation.md.
"""

from __future__ import annotations

import json
import time
from typing import Any, Protocol

from muggins.server.accounts.credentials import AccountError, check_name, name_key
from muggins.server.accounts.roles import may_moderate
from muggins.server.accounts.sanctions import (
    LogEntry,
    ReportRecord,
    Sanction,
    SanctionKind,
    Sanctions,
    new_report_id,
)
from muggins.server.accounts.service import AccountService
from muggins.server.lobby.cluster_seam import LobbyCluster
from muggins.server.lobby.moderation_view import moderation_view
from muggins.server.rooms.players import Player, Refusal
from muggins.server.rooms.room import Room
from muggins.server.store.accounts import AccountRecord
from muggins.server.store.games import Store, StoreConflict, parse_match_id
from muggins.shared.actions import Resign
from muggins.shared.glicko2 import Rating
from muggins.shared.protocol import Left
from muggins.shared.protocol.moderation import (
    Block,
    GetModeration,
    Moderate,
    Moderated,
    Report,
    Sanctioned,
)


class ModeratedLobby(Protocol):
    """What moderation uses of the lobby (server.lobby.lobby.Lobby)."""

    store: Store
    players: dict[str, Player[Room]]
    rooms: dict[str, Room]
    accounts: AccountService

    async def close(self, room: Room, why: str) -> bool: ...

    @property
    def cluster(self) -> LobbyCluster: ...


BANNED_CLOSE = 4003
"""The close code of a banned player's connections."""


def until_words(until: float | None) -> str:
    if until is None:
        return "for good"
    return "until " + time.strftime("%Y-%m-%d %H:%M UTC", time.gmtime(until))


def sanction_text(sanction: Sanction) -> str:
    what = "banned" if sanction.kind == "ban" else "muted"
    why = f": {sanction.reason}" if sanction.reason else ""
    return f"You are {what} {until_words(sanction.until)}{why}"


class Moderation:
    def __init__(self, lobby: ModeratedLobby, sanctions: Sanctions) -> None:
        self.lobby = lobby
        self.sanctions = sanctions

    @property
    def store(self) -> Store:
        return self.lobby.store

    async def handle(self, player: Player[Room], message: Any, *, peer: Any) -> None:
        if isinstance(message, Report):
            reply: Any = await self._report(player, message)
        elif isinstance(message, Block):
            reply = await self._block(player, message)
        else:
            actor = await self._moderator(player)
            if isinstance(message, GetModeration):
                reply = await moderation_view(self.lobby, self.sanctions, player, message)
            else:
                reply = await self._moderate(actor, message)
        peer.send(reply.model_copy(update={"id": message.id}))

    # --- players ---------------------------------------------------------------------------

    async def _named(self, name: str) -> AccountRecord:
        account = await self.lobby.accounts.find_named(name)
        if account is None:
            raise Refusal("no_account", f"No account here is called {name!r}")
        return account

    async def _report(self, player: Player[Room], message: Report) -> Moderated:
        target = await self.lobby.accounts.find_named(message.name)
        line = None
        if message.line is not None and message.room is not None:
            lines = await self.sanctions.chat(message.room.upper(), now=time.time())
            line = next((x for x in lines if x.id == message.line), None)
        report = ReportRecord(
            id=new_report_id(),
            at=time.time(),
            by=player.name,
            by_account=player.account,
            name=target.name if target else message.name,
            account=target.id if target else None,
            reason=message.reason,
            room=message.room.upper() if message.room else None,
            game=message.game,
            line=line,
        )
        await self.sanctions.report(report)
        return Moderated(
            action="report", text=f"Thank you: {report.name} is reported to the moderators"
        )

    async def _block(self, player: Player[Room], message: Block) -> Moderated:
        if player.account is None:
            raise Refusal("not_signed_in", "Sign in first to block or hide someone")
        other = await self._named(message.name)
        if message.what == "block":
            await self.sanctions.block(player.account, other.id, on=message.on)
            done = "blocked: you are never paired with them" if message.on else "unblocked"
        else:
            await self.sanctions.hide(player.account, other.id, on=message.on)
            for each in self.lobby.players.values():
                if each.account == player.account:
                    if message.on:
                        each.hidden.add(other.id)
                    else:
                        each.hidden.discard(other.id)
            done = "hidden: their chat is not shown to you" if message.on else "shown again"
        return Moderated(action=message.what, text=f"{other.name} is {done}")

    # --- moderators ------------------------------------------------------------------------

    async def _moderator(self, player: Player[Room]) -> AccountRecord:
        account = await self.store.find_account(id=player.account) if player.account else None
        if not may_moderate(account):
            raise Refusal("not_allowed", "Only moderators and admins may do that")
        assert account is not None
        return account

    async def _moderate(self, actor: AccountRecord, message: Moderate) -> Moderated:
        action = message.action
        now = time.time()
        target = ""
        if action in ("ban", "mute"):
            account = await self._named(message.name or "")
            target = account.name
            text = await self._sanction(actor, account, message, now)
        elif action in ("unban", "unmute"):
            account = await self._named(message.name or "")
            target = account.name
            kind: SanctionKind = "ban" if action == "unban" else "mute"
            lifted = await self.sanctions.lift(kind, account.id)
            text = (
                f"{account.name} is no longer {kind}ned"
                if lifted
                else f"{account.name} was not {kind}ned"
            )
            if kind == "mute":
                await self.lobby.cluster.tell_nodes({"what": "unmute", "account": account.id})
                self._tell(account.id, None)
        elif action == "rename":
            account = await self._named(message.name or "")
            target = account.name
            text = await self._rename(account, message.new_name or "")
        elif action == "void":
            target = message.game or ""
            text = await self._void(message.game or "")
        elif action == "close_room":
            target = (message.room or "").upper()
            text = await self._close(target, message.reason)
        elif action == "remove_line":
            target = f"{(message.room or '').upper()}/{message.line}"
            await self.sanctions.remove_line(
                (message.room or "").upper(), message.line or "", by=actor.name
            )
            text = "The chat line is removed from the moderation record"
        else:
            target = message.report or ""
            if await self.sanctions.close_report(target, actor.name) is None:
                raise Refusal("no_report", f"No report {target!r} here")
            text = f"Report {target} is closed"
        detail = {"minutes": str(message.minutes)} if message.minutes else {}
        if message.new_name:
            detail["new_name"] = message.new_name
        await self.sanctions.log(
            LogEntry(
                at=now,
                by=actor.name,
                action=action,
                target=target,
                reason=message.reason,
                detail=detail,
            )
        )
        return Moderated(action=action, text=text)

    async def _sanction(
        self, actor: AccountRecord, account: AccountRecord, message: Moderate, now: float
    ) -> str:
        kind: SanctionKind = "ban" if message.action == "ban" else "mute"
        if account.role == "admin" and actor.role != "admin":
            raise Refusal("not_allowed", "A moderator cannot ban or mute an admin")
        address = None
        if kind == "ban" and message.address:
            address = next(
                (
                    p.address
                    for p in self.lobby.players.values()
                    if p.account == account.id and p.address
                ),
                None,
            ) or await self.sanctions.last_address(account.id)  # connected to another node
        sanction = Sanction(
            kind=kind,
            account=account.id,
            name=account.name,
            reason=message.reason,
            by=actor.name,
            at=now,
            until=now + message.minutes * 60 if message.minutes else None,
            address=address,
        )
        await self.sanctions.put(sanction)
        await self.lobby.cluster.tell_nodes({"what": kind, "account": account.id})
        self._tell(account.id, sanction)
        if kind == "ban":
            await self.ban_effects(account.id, sanction)
        words = "banned" if kind == "ban" else "muted"
        return f"{account.name} is {words} {until_words(sanction.until)}"

    async def heard(self, message: dict[str, str]) -> None:
        """Another node's moderator banned, muted or unmuted an account: the same for the
        account's players connected here."""
        account, what = str(message.get("account", "")), message.get("what")
        if what == "unmute":
            self._tell(account, None)
            return
        kind: SanctionKind
        if what == "ban":
            kind = "ban"
        elif what == "mute":
            kind = "mute"
        else:
            return
        sanction = await self.sanctions.of(kind, account, now=time.time())
        if sanction is None:
            return
        self._tell(account, sanction)
        if kind == "ban":
            await self.ban_effects(account, sanction)

    def _tell(self, account: str, sanction: Sanction | None) -> None:
        for player in list(self.lobby.players.values()):
            if player.account != account or player.peer is None:
                continue
            if sanction is None:
                message = Sanctioned(kind="mute", reason="", until=0.0, text="You may chat again")
            else:
                message = Sanctioned(
                    kind=sanction.kind,
                    reason=sanction.reason,
                    until=sanction.until,
                    text=sanction_text(sanction),
                )
            player.peer.send(message)

    async def ban_effects(self, account: str, sanction: Sanction) -> None:
        """A banned account's match in progress is resigned for it (the opponent wins; a rated
        match counts as lost), it leaves the rated queue, its sessions end and its connections
        close (4003)."""
        await self.store.queue_remove(account)
        await self.store.drop_sessions(account)
        for player in list(self.lobby.players.values()):
            if player.account != account:
                continue
            room = player.room
            seat = room.seat_of(player) if room is not None else None
            if room is not None and seat is not None and room.status == "playing":
                room.notice("claimed", f"{player.name} is banned: their match is resigned")
                while room.match is not None and not room.match.over:
                    try:
                        await room.act(seat, Resign(), origin=None)
                    except Refusal:
                        break  # over already: this copy was behind the room's log
            player.account = player.session_hash = None
            peer = player.peer
            close = getattr(peer, "close", None)
            if close is not None:
                close(BANNED_CLOSE, "banned")

    async def _rename(self, account: AccountRecord, new_name: str) -> str:
        try:
            name = check_name(new_name)
        except AccountError as error:
            raise Refusal("bad_name", str(error)) from None
        try:
            await self.store.rename_account(account.id, name, name_key(name))
        except StoreConflict:
            raise Refusal(
                "name_taken", f"The name {name!r} (or one too like it) is taken here"
            ) from None
        for player in self.lobby.players.values():
            if player.account == account.id:
                player.name = name
                if player.room is not None:
                    player.room.send_room()
        return f"{account.name} is now called {name}"

    async def _void(self, game: str) -> str:
        try:
            parse_match_id(game)
        except ValueError as error:
            raise Refusal("no_game", str(error)) from None
        text = await self.store.record_get("rated-before", game.upper())
        if text is None:
            raise Refusal("no_game", f"No rated result of {game!r} to void here")
        before = json.loads(text)
        accounts = [await self.store.find_account(id=a) for a in before]
        for account, (a, values) in zip(accounts, before.items(), strict=True):
            if account is None or account.rated_games != values[3] + 1:
                raise Refusal(
                    "illegal",
                    f"{account.name if account else a} has played rated since: void the later "
                    "rated results first",
                )
        for a, (rating, deviation, volatility, games) in before.items():
            await self.store.restore_rating(a, Rating(rating, deviation, volatility), games)
        await self.store.record_put("rated-before", game.upper(), None)
        return f"The rated result of {game.upper()} is void: both ratings are as before it"

    async def _close(self, code: str, reason: str) -> str:
        room = self.lobby.rooms.get(code)
        if room is None:
            raise Refusal("no_room", f"No room {code!r} is open here")
        room.notice("shutdown", f"A moderator closed this room{': ' + reason if reason else ''}")
        peers = [peer for _, peer in room.receivers()]
        await self.lobby.close(room, "closed by a moderator")
        for peer in peers:
            peer.send(Left(code=code))
        return f"Room {code} is closed; its match ends abandoned, without a rating change"
