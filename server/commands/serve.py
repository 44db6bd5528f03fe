"""``muggins serve``: host games."""

from __future__ import annotations

import argparse
from pathlib import Path
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
    parser.add_argument(
        "--config",
        type=Path,
        metavar="FILE",
        help="read options from this TOML file (default: $MUGGINS_CONFIG); every option can "
        "also be set in the environment as MUGGINS_ and its name in capitals (MUGGINS_PORT); "
        "the command line wins over the environment, which wins over the file",
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


def address_lines(url: str, public: str | None, host: str) -> list[str]:
    """Where players open the page and what a friend types: the public address when there is
    one, else this machine's real addresses when it listens on all of them, else ``url``'s."""
    from muggins.shared.invocation import join_command, page_url, websocket_url

    if public is not None:
        pages = [public]
    elif host in ("0.0.0.0", "::", ""):
        port = url.rsplit(":", 1)[1]
        scheme = page_url(url).split(":", 1)[0]
        ipv6 = host == "::"
        pages = [f"{scheme}://{a}:{port}" for a in machine_addresses(ipv6=ipv6)] or [page_url(url)]
    else:
        pages = [page_url(url)]
    page = pages[0] + "/"
    others = f" (or {', '.join(p + '/' for p in pages[1:])})" if len(pages) > 1 else ""
    return [
        f"Play in a browser: open {page}{others}; a room's link is {page}r/CODE",
        f"A friend connects with: {join_command(websocket_url(pages[0]), 'CODE')}",
    ]


def machine_addresses(*, ipv6: bool = False) -> list[str]:
    """This machine's addresses others may reach, the one its default route uses first;
    loopback left out (127.0.0.1 is nobody else's way in)."""
    import ipaddress
    import socket

    found: list[str] = []
    families = [(socket.AF_INET, "192.0.2.1")] + (
        [(socket.AF_INET6, "2001:db8::1")] if ipv6 else []
    )
    for family, probe in families:
        try:  # a UDP "connect" sends nothing; it only picks the outgoing address
            with socket.socket(family, socket.SOCK_DGRAM) as sock:
                sock.connect((probe, 9))
                found.append(sock.getsockname()[0])
        except OSError:
            pass
    try:
        infos = socket.getaddrinfo(socket.gethostname(), None)
    except OSError:
        infos = []
    for family, *_, address in infos:
        if family == socket.AF_INET or (ipv6 and family == socket.AF_INET6):
            found.append(str(address[0]))
    usable = []
    for text in dict.fromkeys(found):
        ip = ipaddress.ip_address(text.split("%", 1)[0])
        if not (ip.is_loopback or ip.is_unspecified or ip.is_link_local):
            usable.append(f"[{ip}]" if ip.version == 6 else str(ip))
    return usable


def run(args: argparse.Namespace) -> int:
    import asyncio
    import dataclasses
    import ipaddress
    import logging
    import os
    import signal

    from muggins.server.accounts.credentials import AccountError
    from muggins.server.app import running_server
    from muggins.server.commands.config_sources import gather
    from muggins.server.config import from_args, public_url
    from muggins.server.runtime.collector import collecting
    from muggins.server.runtime.logs import configure
    from muggins.server.store.games import StoreError

    try:
        config = from_args(args, given=gather(os.environ, args.config))
        public = public_url(config.public_url) if config.public_url else None
    except ValueError as error:
        print(f"muggins serve: {error}")
        return 2
    config = dataclasses.replace(
        config, review_workers=max(0, config.review_workers), public_url=public
    )
    if (config.certfile is None) != (config.keyfile is None):
        print("muggins serve: give both --certfile and --keyfile for TLS")
        return 2
    if config.postgres is not None and config.redis is None:
        print("muggins serve: --postgres is for a cluster's durable data: give --redis URL too")
        return 2
    for proxy in config.trusted_proxies:
        try:
            ipaddress.ip_network(proxy, strict=False)
        except ValueError:
            print(f"muggins serve: --trusted-proxy {proxy!r} is not an address or network")
            return 2
    try:
        configure(
            json_lines=config.log_json,
            level=getattr(logging, config.log_level.upper()),
            file=config.log_file,
        )
    except OSError as error:
        print(f"muggins serve: cannot write the log to {config.log_file}: {error.strerror}")
        return 1

    async def main() -> None:
        shutdown = asyncio.Event()
        loop = asyncio.get_running_loop()

        def stop() -> None:
            if not shutdown.is_set():
                shutdown.set()
                arm_watchdog(config.stop_deadline + HARD_STOP_MARGIN)

        for signum in (signal.SIGTERM, signal.SIGINT):
            loop.add_signal_handler(signum, stop)
        reload: list[Any] = []  # the running server's TLS reload, once it runs
        loop.add_signal_handler(signal.SIGHUP, lambda: [again() for again in reload])
        # Young objects collected on a clock, not by CPython's count (server/runtime/collector.py).
        async with collecting(), running_server(config) as server:
            reload.append(server.reload_tls)
            print(f"Muggins server listening on {server.url}", flush=True)
            for line in address_lines(server.url, config.public_url, config.host):
                print(line, flush=True)
            kept = "nothing is kept" if config.memory else "games are kept and resume on restart"
            print(f"Stop with Ctrl-C ({kept}).", flush=True)
            await shutdown.wait()

    try:
        asyncio.run(main())
    except (OSError, StoreError, AccountError) as error:
        print(f"muggins serve: {error}")
        return 1
    return 0
