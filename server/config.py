"""Everything ``muggins serve`` can be told, with the defaults a small public server wants.

:class:`ServerConfig` is the one list of the server's options: each field that can be set from
the command line says so with :func:`option` (its help, and where the flag differs from the
field's name, its spelling), and ``muggins serve``'s options are made from these fields
(:func:`add_options`, :func:`from_args`), so a new option is written once.
"""

from __future__ import annotations

import argparse
import dataclasses
import re
from collections.abc import Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from muggins.shared.protocol import MAX_MESSAGE_BYTES


@dataclass(frozen=True, slots=True)
class Option:
    """How a :class:`ServerConfig` field appears on ``muggins serve``'s command line."""

    help: str
    flag: str = ""
    """The flag when it is not the field's name with dashes (``--allowed-origin``)."""
    metavar: str | None = None
    scale: int = 1
    """The field holds the command line's value times this (``--send-buffer`` is in KiB)."""
    command_line_default: Any = None
    """The command line's default when it differs from the field's (None: the same)."""
    exclusive: str = ""
    """Options with the same name here exclude each other (where the games are kept)."""
    choices: tuple[str, ...] = ()
    env: str = ""
    """The environment variable that sets it, when not ``MUGGINS_`` and the field's name in
    capitals (see ``server/commands/config_sources.py``)."""


MOST_REDIS_BATCH_MS = 100
"""The longest a cluster node may hold its writes to Redis (``--redis-batch-ms``)."""


def option(default: Any, help: str, **how: Any) -> Any:
    """A field with ``default`` that ``muggins serve`` takes as an option (see :class:`Option`)."""
    return field(default=default, metadata={"option": Option(help=help, **how)})


