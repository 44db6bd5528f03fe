"""Room codes, player ids and resume tokens."""

from __future__ import annotations

import hashlib
import hmac
import re
import secrets
from typing import Final

CODE_ALPHABET: Final = "ABCDEFGHJKLMNPQRSTUVWXYZ"
"""Letters only, without I and O (easily read as 1 and 0)."""
CODE_LENGTH: Final = 6
_SPACE = re.compile(r"\s+")


def new_room_code() -> str:
    return "".join(secrets.choice(CODE_ALPHABET) for _ in range(CODE_LENGTH))


def normalise_code(text: str) -> str:
    return text.strip().upper()


def new_player_id() -> str:
    return "p" + secrets.token_hex(6)


def new_token(player: str) -> tuple[str, str]:
    """A resume token for ``player`` and the hash to keep. Only the hash is ever stored."""
    secret = secrets.token_urlsafe(24)
    return f"{player}.{secret}", hash_secret(secret)


def hash_secret(secret: str) -> str:
    return hashlib.sha256(secret.encode()).hexdigest()


def token_player(token: str) -> str | None:
    player, dot, _ = token.partition(".")
    return player if dot and player else None


def token_matches(token: str, stored_hash: str | None) -> bool:
    if stored_hash is None:
        return False
    _, _, secret = token.partition(".")
    return hmac.compare_digest(hash_secret(secret), stored_hash)
