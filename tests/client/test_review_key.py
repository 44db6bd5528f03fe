"""The game-over screen's review key: the coach's review of the game just played."""

from __future__ import annotations

from harness import computer_app, make_move, my_move, real_server, until

from muggins.client.screens import GameOverScreen, ReviewScreen
from muggins.shared.actions import GameOptions
from muggins.shared.protocol import RoomOptions


async def test_v_on_the_game_over_screen_reviews_the_game() -> None:
    """After a game to 61, V shows each of the player's decisions against the expert's."""
    options = RoomOptions(game=GameOptions(target=61), private=True)
    async with real_server() as server:
        app = computer_app(server.url, level="easy", options=options)
        async with app.run_test(size=(120, 40)) as pilot:
            await until(pilot, lambda: app.session.view is not None)
            moves = 0
            while app.session.game_over is None:
                await until(pilot, lambda: my_move(app) or app.session.game_over is not None)
                if app.session.game_over is None:
                    await make_move(app, pilot)
                    moves += 1
                    assert moves < 400
            await until(pilot, lambda: isinstance(app.screen, GameOverScreen))
            await pilot.press("v")
            await until(pilot, lambda: isinstance(app.screen, ReviewScreen))
            assert isinstance(app.screen, ReviewScreen)
            text = app.screen.text
            assert text.startswith("Review of game 1: Ann (seat")
            assert "discard" in text and "Points given away: discards" in text
            await pilot.press("escape")
            await until(pilot, lambda: not isinstance(app.screen, ReviewScreen))