@dataclass(frozen=True, slots=True)
class ServerConfig:
    host: str = option("127.0.0.1", "address to listen on")
    port: int = option(8765, "port (0: any free port)")
    db: Path | None = option(None, "SQLite file for games", metavar="PATH", exclusive="where")
    """SQLite file; None with ``memory`` keeps everything in memory."""
    memory: bool = option(False, "keep nothing after exit", exclusive="where")
    redis: str | None = option(
        None,
        "join a cluster: keep every game in this Redis (redis://HOST:6379/0); run several "
        "nodes on one Redis behind a load balancer",
        metavar="URL",
        exclusive="where",
    )
    """A Redis URL: this node joins a cluster that keeps every game in that Redis."""
    node_url: str | None = option(
        None,
        "with --redis: the address clients reach this very node at (ws://HOST:PORT), where the "
        "nodes send a room's players once this node owns the room (this node's pages may "
        "connect to its host on any port); without it, a node serves them itself (behind a "
        "proxy that routes by room, leave it out)",
        metavar="URL",
    )
    """Where clients reach this node directly; None: the node never sends anyone to it."""
    procs: int = option(
        1,
        "with --redis: run this many server processes on this machine (one per core), sharing "
        "--port (SO_REUSEPORT), each also on a port of its own (--first-proc-port on) that it "
        "gives as its --node-url, where the others send its rooms' players; a process that "
        "dies is started again",
        metavar="N",
    )
    """Server processes on this machine (server/commands/procs.py); 1: this process serves."""
    first_proc_port: int | None = option(
        None,
        "with --procs: the first of the processes' own ports (default: --port + 1)",
        metavar="PORT",
    )
    """The first of the ``procs`` ports the processes each listen on alone."""
    reuse_port: bool = False
    """Listen on ``port`` with SO_REUSEPORT, sharing it with this machine's other processes."""
    own_port: int | None = None
    """A second port this process alone listens on (its ``node_url``): one of ``procs``."""
    public_url: str | None = option(
        None,
        "the address players reach this server at, e.g. https://cribbage.example (behind a "
        "proxy or on a domain): every link and command shown names it (default: the address "
        "the page was loaded from)",
        metavar="URL",
    )
    """Where players reach this server (``https://host[:port]``); None: wherever the page
    was loaded from. Checked and trimmed by :func:`public_url`."""
    postgres: str | None = option(
        None,
        "with --redis: keep accounts, ratings, history and reviews in this PostgreSQL, "
        "and move finished matches there out of Redis (postgresql://USER@HOST:5432/DB); "
        "without it they stay in Redis",
        metavar="URL",
    )
    """A PostgreSQL URL: the cluster's durable data, accounts and finished matches
    (docs/hosting.md)."""
    redis_batch_ms: float = option(
        0.0,
        "with --redis: hold each of this node's writes to Redis up to this many milliseconds "
        "(at most 100) so the writes of that time go in one; at human pace it saves Redis and "
        "the node a wake-up per move, and each move is answered that much later (0: send at "
        "the end of the event loop's turn)",
        metavar="MS",
    )
    """How long a node holds a write to Redis to send it with others (server.cluster.redis_line)."""
    postgres_pool: int = option(
        4,
        "with --postgres: how many connections this node keeps to PostgreSQL at most; its "
        "calls there (sign-ins, settlements, the archive) share them",
        metavar="N",
    )
    """The most connections each of a node's PostgreSQL links (accounts, archive) opens."""
    certfile: Path | None = option(None, "TLS certificate (PEM) for wss://")
    keyfile: Path | None = option(None, "TLS private key (PEM)")
    allowed_origins: tuple[str, ...] = option(
        (),
        "a browser origin allowed to connect, e.g. https://example.org (repeatable); default: "
        "any. This server's pages may connect there too (a cluster's other nodes, where a "
        "node may send them)",
        flag="--allowed-origin",
        metavar="ORIGIN",
    )
    """Browser origins allowed to connect; empty allows any. Non-browser clients send none."""
    grace: float = option(
        120.0,
        "how long a disconnected player keeps the seat before the opponent may claim",
        metavar="SECONDS",
    )
    abandon_after: float = option(
        3600.0, "close a room after this long with nobody connected", metavar="SECONDS"
    )
    sweep_interval: float = option(
        30.0,
        "seconds between sweeps for abandoned rooms (and, in a cluster, unsettled matches)",
        metavar="SECONDS",
    )
    bot_delay: float = option(0.6, "the computer's pause", metavar="SECONDS")
    """The computer's thinking pause in seconds, so a person can follow its moves."""
    max_message: int = MAX_MESSAGE_BYTES
    rate: float = option(20.0, "messages per second per connection")
    """Messages per second a connection may send on average..."""
    burst: int = option(40, "messages in one burst")
    """...and in one burst. Past it: an error, then a close (1008) if the flood goes on."""
    flood_close_after: int = 40
    """Messages refused for rate before the connection is closed."""
    hello_timeout: float = 15.0
    idle_timeout: float = 900.0
    max_connections: int = option(10_000, "open connections in all", metavar="N")
    """Open connections in all; past it the upgrade is answered 503."""
    max_per_address: int = option(
        50, "open connections from one client address (past it: HTTP 429)", metavar="N"
    )
    trusted_proxies: tuple[str, ...] = option(
        (),
        "a proxy (address or CIDR network) whose X-Forwarded-For names the client "
        "(repeatable); default: none, the peer's address counts",
        flag="--trusted-proxy",
        metavar="ADDRESS",
    )
    max_rooms: int = option(25_000, "open rooms in all", metavar="N")
    rooms_per_minute: float = option(10.0, "rooms one player may create a minute", metavar="N")
    rooms_per_minute_per_address: float = option(
        30.0, "rooms the players of one address may create a minute", metavar="N"
    )
    registrations_per_hour: float = option(
        3.0, "accounts the players of one address may register an hour", metavar="N"
    )
    reads_per_second: float = option(
        1.0,
        "finished games, histories and leaderboards one connection may ask for a second "
        "(an address: twice that)",
        metavar="N",
    )
    rated_pair_per_day: int = option(
        3,
        "rated matches two accounts may play each other in 24 hours that move their ratings "
        "(later ones are recorded, not rated)",
        metavar="N",
    )
    chat_days: float = option(
        30.0,
        "days each room's chat is kept for moderators (the newest 200 lines a room)",
        metavar="DAYS",
    )
    max_spectators: int = option(50, "spectators one room may have", metavar="N")
    """Spectators one room may have (on this node, in a cluster)."""
    send_buffer: int = option(
        128 * 1024,
        "KiB of frames kept for a reader that does not keep up before it is closed",
        metavar="KIB",
        scale=1024,
    )
    """Bytes of frames kept for a reader whose socket buffer is full; past it: closed (1008)."""
    socket_buffer: int = 64 * 1024
    """The kernel's send buffer per connection (SO_SNDBUF), so it cannot grow to megabytes."""
    slow_reader: float = option(
        10.0, "close a reader that leaves a frame waiting this long", metavar="SECONDS"
    )
    stop_deadline: float = option(
        10.0,
        "on SIGTERM or Ctrl-C, the most a clean stop may take before the process ends "
        "regardless (default 10)",
        metavar="SECONDS",
    )
    review_workers: int = option(
        0,
        "processes that review finished games for the players' records (points given away "
        "per deal); 0: none, the reviews wait in the store (default 1)",
        metavar="N",
        command_line_default=1,
    )
    """Worker processes reviewing finished games for the records (``muggins serve``: 1)."""
    admins: tuple[str, ...] = option(
        (),
        "make this registered account an admin on start (repeatable); roles are never granted "
        "over the wire",
        flag="--admin",
        metavar="NAME",
    )
    """Accounts made admins when the server starts (``muggins admin grant`` does it offline)."""
    open_tournaments: bool = option(
        False, "any signed-in account may create tournaments (else admins and moderators)"
    )
    metrics_port: int | None = option(
        None,
        "serve /metrics (and /healthz, /readyz) on this port too, for Prometheus on an internal "
        "network; the public port answers /metrics only to this machine (loopback, not proxied)",
        metavar="PORT",
    )
    update_command: str = option(
        "pip install --upgrade muggins",
        "the command a client older than this server is told to run to update (default: pip "
        "install --upgrade muggins)",
        metavar="COMMAND",
    )
    log_file: Path | None = option(
        None,
        "write the log to this file instead of stderr (reopened when logrotate moves it)",
        metavar="PATH",
    )
    log_json: bool = option(False, "one JSON object per log line")
    log_level: str = option(
        "info",
        "debug adds every connection and disconnection",
        choices=("debug", "info", "warning"),
    )
    extra_levels: tuple[str, ...] = ()

    @property
    def tls(self) -> bool:
        return self.certfile is not None


