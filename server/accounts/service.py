"""The server's side of accounts: register, sign in and out, change the password, delete, and
the read-only requests (profile, history, leaderboard, a finished game).

A connection hands each account message here with its :class:`~server.rooms.players.Player`. Signing
in binds the player (and the seat they hold, so a guest keeps the game they are playing) to
the account. Passwords are hashed and checked in a worker thread, so the event loop never waits
on scrypt. Nothing here logs a password, a hash or a token.
"""

from __future__ import annotations

import asyncio
import logging
import time
from collections.abc import Callable
from typing import Protocol

from muggins.server.accounts.admission import check_seat, not_banned
from muggins.server.accounts.budget import ReadBudget
from muggins.server.accounts.credentials import (
    AccountError,
    LocalSignInLimits,
    RegistrationLimiter,
    SignInLimits,
    check_name,
    check_password,
    hash_password,
    name_key,
    new_account_id,
    new_session,
    session_hash,
    verify_password,
)
from muggins.server.accounts.figures import averages, rating_info
from muggins.server.accounts.game_reviews import GameReviews
from muggins.server.accounts.sanctions import Sanctions
from muggins.server.results.records import counts
from muggins.server.results.replays import GameRecords
from muggins.server.rooms.players import Peer, Player, Refusal
from muggins.server.store.accounts import AccountRecord
from muggins.server.store.games import Store, StoreConflict, StoreError, parse_match_id
from muggins.server.wire.send_cache import encoded_as
from muggins.shared.names import GUEST_MARK, legacy_key, marked, unmarked
from muggins.shared.protocol import ErrorCode
from muggins.shared.protocol.accounts import (
    Account,
    AccountReply,
    AccountRequest,
    CancelSeek,
    ChangePassword,
    DeleteAccount,
    GetGame,
    GetHistory,
    GetLeaderboard,
    GetProfile,
    History,
    HistoryItem,
    Leaderboard,
    LeaderEntry,
    Profile,
    Register,
    Seek,
    Seeking,
    SignedOut,
    SignIn,
    SignOut,
)
from muggins.shared.protocol.client import NAME_MAX as NAME_SHOWN
from muggins.shared.protocol.review import GameReview, GetReview


class Queue(Protocol):
    """The rated queue as accounts use it (server.lobby.matchmaking.Matchmaker)."""

    async def seek(
        self, player: Player, best_of: int, *, people_only: bool = False, duplicate: bool = False
    ) -> Seeking:
        """Queue a signed-in player for a rated game."""

    async def cancel(self, player: Player) -> Seeking:
        """Take a player out of the queue."""

    async def adopt(self, player: Player) -> None:
        """A player signed in on this node: take over their place in the queue, if any."""


log = logging.getLogger("muggins.accounts")
BAD_CREDENTIALS = "That name and password do not match an account here"


