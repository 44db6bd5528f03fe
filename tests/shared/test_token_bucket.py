"""The one token bucket: a burst at once, then ``rate`` a second."""

from __future__ import annotations

from hypothesis import given
from hypothesis import strategies as st

from muggins.shared.token_bucket import TokenBucket


def test_a_full_bucket_gives_its_burst_then_refuses() -> None:
    """Starting full, ``burst`` takes succeed at one instant and the next is refused."""
    bucket = TokenBucket(rate=2.0, burst=3, now=10.0)
    assert [bucket.take(10.0) for _ in range(4)] == [True, True, True, False]


def test_tokens_come_back_at_the_rate_and_wait_says_when() -> None:
    """After emptying, a token is there after 1/rate seconds, and ``wait`` says so."""
    bucket = TokenBucket(rate=4.0, burst=1, now=0.0)
    assert bucket.take(0.0)
    assert bucket.wait(0.0) == 0.25
    assert not bucket.take(0.1)
    assert bucket.take(0.25)


def test_per_minute_is_a_minute_s_worth_with_that_burst() -> None:
    """``per_minute(6)`` holds 6 and refills one every 10 seconds."""
    bucket = TokenBucket.per_minute(6, now=0.0)
    assert all(bucket.take(0.0) for _ in range(6)) and not bucket.take(0.0)
    assert not bucket.take(9.9) and bucket.take(10.0)
    assert bucket.full(70.0)


@given(st.lists(st.floats(min_value=0, max_value=5), max_size=60))
def test_never_more_taken_than_burst_plus_rate_times_elapsed(gaps: list[float]) -> None:
    """Whatever the pattern of requests, what was allowed never exceeds burst + rate x time."""
    bucket = TokenBucket(rate=1.5, burst=4, now=0.0)
    now, taken = 0.0, 0
    for gap in gaps:
        now += gap
        taken += bucket.take(now)
        assert taken <= 4 + 1.5 * now + 1e-9