PUBLIC_URL = re.compile(r"^(https?)://([A-Za-z0-9.\-]+|\[[0-9A-Fa-f:.]+\])(:\d{1,5})?/?$")


def public_url(text: str) -> str:
    """A public address as the server uses it: ``http(s)://host[:port]`` without a trailing
    slash (the pages live at the root, so no path). Raises ValueError, in words, for anything
    else.

    >>> public_url("https://cribbage.example/")
    'https://cribbage.example'
    >>> public_url("cribbage.example")
    Traceback (most recent call last):
    ...
    ValueError: --public-url 'cribbage.example' is not an address like https://cribbage.example
    """
    return _web_address(
        text, f"--public-url {text!r} is not an address like https://cribbage.example"
    )


def origin(text: str) -> str:
    """A browser origin as browsers send it (``https://host[:port]``, no trailing slash), for
    ``--allowed-origin``; ValueError, in words, for anything else (an origin compared as typed
    would never match).

    >>> origin("https://cribbage.example/")
    'https://cribbage.example'
    >>> origin("cribbage.example")
    Traceback (most recent call last):
    ...
    ValueError: --allowed-origin 'cribbage.example' is not an origin like https://cribbage.example
    """
    return _web_address(
        text, f"--allowed-origin {text!r} is not an origin like https://cribbage.example"
    )


