"""``muggins bot``: a computer player that connects to a server like any client.

Also the ``--server`` mode of ``muggins tournament``: the same match-ups played over real sockets.
"""

from __future__ import annotations

import argparse
import asyncio
import sys
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from muggins.shared.bots.arena import GameRecord


def register(commands: Any) -> None:
    parser = commands.add_parser(
        "bot",
        help="connect a computer player to a server",
        description=(
            "Connect a computer player to a Muggins server over the wire protocol, exactly like "
            "a person's client. --create opens a room and prints its code for a friend to join; "
            "--join CODE takes the empty seat of a room; --seek signs in to a bot account "
            "(--account NAME, made with --register; the password is read from the environment "
            "variable MUGGINS_BOT_PASSWORD) and plays rated games from the queue. In a room, a "
            "lost connection is made again with growing pauses and the seat resumed, on any "
            "node behind the balancer. "
            "Example: muggins bot ws://localhost:8765 --level expert --create"
        ),
    )
    parser.add_argument("url", metavar="URL", help="the server, e.g. ws://localhost:8765")
    parser.add_argument("--level", default=None, help="computer level (default: the strongest)")
    where = parser.add_mutually_exclusive_group(required=True)
    where.add_argument("--create", action="store_true", help="open a room and wait for a player")
    where.add_argument("--join", metavar="CODE", help="join the room with this code")
    where.add_argument("--seek", action="store_true", help="play rated games as --account")
    where.add_argument(
        "--tournament", metavar="ID", help="join this tournament as --account and play it out"
    )
    parser.add_argument("--account", metavar="NAME", help="the bot account to sign in to")
    parser.add_argument(
        "--register", action="store_true", help="with --seek: make the bot account first"
    )
    parser.add_argument("--matches", type=int, default=1, help="with --seek: how many to play")
    parser.add_argument("--best-of", type=int, choices=(1, 3), default=1, help="with --seek")
    parser.add_argument(
        "--duplicate", action="store_true", help="with --seek: duplicate matches (two tables)"
    )
    parser.add_argument("--name", help="the name others see (default: '<level> bot')")
    parser.add_argument("--seed", type=int, default=None, help="seed the bot's choices")
    parser.add_argument("--target", type=int, choices=(121, 61), default=121, help="with --create")
    parser.add_argument("--muggins", action="store_true", help="with --create: count your own")
    parser.add_argument("--private", action="store_true", help="with --create: join by code only")
    parser.add_argument(
        "--claim",
        choices=("wait", "win", "bot"),
        default="wait",
        help="when the opponent has been gone past the server's grace: keep waiting (default), "
        "claim the game (win), or hand their seat to the computer (bot)",
    )
    parser.add_argument("--quiet", action="store_true", help="print only the result")
    parser.set_defaults(handler=run)


def run(args: argparse.Namespace) -> int:
    import secrets

    from muggins.client.remote_bot import RemoteError, play_remote
    from muggins.shared.actions import GameOptions
    from muggins.shared.bots import LEVELS
    from muggins.shared.protocol import RoomOptions

    level = args.level or list(LEVELS)[-1]
    if level not in LEVELS:
        print(
            f"muggins bot: unknown level {level!r}; choose from {', '.join(LEVELS)}",
            file=sys.stderr,
        )
        return 2
    if args.seek or args.tournament:
        return run_account(args, level)
    create = None
    if args.create:
        game = GameOptions(target=args.target, muggins=args.muggins)
        create = RoomOptions(game=game, private=args.private)

    def show_room(code: str) -> None:
        if args.create:
            print(f"Room {code}: join it with: muggins play {args.url} --join {code}", flush=True)

    def show_event(text: str) -> None:
        if not args.quiet:
            print(text, flush=True)

    try:
        result = asyncio.run(
            play_remote(
                args.url,
                level=level,
                seed=args.seed if args.seed is not None else secrets.randbits(32),
                name=args.name,
                create=create,
                code=args.join,
                on_room=show_room,
                on_event=show_event,
                claim=args.claim,
            )
        )
    except OSError as error:
        print(f"muggins bot: cannot reach {args.url}: {error.strerror or error}", file=sys.stderr)
        return 1
    except RemoteError as error:
        print(f"muggins bot: {error}", file=sys.stderr)
        return 1
    wins = sum(1 for o in result.outcomes if o.winner == result.seat)
    last = result.outcomes[-1] if result.outcomes else None
    score = f" ({last.scores[result.seat]}-{last.scores[1 - result.seat]})" if last else ""
    verdict = "won" if last is not None and last.winner == result.seat else "lost"
    print(f"The {level} bot {verdict} the match in room {result.code}{score}; games won: {wins}.")
    return 0


