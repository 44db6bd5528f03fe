"""The client rides out a server restart: it reconnects on its own and resumes its seat."""

from __future__ import annotations

from dataclasses import replace
from pathlib import Path

from harness import computer_app, make_move, my_move, plain, until

from client.app import MugginsApp
from server.app import Server
from server.config import ServerConfig


def status_text(app: MugginsApp) -> str:
    return plain(app.query_one("#status"), 200)


async def test_client_resumes_after_server_restart(tmp_path: Path) -> None:
    """Stop the server mid-deal (clients get 1012), start a new one on the same database and
    port: the client shows "reconnecting…", then carries on with the same seat and cards."""
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
