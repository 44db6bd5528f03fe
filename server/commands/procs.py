"""One machine, N server processes (``muggins serve --procs N``): one Python process is one core.

Each process is a cluster node on the same Redis. All of them listen on ``--port`` together
(``SO_REUSEPORT``: the kernel spreads new connections over them), and each also on a port of its
own (``--first-proc-port`` on, default ``--port`` + 1), which it gives as its ``--node-url``. A
room is owned by the process that made or loaded it (server/cluster/ownership.py); a connection
naming it that lands on another process is closed with 4001 and the owner's own port, and the
client connects there: a redirect once per connection, not a relay that would handle every
message twice (docs/hosting.md says why).

This parent serves nothing: it starts the processes, starts again one that ends (its leases
lapse at once, and the next process a player reaches takes its rooms over from the log, as
after a node's death), and on SIGTERM or SIGINT stops them all.
"""

from __future__ import annotations

import dataclasses
import multiprocessing
import multiprocessing.connection
import os
import signal
import sys
import time
from multiprocessing.process import BaseProcess
from multiprocessing.synchronize import Event as EventType
from types import FrameType
from urllib.parse import urlsplit

from muggins.server.config import ServerConfig

FAILED_STARTS = 5
"""Ends in a row of one process before it listened (failing to start: say, its port in use)
after which the parent gives up and stops them all."""
RESTART_PAUSE = 1.0
"""Seconds before a process that ended before it listened is started again."""
STOP_MARGIN = 10.0
"""Seconds past a process's stop deadline before it is killed."""


class ProcsError(ValueError):
    """``--procs`` cannot run as asked; the sentence says why."""


def node_host(config: ServerConfig) -> str:
    """The host clients reach this machine's processes at: ``--node-url``'s, else ``--host``'s,
    else (listening on every address) the address of the machine's default route."""
    if config.node_url is not None:
        host = urlsplit(config.node_url).hostname
        if not host:
            raise ProcsError(f"--node-url {config.node_url!r} names no host")
    elif config.host not in ("0.0.0.0", "::", ""):
        host = config.host
    else:
        from muggins.server.commands.serving import machine_addresses

        host = next(iter(machine_addresses()), "127.0.0.1")
    return f"[{host}]" if ":" in host and not host.startswith("[") else host


def process_configs(config: ServerConfig) -> list[ServerConfig]:
    """Each process's configuration: the shared port, its own port and address, and its own
    metrics port (``--metrics-port`` + its index) when there is one."""
    if config.redis is None:
        raise ProcsError("--procs runs cluster nodes on one machine: give --redis URL too")
    if config.procs < 1:
        raise ProcsError(f"--procs {config.procs}: give 1 or more")
    if config.port == 0:
        raise ProcsError("--procs shares one port: give it with --port (not 0)")
    first = config.first_proc_port or config.port + 1
    if first <= config.port < first + config.procs or first + config.procs > 65536:
        raise ProcsError(
            f"--first-proc-port {first}: the {config.procs} ports from it must be valid "
            f"and leave out --port {config.port}"
        )
    host, scheme = node_host(config), "wss" if config.tls else "ws"
    return [
        dataclasses.replace(
            config,
            procs=1,
            reuse_port=True,
            own_port=first + i,
            node_url=f"{scheme}://{host}:{first + i}",
            metrics_port=None if config.metrics_port is None else config.metrics_port + i,
        )
        for i in range(config.procs)
    ]


def end_with_parent() -> None:
    """SIGTERM to this process when its parent ends, however it ends (even by SIGKILL), so no
    process is left serving without its supervisor: Linux's ``PR_SET_PDEATHSIG``, elsewhere a
    thread that looks for a new parent every second."""
    parent = os.getppid()
    try:
        import ctypes

        libc = ctypes.CDLL(None, use_errno=True)
        if libc.prctl(1, signal.SIGTERM, 0, 0, 0) == 0:  # 1: PR_SET_PDEATHSIG
            if os.getppid() != parent:  # it ended before the call took effect
                os.kill(os.getpid(), signal.SIGTERM)
            return
    except (OSError, AttributeError):
        pass
    import threading

    def watch() -> None:
        while os.getppid() == parent:
            time.sleep(1.0)
        os.kill(os.getpid(), signal.SIGTERM)

    threading.Thread(target=watch, name="parent-watch", daemon=True).start()


