"""``muggins serve --procs 2`` (server/commands/procs.py) on a real redis-server: two processes
share one port, rooms made through it are owned by both, a player who lands on the process that
does not own the room is sent on to the one that does; a process killed with SIGKILL is started
again and its room taken over; SIGTERM stops them all."""

from __future__ import annotations

import asyncio
import contextlib
import os
import re
import signal
import subprocess
import sys
import urllib.request
from pathlib import Path

import redis
from cluster_nodes import Player, close_players, connections, second_deal, wait_for
from redis_helpers import RedisServer, free_port
from wire_client import WireClient

from muggins.server.commands.procs import FAILED_STARTS
from muggins.shared.protocol import CreateRoom, JoinRoom, Room, RoomOptions, State, Welcome

ROOT = Path(__file__).resolve().parents[2]
LISTENING = re.compile(r"Process (\d+) \(pid (\d+)\) listening on ws://127\.0\.0\.1:(\d+)")


def free_ports(count: int) -> int:
    """The first of ``count`` ports in a row on 127.0.0.1 that were free a moment ago."""
    while True:
        first = free_port()
        if first + count < 65536 and all(_free(first + i) for i in range(1, count)):
            return first


def _free(port: int) -> bool:
    import socket

    with socket.socket() as sock:
        try:
            sock.bind(("127.0.0.1", port))
        except OSError:
            return False
        return True


class Procs:
    """``muggins serve --procs N`` as its own process, and what it says: each process's pid."""

    def __init__(
        self, redis_server: RedisServer, count: int, log: Path, *, first: int | None = None
    ) -> None:
        self.port, first = free_port(), first or free_ports(count)
        self.own = [first + i for i in range(count)]
        self.log = log
        self.process = subprocess.Popen(
            [
                sys.executable, "-m", "muggins.client.cli", "serve", "--procs", str(count),
                "--first-proc-port", str(first), "--host", "127.0.0.1",
                "--port", str(self.port), "--redis", redis_server.url, "--bot-delay", "0",
                "--rate", "10000", "--burst", "10000", "--max-per-address", "10000",
                "--rooms-per-minute-per-address", "1000000", "--review-workers", "0",
            ],
            cwd=ROOT, env={**os.environ, "PYTHONUNBUFFERED": "1"},
            stdout=log.open("wb"), stderr=subprocess.STDOUT,
        )  # fmt: skip

    def pids(self) -> dict[int, int]:
        """The latest pid of each process, by index, as the processes said."""
        found = LISTENING.findall(self.log.read_text())
        return {int(index): int(pid) for index, pid, _ in found}

    def said(self, text: str) -> bool:
        return text in self.log.read_text()

    def stop(self) -> None:
        if self.process.poll() is None:
            self.process.terminate()
            try:
                self.process.wait(30)
            except subprocess.TimeoutExpired:
                self.process.kill()  # its processes end with it (PR_SET_PDEATHSIG)
                self.process.wait(10)


def healthy(port: int) -> bool:
    try:
        with urllib.request.urlopen(f"http://127.0.0.1:{port}/healthz", timeout=1) as r:
            return bool(r.status == 200)
    except OSError:
        return False


