"""A bot account on a server: sign in (or register, flagged a bot), then play rated matches
from the queue (:func:`play_account`) or every table of a tournament (:func:`play_tournament`).
The match itself is played as :mod:`client.remote_bot` plays any match.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Literal

from websockets.asyncio.client import ClientConnection, connect
from websockets.exceptions import ConnectionClosed, InvalidURI

from muggins.client.remote_bot import (
    Pacer,
    RemoteError,
    RemoteResult,
    _hello,
    _play_match,
    _receive,
    _refusal,
    _send,
)
from muggins.shared.bots.base import Strategy, make_strategy
from muggins.shared.protocol import DuplicateResult, Leave, Left, ServerMessage
from muggins.shared.protocol.accounts import Account, Register, Seek, Seeking, SignIn
from muggins.shared.protocol.tournaments import JoinTournament, TournamentInfo


async def _sign_in(ws: ClientConnection, account: str, password: str, *, register: bool) -> Account:
    """Say hello as ``account`` and sign in to it (registering it first, flagged a bot)."""
    await _hello(ws, account)
    ask: Register | SignIn = (
        Register(name=account, password=password, bot=True, id=1)
        if register
        else SignIn(name=account, password=password, id=1)
    )
    await _send(ws, ask)
    signed = await _answer(ws, 1)
    if not isinstance(signed, Account):
        raise RemoteError(_refusal(signed, "the server did not sign the bot in"))
    return signed


async def play_account(
    url: str,
    *,
    level: str,
    account: str,
    password: str,
    register: bool = False,
    matches: int = 1,
    best_of: Literal[1, 3] = 1,
    duplicate: bool = False,
    seed: int = 0,
    strategy: Strategy | None = None,
    on_room: Callable[[str], None] | None = None,
    on_event: Callable[[str], None] | None = None,
    on_result: Callable[[RemoteResult], None] | None = None,
    rate: float = 15.0,
    burst: int = 30,
) -> list[RemoteResult]:
    """Sign in to a bot account (registering it first, flagged a bot, with ``register``), then
    seek ``matches`` rated matches one after the other and play them (``duplicate``: duplicate
    matches, each result that of the second table). ``strategy`` replaces the level's."""
    strategy = strategy or make_strategy(level, seed=seed)
    pacer = Pacer(rate, burst)
    results: list[RemoteResult] = []
    try:
        async with connect(url, max_size=2**22) as ws:
            signed = await _sign_in(ws, account, password, register=register)
            if not signed.bot:
                raise RemoteError(f"{account!r} is not a bot account; register one with --register")
            for number in range(matches):
                await _send(ws, Seek(best_of=best_of, duplicate=duplicate, id=2 + 2 * number))
                seeking = await _answer(ws, 2 + 2 * number)
                if not isinstance(seeking, Seeking):
                    raise RemoteError(_refusal(seeking, "the server did not queue the bot"))
                result = await _play_match(ws, strategy, pacer, "", on_room, on_event)
                if duplicate and result is not None:
                    # The server seats the bot at the second table itself.
                    after = result.code
                    result = await _play_match(
                        ws, strategy, pacer, "", on_room, on_event, after=after
                    )
                    await _answer(ws, -1, of_type=DuplicateResult)
                assert result is not None
                results.append(result)
                if on_result is not None:
                    on_result(result)
                await _send(ws, Leave(id=3 + 2 * number))
                await _answer(ws, 3 + 2 * number, of_type=Left)
    except InvalidURI as error:
        raise RemoteError(f"{url!r} is not a WebSocket address like ws://HOST:PORT") from error
    except ConnectionClosed as error:
        raise RemoteError("the server closed the connection") from error
    return results


async def play_tournament(
    url: str,
    *,
    level: str,
    account: str,
    password: str,
    tournament: str,
    register: bool = True,
    seed: int = 0,
    strategy: Strategy | None = None,
    rate: float = 15.0,
    burst: int = 30,
) -> list[RemoteResult]:
    """Sign in to (or register) a bot account, join ``tournament`` and play every table the
    tournament seats the bot at, until it is finished."""
    strategy = strategy or make_strategy(level, seed=seed)
    pacer = Pacer(rate, burst)
    results: list[RemoteResult] = []

    over = False

    def finished(message: ServerMessage) -> bool:
        nonlocal over
        if isinstance(message, TournamentInfo) and message.summary.status == "finished":
            over = True
        return over

    try:
        async with connect(url, max_size=2**22) as ws:
            await _sign_in(ws, account, password, register=register)
            await _send(ws, JoinTournament(tournament=tournament, id=2))
            joined = await _answer(ws, 2)
            if not isinstance(joined, TournamentInfo):
                raise RemoteError(_refusal(joined, "the tournament did not take the bot"))
            after = None
            while not over:
                result = await _play_match(
                    ws, strategy, pacer, "", None, None, after=after, stop=finished
                )
                if result is None:
                    return results
                results.append(result)
                after = result.code
            return results
    except InvalidURI as error:
        raise RemoteError(f"{url!r} is not a WebSocket address like ws://HOST:PORT") from error
    except ConnectionClosed as error:
        raise RemoteError("the server closed the connection") from error


async def _answer(
    ws: ClientConnection, id: int, *, of_type: type[ServerMessage] | None = None
) -> ServerMessage:
    """The reply to the message sent with ``id`` (or the next ``of_type``); others are skipped."""
    while True:
        message = await _receive(ws)
        if message.id == id or (of_type is not None and isinstance(message, of_type)):
            return message
