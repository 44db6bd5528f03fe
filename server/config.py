"""Everything ``muggins serve`` can be told, with the defaults a small public server wants."""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path

from muggins.shared.protocol import MAX_MESSAGE_BYTES


@dataclass(frozen=True, slots=True)
class ServerConfig:
    host: str = "127.0.0.1"
    port: int = 8765
    """0 picks a free port (the running server reports the one it got)."""
    db: Path | None = None
    """SQLite file; None with ``memory`` keeps everything in memory."""
    memory: bool = False
    redis: str | None = None
    """A Redis URL: this node joins a cluster that keeps every game in that Redis."""
    certfile: Path | None = None
    keyfile: Path | None = None
    allowed_origins: tuple[str, ...] = ()
    """Browser origins allowed to connect; empty allows any. Non-browser clients send none."""
    grace: float = 120.0
    """Seconds a disconnected player keeps the seat before the opponent may claim."""
    abandon_after: float = 3600.0
    """Seconds a room with nobody connected lives before it is closed."""
    sweep_interval: float = 30.0
    bot_delay: float = 0.6
    """The computer's thinking pause in seconds, so a person can follow its moves."""
    max_message: int = MAX_MESSAGE_BYTES
    rate: float = 20.0
    """Messages per second a connection may send on average..."""
    burst: int = 40
    """...and in one burst. Past it: an error, then a close (1008) if the flood goes on."""
    flood_close_after: int = 40
    """Messages refused for rate before the connection is closed."""
    hello_timeout: float = 15.0
    idle_timeout: float = 900.0
    max_connections: int = 10_000
    """Open connections in all; past it the upgrade is answered 503."""
    max_per_address: int = 50
    """Open connections from one client address; past it the upgrade is answered 429."""
    trusted_proxies: tuple[str, ...] = ()
    """Addresses or networks (CIDR) of proxies whose X-Forwarded-For names the client."""
    max_rooms: int = 25_000
    rooms_per_minute: float = 10.0
    """Rooms one player may create a minute (and at once)."""
    rooms_per_minute_per_address: float = 30.0
    """Rooms the players of one client address may create a minute (and at once)."""
    max_spectators: int = 50
    """Spectators one room may have (on this node, in a cluster)."""
    send_buffer: int = 128 * 1024
    """Bytes of frames kept for a reader whose socket buffer is full; past it: closed (1008)."""
    socket_buffer: int = 64 * 1024
    """The kernel's send buffer per connection (SO_SNDBUF), so it cannot grow to megabytes."""
    slow_reader: float = 10.0
    """Seconds a frame may wait for a reader that does not read before it is closed (1008)."""
    log_json: bool = False
    stop_deadline: float = 10.0
    """Seconds a stopping server gives its clients and its store before it ends regardless."""
    review_workers: int = 0
    """Worker processes reviewing finished games for the records (``muggins serve``: 1)."""
    extra_levels: tuple[str, ...] = field(default=())

    @property
    def tls(self) -> bool:
        return self.certfile is not None
