"""Running one server in this process until it is told to stop, and saying where it listens:
what ``muggins serve`` does, and each of the processes of ``muggins serve --procs N``."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

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


def serve_here(
    config: Any, *, process: int | None = None, listening: Callable[[], None] | None = None
) -> int:
    """Run one server in this process until SIGTERM or SIGINT; the exit code. ``process``: this
    is that one of ``--procs`` (it says so, and where it listens, in one line). ``listening``
    runs once the server listens."""
    import asyncio
    import os
    import signal

    from muggins.server.accounts.credentials import AccountError
    from muggins.server.app import running_server
    from muggins.server.cluster.durable import AccountsInRedis
    from muggins.server.net.listeners import ListenRefused
    from muggins.server.net.tls import CertificateRefused
    from muggins.server.runtime.collector import collecting
    from muggins.server.store.games import StoreError

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
            if listening is not None:
                listening()
            if process is not None:
                print(
                    f"Process {process} (pid {os.getpid()}) listening on {config.node_url}"
                    f" and on {server.url}",
                    flush=True,
                )
                await shutdown.wait()
                return
            print(f"Muggins server listening on {server.url}", flush=True)
            for line in address_lines(server.url, config.public_url, config.host):
                print(line, flush=True)
            kept = "nothing is kept" if config.memory else "games are kept and resume on restart"
            print(f"Stop with Ctrl-C ({kept}).", flush=True)
            await shutdown.wait()

    try:
        asyncio.run(main())
    except (
        OSError,
        StoreError,
        AccountError,
        AccountsInRedis,
        ListenRefused,
        CertificateRefused,
    ) as error:
        print(f"muggins serve: {error}", flush=True)
        return 1
    return 0
