"""The server's metrics: the figures counted in plain Python scrape as prometheus_client's own."""

from __future__ import annotations

import random
import re

from prometheus_client import CollectorRegistry, Counter, Histogram, generate_latest

from muggins.server.runtime.metrics import ACTION_BUCKETS, Metrics, client_message_types


def families(text: str, *names: str) -> list[str]:
    """The lines of the named families, timestamps of creation blanked."""
    kept = [
        line
        for line in text.splitlines()
        if any(re.match(rf"(# (HELP|TYPE) )?{name}(_|\b)", line) for name in names)
    ]
    return [re.sub(r"_created(\{.*\})? .*", r"_created\1 T", line) for line in kept]


def test_messages_and_action_times_scrape_as_prometheus_client_counts_them() -> None:
    """The same messages and action times, counted by Metrics and by prometheus_client's
    Counter and Histogram, give the same exposition text (bounds, ties on a bound included)."""
    metrics = Metrics()
    registry = CollectorRegistry()
    counter = Counter(
        "muggins_messages_total",
        "Client messages received, by type",
        ["type"],
        registry=registry,
    )
    histogram = Histogram(
        "muggins_action_seconds",
        "Time to check, persist and broadcast one game action",
        buckets=ACTION_BUCKETS,
        registry=registry,
    )
    for kind in client_message_types():  # every type is there from the start
        counter.labels(kind)
    rng = random.Random(3)
    times = [*ACTION_BUCKETS, 0.0, 5.0, *(rng.expovariate(200) for _ in range(500))]
    for seconds in times:
        metrics.observe_action(seconds)
        histogram.observe(seconds)
    for kind in rng.choices(["play", "discard", "ping", "hello"], k=300):
        metrics.message(kind)
        counter.labels(kind).inc()
    ours = metrics.text().decode()
    theirs = generate_latest(registry).decode()
    for name in ("muggins_messages", "muggins_action_seconds"):
        assert families(ours, name) == families(theirs, name)
        assert families(ours, name)
