"""``muggins serve``: host games."""

from __future__ import annotations

import argparse
from pathlib import Path
from typing import Any


def register(commands: Any) -> None:
    parser = commands.add_parser(
        "serve",
        help="host games: run the WebSocket server",
        description=(
            "Run the Muggins server. Friends connect with: muggins play ws://HOST:PORT. "
            "Listen on every interface with --host 0.0.0.0. Games are kept in SQLite "
            "(--db, default in your data directory) and survive restarts."
        ),
    )
    parser.add_argument("--host", default="127.0.0.1", help="address to listen on")
    parser.add_argument("--port", type=int, default=8765, help="port (0: any free port)")
    where = parser.add_mutually_exclusive_group()
    where.add_argument("--db", type=Path, metavar="PATH", help="SQLite file for games")
    where.add_argument("--memory", action="store_true", help="keep nothing after exit")
    where.add_argument(
        "--redis",
        metavar="URL",
        help="join a cluster: keep every game in this Redis (redis://HOST:6379/0); "
        "run several nodes on one Redis behind a load balancer",
    )
    parser.add_argument("--certfile", type=Path, help="TLS certificate (PEM) for wss://")
    parser.add_argument("--keyfile", type=Path, help="TLS private key (PEM)")
    parser.add_argument(
        "--allowed-origin",
        action="append",
        default=[],
        metavar="ORIGIN",
        help="a browser origin allowed to connect, e.g. https://example.org (repeatable); "
        "default: any",
    )
    parser.add_argument(
        "--grace",
        type=float,
        default=120.0,
        metavar="SECONDS",
        help="how long a disconnected player keeps the seat before the opponent may claim",
    )
    parser.add_argument(
        "--abandon-after",
        type=float,
        default=3600.0,
        metavar="SECONDS",
        help="close a room after this long with nobody connected",
    )
    parser.add_argument(
        "--bot-delay", type=float, default=0.6, metavar="SECONDS", help="the computer's pause"
    )
    parser.add_argument(
        "--max-connections", type=int, default=10_000, metavar="N", help="open connections in all"
    )
    parser.add_argument(
        "--max-per-address",
        type=int,
        metavar="N",
        default=50,
        help="open connections from one client address (past it: HTTP 429)",
    )
    parser.add_argument(
        "--trusted-proxy",
        action="append",
        default=[],
        metavar="ADDRESS",
        help="a proxy (address or CIDR network) whose X-Forwarded-For names the client "
        "(repeatable); default: none, the peer's address counts",
    )
    parser.add_argument(
        "--max-rooms", type=int, default=25_000, metavar="N", help="open rooms in all"
    )
    parser.add_argument(
        "--rooms-per-minute",
        type=float,
        default=10.0,
        metavar="N",
        help="rooms one player may create a minute",
    )
    parser.add_argument(
        "--rooms-per-minute-per-address",
        type=float,
        metavar="N",
        default=30.0,
        help="rooms the players of one address may create a minute",
    )
    parser.add_argument(
        "--max-spectators", type=int, default=50, metavar="N", help="spectators one room may have"
    )
    parser.add_argument(
        "--send-buffer",
        type=int,
        default=128,
        metavar="KIB",
        help="KiB of frames kept for a reader that does not keep up before it is closed",
    )
    parser.add_argument(
        "--slow-reader",
        type=float,
        default=10.0,
        metavar="SECONDS",
        help="close a reader that leaves a frame waiting this long",
    )
    parser.add_argument(
        "--rate", type=float, default=20.0, help="messages per second per connection"
    )
    parser.add_argument("--burst", type=int, default=40, help="messages in one burst")
    parser.add_argument(
        "--stop-deadline",
        type=float,
        default=10.0,
        metavar="SECONDS",
        help="on SIGTERM or Ctrl-C, the most a clean stop may take before the process ends "
        "regardless (default 10)",
    )
    parser.add_argument(
        "--review-workers",
        type=int,
        default=1,
        metavar="N",
        help="processes that review finished games for the players' records (points given "
        "away per deal); 0: none, the reviews wait in the store (default 1)",
    )
    parser.add_argument("--log-json", action="store_true", help="one JSON object per log line")
    parser.add_argument(
        "--log-level",
        choices=("debug", "info", "warning"),
        default="info",
        help="debug adds every connection and disconnection",
    )
    parser.set_defaults(handler=run)