def run_process(config: ServerConfig, index: int, listening: EventType) -> None:
    """A process's life: its logs as the parent's, then one server until it is told to stop
    (by the parent, or by the parent's end). ``listening`` is set once it listens."""
    import logging

    from muggins.server.commands.serving import serve_here
    from muggins.server.runtime.logs import configure

    end_with_parent()
    configure(
        json_lines=config.log_json,
        level=getattr(logging, config.log_level.upper()),
        file=config.log_file,
    )
    sys.exit(serve_here(config, process=index, listening=listening.set))


class Supervisor:
    """Starts the processes, starts again each one that ends, and stops them all when told."""

    def __init__(self, configs: list[ServerConfig]) -> None:
        self.configs = configs
        self.context = multiprocessing.get_context("spawn")
        self.running: list[BaseProcess | None] = [None] * len(configs)
        self.listened: list[EventType | None] = [None] * len(configs)
        """Set by each process once it listens (however long its start takes)."""
        self.failed_starts = [0] * len(configs)
        self.stopping = False

    def start(self, index: int) -> None:
        listened = self.context.Event()
        process = self.context.Process(
            target=run_process,
            args=(self.configs[index], index, listened),
            name=f"muggins-{index}",
        )
        process.start()
        self.running[index], self.listened[index] = process, listened

    def stop(self, signum: int = signal.SIGTERM, frame: FrameType | None = None) -> None:
        self.stopping = True

    def run(self) -> int:
        """Supervise until told to stop (or a process keeps failing to start); the exit code."""
        for index in range(len(self.configs)):
            self.start(index)
        code = 0
        while not self.stopping:
            alive = [p.sentinel for p in self.running if p is not None]
            multiprocessing.connection.wait(alive, timeout=0.5)
            for index, process in enumerate(self.running):
                if self.stopping or process is None or process.is_alive():
                    continue
                listened = self.listened[index]
                failed = listened is None or not listened.is_set()
                self.failed_starts[index] = self.failed_starts[index] + 1 if failed else 0
                if self.failed_starts[index] >= FAILED_STARTS:
                    print(
                        f"muggins serve: process {index} keeps ending at start "
                        f"(code {process.exitcode}); stopping",
                        flush=True,
                    )
                    self.stopping, code = True, 1
                    break
                print(
                    f"muggins serve: process {index} (pid {process.pid}) ended "
                    f"(code {process.exitcode}); starting it again",
                    flush=True,
                )
                if failed:
                    time.sleep(RESTART_PAUSE)
                self.start(index)
        self.stop_all()
        return code

    def stop_all(self) -> None:
        """SIGTERM to every process (each closes its players with 1012), then wait for them."""
        for process in self.running:
            if process is not None and process.is_alive() and process.pid is not None:
                os.kill(process.pid, signal.SIGTERM)
        deadline = time.monotonic() + max(c.stop_deadline for c in self.configs) + STOP_MARGIN
        for process in self.running:
            if process is None:
                continue
            process.join(max(0.0, deadline - time.monotonic()))
            if process.is_alive():
                process.kill()
                process.join()


def supervise(config: ServerConfig) -> int:
    """``muggins serve --procs N``: run the processes until SIGTERM or SIGINT."""
    configs = process_configs(config)
    supervisor = Supervisor(configs)
    for signum in (signal.SIGTERM, signal.SIGINT):
        signal.signal(signum, supervisor.stop)
    from muggins.server.commands.serving import address_lines

    host = config.host if config.host not in ("0.0.0.0", "::", "") else "127.0.0.1"
    shared = f"{'wss' if config.tls else 'ws'}://{host}:{config.port}"
    print(
        f"Muggins: {config.procs} server processes sharing {shared}, each also on its own "
        f"port {configs[0].own_port}-{configs[-1].own_port}",
        flush=True,
    )
    for line in address_lines(shared, config.public_url, config.host):
        print(line, flush=True)
    return supervisor.run()
