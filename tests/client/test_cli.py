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
