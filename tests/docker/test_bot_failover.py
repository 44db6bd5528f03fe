"""``muggins bot`` behind the real nginx running docker/nginx.conf, in front of two cluster
nodes on one redis-server: the node holding a bot is killed (SIGKILL) mid-match; the bot
connects again through nginx (naming its room, so nginx routes it by the room's code), lands on
the other node, resumes its seat and finishes."""

from __future__ import annotations

import re
import subprocess
import sys
import urllib.request
from pathlib import Path

from cluster_nodes import ROOT, Node
from nginx_helpers import nginx_binary, run_shipped
from redis_helpers import free_port, running_redis


def players_on(node: Node) -> float:
    """``muggins_players_connected`` of one node (asked from this machine, not via nginx)."""
    with urllib.request.urlopen(f"http://127.0.0.1:{node.port}/metrics", timeout=5) as reply:
        text = reply.read().decode()
    [value] = re.findall(r"^muggins_players_connected (\S+)$", text, flags=re.M)
    return float(value)


def bot(url: str, *args: str) -> subprocess.Popen[str]:
    return subprocess.Popen(
        [sys.executable, "-m", "muggins.client.cli", "bot", url, "--level", "random", *args],
        cwd=ROOT, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True,
    )  # fmt: skip


def test_a_bot_whose_node_is_killed_finishes_its_match_on_the_other(tmp_path: Path) -> None:
    """kill -9 of the bots' node mid-match: both bots end the match, each seeing the result."""
    nginx_binary()
    (tmp_path / "redis").mkdir()
    with running_redis(tmp_path / "redis") as redis:
        nodes = [Node(redis, log=tmp_path / f"node-{n}.log") for n in range(2)]
        proxy = run_shipped(
            tmp_path / "nginx", port=free_port(), upstreams=[f"127.0.0.1:{n.port}" for n in nodes]
        )
        url = f"ws://127.0.0.1:{proxy.port}"
        host = guest = None
        try:
            host = bot(url, "--create", "--seed", "1", "--target", "121")
            assert host.stdout is not None
            first = host.stdout.readline()
            [code] = re.findall(r"Room (\w+):", first) or [first]
            guest = bot(url, "--join", code, "--seed", "2", "--quiet")
            seen = [host.stdout.readline() for _ in range(30)]  # 30 lines of play, then the kill
            assert all(seen), seen
            [victim] = sorted(nodes, key=players_on)[-1:]
            assert players_on(victim) >= 1
            victim.kill()
            out, _ = host.communicate(timeout=180)
            guest_out, _ = guest.communicate(timeout=180)
        finally:
            for process in (host, guest):
                if process is not None and process.poll() is None:
                    process.kill()
            proxy.stop()
            for node in nodes:
                node.stop()
    assert host.returncode == 0, out[-2000:]
    assert guest.returncode == 0, guest_out[-2000:]
    assert "(connection lost" in out or "(connection lost" in guest_out
    # The guest joined by the code, and each bot that came back named its room: routed by it.
    access = (proxy.work / "access.log").read_text()
    assert access.count(f'/?room={code} HTTP/1.1" 101 ') >= 2, access
    assert re.search(r"The random bot (won|lost) the match in room " + code, out), out[-500:]
    hosted = "won" if " won the match" in out else "lost"
    assert (" lost the match" if hosted == "won" else " won the match") in guest_out
