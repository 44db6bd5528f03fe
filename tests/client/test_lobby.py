"""The lobby of a remote server: create a room, a friend joins by code, someone watches."""

from __future__ import annotations

import asyncio
import io

import pytest
from harness import plain, real_server, until

from muggins.client.app import MugginsApp
from muggins.client.lobby import LobbyScreen
from muggins.client.plain import PlainClient
from muggins.client.session import Goal
from muggins.client.widgets.table import PlayArea
from muggins.shared.protocol import Spectate


async def test_create_room_then_friend_joins_by_code_and_someone_watches(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """Creating a room shows its code and the friend's exact command; a second player joining
    with that code starts the game on both sides; a spectator sees the table but no hand."""
    monkeypatch.setenv("MUGGINS_DEV", "/srv/muggins/dev")  # as ./dev play sets it
    async with real_server() as server:
        app = MugginsApp(url=server.url, name="Ann", goal=Goal("lobby"), hint=False)
        async with app.run_test(size=(120, 40)) as pilot:
            await until(pilot, lambda: isinstance(app.screen, LobbyScreen) and app.session.token)
            await pilot.click("#create")
            await until(pilot, lambda: app.session.room is not None)
            room = app.session.room
            assert room is not None and room.status == "waiting"
            waiting = plain(app.query_one("#waiting"), 100)
            assert f"/srv/muggins/dev play {server.url} --join {room.code}" in waiting

            friend_out, watcher_out = io.StringIO(), io.StringIO()
            friend = PlainClient(
                url=server.url, name="Bea", goal=Goal("join", code=room.code), out=friend_out
            )
            watcher = PlainClient(
                url=server.url, name="Cy", goal=Goal("spectate", code=room.code), out=watcher_out
            )
            friend_lines: asyncio.Queue[str | None] = asyncio.Queue()
            watcher_lines: asyncio.Queue[str | None] = asyncio.Queue()
            tasks = [
                asyncio.create_task(friend.run(friend_lines)),
                asyncio.create_task(watcher.run(watcher_lines)),
            ]
            await until(pilot, lambda: app.session.view is not None and friend.session.view)
            await until(pilot, lambda: watcher.session.view is not None)
            assert app.session.names == ("Ann", "Bea")
            assert "Bea connected" in app.session.opponent_status()
            assert app.query_one("#middle").current == "play"  # type: ignore[attr-defined]
            assert "Bea's hand" in plain(app.query_one(PlayArea))
            spectator_view = watcher.session.view
            assert spectator_view is not None and spectator_view.hand == ()
            assert watcher.session.seat is None

            await friend_lines.put("say hello Ann")
            await until(pilot, lambda: any("hello Ann" in line for line in app.session.log))

            await friend_lines.put(None)
            await until(pilot, lambda: "DISCONNECTED" in app.session.opponent_status(), timeout=10)
            await watcher_lines.put(None)
            await asyncio.wait_for(asyncio.gather(*tasks), 10)
        assert f"= room {room.code} (playing): Ann vs you" in friend_out.getvalue()


async def test_claim_the_game_when_the_opponent_stays_away() -> None:
    """When the friend drops and the grace period passes, the status says so and W wins."""
    from muggins.client.screens import GameOverScreen

    async with real_server(grace=0.3) as server:
        app = MugginsApp(url=server.url, name="Ann", goal=Goal("lobby"), hint=False)
        async with app.run_test(size=(120, 40)) as pilot:
            await until(pilot, lambda: isinstance(app.screen, LobbyScreen) and app.session.token)
            await pilot.click("#create")
            await until(pilot, lambda: app.session.room is not None)
            room = app.session.room
            assert room is not None
            friend = PlainClient(
                url=server.url, name="Bea", goal=Goal("join", code=room.code), out=io.StringIO()
            )
            lines: asyncio.Queue[str | None] = asyncio.Queue()
            task = asyncio.create_task(friend.run(lines))
            await until(pilot, lambda: friend.session.view is not None)
            await lines.put(None)
            await asyncio.wait_for(task, 10)
            await until(pilot, lambda: "you may claim the game: W" in app.session.opponent_status())
            await pilot.press("w")
            await until(pilot, lambda: isinstance(app.screen, GameOverScreen))
            over = app.session.game_over
            assert over is not None and over.outcome.winner == 0
            assert over.outcome.reason == "resign"


async def test_watching_shows_no_hidden_card() -> None:
    """A spectator's table shows both hands face down and says it is watching."""
    from muggins.client.widgets.hand import Hand

    async with real_server() as server:
        host = PlainClient(
            url=server.url, name="Ann", goal=Goal("computer", level="easy"), out=io.StringIO()
        )
        lines: asyncio.Queue[str | None] = asyncio.Queue()
        task = asyncio.create_task(host.run(lines))
        try:
            app = MugginsApp(url=server.url, name="Cy", goal=Goal("lobby"), hint=False)
            async with app.run_test(size=(120, 40)) as pilot:
                await until(pilot, lambda: host.session.room is not None and app.session.token)
                room = host.session.room
                assert room is not None
                app.send(Spectate(code=room.code))
                await until(
                    pilot,
                    lambda: (
                        app.session.view is not None and not isinstance(app.screen, LobbyScreen)
                    ),
                )
                hand = app.query_one(Hand)
                assert hand.cards == () and hand.hidden == 6
                assert "(you are watching)" in str(hand.border_title)
                area = plain(app.query_one(PlayArea))
                assert "░" in area and "You are watching" in plain(app.query_one("#match"))
        finally:
            await lines.put(None)
            await asyncio.wait_for(task, 10)


async def test_play_a_rated_game_pairs_two_signed_in_players() -> None:
    """The lobby's "Play a rated game" and a plain client's --rated land in one rated room."""
    from muggins.client.accounts import Link
    from muggins.shared.protocol.accounts import Account, Register

    async with real_server() as server:
        sessions = {}
        for name in ("Ann", "Bea"):
            async with Link(server.url) as link:
                made = await link.ask(Register(name=name, password="long enough"))
                assert isinstance(made, Account) and made.session
                sessions[name] = made.session
        app = MugginsApp(
            url=server.url, name="Ann", goal=Goal("lobby", session=sessions["Ann"]), hint=False
        )
        async with app.run_test(size=(120, 40)) as pilot:
            await until(
                pilot, lambda: isinstance(app.screen, LobbyScreen) and app.session.signed_in
            )
            await pilot.click("#rated")
            await until(pilot, lambda: any("rated opponent" in line for line in app.session.log))
            friend = PlainClient(
                url=server.url,
                name="Bea",
                goal=Goal("seek", session=sessions["Bea"]),
                out=io.StringIO(),
            )
            lines: asyncio.Queue[str | None] = asyncio.Queue()
            task = asyncio.create_task(friend.run(lines))
            await until(pilot, lambda: app.session.view is not None, timeout=10)
            room = app.session.room
            assert room is not None and room.options.rated
            assert {s.name for s in room.seats} == {"Ann", "Bea"}
            await lines.put(None)
            await task


async def test_the_friends_command_names_the_servers_public_address(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """Behind a public address, the waiting room (and the plain client's line) give the friend
    the command with that address's wss:// twin, not the address this client used."""
    monkeypatch.setenv("MUGGINS_DEV", "/srv/muggins/dev")
    async with real_server(public_url="https://cribbage.example") as server:
        app = MugginsApp(url=server.url, name="Ann", goal=Goal("lobby"), hint=False)
        async with app.run_test(size=(120, 40)) as pilot:
            await until(pilot, lambda: isinstance(app.screen, LobbyScreen) and app.session.token)
            await pilot.click("#create")
            await until(pilot, lambda: app.session.room is not None)
            room = app.session.room
            assert room is not None
            waiting = plain(app.query_one("#waiting"), 100)
            assert f"/srv/muggins/dev play wss://cribbage.example --join {room.code}" in waiting
        out = io.StringIO()
        client = PlainClient(url=server.url, name="Bo", goal=Goal("lobby"), out=out)
        lines: asyncio.Queue[str | None] = asyncio.Queue()
        task = asyncio.create_task(client.run(lines))

        async def said(words: str) -> None:
            while words not in out.getvalue():
                await asyncio.sleep(0.02)

        await asyncio.wait_for(said("* connected as Bo"), 10)
        await lines.put("create")
        await asyncio.wait_for(said("a friend joins with"), 10)
        await lines.put(None)
        await asyncio.wait_for(task, 10)
        assert "play wss://cribbage.example --join " in out.getvalue()