def run_account(args: argparse.Namespace, level: str) -> int:
    """``muggins bot URL --seek --account NAME [--register]``: rated games as a bot account."""
    import os
    import secrets

    from muggins.client.bot_account import play_account, play_tournament
    from muggins.client.remote_bot import RemoteError

    password = os.environ.get("MUGGINS_BOT_PASSWORD")
    if not args.account or not password:
        print(
            "muggins bot: --seek and --tournament need --account NAME and the password in "
            "MUGGINS_BOT_PASSWORD",
            file=sys.stderr,
        )
        return 2
    seed = args.seed if args.seed is not None else secrets.randbits(32)

    def show_room(code: str) -> None:
        print(f"Rated room {code}", flush=True)

    try:
        if args.tournament:
            results = asyncio.run(
                play_tournament(
                    args.url,
                    level=level,
                    account=args.account,
                    password=password,
                    tournament=args.tournament,
                    register=args.register,
                    seed=seed,
                )
            )
        else:
            results = asyncio.run(
                play_account(
                    args.url,
                    level=level,
                    account=args.account,
                    password=password,
                    register=args.register,
                    matches=max(1, args.matches),
                    best_of=3 if args.best_of == 3 else 1,
                    duplicate=args.duplicate,
                    seed=seed,
                    on_room=show_room,
                    on_event=None if args.quiet else print,
                )
            )
    except OSError as error:
        print(f"muggins bot: cannot reach {args.url}: {error.strerror or error}", file=sys.stderr)
        return 1
    except RemoteError as error:
        print(f"muggins bot: {error}", file=sys.stderr)
        return 1
    won = sum(1 for r in results if r.outcomes and r.outcomes[-1].winner == r.seat)
    what = f"tournament {args.tournament}" if args.tournament else "rated"
    print(f"{args.account} [bot] played {len(results)} {what} matches and won {won}.")
    return 0


# --- tournaments over sockets ---------------------------------------------------------------


async def remote_game(
    url: str, first: str, second: str, *, seed: int, index: int, target: int, muggins: bool
) -> GameRecord:
    """One game between two bots on a server: the first player creates the room in even games."""
    from muggins.client.remote_bot import play_remote
    from muggins.shared.actions import GameOptions
    from muggins.shared.bots.arena import Scorekeeper, game_seed, record_of
    from muggins.shared.protocol import RoomOptions

    creator, joiner = (0, 1) if index % 2 == 0 else (1, 0)
    levels = (first, second)
    options = RoomOptions(
        game=GameOptions(target=target, muggins=muggins),
        private=True,
    )
    room: asyncio.Future[str] = asyncio.get_running_loop().create_future()
    host = asyncio.create_task(
        play_remote(
            url,
            level=levels[creator],
            seed=game_seed(seed, index) ^ 1,
            create=options,
            on_room=room.set_result,
        )
    )
    waiting: set[asyncio.Future[Any]] = {host, room}
    done, _ = await asyncio.wait(waiting, return_when=asyncio.FIRST_COMPLETED)
    if host in done:
        host.result()  # raises the refusal
    guest = await play_remote(
        url, level=levels[joiner], seed=game_seed(seed, index) ^ 2, code=room.result()
    )
    hosted = await host
    player_of = (creator, joiner) if hosted.seat == 0 else (joiner, creator)
    assert guest.seat == 1 - hosted.seat and hosted.first_dealer is not None
    keeper = Scorekeeper(player_of, hosted.first_dealer)
    for event in hosted.events:
        keeper.feed(event)
    return record_of(
        hosted.outcomes[-1],
        index=index,
        first_dealer=player_of[hosted.first_dealer],
        keeper=keeper,
    )


def run_server_tournament(args: argparse.Namespace) -> int:
    """``muggins tournament LEVEL LEVEL --server URL``: the games over real sockets."""
    from rich.console import Console
    from rich.progress import BarColumn, MofNCompleteColumn, Progress, TimeRemainingColumn

    from muggins.client.remote_bot import RemoteError
    from muggins.shared.bots.arena import Tally
    from muggins.shared.commands.tallies import print_tally

    err = Console(stderr=True)
    if len(args.levels) != 2:
        err.print("muggins tournament: --server plays one pairing; name exactly two levels")
        return 2
    first, second = args.levels
    tally = Tally(players=(first, second))

    async def main() -> None:
        limit = asyncio.Semaphore(max(1, args.rooms))

        async def one(index: int) -> GameRecord:
            async with limit:
                return await remote_game(
                    args.server,
                    first,
                    second,
                    seed=args.seed,
                    index=index,
                    target=args.target,
                    muggins=args.muggins,
                )

        progress = Progress(
            "[progress.description]{task.description}",
            BarColumn(),
            MofNCompleteColumn(),
            "games",
            TimeRemainingColumn(),
            console=err,
            transient=args.json,
        )
        with progress:
            task = progress.add_task(f"{first} v {second} on {args.server}", total=args.games)
            games = [asyncio.ensure_future(one(i)) for i in range(args.games)]
            try:
                for future in asyncio.as_completed(games):
                    tally.add(await future)
                    progress.advance(task)
            finally:  # one failed: the others are stopped, not left to fail unheard
                for game in games:
                    game.cancel()
                await asyncio.gather(*games, return_exceptions=True)

    try:
        asyncio.run(main())
    except OSError as error:
        err.print(f"muggins tournament: cannot reach {args.server}: {error.strerror or error}")
        return 1
    except RemoteError as error:
        err.print(f"muggins tournament: {error}")
        return 1
    if args.json:
        import json

        print(json.dumps(tally.to_json()))
    else:
        print_tally(Console(), tally)
    return 0
