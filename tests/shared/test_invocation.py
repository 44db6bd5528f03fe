"""The commands the programs show (a friend's join, coming back) work as typed."""

from __future__ import annotations

import shlex
import subprocess
import sys

import pytest

from muggins.shared.invocation import join_command, play_command


def test_under_dev_the_command_is_the_dev_script_by_its_full_path(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """./dev play sets MUGGINS_DEV; the command quotes its path, so spaces survive."""
    monkeypatch.setenv("MUGGINS_DEV", "/home/ann/my games/muggins/dev")
    assert play_command() == "'/home/ann/my games/muggins/dev' play"
    assert join_command("ws://h:1", "KXPWTR") == (
        "'/home/ann/my games/muggins/dev' play ws://h:1 --join KXPWTR"
    )


def test_without_muggins_on_path_the_command_runs_as_typed(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """Not started by ./dev and with no muggins on PATH, the command shown still runs."""
    monkeypatch.delenv("MUGGINS_DEV", raising=False)
    monkeypatch.setenv("PATH", "/nonexistent")
    command = play_command()
    assert not command.startswith("muggins ")
    done = subprocess.run(
        [*shlex.split(command), "--help"], capture_output=True, text=True, timeout=60
    )
    assert done.returncode == 0 and "--join CODE" in done.stdout


def test_with_this_muggins_on_path_the_command_is_muggins_play(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """When the muggins on PATH is the program running, the short form is shown."""
    from pathlib import Path

    program = Path(sys.executable).parent / "muggins"
    if not program.exists():
        pytest.skip("no muggins script beside this Python")
    monkeypatch.delenv("MUGGINS_DEV", raising=False)
    monkeypatch.setenv("PATH", str(program.parent))
    monkeypatch.setattr(sys, "argv", [str(program), "play"])
    assert play_command() == "muggins play"
