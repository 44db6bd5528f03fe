"""The client's side of accounts: session tokens kept between runs, and one-shot requests.

Session tokens are kept in ``sessions.json`` in the data directory (mode 0600), one per server
address, with the account name; never the password. :func:`request` opens a connection, says
hello, signs in with the saved session when asked, sends one message and returns the answer.
"""

from __future__ import annotations

import json
import sys
from collections.abc import Callable
from pathlib import Path
from typing import Any

from pydantic import ValidationError
from websockets.asyncio.client import connect

from muggins.shared.protocol import PROTOCOL_VERSION, Error, Hello, ServerMessage, encode
from muggins.shared.protocol import parse_server as parse
from muggins.shared.protocol.accounts import Account, GetProfile, Profile, SignIn


class Sessions:
    """Saved session tokens by server address."""

    def __init__(self, path: Path) -> None:
        self.path = path

    def load(self) -> dict[str, dict[str, str]]:
        try:
            data = json.loads(self.path.read_text())
        except (OSError, ValueError):
            return {}
        return data if isinstance(data, dict) else {}

    def get(self, url: str) -> tuple[str, str] | None:
        """(name, session) saved for a server, if any."""
        entry = self.load().get(url)
        if not isinstance(entry, dict) or not entry.get("session"):
            return None
        return str(entry.get("name", "")), str(entry["session"])

    def save(self, url: str, name: str, session: str) -> None:
        data = self.load()
        data[url] = {"name": name, "session": session}
        self._write(data)

    def forget(self, url: str) -> None:
        data = self.load()
        if data.pop(url, None) is not None:
            self._write(data)

    def _write(self, data: dict[str, Any]) -> None:
        try:
            self.path.parent.mkdir(parents=True, exist_ok=True)
            self.path.touch(mode=0o600)
            self.path.chmod(0o600)
            self.path.write_text(json.dumps(data, indent=1) + "\n")
        except OSError as error:
            print(f"muggins: could not save the session: {error}", file=sys.stderr)


class Link:
    """One short connection: hello, then requests answered one at a time."""

    def __init__(self, url: str, name: str = "account") -> None:
        self.url, self.name = url, name
        self._ws: Any = None
        self._next = 0

    async def __aenter__(self) -> Link:
        self._ws = await connect(self.url, max_size=2**22, open_timeout=10)
        await self.ask(Hello(name=self.name, protocol=PROTOCOL_VERSION))
        return self

    async def __aexit__(self, *exc: object) -> None:
        await self._ws.close()

    async def ask(self, message: Any) -> ServerMessage:
        """Send ``message`` and return the server's answer to it (its own ``id``)."""
        self._next += 1
        await self._ws.send(encode(message.model_copy(update={"id": self._next})))
        while True:
            text = await self._ws.recv()
            try:
                reply = parse(text)
            except ValidationError:
                continue
            if reply.id == self._next or (reply.type == "welcome" and self._next == 1):
                return reply

    async def resume(self, sessions: Sessions) -> Account | Error | None:
        """Sign in with the saved session for this server, if there is one."""
        saved = sessions.get(self.url)
        if saved is None:
            return None
        reply = await self.ask(SignIn(session=saved[1]))
        if isinstance(reply, Error):
            sessions.forget(self.url)
        return reply if isinstance(reply, Account | Error) else None


async def sign_in_for_play(
    url: str, name: str, sessions: Sessions, ask: Callable[[str], str], *, tries: int = 3
) -> str | None:
    """The session token ``muggins play URL --name NAME`` signs in with, or None (a guest).

    A saved session for this server and name is used if it still works. Otherwise, if NAME is
    registered here, the password is asked (up to ``tries`` times) and the new session kept.
    Raises :class:`AccountDenied` when every try was refused.
    """
    from muggins.shared.names import name_key

    async with Link(url, name) as link:
        saved = sessions.get(url)
        if saved is not None and name_key(saved[0]) == name_key(name):
            signed = await link.resume(sessions)
            if isinstance(signed, Account):
                return saved[1]
        profile = await link.ask(GetProfile(name=name))
        if not isinstance(profile, Profile):
            return None  # not registered here: play as a guest
        for _ in range(tries):
            reply = await link.ask(SignIn(name=name, password=ask(f"Password for {name}: ")))
            if isinstance(reply, Account) and reply.session:
                sessions.save(url, reply.name, reply.session)
                return reply.session
            if isinstance(reply, Error):
                print(f"muggins play: {reply.message}", file=sys.stderr)
                if reply.code == "rate_limited":
                    break
        raise AccountDenied(f"{name} is a registered name here; sign in or choose another --name")


class AccountDenied(Exception):
    """The name is registered and the password was not given."""
