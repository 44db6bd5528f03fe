"""Names: the rule for an account's name, the look-alike folding that makes two names one, and
the cleaning of any player's name and chat text.

An account name is 3 to 24 characters after Unicode NFKC normalisation: letters,
digits, spaces and ``- _ .``, starting with a letter or digit, and every letter from one script
(Latin, Cyrillic, Greek, ...; a mix such as Cyrillic ``А`` in ``АIice`` is refused). Two names
are the same name when their *keys* are equal. The key is the name NFKC-normalised, case-folded,
with accents and other marks taken off (``í`` -> ``i``, Turkish ``İ`` -> ``i``), Cyrillic and
Greek letters that look like Latin ones replaced by those (``а`` -> ``a``), ``i``, dotless
``ı``, ``l``, ``1`` and ``|`` all read as ``l``, ``0`` as ``o``, and spaces, ``-``, ``_`` and
``.`` left out. So ``Alice``, ``ALICE``, ``A1ice``, ``АIice``, ``Alíce``, ``Alıce``, ``ALİCE``
and ``a.lice`` are one name.

A name that reads as the computer (after the same folding: ``Сomputer`` with a Cyrillic ``С``
and ``C0mputer`` too), as a card, with a suit symbol in it, or with the marks the server adds to
names (``Ann (2)``, ``Ann (guest)``) is refused (see :func:`name_problem`): event sentences name
players and cards side by side.
"""

from __future__ import annotations

import re
import unicodedata
from typing import Final

from muggins.shared.protocol.client import NAME_MAX as SHOWN_MAX

NAME_MIN: Final = 3
NAME_MAX: Final = 24
_SPACE = re.compile(r"\s+")
_PUNCTUATION: Final = " -_."
_LOOKALIKE: Final = str.maketrans(
    {
        # Cyrillic letters drawn like Latin ones (after case folding)
        "а": "a", "в": "b", "г": "r", "д": "d", "е": "e", "ё": "e", "з": "3", "і": "i", "ї": "i",
        "ј": "j", "к": "k", "м": "m", "н": "h", "о": "o", "п": "n", "р": "p", "с": "c", "т": "t",
        "у": "y", "х": "x", "ѕ": "s", "ԁ": "d", "һ": "h", "ӏ": "l", "ԛ": "q", "ԝ": "w", "ь": "b",
        # Greek
        "α": "a", "β": "b", "γ": "y", "ε": "e", "η": "n", "ι": "i", "κ": "k", "μ": "u",
        "ν": "v", "ο": "o", "ρ": "p", "τ": "t", "υ": "u", "χ": "x", "ω": "w", "ς": "c",
    }
)  # fmt: skip
_STROKES: Final = str.maketrans({"1": "l", "i": "l", "ı": "l", "|": "l", "0": "o"})


class NameRefused(ValueError):
    """A name that cannot be taken; the message says why."""


def _script(ch: str) -> str:
    """The script of a letter, from its Unicode name (CJK ideographs and kana count as one)."""
    first = unicodedata.name(ch, "UNKNOWN").split()[0]
    return "CJK" if first in ("CJK", "HIRAGANA", "KATAKANA") else first


def check_name(text: str) -> str:
    """The account name as kept (NFKC, single spaces), or :class:`NameRefused` saying why not."""
    name = " ".join(unicodedata.normalize("NFKC", text).split())
    if not NAME_MIN <= len(name) <= NAME_MAX:
        raise NameRefused(f"A name has {NAME_MIN} to {NAME_MAX} characters")
    scripts = set()
    for ch in name:
        if ch.isalpha():
            scripts.add(_script(ch))
        elif not (ch.isdigit() and ch.isascii()) and ch not in _PUNCTUATION:
            raise NameRefused(f"A name has letters, digits, spaces and - _ . only, not {ch!r}")
    if not name[0].isalnum():
        raise NameRefused("A name starts with a letter or a digit")
    if len(scripts) > 1:
        raise NameRefused(
            "A name's letters must all be from one alphabet (it mixes "
            + " and ".join(sorted(s.title() for s in scripts))
            + "), so that it cannot pass for another"
        )
    problem = name_problem(name)
    if problem is not None:
        raise NameRefused(f"Please pick another name: {problem}")
    return name


