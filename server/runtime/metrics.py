"""Prometheus metrics for one server: its own registry, so several servers share a process.

Every series is there from the start, at 0 for each label it can take (an error code, a reason
for a refusal), so a rate or an alert has something to read before the first event. The figures
that are states rather than counts (games in progress, players, the queue) are read when
Prometheus scrapes, from functions the server gives (:meth:`Metrics.figure`).

The two figures touched by every move (messages by type, the time of each action) are counted
in plain Python and handed to Prometheus only when it scrapes: a prometheus_client counter or
histogram takes a lock on every update, a measurable share of a move's CPU.
"""

from __future__ import annotations

import time
from bisect import bisect_left
from collections.abc import Callable, Iterator
from typing import get_args

from prometheus_client import (
    CollectorRegistry,
    Counter,
    Gauge,
    GCCollector,
    Histogram,
    PlatformCollector,
    ProcessCollector,
    generate_latest,
)
from prometheus_client.core import CounterMetricFamily, HistogramMetricFamily, Metric
from prometheus_client.registry import Collector
from prometheus_client.samples import Sample

from muggins.shared.build import build, version
from muggins.shared.protocol import PROTOCOL_VERSION, ErrorCode
from muggins.shared.protocol.client import ClientMessage

ACTION_BUCKETS = (0.0005, 0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 1.0)
STORE_BUCKETS = (0.0005, 0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 1.0, 2.5)

REFUSALS = ("per_address", "full", "not_ready", "origin")
"""Why a connection was refused: over the per-address cap (429), the server full (503), not
ready (503), a browser origin not allowed (403)."""
SIGN_IN_REFUSALS = ("bad_credentials", "locked_out")
"""A sign-in refused: a wrong name or password, or too many failures (the lock-out)."""


def client_message_types() -> list[str]:
    """Every client message's ``type`` tag."""
    union = get_args(ClientMessage)[0]
    return [get_args(member.model_fields["type"].annotation)[0] for member in get_args(union)]


class Metrics:
    def __init__(self) -> None:
        self.registry = CollectorRegistry()
        self.rooms = Gauge("muggins_rooms", "Rooms open", registry=self.registry)
        self.connections = Gauge(
            "muggins_connections", "WebSocket connections open", registry=self.registry
        )
        self.messages: dict[str, int] = dict.fromkeys(client_message_types(), 0)
        """Client messages received, by type (see :meth:`message`)."""
        self.errors = Counter(
            "muggins_errors_total",
            "Errors sent to clients, by code",
            ["code"],
            registry=self.registry,
        )
        for code in get_args(ErrorCode):
            self.errors.labels(code)
        self.refused = Counter(
            "muggins_connections_refused_total",
            "WebSocket upgrades refused, by reason (per_address: 429; full, not_ready: 503; "
            "origin: 403)",
            ["reason"],
            registry=self.registry,
        )
        for reason in REFUSALS:
            self.refused.labels(reason)
        self.rate_limit_closes = Counter(
            "muggins_rate_limit_closes_total",
            "Connections closed (1008) for sending too fast for too long",
            registry=self.registry,
        )
        self.sign_ins_refused = Counter(
            "muggins_sign_ins_refused_total",
            "Sign-ins refused: wrong name or password (bad_credentials), or too many failures "
            "(locked_out)",
            ["reason"],
            registry=self.registry,
        )
        for reason in SIGN_IN_REFUSALS:
            self.sign_ins_refused.labels(reason)
        self.store_seconds = Histogram(
            "muggins_store_ping_seconds",
            "Time the store (SQLite's thread, or Redis) took to answer readiness's question",
            buckets=STORE_BUCKETS,
            registry=self.registry,
        )
        self.store_errors = Counter(
            "muggins_store_ping_errors_total",
            "Readiness's questions the store failed or did not answer in time",
            registry=self.registry,
        )
        Gauge(
            "muggins_build_info",
            "The running version, build (compiled or pure) and protocol version",
            ["version", "build", "protocol"],
            registry=self.registry,
        ).labels(version(), build(), str(PROTOCOL_VERSION)).set(1)
        self.action_counts = [0] * (len(ACTION_BUCKETS) + 1)
        """Actions by the first bucket bound their time is within (the last: over all)."""
        self.action_sum = 0.0
        self.registry.register(_Tallies(self, time.time()))
        # The collector's counts by generation (python_gc_collections_total and the objects
        # found): the server collects on a clock (server/runtime/collector.py), which this shows.
        GCCollector(registry=self.registry)
        # CPU seconds, resident memory, open files and their limit, the start time.
        ProcessCollector(registry=self.registry)
        PlatformCollector(registry=self.registry)

    def figure(self, name: str, help: str, read: Callable[[], float]) -> None:
        """A gauge read from ``read`` when Prometheus scrapes (games in progress, players...)."""
        Gauge(name, help, registry=self.registry).set_function(read)

    def message(self, kind: str) -> None:
        """Count one client message of type ``kind``."""
        messages = self.messages
        messages[kind] = messages.get(kind, 0) + 1

    def observe_action(self, seconds: float) -> None:
        """Count one game action that took ``seconds`` to check, persist and broadcast."""
        self.action_counts[bisect_left(ACTION_BUCKETS, seconds)] += 1
        self.action_sum += seconds

    def text(self) -> bytes:
        return generate_latest(self.registry)


class _Tallies(Collector):
    """The plainly counted figures of :class:`Metrics`, as Prometheus families when scraped."""

    def __init__(self, metrics: Metrics, created: float) -> None:
        self.metrics = metrics
        self.created = created

    def collect(self) -> Iterator[Metric]:
        m = self.metrics
        messages = CounterMetricFamily(
            "muggins_messages", "Client messages received, by type", labels=["type"]
        )
        for kind, count in list(m.messages.items()):
            messages.add_metric([kind], count, created=self.created)
        yield messages
        yield CounterMetricFamily(
            "muggins_moves", "Game actions applied (rate: moves per second)", sum(m.action_counts)
        )
        buckets, total = [], 0
        for bound, count in zip((*ACTION_BUCKETS, float("inf")), m.action_counts, strict=True):
            total += count
            buckets.append(("+Inf" if bound == float("inf") else repr(bound), float(total)))
        latency = HistogramMetricFamily(
            "muggins_action_seconds",
            "Time to check, persist and broadcast one game action",
            buckets=buckets,
            sum_value=m.action_sum,
        )
        latency.samples.append(Sample("muggins_action_seconds_created", {}, self.created))
        yield latency
