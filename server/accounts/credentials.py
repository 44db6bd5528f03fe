"""Accounts: name rules against look-alikes, password hashing, sign-in rate limits, sessions.

**Names** follow :mod:`shared.names`.

**Passwords** are 8 to 200 characters, kept only as a salted scrypt hash from the standard
library (n=2^14, r=8, p=1: about 50 ms and 16 MiB per check), checked with a constant-time
comparison, never logged. An unknown name is checked against a dummy hash so that it takes as
long as a wrong password, and both get the same answer.

**Sign-in limits.** At most 5 failed attempts per name from one address, and 20 per address, in
5 minutes; past that, attempts are refused (without checking the password) until the oldest
failure is 5 minutes old. A stranger therefore cannot lock someone else out: failures of a
name from anywhere only *slow* its sign-ins (by :data:`SLOW_DELAY` past 20 in the window), and
a name no account has is never locked.

**Sessions.** A session token is 32 random bytes (URL-safe base64); the server keeps only its
SHA-256. Signing out everywhere deletes every session of the account.
"""

from __future__ import annotations

import base64
import hashlib
import hmac
import secrets
import time
from collections import deque
from collections.abc import Callable
from typing import Final, Protocol

from muggins.shared.names import NAME_MAX, NAME_MIN, NameRefused, name_key
from muggins.shared.names import check_name as _check_name

PASSWORD_MIN: Final = 8
PASSWORD_MAX: Final = 200
SCRYPT_N: Final = 2**14
SCRYPT_R: Final = 8
SCRYPT_P: Final = 1


class AccountError(ValueError):
    """A request about an account that cannot be granted; the message says why."""


def check_name(text: str) -> str:
    """The account name as kept (:func:`shared.names.check_name`), or :class:`AccountError`."""
    try:
        return _check_name(text)
    except NameRefused as refused:
        raise AccountError(str(refused)) from None


__all__ = ["NAME_MAX", "NAME_MIN", "AccountError", "check_name", "name_key"]


def check_password(password: str) -> None:
    if not PASSWORD_MIN <= len(password) <= PASSWORD_MAX:
        raise AccountError(f"A password has {PASSWORD_MIN} to {PASSWORD_MAX} characters")


def hash_password(password: str) -> str:
    """A salted scrypt hash, ``scrypt$n$r$p$salt$hash`` (base64). Slow on purpose: run it in a
    worker thread from async code."""
    salt = secrets.token_bytes(16)
    digest = hashlib.scrypt(password.encode(), salt=salt, n=SCRYPT_N, r=SCRYPT_R, p=SCRYPT_P)
    return "$".join(
        ["scrypt", str(SCRYPT_N), str(SCRYPT_R), str(SCRYPT_P), _b64(salt), _b64(digest)]
    )


def verify_password(password: str, stored: str | None) -> bool:
    """Whether ``password`` matches ``stored``; with None, as slow as a real check, and False."""
    if stored is None:
        verify_password(password, _DUMMY)
        return False
    try:
        kind, n, r, p, salt, digest = stored.split("$")
        expected = base64.b64decode(digest)
        got = hashlib.scrypt(
            password.encode(), salt=base64.b64decode(salt), n=int(n), r=int(r), p=int(p)
        )
    except ValueError:
        return False
    return kind == "scrypt" and hmac.compare_digest(got, expected)


def _b64(data: bytes) -> str:
    return base64.b64encode(data).decode()


_DUMMY: Final = hash_password(secrets.token_urlsafe(16))


def new_account_id() -> str:
    return "a" + secrets.token_hex(8)


def new_session() -> tuple[str, str]:
    """A session token for the client and the hash the server keeps."""
    token = secrets.token_urlsafe(32)
    return token, session_hash(token)


def session_hash(token: str) -> str:
    return hashlib.sha256(token.encode()).hexdigest()


SLOW_DELAY: Final = 2.0
"""Seconds each sign-in for a name waits once the name has failed ``per_name`` times in the
window from anywhere: many addresses guessing one password are slowed, its owner is not locked."""


