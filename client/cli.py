"""The ``muggins`` command. Each subcommand lives in its own module with ``register(subparsers)``.

Command modules import their heavy dependencies inside their handlers, so ``muggins --help``
stays quick.
"""

from __future__ import annotations

import argparse
import importlib
import os
import sys
from collections.abc import Sequence

COMMAND_MODULES = (
    "muggins.client.commands.score",
    "muggins.shared.commands.schema",
    "muggins.client.commands.play",
    "muggins.client.commands.account",
    "muggins.client.commands.tournament",
    "muggins.shared.commands.analyze",
    "muggins.client.commands.bot",
    "muggins.server.commands.serve",
    "muggins.server.commands.history",
    "muggins.server.commands.replay",
    "muggins.server.commands.review",
    "muggins.client.commands.admin",
    "muggins.server.commands.backup",
    "muggins.server.commands.to_postgres",
)


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog="muggins",
        description="Muggins: two-player cribbage over the network, with computer players.",
        epilog="Run 'muggins COMMAND --help' for the options of one command.",
    )
    commands = parser.add_subparsers(dest="command", metavar="COMMAND", required=True)
    for name in COMMAND_MODULES:
        importlib.import_module(name).register(commands)
    return parser


def main(argv: Sequence[str] | None = None) -> int:
    try:
        try:
            return run(argv)
        finally:
            sys.stdout.flush()
    except BrokenPipeError:
        # The reader went away (muggins history | head): end quietly, as cat does. Python would
        # flush what is left at exit and complain, so stdout goes nowhere from here on.
        os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())
        return 1


def run(argv: Sequence[str] | None) -> int:
    args = build_parser().parse_args(argv)
    try:
        result: int = args.handler(args)
    except KeyboardInterrupt:
        return 130
    return result


if __name__ == "__main__":
    sys.exit(main())