HARD_STOP_MARGIN = 5.0
"""Seconds past the stop deadline after which the process ends even if its event loop hangs."""


def arm_watchdog(seconds: float) -> None:
    """End the process in ``seconds`` unless it has ended by itself (a thread, so a stuck event
    loop cannot hold it up): a node asked to stop always stops."""
    import os
    import sys
    import threading

    def end() -> None:
        print(f"muggins serve: did not stop within {seconds:.0f} s; exiting", file=sys.stderr)
        sys.stderr.flush()
        os._exit(1)

    timer = threading.Timer(seconds, end)
    timer.daemon = True
    timer.start()


def run(args: argparse.Namespace) -> int:
    import asyncio
    import logging
    import signal

    from muggins.server.app import running_server
    from muggins.server.config import ServerConfig
    from muggins.server.runtime.collector import collecting
    from muggins.server.runtime.logs import configure
    from muggins.server.store.games import StoreError
    from muggins.shared.invocation import join_command

    if (args.certfile is None) != (args.keyfile is None):
        print("muggins serve: give both --certfile and --keyfile for TLS")
        return 2
    import ipaddress

    for proxy in args.trusted_proxy:
        try:
            ipaddress.ip_network(proxy, strict=False)
        except ValueError:
            print(f"muggins serve: --trusted-proxy {proxy!r} is not an address or network")
            return 2
    configure(json_lines=args.log_json, level=getattr(logging, args.log_level.upper()))
    config = ServerConfig(
        host=args.host,
        port=args.port,
        db=args.db,
        memory=args.memory,
        redis=args.redis,
        certfile=args.certfile,
        keyfile=args.keyfile,
        allowed_origins=tuple(args.allowed_origin),
        grace=args.grace,
        abandon_after=args.abandon_after,
        bot_delay=args.bot_delay,
        max_connections=args.max_connections,
        max_per_address=args.max_per_address,
        trusted_proxies=tuple(args.trusted_proxy),
        max_rooms=args.max_rooms,
        rooms_per_minute=args.rooms_per_minute,
        rooms_per_minute_per_address=args.rooms_per_minute_per_address,
        max_spectators=args.max_spectators,
        send_buffer=args.send_buffer * 1024,
        slow_reader=args.slow_reader,
        rate=args.rate,
        burst=args.burst,
        log_json=args.log_json,
        stop_deadline=args.stop_deadline,
        review_workers=max(0, args.review_workers),
    )

    async def main() -> None:
        shutdown = asyncio.Event()
        loop = asyncio.get_running_loop()

        def stop() -> None:
            if not shutdown.is_set():
                shutdown.set()
                arm_watchdog(config.stop_deadline + HARD_STOP_MARGIN)

        for signum in (signal.SIGTERM, signal.SIGINT):
            loop.add_signal_handler(signum, stop)
        # Young objects collected on a clock, not by CPython's count (server/runtime/collector.py).
        async with collecting(), running_server(config) as server:
            where = server.url
            if args.host in ("0.0.0.0", "::"):
                where = where.replace("127.0.0.1", "THIS-MACHINE'S-ADDRESS")
            page = where.replace("wss://", "https://").replace("ws://", "http://") + "/"
            print(f"Muggins server listening on {server.url}", flush=True)
            print(f"Play in a browser: open {page} (a room's link is {page}r/CODE)", flush=True)
            print(f"A friend connects with: {join_command(where, 'CODE')}", flush=True)
            kept = "nothing is kept" if config.memory else "games are kept and resume on restart"
            print(f"Stop with Ctrl-C ({kept}).", flush=True)
            await shutdown.wait()

    try:
        asyncio.run(main())
    except (OSError, StoreError) as error:
        print(f"muggins serve: {error}")
        return 1
    return 0