def _web_address(text: str, refusal: str) -> str:
    """``http(s)://host[:port]`` as browsers write it (no trailing slash), else ValueError
    with ``refusal``: the one form both a public URL and an allowed origin take."""
    found = PUBLIC_URL.match(text.strip())
    if found is None:
        raise ValueError(refusal)
    return found.group(0).rstrip("/")


def options() -> list[tuple[dataclasses.Field[Any], Option]]:
    """Each field ``muggins serve`` takes, with how it is given."""
    return [
        (f, f.metadata["option"])
        for f in dataclasses.fields(ServerConfig)
        if "option" in f.metadata
    ]


def flag_of(f: dataclasses.Field[Any], how: Option) -> str:
    return how.flag or "--" + f.name.replace("_", "-")


def add_options(parser: argparse.ArgumentParser) -> None:
    """Add every :class:`ServerConfig` option to ``parser``, in the fields' order. An option
    not given is left out of the parsed arguments (so :func:`from_args` can tell it from one
    given with its default value)."""
    groups: dict[str, argparse._MutuallyExclusiveGroup] = {}
    for f, how in options():
        target: Any = parser
        if how.exclusive:
            target = groups.get(how.exclusive) or groups.setdefault(
                how.exclusive, parser.add_mutually_exclusive_group()
            )
        extra: dict[str, Any] = {"help": how.help, "dest": f.name, "default": argparse.SUPPRESS}
        if how.metavar:
            extra["metavar"] = how.metavar
        if f.default is False:
            target.add_argument(flag_of(f, how), action="store_true", **extra)
        elif isinstance(f.default, tuple):
            target.add_argument(flag_of(f, how), action="append", **extra)
        elif how.choices:
            target.add_argument(flag_of(f, how), choices=how.choices, **extra)
        else:
            target.add_argument(flag_of(f, how), type=kind_of(f), **extra)


def kind_of(f: dataclasses.Field[Any]) -> Any:
    """The command-line type of a field, from its annotation (text: ``"Path | None"``)."""
    text = str(f.type)
    for name, kind in (("Path", Path), ("float", float), ("int", int)):
        if text.startswith(name):
            return kind
    return str


def from_args(
    args: argparse.Namespace, *, given: Mapping[str, Any] | None = None, **fixed: Any
) -> ServerConfig:
    """The configuration the command line (parsed by a parser given :func:`add_options`)
    asks for. ``given`` holds values from elsewhere (the environment, a configuration file), in
    the command line's form and units, for the options the command line leaves out; ``fixed``
    overrides everything. Raises ValueError, in words, when two sources name options that
    exclude each other."""
    given = given or {}
    said = vars(args)
    values: dict[str, Any] = {}
    for f, how in options():
        group = [g.name for g, h in options() if how.exclusive and h.exclusive == how.exclusive]
        if f.name in said:
            value = said[f.name]
        elif f.name in given and not any(name in said for name in group):
            value = given[f.name]
        else:
            default = how.command_line_default
            values[f.name] = f.default if default is None else default
            continue
        check_range(f, how, value)
        if isinstance(f.default, tuple):
            value = tuple(value)
        elif how.scale != 1 and value is not None:
            value = value * how.scale
        values[f.name] = value
    for f, how in options():
        if how.exclusive and f.name not in said and f.name in given and values[f.name]:
            others = [
                g.name for g, h in options()
                if h.exclusive == how.exclusive and g is not f and values[g.name]
            ]  # fmt: skip
            if others:
                raise ValueError(
                    f"{f.name} and {others[0]} exclude each other (where the games are kept)"
                )
    values.update(fixed)
    return ServerConfig(**values)


def check_range(f: dataclasses.Field[Any], how: Option, value: Any) -> None:
    """ValueError, in words, for a number no option takes: below 0, or a port past 65535."""
    if kind_of(f) not in (int, float) or value is None:
        return
    if value < 0:
        raise ValueError(f"{flag_of(f, how)} {value:g}: give a number of 0 or more")
    if f.name.endswith("port") and value > 65535:
        raise ValueError(f"{flag_of(f, how)} {value}: a port is a number from 0 to 65535")
