"""Names, room codes and resume tokens."""

from __future__ import annotations

import hashlib
import hmac
import re
import secrets
import unicodedata
from typing import Final

from muggins.shared.protocol.client import NAME_MAX

CODE_ALPHABET: Final = "ABCDEFGHJKLMNPQRSTUVWXYZ"
"""Letters only, without I and O (easily read as 1 and 0)."""
CODE_LENGTH: Final = 6
_SPACE = re.compile(r"\s+")


def new_room_code() -> str:
    return "".join(secrets.choice(CODE_ALPHABET) for _ in range(CODE_LENGTH))


def normalise_code(text: str) -> str:
    return text.strip().upper()


def clean_name(text: str, *, fallback: str = "Player") -> str:
    """Printable, single-spaced, at most 24 characters; never empty."""
    text = unicodedata.normalize("NFKC", text)
    kept = "".join(ch for ch in text if unicodedata.category(ch)[0] not in "CZ" or ch == " ")
    kept = _SPACE.sub(" ", kept).strip()[:NAME_MAX].strip()
    return kept or fallback


_CARD = re.compile(r"(?:[A2-9JQKT]|10)[CDHS♣♦♥♠♧♢♡♤]")
_SUIT_SYMBOLS = "♣♦♥♠♧♢♡♤"
_COMPUTER = re.compile(r"\bcomputer\b", re.IGNORECASE)


def name_problem(name: str) -> str | None:
    """Why a (cleaned) name would mislead in the sentences others read, or None if it is fine.

    Event sentences name players and cards side by side ("Ann plays 5♥"), and the computer is
    "Computer (level)": a name that reads as the computer, as a card or with a suit symbol in it
    would make those sentences lie.
    """
    if _COMPUTER.search(name):
        return "the computer is called Computer; choose a name that is not"
    if any(symbol in name for symbol in _SUIT_SYMBOLS):
        return "a name may not hold suit symbols"
    if all(_CARD.fullmatch(word) for word in name.split()):
        return f"{name!r} reads as a card; choose another name"
    return None


def clean_text(text: str) -> str:
    """Chat text: no control characters, whitespace runs kept short."""
    text = unicodedata.normalize("NFKC", text)
    kept = "".join(ch for ch in text if unicodedata.category(ch)[0] != "C" or ch == " ")
    return _SPACE.sub(" ", kept).strip()


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
