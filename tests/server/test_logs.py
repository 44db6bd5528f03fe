"""``--log-file``: the file is created 0640, and made again 0640 once logrotate moves it away."""

from __future__ import annotations

import logging
import os
import stat
from collections.abc import Iterator
from pathlib import Path

import pytest

from muggins.server.runtime.logs import configure


@pytest.fixture
def muggins_logger() -> Iterator[logging.Logger]:
    logger = logging.getLogger("muggins")
    handlers, level, propagate = logger.handlers[:], logger.level, logger.propagate
    umask = os.umask(0o022)  # the usual one: a file opened plainly would be 0644
    try:
        yield logger
    finally:
        os.umask(umask)
        for handler in logger.handlers:
            handler.close()
        logger.handlers[:], logger.level, logger.propagate = handlers, level, propagate


def test_a_log_file_moved_away_is_made_again_as_private_as_the_first(
    tmp_path: Path, muggins_logger: logging.Logger
) -> None:
    log = tmp_path / "logs" / "muggins.log"
    configure(json_lines=False, file=log)
    muggins_logger.info("before the rotation")
    assert stat.S_IMODE(log.stat().st_mode) == 0o640
    log.rename(tmp_path / "logs" / "muggins.log.1")  # what logrotate does
    muggins_logger.info("after the rotation")
    assert "after the rotation" in log.read_text()
    assert "before the rotation" in (tmp_path / "logs" / "muggins.log.1").read_text()
    assert stat.S_IMODE(log.stat().st_mode) == 0o640
