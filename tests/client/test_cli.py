"""The ``muggins`` command line: every command's help reads as written."""

from __future__ import annotations

import argparse

import pytest

from muggins.client.cli import build_parser


def _commands() -> dict[str, argparse.ArgumentParser]:
    parser = build_parser()
    for action in parser._actions:
        if isinstance(action, argparse._SubParsersAction):
            return dict(action.choices)
    raise AssertionError("muggins has no subcommands")


@pytest.mark.parametrize("name", sorted(_commands()))
def test_every_command_help_is_printed_as_written(name: str) -> None:
    # argparse %-formats argument help (so "%%" prints "%") but not a description or an
    # epilog, where a doubled "%%" would reach the reader as typed.
    text = _commands()[name].format_help()
    assert "%%" not in text
    assert "%(" not in text
    assert name in text


def test_the_tournament_help_names_its_interval() -> None:
    text = _commands()["tournament"].format_help()
    assert "95% confidence" in " ".join(text.split())


def test_a_reader_that_goes_away_ends_the_command_quietly() -> None:
    """``muggins history | head``: once the reader has gone, the command stops without a
    traceback (as cat does), whether the output was still being written or only flushed."""
    import os
    import subprocess
    import sys

    for args in (["score", "5H", "5S", "5C", "JD", "--starter", "5D"], ["score", "--help"]):
        read, write = os.pipe()
        os.close(read)  # the reader is gone before the first line
        try:
            result = subprocess.run(
                [sys.executable, "-m", "muggins.client.cli", *args],
                stdout=write, stderr=subprocess.PIPE, text=True, timeout=60, check=False,
            )  # fmt: skip
        finally:
            os.close(write)
        assert result.stderr == "", result.stderr
        assert result.returncode == (0 if "--help" in args else 1)


def test_a_tournament_on_a_server_that_does_not_answer_says_so_once() -> None:
    """Every game's connection fails: one sentence naming the server, no task left unheard."""
    import socket
    import subprocess
    import sys

    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        port = probe.getsockname()[1]  # closed again: nothing listens there
    url = f"ws://127.0.0.1:{port}"
    result = subprocess.run(
        [sys.executable, "-m", "muggins.client.cli", "tournament", "random", "easy",
         "--games", "4", "--server", url, "--json"],
        capture_output=True, text=True, timeout=60, check=False,
    )  # fmt: skip
    assert result.returncode == 1
    assert "Traceback" not in result.stderr and "never retrieved" not in result.stderr
    assert f"muggins tournament: cannot reach {url}: Connect call failed" in result.stderr


@pytest.mark.parametrize("action", ["grant", "revoke", "bot"])
def test_admin_s_store_actions_name_the_one_file_they_write(action: str) -> None:
    """grant, revoke and bot write the server's muggins.db alone, not both files history reads."""
    admin = _commands()["admin"]
    [actions] = [a for a in admin._actions if isinstance(a, argparse._SubParsersAction)]
    text = " ".join(actions.choices[action].format_help().split())
    assert "the server's SQLite file (default: muggins.db in your data directory)" in text
    assert "both in your data directory" not in text and "read a cluster's games" not in text


@pytest.mark.parametrize(
    ("args", "command"),
    [
        (["account", "URL", "leaderboard"], "account"),
        (["admin", "view", "--server", "URL"], "admin"),
    ],
)
def test_a_server_that_does_not_answer_is_named_in_a_sentence(
    args: list[str], command: str
) -> None:
    import socket
    import subprocess
    import sys

    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        port = probe.getsockname()[1]  # closed again: nothing listens there
    url = f"ws://127.0.0.1:{port}"
    result = subprocess.run(
        [sys.executable, "-m", "muggins.client.cli", *[url if a == "URL" else a for a in args]],
        capture_output=True, text=True, timeout=60, check=False,
    )  # fmt: skip
    assert result.returncode == 1, result
    assert result.stdout == (
        f"muggins {command}: cannot reach {url}: Connect call failed ('127.0.0.1', {port})\n"
    )
