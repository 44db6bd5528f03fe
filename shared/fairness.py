"""A deterministic, cryptographically strong shuffle and the deal commitment.

The engine is pure, so its randomness comes from a seed. :class:`DeckRandom` turns a secret seed
into a stream of unpredictable numbers (HMAC-SHA256 in counter mode), so a real game seeded from
``secrets`` is shuffled by a CSPRNG, and a replay from the same seed deals the same cards.

At each deal the engine publishes ``commit_deal(deck, salt)``. When the deal ends it reveals the
deck order and the salt, and anyone can check them with :func:`verify_deal`.
"""

from __future__ import annotations

import hashlib
import hmac
from collections.abc import Sequence
from typing import Final

from muggins.shared.cards import DECK, Card, parse_card

_BITS: Final = tuple(n.bit_length() for n in range(53))
"""The bits a draw below n takes (``n.bit_length()``), for the shuffle's bounds 2 to 52."""


class DeckRandom:
    """HMAC-SHA256 counter-mode generator seeded with an int or bytes.

    Each 256-bit block feeds a bit buffer, and :meth:`randbelow` takes only the bits it needs from
    it (most significant first), so a shuffle of 52 cards costs about two blocks, not one per draw.
    """

    def __init__(self, seed: int | bytes) -> None:
        if isinstance(seed, int):
            if seed < 0:
                raise ValueError("the seed must not be negative")
            seed = seed.to_bytes(max(1, (seed.bit_length() + 7) // 8), "big")
        self._key = hashlib.sha256(b"muggins-seed:" + seed).digest()
        self._counter = 0
        self._bits = 0  # unused buffered bits, the next ones most significant
        self._nbits = 0

    def _block(self) -> bytes:
        self._counter += 1
        return hmac.digest(self._key, self._counter.to_bytes(8, "big"), "sha256")

    def randbelow(self, n: int) -> int:
        """A uniform integer in ``[0, n)``, by rejection sampling."""
        if n <= 0:
            raise ValueError("randbelow needs a positive bound")
        bits = n.bit_length()
        while True:
            if self._nbits < bits:
                fresh = int.from_bytes(self._block(), "big")
                self._bits = (self._bits << 256) | fresh
                self._nbits += 256
            self._nbits -= bits
            value = self._bits >> self._nbits
            self._bits &= (1 << self._nbits) - 1
            if value < n:
                return value

    def token(self) -> str:
        """128 bits as hex, for salts."""
        return self._block()[:16].hex()

    def shuffled_deck(self) -> list[Card]:
        """A Fisher-Yates shuffle: the same draws as ``randbelow(52)``, ``randbelow(51)``, …."""
        deck = list(DECK)
        buffer, nbits = self._bits, self._nbits
        for i in range(len(deck) - 1, 0, -1):
            n = i + 1
            bits = _BITS[n]
            while True:  # randbelow(n), inlined: a shuffle makes 51 draws
                if nbits < bits:
                    buffer = (buffer << 256) | int.from_bytes(self._block(), "big")
                    nbits += 256
                nbits -= bits
                j = buffer >> nbits
                buffer &= (1 << nbits) - 1
                if j < n:
                    break
            deck[i], deck[j] = deck[j], deck[i]
        self._bits, self._nbits = buffer, nbits
        return deck


def deck_text(deck: Sequence[Card]) -> str:
    return " ".join([card.text for card in deck])  # str(card), without a call per card


def commit_deal(deck: Sequence[Card], salt: str) -> str:
    """SHA-256 hex digest of the deck order and the salt, published before any card is dealt."""
    return hashlib.sha256(f"{deck_text(deck)}|{salt}".encode()).hexdigest()


def verify_deal(
    commitment: str,
    deck: Sequence[Card] | Sequence[str],
    salt: str,
    *,
    hand: Sequence[Card] | Sequence[str] | None = None,
    dealer: int | None = None,
    seat: int | None = None,
) -> bool:
    """Check a revealed deal against its commitment.

    With ``hand``, ``dealer`` and ``seat`` it also checks that the six cards that seat was dealt
    are the ones this deck order gives it (cards go one at a time, pone first).
    """
    cards = [card if isinstance(card, Card) else parse_card(card) for card in deck]
    if len(cards) != 52 or len(set(cards)) != 52:
        return False
    if not hmac.compare_digest(commit_deal(cards, salt), commitment):
        return False
    if hand is not None and dealer is not None and seat is not None:
        dealt = set(dealt_hand(cards, dealer=dealer, seat=seat))
        given = {card if isinstance(card, Card) else parse_card(card) for card in hand}
        return dealt == given
    return True


def dealt_hand(deck: Sequence[Card], *, dealer: int, seat: int) -> list[Card]:
    """The six cards ``seat`` receives from ``deck``: pone takes cards 0, 2, 4…, dealer 1, 3, 5…."""
    offset = 0 if seat != dealer else 1
    return list(deck[offset:12:2])


class StackedRandom(DeckRandom):
    """A :class:`DeckRandom` that deals prepared decks, for worked examples and tests.

    Each shuffle returns the next deck given (cards not listed follow in index order), and the
    starter is always the first undealt card (``deck[12]``).
    """

    def __init__(self, decks: Sequence[Sequence[Card]], *, seed: int = 0) -> None:
        super().__init__(seed)
        self._decks = [list(deck) for deck in decks]

    def randbelow(self, n: int) -> int:
        return 0

    def shuffled_deck(self) -> list[Card]:
        if not self._decks:
            # Past the prepared decks, the shuffle whose every draw is randbelow() == 0.
            deck = list(DECK)
            for i in range(len(deck) - 1, 0, -1):
                deck[i], deck[0] = deck[0], deck[i]
            return deck
        top = self._decks.pop(0)
        return top + [card for card in DECK if card not in top]


def arrange_deal(pone: Sequence[Card], dealer: Sequence[Card], starter: Card) -> list[Card]:
    """Deck order that deals these six-card hands (pone first, alternating) and this starter."""
    deck: list[Card] = []
    for p, d in zip(pone, dealer, strict=True):
        deck += [p, d]
    return [*deck, starter]
