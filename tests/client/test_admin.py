"""`muggins admin` over the protocol: a moderator's session bans, mutes, renames, views; a
player's session is refused; against a real server on a socket."""

from __future__ import annotations

import asyncio
import io
from collections.abc import AsyncIterator
from pathlib import Path

import pytest

from muggins.client.cli import main
from muggins.server.accounts.roles import grant
from muggins.server.app import Server, running_server
from muggins.server.config import ServerConfig


@pytest.fixture
async def server() -> AsyncIterator[Server]:
    config = ServerConfig(
        port=0, memory=True, bot_delay=0.0, sweep_interval=3600, registrations_per_hour=1e6
    )
    async with running_server(config) as running:
        yield running


async def run(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str], *argv: str, stdin: str = ""
) -> tuple[int, str]:
    monkeypatch.setattr("sys.stdin", io.StringIO(stdin))
    status = await asyncio.to_thread(main, list(argv))
    return status, capsys.readouterr().out


async def test_admin_commands_act_over_the_protocol_for_a_moderator_only(
    server: Server,
    tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str],
) -> None:
    """Signed in as a player, ban is refused; made a moderator, ban, mute, rename and view work,
    and the view shows the log newest first."""
    url = server.url
    mod, bob = tmp_path / "mod", tmp_path / "bob"
    for name, where in (("Mod", mod), ("Bob", bob)):
        status, _ = await run(
            monkeypatch, capsys, "account", url, "register", name, "--password-stdin",
            "--data-dir", str(where), stdin="sesame1234\n",
        )  # fmt: skip
        assert status == 0
    common = ("--server", url, "--data-dir", str(mod))
    status, out = await run(monkeypatch, capsys, "admin", "ban", "Bob", *common)
    assert status == 1 and "Only moderators and admins may do that" in out
    await grant(server.store, "Mod", "moderator")
    status, out = await run(
        monkeypatch, capsys, "admin", "mute", "Bob", *common, "--minutes", "30", "--reason", "spam"
    )
    assert status == 0 and out.startswith("Bob is muted until ")
    status, out = await run(monkeypatch, capsys, "admin", "rename", "Bob", "Robert", *common)
    assert status == 0 and out.strip() == "Bob is now called Robert"
    status, out = await run(
        monkeypatch, capsys, "admin", "ban", "Robert", *common, "--reason", "abuse"
    )
    assert status == 0 and out.strip() == "Robert is banned for good"
    status, out = await run(monkeypatch, capsys, "admin", "view", *common)
    assert status == 0
    log = out.split("The moderation log, newest first:\n", 1)[1].splitlines()
    assert [line.split()[3] for line in log[:3]] == ["ban", "rename", "mute"]
    assert "ban  Robert" in out and "mute Robert" in out