def _fold(name: str) -> str:
    """The name case-folded, without marks, with look-alikes read as Latin letters."""
    folded = unicodedata.normalize("NFKD", unicodedata.normalize("NFKC", name).casefold())
    folded = "".join(ch for ch in folded if not unicodedata.combining(ch))
    return folded.translate(_LOOKALIKE).translate(_STROKES)


def name_key(name: str) -> str:
    """What makes two names the same (see the module doc): equal keys cannot both be accounts."""
    return "".join(ch for ch in _fold(name) if ch not in _PUNCTUATION)


def legacy_key(name: str) -> str:
    """The key accounts were kept under before marks were folded (``Alíce`` kept its ``í``):
    such an account is still found by its name."""
    folded = unicodedata.normalize("NFKC", name).casefold().translate(_LOOKALIKE)
    folded = folded.translate(_STROKES)
    return "".join(ch for ch in folded if ch not in _PUNCTUATION)


def clean_name(text: str, *, fallback: str = "Player") -> str:
    """Printable, single-spaced, at most 24 characters; never empty."""
    text = unicodedata.normalize("NFKC", text)
    kept = "".join(ch for ch in text if unicodedata.category(ch)[0] not in "CZ" or ch == " ")
    kept = _SPACE.sub(" ", kept).strip()[:SHOWN_MAX].strip()
    return kept or fallback


_CARD = re.compile(r"(?:[A2-9JQKT]|10)[CDHS♣♦♥♠♧♢♡♤]")
_SUIT_SYMBOLS = "♣♦♥♠♧♢♡♤"
_COMPUTER = re.compile(r"(?<![^\W_])computer(?![^\W_])")
"""The word "computer" in a folded name (:func:`_fold`: ``Сomputer``, ``C0mputer`` too)."""
_SERVER_MARK = re.compile(r"\(\s*(?:\d+|guest)\s*\)", re.IGNORECASE)
"""What the server adds to a name: ``Ann (2)`` for a second Ann at a table, ``(guest)``."""
GUEST_MARK: Final = "(guest)"
"""Follows a guest's name when an account has that name: ``Alice (guest)``."""


BOT_MARK: Final = "[bot]"
"""Follows a bot account's name wherever it is shown: ``Deep Peg [bot]``."""


def marked(name: str, bot: bool) -> str:
    """The name as others see it: a bot account's carries :data:`BOT_MARK`.

    >>> marked("Deep Peg", True), marked("Ann", False)
    ('Deep Peg [bot]', 'Ann')
    """
    return f"{name} {BOT_MARK}" if bot else name


def unmarked(name: str) -> str:
    """A shown name back to the account's name (a name asked for as it was shown).

    >>> unmarked("Deep Peg [bot]")
    'Deep Peg'
    """
    return name.removesuffix(BOT_MARK).rstrip() if name.endswith(BOT_MARK) else name


def name_problem(name: str) -> str | None:
    """Why a (cleaned) name would mislead in the sentences others read, or None if it is fine.

    Event sentences name players and cards side by side ("Ann plays 5♥"), and the computer is
    "Computer (level)": a name that reads as the computer, as a card or with a suit symbol in it
    would make those sentences lie.
    """
    if BOT_MARK in name.casefold():
        return f"{BOT_MARK} marks bot accounts; choose a name without it"
    if _COMPUTER.search(_fold(name)):
        return "the computer is called Computer; choose a name that is not"
    if _SERVER_MARK.search(name):
        return "a name may not hold (2) or (guest): the server adds those to names"
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
