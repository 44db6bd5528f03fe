"""``muggins serve``: host games."""

from __future__ import annotations

import argparse
from typing import Any

from muggins.server.config import add_options


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
    add_options(parser)
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

    from muggins.server.accounts.credentials import AccountError
    from muggins.server.app import running_server
    from muggins.server.config import from_args
    from muggins.server.runtime.collector import collecting
    from muggins.server.runtime.logs import configure
    from muggins.server.store.games import StoreError
    from muggins.shared.invocation import join_command

    if (args.certfile is None) != (args.keyfile is None):
        print("muggins serve: give both --certfile and --keyfile for TLS")
        return 2
    import ipaddress

    for proxy in args.trusted_proxies:
        try:
            ipaddress.ip_network(proxy, strict=False)
        except ValueError:
            print(f"muggins serve: --trusted-proxy {proxy!r} is not an address or network")
            return 2
    configure(json_lines=args.log_json, level=getattr(logging, args.log_level.upper()))
    config = from_args(args, review_workers=max(0, args.review_workers))

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
    except (OSError, StoreError, AccountError) as error:
        print(f"muggins serve: {error}")
        return 1
    return 0
