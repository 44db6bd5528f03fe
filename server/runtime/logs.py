"""Structured logs: one JSON object per line (``--log-json``), or readable text."""

from __future__ import annotations

import json
import logging
import sys
import time
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


def configure(*, json_lines: bool, level: int = logging.INFO) -> None:
    handler = logging.StreamHandler(sys.stderr)
    handler.setFormatter(
        JsonFormatter() if json_lines else TextFormatter("%(asctime)s %(levelname)s %(message)s")
    )
    root = logging.getLogger("muggins")
    root.handlers[:] = [handler]
    root.setLevel(level)
    root.propagate = False
