"""How to run ``muggins play`` as typed in this shell: for a friend's join and for coming back."""

from __future__ import annotations

import os
import shlex
import shutil
import sys


def play_command() -> str:
    """``muggins play`` as it can be typed in this shell: ``muggins play`` when that is on PATH,
    else the ``./dev`` script that started us (by its full path) or this program's full path."""
    dev = os.environ.get("MUGGINS_DEV")
    if dev:
        return f"{shlex.quote(dev)} play"
    program = os.path.abspath(sys.argv[0]) if sys.argv and sys.argv[0] else ""
    on_path = shutil.which("muggins")
    if on_path and program and os.path.exists(program) and os.path.samefile(on_path, program):
        return "muggins play"
    if os.path.basename(program) == "muggins" and os.path.exists(program):
        return f"{shlex.quote(program)} play"
    return f"{shlex.quote(sys.executable)} -m muggins.client.cli play"


def join_command(url: str, code: str) -> str:
    """The command a friend types to join room ``code`` on ``url``."""
    return f"{play_command()} {url} --join {code}"


def websocket_url(page_url: str) -> str:
    """The game's address for a page's: ``https://x`` gives ``wss://x``, ``http://x`` ``ws://x``.

    >>> websocket_url("https://cribbage.example")
    'wss://cribbage.example'
    """
    return "ws" + page_url.removeprefix("http") if page_url.startswith("http") else page_url


def page_url(websocket: str) -> str:
    """The page's address for a game's: ``wss://x`` gives ``https://x``, ``ws://x`` ``http://x``.

    >>> page_url("ws://192.168.1.5:8765")
    'http://192.168.1.5:8765'
    """
    return "http" + websocket.removeprefix("ws") if websocket.startswith("ws") else websocket
