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
    parser.add_argument("--max-connections", type=int, default=50_000)
    parser.add_argument("--max-rooms", type=int, default=25_000)
    parser.add_argument(
        "--rate", type=float, default=20.0, help="messages per second per connection"
    )
    parser.add_argument("--burst", type=int, default=40, help="messages in one burst")
    parser.add_argument("--log-json", action="store_true", help="one JSON object per log line")
    parser.add_argument(
        "--log-level",
        choices=("debug", "info", "warning"),
        default="info",
        help="debug adds every connection and disconnection",
    )
    parser.set_defaults(handler=run)


def run(args: argparse.Namespace) -> int:
    import asyncio
    import logging
    import signal

    from server.app import running_server, tune_garbage_collector
    from server.config import ServerConfig
    from server.logs import configure
    from server.store import StoreError

    if (args.certfile is None) != (args.keyfile is None):
        print("muggins serve: give both --certfile and --keyfile for TLS")
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
        max_rooms=args.max_rooms,
        rate=args.rate,
        burst=args.burst,
        log_json=args.log_json,
    )

    async def main() -> None:
        shutdown = asyncio.Event()
        loop = asyncio.get_running_loop()
        for signum in (signal.SIGTERM, signal.SIGINT):
            loop.add_signal_handler(signum, shutdown.set)
        async with running_server(config) as server:
            where = server.url
            if args.host in ("0.0.0.0", "::"):
                where = where.replace("127.0.0.1", "THIS-MACHINE'S-ADDRESS")
            print(f"Muggins server listening on {server.url}", flush=True)
            print(f"A friend connects with: muggins play {where} --join CODE", flush=True)
            print("Stop with Ctrl-C (games are kept and resume on restart).", flush=True)
            await shutdown.wait()

    tune_garbage_collector()
    try:
        asyncio.run(main())
    except (OSError, StoreError) as error:
        print(f"muggins serve: {error}")
        return 1
    return 0
