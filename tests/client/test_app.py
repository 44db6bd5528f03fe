"""The full-screen client driven through whole games against the computer on a real server."""

from __future__ import annotations

from harness import (
    computer_app,
    make_move,
    my_move,
    plain,
    real_server,
    record_events,
    status_line,
    until,
)

from muggins.client.app import MugginsApp
from muggins.client.screens import GameOverScreen
from muggins.client.widgets.hand import Hand
from muggins.client.widgets.pegboard import BACK, FRONT, Pegboard
from muggins.client.widgets.show import ShowResults
from muggins.client.widgets.table import PlayArea
from muggins.shared.actions import CardPlayed, GameOptions
from muggins.shared.protocol import RoomOptions

STREET, GROUP = 30, 5


def pegs_shown(text: str, target: int) -> list[tuple[set[int], set[int]]]:
    """Read the drawn board: for the top row (opponent) and bottom row (you), the holes holding
    a front peg and a back peg. 0 is the start hole, ``target`` the game hole."""
    lines = text.splitlines()[2:]
    streets = (target - 1) // STREET
    found: list[tuple[set[int], set[int]]] = [(set(), set()), (set(), set())]
    for street in range(streets):
        holes = list(range(street * STREET + 1, (street + 1) * STREET + 1))
        if street % 2:
            holes.reverse()
        for row in (0, 1):
            line = lines[street * 2 + row]
            cells = {holes[i]: line[7 + 2 * i + i // GROUP] for i in range(STREET)}
            if street == 0:
                cells[0] = line[5]
            if street == streets - 1:
                cells[target] = line[5]
            for hole, glyph in cells.items():
                if glyph == FRONT:
                    found[row][0].add(hole)
                elif glyph == BACK:
                    found[row][1].add(hole)
    return found


def check_table(app: MugginsApp, events: list[CardPlayed]) -> None:
    """What the widgets show matches the latest view and events."""
    view = app.session.view
    assert view is not None and view.seat is not None
    board = app.query_one(Pegboard)
    shown = pegs_shown(plain(board, board.size.width), view.options.target)
    for row, seat in enumerate((1 - view.seat, view.seat)):
        front = min(view.scores[seat], view.options.target)
        back = min(view.previous_scores[seat], view.options.target)
        assert shown[row] == ({front}, {back} - {front}), (seat, view.scores, view.previous_scores)
    area = plain(app.query_one(PlayArea))
    if view.phase == "play" and view.pile:
        assert f"count {view.count:>2}" in area
        assert events and events[-1].spoken in area
    hand = app.query_one(Hand)
    assert hand.cards == view.hand
    if view.phase == "play":
        assert hand.dimmed == {c for c in view.hand if view.count + c.value > 31}
    if app._reviewable() and view.last_deal is not None:
        show = plain(app.query_one(ShowResults), 120)
        for result in view.last_deal.show:
            assert " ".join(result.spoken.split()[:3]) in " ".join(show.split())
            assert f"{result.total:>3} point" in show


async def play_out(app: MugginsApp, *, max_moves: int = 400) -> int:
    """Play the match to its end through the keys, checking the table before each move."""
    events = record_events(app)
    async with app.run_test(size=(120, 40)) as pilot:
        await until(pilot, lambda: app.session.view is not None)
        moves = 0
        while app.session.game_over is None or not app.session.game_over.match_over:
            await until(pilot, lambda: my_move(app) or app.session.game_over is not None)
            if app.session.game_over is not None and app.session.game_over.match_over:
                break
            played = [e.event for e in events if isinstance(e.event, CardPlayed)]
            if isinstance(app.screen, GameOverScreen):
                await pilot.press("enter")
            check_table(app, played)
            await make_move(app, pilot)
            assert not app.error, app.error
            moves += 1
            assert moves < max_moves
        await until(pilot, lambda: isinstance(app.screen, GameOverScreen))
        over = app.session.game_over
        assert over is not None
        screen_text = " ".join(str(s.render()) for s in app.screen.query("Static"))
        assert (over.winner in screen_text) or ("You win" in screen_text)
        assert ("SKUNK" in screen_text) == (over.outcome.skunk or over.outcome.double_skunk)
        assert all(f.ok for f in app.session.fairness) and app.session.fairness
        return moves


async def test_full_game_to_121_against_the_strongest_computer() -> None:
    """A whole game to 121 through a real server: pegs, count, calls and show are drawn right."""
    async with real_server() as server:
        app = computer_app(server.url)
        moves = await play_out(app)
        assert moves > 20
        assert app.session.room is not None
        assert app.session.room.seats[1].kind == "bot"


async def test_muggins_game_to_61_with_own_counts() -> None:
    """In muggins mode the player types each count into the show panel and the game finishes."""
    options = RoomOptions(game=GameOptions(target=61, muggins=True), private=True)
    async with real_server() as server:
        app = computer_app(server.url, level="easy", options=options)
        await play_out(app)
        claims = [line for line in app.session.log if " counts " in line]
        assert claims


async def test_hint_key_selects_the_coachs_cards() -> None:
    """H asks the coach: its discard is chosen in the hand and its reason is shown."""
    from fakelink import FakeLink

    from muggins.client.session import Goal
    from muggins.shared.bots.coach import advise

    app = MugginsApp(url="ws://127.0.0.1:1", name="Ann", goal=Goal("computer"))
    app.link = FakeLink(app.post_server_message, seed=3)
    async with app.run_test(size=(120, 40)) as pilot:
        await until(pilot, lambda: app.session.view is not None)
        view = app.session.view
        assert view is not None
        advice = advise(view)
        await pilot.press("h")
        hand = app.query_one(Hand)
        assert hand.chosen() == advice.action.cards  # type: ignore[union-attr]
        assert any(advice.explanation in str(n.message) for n in app._notifications)


async def test_resign_needs_confirming_then_rematch_and_restart() -> None:
    """R asks first (N keeps playing); R then Y resigns and the game-over screen offers a
    rematch; R there starts a new match. N then Y restarts against the computer at once."""
    from muggins.client.screens import ConfirmScreen

    async with real_server() as server:
        app = computer_app(server.url, level="easy")
        async with app.run_test(size=(120, 40)) as pilot:
            await until(pilot, lambda: my_move(app))
            await pilot.press("r")
            assert isinstance(app.screen, ConfirmScreen)
            await pilot.press("n")
            assert not isinstance(app.screen, ConfirmScreen)
            assert app.session.game_over is None
            await pilot.press("r", "y")
            await until(pilot, lambda: isinstance(app.screen, GameOverScreen))
            text = " ".join(str(s.render()) for s in app.screen.query("Static"))
            assert "by resignation" in text and "R: rematch" in text
            room = app.session.room
            assert room is not None
            first = room.match_number
            await pilot.press("r")
            await until(
                pilot,
                lambda: (
                    app.session.room is not None
                    and app.session.room.match_number == first + 1
                    and my_move(app)
                ),
            )
            view = app.session.view
            assert view is not None and view.scores == (0, 0) and view.phase == "discard"
            await pilot.press("n", "y")
            await until(
                pilot,
                lambda: app.session.room is not None and app.session.room.match_number == first + 2,
            )


async def test_a_refused_card_shows_the_servers_sentence() -> None:
    """Choosing a dimmed card and pressing Enter is refused with the server's own sentence."""
    from fakelink import FakeLink

    from muggins.client.prompts import unplayable
    from muggins.client.session import Goal

    app = MugginsApp(url="ws://127.0.0.1:1", name="Ann", goal=Goal("computer"), hint=False)
    app.link = FakeLink(app.post_server_message, seed=5)
    async with app.run_test(size=(120, 40)) as pilot:
        await until(pilot, lambda: app.session.view is not None)
        for _ in range(300):
            view = app.session.view
            assert view is not None
            if view.phase == "play" and my_move(app) and unplayable(view):
                break
            await make_move(app, pilot)
        else:
            raise AssertionError("no unplayable card came up")
        card = sorted(unplayable(view))[0]
        await pilot.press(str(view.hand.index(card) + 1), "enter")
        await until(pilot, lambda: app.error)
        sentence = f"{card.pretty} would take the count past 31 (the count is {view.count})"
        assert app.error == sentence
        assert sentence in status_line(app)


async def test_a_count_no_hand_can_make_is_refused_in_words_and_q_still_quits() -> None:
    """Typing 30 in the count box does not end the client: the status line says why, the box is
    emptied and keeps focus; Q asks to quit from the box; the true count then goes through."""
    from textual.widgets import Input

    from muggins.client.prompts import show_prompt
    from muggins.client.screens import ConfirmScreen

    options = RoomOptions(game=GameOptions(target=61, muggins=True), private=True)
    async with real_server() as server:
        app = computer_app(server.url, level="easy", options=options)
        async with app.run_test(size=(120, 40)) as pilot:
            await until(pilot, lambda: my_move(app))
            while show_prompt(app.session.view) != "count":
                await make_move(app, pilot)
                await until(pilot, lambda: my_move(app))
            box = app.query_one("#count", Input)
            await until(pilot, lambda: app.focused is box)
            await pilot.press("3", "0", "enter")
            await until(pilot, lambda: app.error)
            assert app.error == "No hand or crib makes 30: a count is 0 to 29"
            assert box.value == "" and app.focused is box and app.is_running
            await pilot.press("q")
            assert isinstance(app.screen, ConfirmScreen)
            await pilot.press("escape")
            await until(pilot, lambda: app.focused is box)
            view = app.session.view
            assert view is not None
            await make_move(app, pilot)
            assert not app.error


async def test_r_on_the_table_after_a_finished_match_is_a_rematch() -> None:
    """Once the match is over and its dialog is closed, the prompt's "R for a rematch" holds:
    R starts the next match (it does not open Resign, whose Y did nothing)."""
    from muggins.client.screens import ConfirmScreen

    async with real_server() as server:
        app = computer_app(server.url, level="easy")
        async with app.run_test(size=(120, 40)) as pilot:
            await until(pilot, lambda: my_move(app))
            await pilot.press("r", "y")
            await until(pilot, lambda: isinstance(app.screen, GameOverScreen))
            await pilot.press("escape")
            await until(pilot, lambda: not isinstance(app.screen, GameOverScreen))
            assert "R for a rematch" in status_line(app)
            room = app.session.room
            assert room is not None
            first = room.match_number
            await pilot.press("r")
            assert not isinstance(app.screen, ConfirmScreen)
            await until(
                pilot,
                lambda: app.session.room is not None and app.session.room.match_number == first + 1,
            )
