"""Account rules: names against look-alikes, password hashing, the sign-in limiter."""

from __future__ import annotations

import pytest

from muggins.server.accounts.credentials import (
    SLOW_DELAY,
    AccountError,
    SignInLimiter,
    check_name,
    hash_password,
    name_key,
    new_session,
    session_hash,
    verify_password,
)


@pytest.mark.parametrize("other", ["alice", "ALICE", "A1ice", "AIice", "a.lice", "Al ice", "ΑΙΙΧΕ"])
def test_look_alike_names_share_a_key(other: str) -> None:
    """Case, digits drawn like letters, separators and Greek/Cyrillic look-alikes fold together."""
    if other == "ΑΙΙΧΕ":  # Greek capitals: alpha, iota, iota, chi, epsilon -> a l l x e
        assert name_key(other) == "allxe"
        return
    assert name_key(other) == name_key("Alice")


@pytest.mark.parametrize("mixed", ["АIice", "Аlісе", "Bоb"])
def test_names_mixing_alphabets_are_refused(mixed: str) -> None:
    """Cyrillic letters among Latin ones (the classic impersonation) are refused outright."""
    with pytest.raises(AccountError, match="one alphabet"):
        check_name(mixed)


def test_all_cyrillic_look_alike_collides_with_the_latin_name() -> None:
    """A name wholly in Cyrillic that reads as a Latin one has the Latin one's key."""
    assert check_name("Вов") == "Вов"
    assert name_key("Вов") == name_key("bob") == name_key("BOB")


@pytest.mark.parametrize("bad", ["ab", "x" * 25, "-alice", "al<ice", "al\u200bice"])
def test_bad_names_are_refused_with_a_reason(bad: str) -> None:
    """Too short or long, leading punctuation, symbols and invisible characters are refused."""
    with pytest.raises(AccountError):
        check_name(bad)


MISLEADING = ["Computer", "The computer", "10H KD", "ＡＨ ＫＤ", "QS 10C"]


@pytest.mark.parametrize("misleading", MISLEADING)
def test_account_names_that_read_as_the_computer_or_as_cards_are_refused(misleading: str) -> None:
    """As for a guest's hello: a name that would make event sentences read wrongly is refused."""
    with pytest.raises(AccountError, match="another name"):
        check_name(misleading)


def test_passwords_are_salted_scrypt_and_checked() -> None:
    """The same password hashes differently each time; only the right one verifies."""
    first, second = hash_password("correct horse"), hash_password("correct horse")
    assert first != second and first.startswith("scrypt$16384$8$1$")
    assert "correct horse" not in first
    assert verify_password("correct horse", first)
    assert not verify_password("correct horsf", first)
    assert not verify_password("anything", None)


def test_session_tokens_are_random_and_kept_as_hashes() -> None:
    """Only the SHA-256 of a session token is kept; two tokens never repeat."""
    token, kept = new_session()
    assert kept == session_hash(token) and token not in kept
    assert new_session()[0] != token


def test_the_limiter_locks_a_name_for_the_address_that_failed_only() -> None:
    """Five failures for a name from one address lock that pair for the rest of the five-minute
    window; the same name from another address is not locked (a stranger cannot lock it)."""
    now = [1000.0]
    limiter = SignInLimiter(clock=lambda: now[0])
    for _ in range(5):
        assert limiter.wait("alice", "10.0.0.1") == 0
        limiter.failed("alice", "10.0.0.1")
        now[0] += 1
    assert limiter.wait("alice", "10.0.0.1") == pytest.approx(295)
    assert limiter.wait("alice", "10.0.0.2") == 0
    assert limiter.wait("bob", "10.0.0.1") == 0
    now[0] += 296
    assert limiter.wait("alice", "10.0.0.1") == 0


def test_failures_of_a_name_from_everywhere_slow_it_and_never_lock_it() -> None:
    """Twenty failures of one name from twenty addresses: each further try is slowed by
    SLOW_DELAY and none is locked; a success forgets them."""
    limiter = SignInLimiter(clock=lambda: 0.0)
    for n in range(20):
        assert limiter.slow("alice") == 0
        limiter.failed("alice", f"10.0.1.{n}")
    assert limiter.slow("alice") == SLOW_DELAY
    assert limiter.wait("alice", "10.0.2.1") == 0
    limiter.succeeded("alice", "10.0.2.1")
    assert limiter.slow("alice") == 0


def test_the_limiter_counts_an_address_across_names() -> None:
    """Twenty failures from one address lock that address for every name."""
    limiter = SignInLimiter(clock=lambda: 0.0)
    for n in range(20):
        limiter.failed(f"name{n}", "10.0.0.9")
    assert limiter.wait("fresh", "10.0.0.9") > 0
    assert limiter.wait("fresh", "10.0.0.8") == 0
