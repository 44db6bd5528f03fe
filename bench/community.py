"""A community over real sockets: scripted players register, queue for rated games, play them
with the computer levels' strategies, and the server's leaderboard and one player's record are
printed at the end.

    python bench/community.py [--matches 300] [--players 24] [--target 121] [--db PATH]
                              [--review-workers 1]

Each scripted player is a WebSocket client speaking the wire protocol (like a person's client):
it registers, sends ``seek``, plays its seat with its level's strategy from the ``state`` it
gets, leaves the room after the match and seeks again, until the server has settled
``--matches`` rated matches. Players are spread over the four levels, so the leaderboard shows
whether the ratings sort them by strength. The server reviews every finished match in
``--review-workers`` processes, so each record ends with the points given away per deal.
"""

from __future__ import annotations

import argparse
import asyncio
import os
import tempfile
import time
from dataclasses import dataclass
from pathlib import Path

from pydantic import BaseModel
from websockets.asyncio.client import ClientConnection, connect

from muggins.client.account_cli import leaderboard_lines, profile_lines
from muggins.server.app import running_server
from muggins.server.config import ServerConfig
from muggins.shared.actions import GameOptions
from muggins.shared.bots import LEVELS, make_strategy
from muggins.shared.protocol import (
    PROTOCOL_VERSION,
    Error,
    Hello,
    Leave,
    Notice,
    Room,
    RoomOptions,
    ServerMessage,
    State,
    encode,
    from_action,
    parse_server,
)
from muggins.shared.protocol.accounts import (
    Account,
    GetHistory,
    GetLeaderboard,
    GetProfile,
    History,
    Leaderboard,
    Profile,
    Register,
    Seek,
)
from muggins.shared.protocol.unpack import Unpacker


@dataclass
class Tally:
    wanted: int
    finished: int = 0
    moves: int = 0


async def ask(ws: ClientConnection, message: BaseModel, id: int) -> ServerMessage:
    await ws.send(encode(message.model_copy(update={"id": id})))
    while True:
        reply = parse_server(await ws.recv())
        if reply.id == id:
            return reply


async def scripted(url: str, name: str, level: str, tally: Tally, seed: int) -> None:
    strategy = make_strategy(level, seed=seed)
    async with connect(url, max_size=2**22) as ws:
        await ask(ws, Hello(name=name, protocol=PROTOCOL_VERSION), 1)
        made = await ask(ws, Register(name=name, password="scripted player"), 2)
        assert isinstance(made, Account), made
        await ws.send(encode(Seek()))
        pending: int | None = None  # the id of our move until the server answers it
        next_id = 10
        latest: State | None = None
        unpacker = Unpacker()  # most states are brief: completed from the view before
        while tally.finished < tally.wanted:
            try:
                message = parse_server(await asyncio.wait_for(ws.recv(), 5))
            except TimeoutError:
                continue
            if isinstance(message, Error):
                print(f"{name}: {message.message}")
                pending = None
                if message.code == "stale" and latest is not None:
                    message = latest  # the newer state came just before: answer it
            if isinstance(message, State):
                latest = message
                view = unpacker.whole(message)
                if message.id is not None and message.id == pending:
                    pending = None
                if view.phase == "match_over":
                    pending = None
                    await ws.send(encode(Leave()))
                    continue
                if pending is None and view.seat in view.waiting_for and view.legal:
                    next_id += 1
                    pending = next_id
                    tally.moves += 1
                    move = from_action(strategy.choose(view), seq=message.seq, id=pending)
                    await ws.send(encode(move))
            elif isinstance(message, Room) and message.status == "over":
                continue
            elif message.type == "left":
                await ws.send(encode(Seek()))
            elif isinstance(message, Notice) and message.code == "rating":
                tally.finished += 1  # both seats hear it: counted per player, halved below


async def report(url: str, name: str) -> None:
    async with connect(url, max_size=2**22) as ws:
        await ask(ws, Hello(name="reporter", protocol=PROTOCOL_VERSION), 1)
        board = await ask(ws, GetLeaderboard(limit=30), 2)
        assert isinstance(board, Leaderboard)
        print("\nLeaderboard (established ratings; level in the name):")
        print("\n".join(leaderboard_lines(board)))
        profile = await ask(ws, GetProfile(name=name), 3)
        assert isinstance(profile, Profile)
        print(f"\nThe record of {name}:")
        print("\n".join(profile_lines(profile)))
        history = await ask(ws, GetHistory(name=name, limit=5), 4)
        assert isinstance(history, History)
        print(f"\nThe latest 5 of {name}'s {profile.counts['matches']} matches:")
        for g in history.games:
            change = f"{g.rating_before:.0f} -> {g.rating_after:.0f}" if g.rated else "casual"
            print(
                f"  {g.game:<10} {g.result:<4} v {g.opponent:<16} "
                f"{g.match_points[0]}-{g.match_points[1]}  {change}"
            )


async def main(args: argparse.Namespace) -> None:
    db = args.db or Path(tempfile.mkdtemp()) / "community.db"
    config = ServerConfig(
        port=0,
        db=db,
        bot_delay=0.0,
        rate=1e4,
        burst=10**4,
        sweep_interval=3600,
        registrations_per_hour=1e9,
        rated_pair_per_day=10**9,  # scripted players meet again and again, on one address
        review_workers=args.review_workers,
    )
    levels = list(LEVELS)
    tally = Tally(wanted=args.matches * 2)
    if args.target != 121:
        import muggins.server.lobby.matchmaking as matchmaking

        original = matchmaking.rated_room_options

        def shorter(best_of: int, *, duplicate: bool = False) -> RoomOptions:
            options = original(best_of, duplicate=duplicate)
            return options.model_copy(update={"game": replace_target(options.game, args.target)})

        matchmaking.rated_room_options = shorter
    started = time.perf_counter()
    async with running_server(config) as server:
        names = [f"{levels[n % len(levels)]}-{n // len(levels) + 1}" for n in range(args.players)]
        players = [
            scripted(server.url, name, levels[n % len(levels)], tally, seed=n)
            for n, name in enumerate(names)
        ]
        await asyncio.gather(*players)
        elapsed = time.perf_counter() - started
        print(
            f"{tally.finished // 2} rated matches ({tally.moves} moves) by {args.players} "
            f"scripted players over sockets in {elapsed:.1f} s; load average "
            f"{os.getloadavg()[0]:.2f} (a shared 2-core machine); store {db}"
        )
        # The reviews run in worker processes meanwhile; wait for the last ones.
        deadline = time.monotonic() + 600
        while server.reviewer.done < tally.finished // 2 and time.monotonic() < deadline:
            await asyncio.sleep(0.5)
        print(
            f"{server.reviewer.done} matches reviewed by {args.review_workers} worker "
            f"process(es), {time.perf_counter() - started - elapsed:.1f} s after the last move"
        )
        await report(server.url, names[-1] if args.show is None else args.show)


def replace_target(game: GameOptions, target: int) -> GameOptions:
    return game.model_copy(update={"target": target})


if __name__ == "__main__":
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--matches", type=int, default=300)
    parser.add_argument("--players", type=int, default=24)
    parser.add_argument("--target", type=int, choices=(61, 121), default=121)
    parser.add_argument("--db", type=Path, help="SQLite file (default: a new temporary one)")
    parser.add_argument("--show", help="whose record to print (default: the last player)")
    parser.add_argument(
        "--review-workers", type=int, default=1, help="review worker processes (default 1)"
    )
    asyncio.run(main(parser.parse_args()))
