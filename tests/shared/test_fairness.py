"""The seeded shuffle and the deal commitment: reproducible, checkable, tamper-evident."""

from __future__ import annotations

import random
from collections import Counter

import pytest

from muggins.shared.actions import DealRevealed, DealStarted
from muggins.shared.cards import DECK, parse_card, parse_cards
from muggins.shared.fairness import (
    DeckRandom,
    StackedRandom,
    arrange_deal,
    commit_deal,
    dealt_hand,
    verify_deal,
)
from muggins.shared.match import Match
from muggins.shared.view import DealReveal


def test_same_seed_same_shuffles() -> None:
    """A seed fixes every shuffle and token; a different seed gives different decks."""
    a, b = DeckRandom(42), DeckRandom(42)
    assert [a.shuffled_deck() for _ in range(3)] == [b.shuffled_deck() for _ in range(3)]
    assert a.token() == b.token()
    assert DeckRandom(42).shuffled_deck() != DeckRandom(43).shuffled_deck()
    assert DeckRandom(b"secret").shuffled_deck() != DeckRandom(b"secret2").shuffled_deck()


def test_shuffle_is_a_permutation_of_the_deck() -> None:
    """Every shuffle holds each of the 52 cards exactly once."""
    rng = DeckRandom(7)
    for _ in range(20):
        assert sorted(rng.shuffled_deck()) == sorted(DECK)


def test_randbelow_is_in_range_and_even() -> None:
    """randbelow(n) gives 0..n-1, each about equally often."""
    rng = DeckRandom(1)
    counts = Counter(rng.randbelow(6) for _ in range(6000))
    assert set(counts) == set(range(6))
    assert all(900 < n < 1100 for n in counts.values())
    with pytest.raises(ValueError):
        rng.randbelow(0)


def test_negative_seed_is_refused() -> None:
    """Seeds are non-negative integers or bytes."""
    with pytest.raises(ValueError):
        DeckRandom(-1)


def finished_deal(seed: int) -> tuple[DealStarted, dict[int, tuple[str, ...]], DealReveal, int]:
    """Play one deal of a seeded match at random; return its start, the hands dealt, its reveal."""
    match = Match(seed=seed)
    [started] = [e for e in match.events if isinstance(e, DealStarted)]
    hands = {seat: tuple(str(c) for c in match.view(seat).hand) for seat in (0, 1)}
    rng = random.Random(seed)
    while match.view(None).deal_number == 1 and not match.over:
        seat = rng.choice(match.waiting_for())
        match.apply(seat, rng.choice(match.legal_actions(seat)))
    [revealed] = [e for e in match.events if isinstance(e, DealRevealed)]
    last = match.view(0).last_deal
    assert last is not None
    assert (revealed.deck, revealed.salt) == (last.reveal.deck, last.reveal.salt)
    return started, hands, last.reveal, started.dealer


@pytest.mark.parametrize("seed", [1, 2, 3])
def test_commitment_verifies_with_the_reveal_and_the_dealt_hands(seed: int) -> None:
    """The commitment published at the deal matches the revealed deck, salt and each hand dealt."""
    started, hands, reveal, dealer = finished_deal(seed)
    assert reveal.commitment == started.commitment
    assert verify_deal(started.commitment, reveal.deck, reveal.salt)
    for seat in (0, 1):
        assert verify_deal(
            started.commitment, reveal.deck, reveal.salt, hand=hands[seat], dealer=dealer, seat=seat
        )
        assert sorted(map(str, dealt_hand(reveal.deck, dealer=dealer, seat=seat))) == sorted(
            hands[seat]
        )
    assert verify_deal(started.commitment, [str(c) for c in reveal.deck], reveal.salt)


def test_tampering_fails_verification() -> None:
    """A changed deck order, salt, hand or card set does not verify."""
    started, hands, reveal, dealer = finished_deal(4)
    commitment, deck, salt = started.commitment, list(reveal.deck), reveal.salt
    swapped = [deck[1], deck[0], *deck[2:]]
    assert not verify_deal(commitment, swapped, salt)
    assert not verify_deal(commitment, deck, salt[:-1] + ("0" if salt[-1] != "0" else "1"))
    assert not verify_deal(commitment, deck[:51], salt)
    assert not verify_deal(commitment, [*deck[:51], deck[0]], salt)
    other_hand = hands[1 - dealer]
    assert not verify_deal(commitment, deck, salt, hand=other_hand, dealer=dealer, seat=dealer)
    assert not verify_deal("0" * 64, deck, salt)


def test_commitment_depends_on_order_and_salt() -> None:
    """commit_deal is a SHA-256 hex digest that changes with the order or the salt."""
    deck = list(DECK)
    digest = commit_deal(deck, "salt")
    assert len(digest) == 64 and int(digest, 16) >= 0
    assert commit_deal(deck[::-1], "salt") != digest
    assert commit_deal(deck, "pepper") != digest


def test_stacked_random_deals_arranged_hands() -> None:
    """arrange_deal puts the pone's cards first, alternating with the dealer's, the starter 13th."""
    pone, dealer = parse_cards("AC 2C 3C 4C 5C 6C"), parse_cards("AD 2D 3D 4D 5D 6D")
    deck = arrange_deal(pone, dealer, parse_card("KS"))
    assert [str(c) for c in deck[:4]] == ["AC", "AD", "2C", "2D"]
    assert str(deck[12]) == "KS"
    stacked = StackedRandom([deck])
    full = stacked.shuffled_deck()
    assert sorted(full) == sorted(DECK)
    assert full[:13] == deck
    assert dealt_hand(full, dealer=0, seat=1) == list(pone)
    assert len(stacked.shuffled_deck()) == 52  # past the stacked decks it shuffles for real