class AccountService:
    def __init__(
        self,
        store: Store,
        *,
        players: Callable[[], list[Player]],
        limits: SignInLimits | None = None,
    ) -> None:
        self.store = store
        self.players = players
        """Every player this node knows (to sign them all out when the account goes)."""
        self.limits: SignInLimits = limits or LocalSignInLimits()
        """Failed sign-ins per name and address: this process's, or a cluster's in Redis."""
        self.matchmaker: Queue | None = None
        """The rated queue; told of every sign-in so a queued player is adopted here."""
        self.records = GameRecords(store)
        """Finished games as answered, built once each."""
        self.budget = ReadBudget()
        """Expensive reads (games, histories, the leaderboard) per connection and address."""
        self.sanctions = Sanctions(store)
        """Bans (checked at every sign-in and registration) and hidden chat."""
        self.registrations = RegistrationLimiter()
        """Accounts made per address an hour (on this node)."""
        self.replays = self.records.replays
        self.reviews = GameReviews(store)

    async def handle(
        self, player: Player, message: AccountRequest | GetReview, *, peer: Peer, address: str
    ) -> None:
        try:
            if isinstance(message, GetGame | GetHistory | GetLeaderboard | GetReview):
                self.budget.take(player, address)
            if isinstance(message, GetGame):
                await self._game(player, message, peer, address)
                return
            reply = await self._handle(player, message, address)
        except AccountError as error:
            code: ErrorCode = "bad_password" if "password" in str(error).lower() else "bad_name"
            raise Refusal(code, str(error)) from None
        except StoreError as error:
            raise Refusal("storage", "The account store is unreachable; try again") from error
        peer.send(reply.model_copy(update={"id": message.id}))

    async def _handle(
        self, player: Player, message: AccountRequest | GetReview, address: str
    ) -> AccountReply | GameReview:
        if isinstance(message, Seek | CancelSeek):
            if self.matchmaker is None:
                raise Refusal("illegal", "This server has no rated queue")
            if isinstance(message, Seek):
                return await self.matchmaker.seek(
                    player,
                    message.best_of,
                    people_only=message.people_only,
                    duplicate=message.duplicate,
                )
            return await self.matchmaker.cancel(player)
        if isinstance(message, Register):
            return await self._register(player, message, address)
        if isinstance(message, SignIn):
            return await self._sign_in(player, message, address)
        if isinstance(message, GetProfile):
            return await self._profile(player, message.name)
        if isinstance(message, GetHistory):
            return await self._history(player, message)
        if isinstance(message, GetLeaderboard):
            return await self._leaderboard(message.limit)
        if isinstance(message, GetReview):
            return await self.reviews.review(player, message)
        account = await self._signed_in(player)
        if isinstance(message, SignOut):
            return await self._sign_out(player, account, everywhere=message.everywhere)
        if isinstance(message, ChangePassword):
            return await self._change_password(player, account, message, address)
        assert isinstance(message, DeleteAccount)
        return await self._delete(player, account, message.password, address)

    # --- signing in ----------------------------------------------------------------------------

    async def _register(self, player: Player, message: Register, address: str) -> Account:
        if player.account is not None:
            raise Refusal("illegal", "You are signed in already; sign out to make another account")
        name = check_name(message.name)
        check_password(message.password)
        check_seat(player, None)
        await not_banned(self.sanctions, None, address)
        wait = self.registrations.take(address)
        if wait > 0:
            minutes = max(1, round(wait / 60))
            raise Refusal(
                "rate_limited",
                f"Too many accounts made from your address: try again in {minutes} min",
            )
        password_hash = await asyncio.to_thread(hash_password, message.password)
        account = AccountRecord(
            id=new_account_id(),
            name=name,
            key=name_key(name),
            password_hash=password_hash,
            created=time.time(),
            bot=message.bot,
        )
        try:
            await self.store.create_account(account)
        except StoreConflict:
            raise Refusal(
                "name_taken", f"The name {name!r} (or one too like it) is taken here"
            ) from None
        log.info("account registered", extra={"account": account.id})
        await self.sanctions.seen(account.id, address)
        return await self._bind(player, account)

    async def _sign_in(self, player: Player, message: SignIn, address: str) -> Account:
        if message.session is not None:
            found = await self.store.session_account(session_hash(message.session))
            account = await self.store.find_account(id=found) if found else None
            if account is None:
                raise Refusal("bad_credentials", "That session has ended; sign in with a password")
            await not_banned(self.sanctions, account, address)
            await self.sanctions.seen(account.id, address)
            return await self._bind(player, account, session=message.session)
        assert message.name is not None and message.password is not None
        account = await self._check(message.name, message.password, address)
        await not_banned(self.sanctions, account, address)
        await self.sanctions.seen(account.id, address)
        return await self._bind(player, account)

    async def _check(self, name: str, password: str, address: str) -> AccountRecord:
        """The account if ``password`` is its password; one answer for every failure."""
        key = name_key(name)
        wait, slow, ticket = await self.limits.attempt(key, address)
        if wait > 0:
            raise Refusal(
                "rate_limited", f"Too many failed sign-ins: try again in {max(1, round(wait))} s"
            )
        if slow > 0:
            await asyncio.sleep(slow)  # this name fails from everywhere: slowed, not locked
        account = await self.find_named(name)
        stored = account.password_hash if account else None
        # Checked whether or not the account exists: a wrong name costs the same work.
        right = await asyncio.to_thread(verify_password, password, stored)
        if account is None:
            await self.limits.unknown(key, address)
            raise Refusal("bad_credentials", BAD_CREDENTIALS)
        if not right:
            raise Refusal("bad_credentials", BAD_CREDENTIALS)  # counted by the attempt
        await self.limits.succeeded(key, address, ticket)
        return account

    async def find_named(self, name: str) -> AccountRecord | None:
        """The account called ``name`` (or one too like it), if any. An account still under its
        key from before marks were folded (``Alíce`` beside an ``Alice``: see
        :mod:`server.store.name_keys`) is found first by that key, so its owner signs in."""
        if legacy_key(name) != name_key(name):
            account = await self.store.find_account(key=legacy_key(name))
            if account is not None:
                return account
        return await self.store.find_account(key=name_key(name))

    async def guest_name(self, name: str) -> str:
        """A guest's name as shown: ``Alice (guest)`` when an account is called Alice, or when
        the accounts cannot be read (a cluster's PostgreSQL down): guests still play."""
        try:
            if await self.find_named(name) is None:
                return name
        except StoreError as error:
            log.warning("guest %r marked a guest unchecked: %s", name, error)
        return f"{name[: NAME_SHOWN - len(GUEST_MARK) - 1].rstrip()} {GUEST_MARK}"

    async def _bind(
        self, player: Player, account: AccountRecord, *, session: str | None = None
    ) -> Account:
        """Sign ``player`` in (a new session unless one is given); their seat follows."""
        check_seat(player, account)
        new = None
        if session is None:
            new, token_hash = new_session()
            await self.store.add_session(account.id, token_hash, time.time())
        else:
            token_hash = session_hash(session)
        player.account, player.session_hash = account.id, token_hash
        player.hidden = await self.sanctions.hidden(account.id)
        player.name = marked(account.name, account.bot)
        room = player.room
        if room is not None:
            index = room.seat_of(player)
            if index is not None and room.seats[index].account is None:
                room.seats[index].account = account.id
                await room.resave_seats()
        if self.matchmaker is not None:
            await self.matchmaker.adopt(player)
        return Account(
            account=account.id,
            name=account.name,
            session=new,
            rating=rating_info(account),
            bot=account.bot,
        )

    async def _signed_in(self, player: Player) -> AccountRecord:
        account = await self.store.find_account(id=player.account) if player.account else None
        if account is None:
            player.account = None
            raise Refusal("not_signed_in", "Sign in first")
        return account

    async def _sign_out(
        self, player: Player, account: AccountRecord, *, everywhere: bool
    ) -> SignedOut:
        if everywhere:
            ended = await self.store.drop_sessions(account.id)
            for other in self.players():
                if other.account == account.id:
                    other.account = other.session_hash = None
        else:
            if player.session_hash is not None:
                await self.store.drop_session(player.session_hash)
            ended = 1
            player.account = player.session_hash = None
        return SignedOut(sessions=ended)

    async def _change_password(
        self, player: Player, account: AccountRecord, message: ChangePassword, address: str
    ) -> Account:
        await self._check(account.name, message.old, address)
        check_password(message.new)
        await self.store.set_password(
            account.id, await asyncio.to_thread(hash_password, message.new)
        )
        await self.store.drop_sessions(account.id)
        for other in self.players():
            if other.account == account.id and other is not player:
                other.account = other.session_hash = None
        return await self._bind(player, account)

    async def _delete(
        self, player: Player, account: AccountRecord, password: str, address: str
    ) -> SignedOut:
        await self._check(account.name, password, address)
        ended = await self.store.drop_sessions(account.id)
        await self.store.delete_account(account.id)
        await self.sanctions.seen(account.id, None)
        for other in self.players():
            if other.account == account.id:
                other.account = other.session_hash = None
        log.info("account deleted", extra={"account": account.id})
        return SignedOut(sessions=ended, deleted=True)

    # --- reading -------------------------------------------------------------------------------

    async def _named(self, player: Player, name: str | None) -> AccountRecord:
        if name is None:
            return await self._signed_in(player)
        account = await self.find_named(unmarked(name))
        if account is None:
            raise Refusal("no_account", f"No account here is called {name!r}")
        return account

    async def _profile(self, player: Player, name: str | None) -> Profile:
        account = await self._named(player, name)
        return Profile(
            account=account.id,
            name=account.name,
            rating=rating_info(account),
            counts=counts(account.stats),
            averages=averages(account.stats),
            bot=account.bot,
        )

    async def history_of(self, player: Player, message: GetHistory) -> History:
        """An account's history as ``history`` answers it (for the moderation view too)."""
        return await self._history(player, message)

    async def _history(self, player: Player, message: GetHistory) -> History:
        account = await self._named(player, message.name)
        entries = await self.store.account_history(account.id, limit=message.limit)
        return History(
            name=account.name,
            games=tuple(
                HistoryItem(
                    game=e.match,
                    finished=e.finished,
                    seat=e.seat,
                    opponent=e.opponent,
                    opponent_account=e.opponent_account,
                    result=e.result,
                    rated=e.rated,
                    match_points=e.match_points,
                    rating_before=None if e.rating_before is None else round(e.rating_before, 1),
                    rating_after=None if e.rating_after is None else round(e.rating_after, 1),
                )
                for e in entries
            ),
        )

    async def _leaderboard(self, limit: int) -> Leaderboard:
        accounts = await self.store.leaderboard(limit=limit)
        return Leaderboard(
            entries=tuple(
                LeaderEntry(
                    rank=rank,
                    name=a.name,
                    account=a.id,
                    rating=rating_info(a),
                    counts=counts(a.stats),
                    bot=a.bot,
                )
                for rank, a in enumerate(accounts, 1)
            )
        )

    async def _game(self, player: Player, message: GetGame, peer: Peer, address: str) -> None:
        """Send a finished game from :class:`GameRecords`, encoded once for every asker."""
        try:
            code, number = parse_match_id(message.game)
        except ValueError as error:
            raise Refusal("no_game", str(error)) from None
        found = await self.records.get(code, number, steps=message.steps)
        if found is None:
            raise Refusal("no_game", f"No finished game {message.game!r} here")
        record, data = found
        reply = record.model_copy(update={"id": message.id})
        with encoded_as(reply, data):
            peer.send(reply)