class SignInLimiter:
    """Failed sign-ins in a sliding window: per name and address pair and per address (past
    those: locked), and per name from anywhere (past that: slowed, never locked)."""

    def __init__(
        self,
        *,
        per_pair: int = 5,
        per_address: int = 20,
        per_name: int = 20,
        window: float = 300.0,
        clock: Callable[[], float] = time.monotonic,
    ) -> None:
        self.limits = {"pair": per_pair, "address": per_address, "name": per_name}
        self.window = window
        self.clock = clock
        self._failures: dict[tuple[str, str], deque[float]] = {}

    def _recent(self, kind: str, key: str) -> deque[float]:
        failures = self._failures.get((kind, key))
        if failures is None:
            return deque()
        now = self.clock()
        while failures and failures[0] <= now - self.window:
            failures.popleft()
        if not failures:
            del self._failures[(kind, key)]
        return failures

    @staticmethod
    def _keys(name_key: str, address: str) -> tuple[tuple[str, str], ...]:
        return (("pair", f"{name_key}@{address}"), ("address", address), ("name", name_key))

    def wait(self, name_key: str, address: str) -> float:
        """Seconds until an attempt for this name from this address is allowed (0: now)."""
        longest = 0.0
        for kind, key in self._keys(name_key, address)[:2]:
            failures = self._recent(kind, key)
            if len(failures) >= self.limits[kind]:
                longest = max(longest, failures[0] + self.window - self.clock())
        return longest

    def slow(self, name_key: str) -> float:
        """Seconds an attempt for this name waits before its password is checked (0: none)."""
        return SLOW_DELAY if len(self._recent("name", name_key)) >= self.limits["name"] else 0.0

    def failed(self, name_key: str, address: str) -> None:
        now = self.clock()
        for kind, key in self._keys(name_key, address):
            self._failures.setdefault((kind, key), deque()).append(now)

    def succeeded(self, name_key: str, address: str) -> None:
        """The name's failures are forgotten (from this address and from anywhere)."""
        for kind, key in self._keys(name_key, address):
            if kind != "address":
                self._failures.pop((kind, key), None)

    def take_back(self, address: str) -> None:
        """The address's latest counted attempt was not a failure after all."""
        failures = self._failures.get(("address", address))
        if failures:
            failures.pop()


class RegistrationLimiter:
    """Accounts made per address in a sliding window (3 an hour by default): each costs a
    scrypt hash and a name, so one address cannot mint them by the dozen."""

    def __init__(
        self,
        *,
        per_address: int = 3,
        window: float = 3600.0,
        clock: Callable[[], float] = time.monotonic,
    ) -> None:
        self.per_address, self.window, self.clock = per_address, window, clock
        self._made: dict[str, deque[float]] = {}

    def take(self, address: str) -> float:
        """0 and the registration is counted, or the seconds until this address may register."""
        now = self.clock()
        made = self._made.setdefault(address, deque())
        while made and made[0] <= now - self.window:
            made.popleft()
        if len(made) >= self.per_address:
            return made[0] + self.window - now
        made.append(now)
        if len(self._made) > 100_000:  # forget addresses with nothing in the window
            for key in [k for k, v in self._made.items() if not v]:
                del self._made[key]
        return 0.0


class SignInLimits(Protocol):
    """The sign-in limits as the account service uses them: every attempt is counted as a
    failure before the password is checked (so attempts made at once cannot slip past the limit
    together), and a success takes it back."""

    async def attempt(self, name_key: str, address: str) -> tuple[float, float, str]:
        """(seconds to wait, 0 if the attempt may go ahead and is now counted; seconds to slow
        it by; a ticket)."""

    async def succeeded(self, name_key: str, address: str, ticket: str) -> None:
        """The attempt of ``ticket`` succeeded: the name's failures are forgotten, and the
        attempt no longer counts against the address."""

    async def unknown(self, name_key: str, address: str) -> None:
        """No account has this name: its failures are forgotten (nobody is locked out of a name
        before it is registered); the address's count stands."""


class LocalSignInLimits:
    """:class:`SignInLimits` kept in this process (a single server)."""

    def __init__(self, limiter: SignInLimiter | None = None) -> None:
        self.limiter = limiter or SignInLimiter()

    async def attempt(self, name_key: str, address: str) -> tuple[float, float, str]:
        wait = self.limiter.wait(name_key, address)
        if wait > 0:
            return wait, 0.0, ""
        slow = self.limiter.slow(name_key)
        self.limiter.failed(name_key, address)
        return 0.0, slow, ""

    async def succeeded(self, name_key: str, address: str, ticket: str) -> None:
        self.limiter.succeeded(name_key, address)
        self.limiter.take_back(address)

    async def unknown(self, name_key: str, address: str) -> None:
        self.limiter.succeeded(name_key, address)
