"""What every tournament director checks of a request, on one server
(:mod:`server.lobby.tournaments`) or in a cluster (:mod:`server.cluster.tournaments`): who may
make a tournament and what it is made of, who may join it, who may start or end it, and what
an end does."""

from __future__ import annotations

import secrets
import time
from typing import TYPE_CHECKING, TypeVar

from muggins.server.accounts.roles import may_moderate
from muggins.server.lobby.standings import Outline
from muggins.server.rooms.players import Player, Refusal

if TYPE_CHECKING:
    from muggins.server.config import ServerConfig
    from muggins.server.store.accounts import AccountRecord
    from muggins.server.store.games import Store
    from muggins.shared.protocol.tournaments import CreateTournament


Made = TypeVar("Made", bound=Outline)


async def signed_in(store: Store, player: Player) -> AccountRecord:
    """The account ``player`` is signed in to (tournaments are for accounts only)."""
    account = await store.find_account(id=player.account) if player.account else None
    if account is None:
        raise Refusal("not_signed_in", "Tournaments are for signed-in players: sign in first")
    return account


def new_tournament(
    kind: type[Made], config: ServerConfig, account: AccountRecord, message: CreateTournament
) -> Made:
    """The tournament ``account`` asks for (a ``kind``: one server's or a cluster's), if it may
    make one."""
    if not (config.open_tournaments or may_moderate(account)):
        raise Refusal("illegal", "Tournaments are made by the server's admins and moderators")
    return kind(
        id=f"T{secrets.token_hex(3).upper()}",
        name=message.name.strip(),
        kind=message.kind,
        duplicate=message.duplicate,
        bots=message.bots,
        target=message.target,
        minutes=message.minutes,
        rounds=message.rounds,
        maker=account.id,
    )


def check_join(t: Outline, account: AccountRecord, *, member: bool) -> None:
    """Refuse ``account`` a place in ``t`` (``member``: it has joined before) if it may not."""
    if t.status == "finished":
        raise Refusal("illegal", f"{t.name} is over")
    if account.bot and not t.bots:
        raise Refusal("illegal", f"{t.name} is for people: it admits no bot accounts")
    if not member and t.kind == "swiss" and t.status != "waiting":
        raise Refusal("illegal", f"{t.name} has begun; a Swiss is joined before it starts")


def check_director(maker: str, account: AccountRecord) -> None:
    """Refuse ``account`` the start or end of a tournament made by ``maker`` if it may not."""
    if account.id != maker and not may_moderate(account):
        raise Refusal("illegal", "Only its maker or a moderator starts or ends a tournament")


def finish(t: Outline, *, busy: bool) -> None:
    """End ``t`` as its maker or a moderator asked (``busy``: games of it are in play): an arena
    ends once its last games do; a Swiss in a round plays that round out and pairs no more."""
    if t.status == "finished":
        return
    t.ends_at = time.time()
    if t.kind == "arena":
        t.status = "ending"
    elif t.status == "playing" and busy:
        t.round = t.rounds  # the round goes on; no round after it
    else:
        t.status = "finished"
