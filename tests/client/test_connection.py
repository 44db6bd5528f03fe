"""The client rides out a server restart: it reconnects on its own and resumes its seat."""

from __future__ import annotations

from dataclasses import replace
from pathlib import Path

from harness import computer_app, make_move, my_move, status_line, until

from muggins.client.app import MugginsApp
from muggins.server.app import Server
from muggins.server.config import ServerConfig


def status_text(app: MugginsApp) -> str:
    return status_line(app)


async def test_client_resumes_after_server_restart(tmp_path: Path) -> None:
    """Stop the server mid-deal (clients get 1012), start a new one on the same database and
    port: the client shows "reconnecting…", connects again naming its room in the URL, then
    carries on with the same seat and cards."""
    config = ServerConfig(port=0, db=tmp_path / "games.sqlite3", bot_delay=0.0)
    server = Server(config)
    await server.start()
    app = computer_app(server.url)
    try:
        async with app.run_test(size=(120, 40)) as pilot:
            await until(pilot, lambda: my_move(app))
            await make_move(app, pilot)
            await until(pilot, lambda: my_move(app))
            await make_move(app, pilot)
            await until(pilot, lambda: my_move(app))
            before = app.session.view
            assert before is not None and before.phase == "play"
            token = app.link.token

            port = server.port
            await server.stop()
            await until(pilot, lambda: "reconnecting" in status_text(app))
            assert "Traceback" not in status_text(app)

            server = Server(replace(config, port=port))
            await server.start()
            await until(pilot, lambda: app.link_status.state == "connected", timeout=15)
            # The new connection names its room, for a cluster's proxy to route it by.
            assert app.session.room is not None
            paths = [ws.request.path for ws in server.connections if ws.request is not None]
            assert paths == [f"/?room={app.session.room.code}"]
            await until(pilot, lambda: my_move(app))
            after = app.session.view
            assert after is not None
            assert (after.hand, after.scores, after.pile) == (
                before.hand,
                before.scores,
                before.pile,
            )
            assert app.session.seat == 0 and app.link.token is not None
            assert "reconnecting" not in status_text(app)
            deal = after.deal_number
            while app.session.view is not None and app.session.view.deal_number == deal:
                await make_move(app, pilot)
                await until(pilot, lambda: my_move(app))
            assert not app.error
            assert token is not None
    finally:
        await server.stop()


async def test_a_spectator_watches_on_after_a_server_restart_without_a_false_alarm(
    tmp_path: Path,
) -> None:
    """Restart the server under a spectator: it reconnects, watches the same room again and is
    not told the table "could not be resumed"; it never holds a seat."""
    import asyncio
    import io

    from muggins.client.plain import PlainClient
    from muggins.client.session import Goal

    config = ServerConfig(port=0, db=tmp_path / "games.sqlite3", bot_delay=0.0)
    server = Server(config)
    await server.start()
    host = PlainClient(
        url=server.url, name="Ann", goal=Goal("computer", level="easy"), out=io.StringIO()
    )
    host_lines: asyncio.Queue[str | None] = asyncio.Queue()
    host_task = asyncio.create_task(host.run(host_lines))
    watcher_lines: asyncio.Queue[str | None] = asyncio.Queue()
    watcher_task = None
    try:
        loop = asyncio.get_running_loop()

        async def wait(check: object) -> None:
            deadline = loop.time() + 30
            while not check():  # type: ignore[operator]
                assert loop.time() < deadline, "timed out"
                await asyncio.sleep(0.02)

        await wait(lambda: host.session.room is not None and host.session.view is not None)
        room = host.session.room
        assert room is not None
        watcher = PlainClient(
            url=server.url, name="Cy", goal=Goal("spectate", code=room.code), out=io.StringIO()
        )
        watcher_task = asyncio.create_task(watcher.run(watcher_lines))
        await wait(lambda: watcher.session.view is not None)
        port = server.port
        await server.stop()
        await wait(lambda: not watcher.link.connected)
        server = Server(replace(config, port=port))
        await server.start()
        restarted = server
        await wait(
            lambda: (
                watcher.link.connected
                and room.code in restarted.lobby.rooms
                and len(restarted.lobby.rooms[room.code].spectators) == 1
            )
        )
        assert [m.type for m in watcher.sent].count("spectate") == 2
        assert watcher.session.room is not None and watcher.session.room.you is None
        assert not any("could not be resumed" in line for line in watcher.session.log)
    finally:
        await host_lines.put(None)
        await asyncio.wait_for(host_task, 10)
        if watcher_task is not None:
            await watcher_lines.put(None)
            await asyncio.wait_for(watcher_task, 10)
        await server.stop()
