"""Prometheus metrics for one server: its own registry, so several servers share a process.

The two figures touched by every move (messages by type, the time of each action) are counted
in plain Python and handed to Prometheus only when it scrapes: a prometheus_client counter or
histogram takes a lock on every update, a measurable share of a move's CPU.
"""

from __future__ import annotations

import time
from bisect import bisect_left
from collections.abc import Iterator

from prometheus_client import CollectorRegistry, Counter, Gauge, GCCollector, generate_latest
from prometheus_client.core import CounterMetricFamily, HistogramMetricFamily, Metric
from prometheus_client.registry import Collector
from prometheus_client.samples import Sample

ACTION_BUCKETS = (0.0005, 0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 1.0)


class Metrics:
    def __init__(self) -> None:
        self.registry = CollectorRegistry()
        self.rooms = Gauge("muggins_rooms", "Rooms open", registry=self.registry)
        self.connections = Gauge(
            "muggins_connections", "WebSocket connections open", registry=self.registry
        )
        self.messages: dict[str, int] = {}
        """Client messages received, by type (see :meth:`message`)."""
        self.errors = Counter(
            "muggins_errors_total",
            "Errors sent to clients, by code",
            ["code"],
            registry=self.registry,
        )
        self.action_counts = [0] * (len(ACTION_BUCKETS) + 1)
        """Actions by the first bucket bound their time is within (the last: over all)."""
        self.action_sum = 0.0
        self.registry.register(_Tallies(self, time.time()))
        # The collector's counts by generation (python_gc_collections_total and the objects
        # found): the server collects on a clock (server/runtime/collector.py), which this shows.
        GCCollector(registry=self.registry)

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
