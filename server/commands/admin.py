"""``muggins admin grant|revoke|bot NAME``: make an admin or a moderator, or flag a bot
account, on the server's machine.

It writes to the store directly (the SQLite file, or the cluster's Redis, or with ``--postgres``
the PostgreSQL its nodes keep accounts in), so only someone who can reach those can make the
first admin; nothing sent over the wire grants a role.
"""

from __future__ import annotations

import argparse
from typing import Any

from muggins.server.commands.archive import add_options


def add_store_parsers(actions: Any) -> None:
    """``grant`` and ``revoke`` under ``muggins admin`` (the parser is the client's
    ``client.commands.admin``, which also has the actions over the protocol)."""
    for action, help in (("grant", "give NAME a role"), ("revoke", "take NAME's role away")):
        sub = actions.add_parser(
            action,
            help=help + " (in the store, on the server's machine)",
            description="Grant an account a role in the server's store: grant NAME makes NAME "
            "an admin (--role moderator: a moderator); revoke NAME takes the role away. Stop "
            "the server first when it keeps its games in SQLite, or give muggins serve --admin "
            "NAME instead.",
        )
        sub.add_argument("name", metavar="NAME", help="the account's name")
        if action == "grant":
            sub.add_argument(
                "--role", choices=("admin", "moderator"), default="admin", help="default: admin"
            )
        add_options(sub, accounts=True)
        sub.set_defaults(handler=run, admin_action=action)
    sub = actions.add_parser(
        "bot",
        help="flag NAME a bot account, for ever (in the store, on the server's machine)",
        description="Flag an account a bot account in the server's store: it is shown with "
        "[bot] everywhere and never paired with a player who asked for people only. The flag "
        "is never cleared.",
    )
    sub.add_argument("name", metavar="NAME", help="the account's name")
    add_options(sub, accounts=True)
    sub.set_defaults(handler=run, admin_action="bot")


def run(args: argparse.Namespace) -> int:
    import asyncio

    from muggins.server.accounts.credentials import AccountError
    from muggins.server.accounts.roles import flag_bot, grant
    from muggins.server.cluster.durable import AccountsInRedis
    from muggins.server.store.datafiles import default_db
    from muggins.server.store.games import Store, StoreError
    from muggins.server.store.sqlite_games import SqliteStore

    store: Store
    if args.redis is not None:
        from muggins.server.cluster.redis_store import RedisStore

        accounts = None
        if args.postgres is not None:
            from muggins.server.store.postgres_accounts import PostgresAccounts

            accounts = PostgresAccounts(args.postgres)
        store = RedisStore(args.redis, accounts=accounts)
    else:
        path = args.db or default_db()
        if not path.exists():
            print(f"muggins admin: no server store at {path} (run muggins serve first)")
            return 1
        store = SqliteStore(path)
    role = args.role if args.admin_action == "grant" else None

    async def change() -> str:
        await store.open()
        try:
            if args.admin_action == "bot":
                account = await flag_bot(store, args.name)
            else:
                account = await grant(store, args.name, role)
        finally:
            await store.close()
        return account.name

    try:
        name = asyncio.run(change())
    except (AccountError, AccountsInRedis, StoreError) as error:
        print(f"muggins admin: {error}")
        return 1
    if args.admin_action == "bot":
        print(f"{name} is now a bot account (shown as {name} [bot]), for ever")
        return 0
    what = {"admin": "an admin", "moderator": "a moderator", None: "a player"}[role]
    print(f"{name} is now {what}")
    return 0