async def test_two_processes_share_a_port_send_players_to_the_owner_and_restart(
    redis_server: RedisServer, tmp_path: Path
) -> None:
    """Rooms made through the shared port are owned by both processes; Bob, landing on the
    process that does not own Alice's room, is sent on to the owner and both play there. The
    owner killed with SIGKILL is started again, the room taken over and the match finished;
    SIGTERM to the parent stops both processes and the parent ends with 0."""
    procs = Procs(redis_server, 2, tmp_path / "procs.log")
    store = redis.Redis.from_url(redis_server.url, decode_responses=True)
    alice = bob = None
    try:
        await wait_for(lambda: len(procs.pids()) == 2 and all(map(healthy, procs.own)))
        shared = f"ws://127.0.0.1:{procs.port}"
        makers = [await WireClient.open(shared, name=f"M{i}") for i in range(16)]
        codes = [(await m.request(type="create_room"))["code"] for m in makers]
        await wait_for(lambda: all(store.get(f"muggins:owner:{c}") for c in codes))
        assert len({store.get(f"muggins:owner:{c}") for c in codes}) == 2
        for maker in makers:
            await maker.close()
        await wait_for(lambda: [connections(p) for p in procs.own] == [0, 0])

        alice = Player("Alice", [shared])
        await alice.next(Welcome)
        await alice.link.send(CreateRoom(options=RoomOptions()))
        room = await alice.next(Room)
        assert isinstance(room, Room)
        await wait_for(lambda: store.get(f"muggins:owner:{room.code}") is not None)
        owner = 0 if connections(procs.own[0]) == 1 else 1
        other = procs.own[1 - owner]
        bob = Player("Bob", [f"ws://127.0.0.1:{other}"], code=room.code)
        await bob.next(Welcome)
        await bob.link.send(JoinRoom(code=room.code))
        await bob.next(State)
        await alice.next(State)
        assert (connections(procs.own[owner]), connections(other)) == (2, 0)
        await asyncio.gather(alice.play(pause_when=second_deal), bob.play(pause_when=second_deal))

        killed = procs.pids()[owner]
        os.kill(killed, signal.SIGKILL)
        for player in (alice, bob):
            back = await player.next(Welcome, timeout=20)
            assert isinstance(back, Welcome) and back.resumed and back.room == room.code
        await wait_for(lambda: procs.pids()[owner] != killed and healthy(procs.own[owner]))
        assert procs.said(f"process {owner} (pid {killed}) ended (code -9); starting it again")
        await asyncio.gather(alice.play(), bob.play())
        for player in (alice, bob):
            assert player.state is not None and player.state.view.phase == "match_over"
        counts = [connections(p) for p in procs.own]
        assert sorted(counts) == [0, 2]  # both players on the room's owner

        for player in (alice, bob):
            await player.close()
        alice = bob = None
        procs.process.send_signal(signal.SIGTERM)
        assert procs.process.wait(30) == 0
        assert not any(map(healthy, [procs.port, *procs.own]))
    finally:
        await close_players(alice, bob)
        procs.stop()
        store.close()


async def test_a_parent_killed_leaves_no_process_serving(
    redis_server: RedisServer, tmp_path: Path
) -> None:
    """SIGKILL to the parent (nothing to stop the processes in order): its processes stop
    serving on their own, on their own ports and on the shared one."""
    procs = Procs(redis_server, 2, tmp_path / "procs.log")
    try:
        await wait_for(lambda: len(procs.pids()) == 2 and all(map(healthy, procs.own)))
        procs.process.kill()
        procs.process.wait(10)
        await wait_for(lambda: not any(map(healthy, [procs.port, *procs.own])))
    finally:
        procs.stop()
        for pid in procs.pids().values():
            with contextlib.suppress(ProcessLookupError):
                os.kill(pid, signal.SIGKILL)


async def test_a_process_that_cannot_start_stops_them_all_with_the_reason(
    redis_server: RedisServer, tmp_path: Path
) -> None:
    """Process 1's own port is taken by another program: it ends at each start; after the
    fifth quick end in a row the parent says which process keeps ending and why, stops the
    other one and ends with 1, leaving nothing serving."""
    import socket

    procs = None
    with socket.socket() as squatter:
        first = free_ports(2)
        squatter.bind(("127.0.0.1", first + 1))
        squatter.listen()
        procs = Procs(redis_server, 2, tmp_path / "procs.log", first=first)
        try:
            assert procs.process.wait(120) == 1
            said = procs.log.read_text()
            assert said.count("process 1 (pid") == FAILED_STARTS - 1, said  # started again 4 times
            assert "process 1 keeps ending at start (code 1); stopping" in said, said
            assert f"{first + 1}: the port is in use" in said, said
            assert not any(map(healthy, [procs.port, first]))
        finally:
            procs.stop()
