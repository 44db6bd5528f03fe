"""Where games are kept by default: one data directory, two SQLite files.

``muggins serve`` keeps its games in ``muggins.db`` and the server that ``muggins play`` embeds
keeps the player's games against the computer in ``games.sqlite3``, both in the user's data
directory (``~/.local/share/muggins/`` on Linux). They stay apart so a running public server and
a game against the computer never share one file; ``muggins history`` and ``muggins replay``
read both.
"""

from __future__ import annotations

from pathlib import Path

SERVER_DB = "muggins.db"
EMBEDDED_DB = "games.sqlite3"


def data_dir() -> Path:
    import platformdirs

    return Path(platformdirs.user_data_dir("muggins"))


def default_db() -> Path:
    """The SQLite file of ``muggins serve`` without ``--db``."""
    return data_dir() / SERVER_DB


def embedded_db(data: Path | None = None) -> Path:
    """The SQLite file of the server ``muggins play`` embeds (in ``data``, default the data dir)."""
    return (data or data_dir()) / EMBEDDED_DB


def game_files(given: Path | None = None) -> list[Path]:
    """The files to read finished games from: ``given``, else each default file that exists."""
    if given is not None:
        return [given]
    return [path for path in (default_db(), embedded_db()) if path.exists()]
