"""Structured logs: one JSON object per line (``--log-json``), or readable text."""

from __future__ import annotations

import json
import logging
import os
import sys
import time
from logging.handlers import WatchedFileHandler
from pathlib import Path
from typing import Any

_STANDARD = set(vars(logging.makeLogRecord({})))


class JsonFormatter(logging.Formatter):
    def format(self, record: logging.LogRecord) -> str:
        entry: dict[str, Any] = {
            "time": time.strftime("%Y-%m-%dT%H:%M:%S", time.gmtime(record.created))
            + f".{int(record.msecs):03d}Z",
            "level": record.levelname.lower(),
            "logger": record.name,
            "message": record.getMessage(),
        }
        entry.update({k: v for k, v in vars(record).items() if k not in _STANDARD})
        if record.exc_info:
            entry["error"] = self.formatException(record.exc_info)
        return json.dumps(entry, default=str)


class TextFormatter(logging.Formatter):
    def format(self, record: logging.LogRecord) -> str:
        text = super().format(record)
        extra = {
            k: v
            for k, v in vars(record).items()
            if k not in _STANDARD and k not in ("message", "asctime")
        }
        return text + "".join(f" {k}={v}" for k, v in extra.items())


class OutageFilter(logging.Filter):
    """While the store is down (see ``server/net/readiness.py``), the node's log lines other than
    readiness's own are let through at most one per ``every`` seconds, and the others counted:
    without it each failed call to Redis logs its own line, several a second."""

    def __init__(self, every: float = 30.0) -> None:
        super().__init__()
        self.every = every
        self.active = False
        self.held = 0
        self._passed = 0.0

    def begin(self) -> None:
        self.active, self.held, self._passed = True, 0, time.monotonic()

    def held_back(self) -> int:
        return self.held

    def end(self) -> int:
        """The outage is over: let everything through again; the count held back."""
        held, self.active, self.held = self.held, False, 0
        return held

    def filter(self, record: logging.LogRecord) -> bool:
        if not self.active or record.name == "muggins.readiness":
            return True
        now = time.monotonic()
        if now - self._passed >= self.every:
            self._passed = now
            return True
        self.held += 1
        return False


OUTAGE = OutageFilter()
"""The one outage filter, on the handler :func:`configure` makes."""


class PrivateFileHandler(WatchedFileHandler):
    """A :class:`WatchedFileHandler` whose file, each time it is made (at start, and again once
    logrotate has moved it away), is 0640, not whatever the umask leaves."""

    def _open(self) -> Any:
        os.close(os.open(self.baseFilename, os.O_CREAT | os.O_APPEND | os.O_WRONLY, 0o640))
        return super()._open()


def configure(*, json_lines: bool, level: int = logging.INFO, file: Path | None = None) -> None:
    """Send the ``muggins`` loggers' lines to stderr, or to ``file`` (created 0640; opened
    again when it is moved away, so logrotate needs no ``copytruncate`` and no signal)."""
    handler: logging.Handler
    if file is None:
        handler = logging.StreamHandler(sys.stderr)
    else:
        file.parent.mkdir(parents=True, exist_ok=True)
        handler = PrivateFileHandler(file, encoding="utf-8")
    handler.addFilter(OUTAGE)
    handler.setFormatter(
        JsonFormatter() if json_lines else TextFormatter("%(asctime)s %(levelname)s %(message)s")
    )
    root = logging.getLogger("muggins")
    root.handlers[:] = [handler]
    root.setLevel(level)
    root.propagate = False
