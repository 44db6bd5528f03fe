"""Roles: who may keep the server besides playing on it.

An account is a player, a **moderator** (reports, bans, mutes, renames, voids, closes rooms and
removes chat lines) or an **admin** (all that, and granting roles). The first admin is made on the
server's machine, never over the wire: ``muggins admin grant NAME`` against the store, or
``muggins serve --admin NAME``. Nothing a client sends grants a role.
"""

from __future__ import annotations

from muggins.server.accounts.credentials import AccountError, name_key
from muggins.server.store.accounts import ROLES, AccountRecord, Role
from muggins.server.store.games import Store

__all__ = ["ROLES", "Role", "grant", "may_moderate"]


def may_moderate(account: AccountRecord | None) -> bool:
    """Whether the account may take moderation actions (a moderator or an admin)."""
    return account is not None and account.role in ROLES


def is_admin(account: AccountRecord | None) -> bool:
    return account is not None and account.role == "admin"


async def flag_bot(store: Store, name: str) -> AccountRecord:
    """Flag the account called ``name`` a bot account, for ever (see docs/accounts.md)."""
    account = await store.find_account(key=name_key(name))
    if account is None:
        raise AccountError(f"No account here is called {name!r}")
    await store.set_bot(account.id)
    found = await store.find_account(id=account.id)
    assert found is not None
    return found


async def grant(store: Store, name: str, role: Role | None) -> AccountRecord:
    """Give the account called ``name`` the ``role`` (None: none); :class:`AccountError` if
    there is no such account."""
    account = await store.find_account(key=name_key(name))
    if account is None:
        raise AccountError(f"No account here is called {name!r}; register it first")
    await store.set_role(account.id, role)
    found = await store.find_account(id=account.id)
    assert found is not None
    return found
