"""Prometheus metrics for one server: its own registry, so several servers share a process."""

from __future__ import annotations

from prometheus_client import CollectorRegistry, Counter, Gauge, Histogram, generate_latest


class Metrics:
    def __init__(self) -> None:
        self.registry = CollectorRegistry()
        self.rooms = Gauge("muggins_rooms", "Rooms open", registry=self.registry)
        self.connections = Gauge(
            "muggins_connections", "WebSocket connections open", registry=self.registry
        )
        self.messages = Counter(
            "muggins_messages_total",
            "Client messages received, by type",
            ["type"],
            registry=self.registry,
        )
        self.errors = Counter(
            "muggins_errors_total",
            "Errors sent to clients, by code",
            ["code"],
            registry=self.registry,
        )
        self.action_latency = Histogram(
            "muggins_action_seconds",
            "Time to check, persist and broadcast one game action",
            buckets=(0.0005, 0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 1.0),
            registry=self.registry,
        )

    def text(self) -> bytes:
        return generate_latest(self.registry)
