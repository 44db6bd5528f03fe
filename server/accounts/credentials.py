"""Accounts: name rules against look-alikes, password hashing, sign-in rate limits, sessions.

**Names** follow :mod:`shared.names`.

**Passwords** are 8 to 200 characters, kept only as a salted scrypt hash from the standard
library (n=2^14, r=8, p=1: about 50 ms and 16 MiB per check), checked with a constant-time
comparison, never logged. An unknown name is checked against a dummy hash so that it takes as
long as a wrong password, and both get the same answer.

**Sign-in limits.** At most 5 failed attempts per name and 20 per address in 5 minutes; past
that, attempts are refused (without checking the password) until the oldest failure is 5
minutes old.

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


class SignInLimiter:
    """Failed sign-ins in a sliding window, per name key and per address."""

    def __init__(
        self,
        *,
        per_name: int = 5,
        per_address: int = 20,
        window: float = 300.0,
        clock: Callable[[], float] = time.monotonic,
    ) -> None:
        self.limits = {"name": per_name, "address": per_address}
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

    def wait(self, name_key: str, address: str) -> float:
        """Seconds until an attempt for this name from this address is allowed (0: now)."""
        longest = 0.0
        for kind, key in (("name", name_key), ("address", address)):
            failures = self._recent(kind, key)
            if len(failures) >= self.limits[kind]:
                longest = max(longest, failures[0] + self.window - self.clock())
        return longest

    def failed(self, name_key: str, address: str) -> None:
        now = self.clock()
        for kind, key in (("name", name_key), ("address", address)):
            self._failures.setdefault((kind, key), deque()).append(now)

    def succeeded(self, name_key: str) -> None:
        self._failures.pop(("name", name_key), None)

    def take_back(self, address: str) -> None:
        """The address's latest counted attempt was not a failure after all."""
        failures = self._failures.get(("address", address))
        if failures:
            failures.pop()


class SignInLimits(Protocol):
    """The sign-in limits as the account service uses them: every attempt is counted as a
    failure before the password is checked (so attempts made at once cannot slip past the limit
    together), and a success takes it back."""

    async def attempt(self, name_key: str, address: str) -> tuple[float, str]:
        """(seconds to wait, 0 if the attempt may go ahead and is now counted; a ticket)."""

    async def succeeded(self, name_key: str, address: str, ticket: str) -> None:
        """The attempt of ``ticket`` succeeded: the name's failures are forgotten, and the
        attempt no longer counts against the address."""


class LocalSignInLimits:
    """:class:`SignInLimits` kept in this process (a single server)."""

    def __init__(self, limiter: SignInLimiter | None = None) -> None:
        self.limiter = limiter or SignInLimiter()

    async def attempt(self, name_key: str, address: str) -> tuple[float, str]:
        wait = self.limiter.wait(name_key, address)
        if wait > 0:
            return wait, ""
        self.limiter.failed(name_key, address)
        return 0.0, ""

    async def succeeded(self, name_key: str, address: str, ticket: str) -> None:
        self.limiter.succeeded(name_key)
        self.limiter.take_back(address)
