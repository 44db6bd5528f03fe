"""``muggins serve``: host games."""

from __future__ import annotations

import argparse
from pathlib import Path
from typing import Any

from muggins.server.commands.serving import machine_addresses, serve_here
from muggins.server.config import add_options

REDIS_SCHEMES = ("redis://", "rediss://", "unix://")

__all__ = ["machine_addresses", "register", "run", "serve_here"]


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


def run(args: argparse.Namespace) -> int:
    import dataclasses
    import ipaddress
    import logging
    import os

    from muggins.server.commands.config_sources import gather
    from muggins.server.config import MOST_REDIS_BATCH_MS, from_args, origin, public_url
    from muggins.server.runtime.logs import configure

    try:
        config = from_args(args, given=gather(os.environ, args.config))
        public = public_url(config.public_url) if config.public_url else None
        origins = tuple(origin(text) for text in config.allowed_origins)
    except ValueError as error:
        print(f"muggins serve: {error}")
        return 2
    config = dataclasses.replace(
        config,
        review_workers=max(0, config.review_workers),
        public_url=public,
        allowed_origins=origins,
    )
    if (config.certfile is None) != (config.keyfile is None):
        print("muggins serve: give both --certfile and --keyfile for TLS")
        return 2
    if config.postgres is not None and config.redis is None:
        print("muggins serve: --postgres is for a cluster's durable data: give --redis URL too")
        return 2
    if config.node_url is not None and config.redis is None:
        print("muggins serve: --node-url is a cluster node's address: give --redis URL too")
        return 2
    if config.node_url is not None and not config.node_url.startswith(("ws://", "wss://")):
        print(
            f"muggins serve: --node-url {config.node_url!r} is not an address like ws://HOST:PORT"
        )
        return 2
    if config.redis_batch_ms and config.redis is None:
        print("muggins serve: --redis-batch-ms holds a cluster node's writes: give --redis URL too")
        return 2
    if config.redis_batch_ms > MOST_REDIS_BATCH_MS:
        print(
            f"muggins serve: --redis-batch-ms {config.redis_batch_ms:g}: give "
            f"{MOST_REDIS_BATCH_MS} or less (every move waits that long)"
        )
        return 2
    if config.postgres is not None and config.postgres_pool < 1:
        print(f"muggins serve: --postgres-pool {config.postgres_pool}: give 1 or more")
        return 2
    if config.redis is not None and not config.redis.startswith(REDIS_SCHEMES):
        print(f"muggins serve: --redis {config.redis!r} is not a Redis URL (redis://HOST:6379/0)")
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

    if config.redis is None and not config.memory:
        from muggins.server.store.datafiles import default_db
        from muggins.server.store.games import StoreError
        from muggins.server.store.sqlite_file import hold

        try:
            hold(config.db or default_db())
        except StoreError as error:
            print(f"muggins serve: {error}")
            return 1
    if config.procs != 1:
        from muggins.server.commands.procs import ProcsError, supervise

        try:
            return supervise(config)
        except ProcsError as error:
            print(f"muggins serve: {error}")
            return 2
    return serve_here(config)
