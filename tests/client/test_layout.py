"""The table's layout follows the terminal at once, the show keeps its prompt in view, and
hints do not pile up."""

from __future__ import annotations

from fakelink import FakeLink
from harness import make_move, plain, until
from textual.pilot import Pilot

from muggins.client.app import MugginsApp
from muggins.client.session import Goal
from muggins.client.widgets.pegboard import Pegboard
from muggins.client.widgets.table import PlayArea
from muggins.shared.actions import GameOptions


def fake_app(*, seed: int = 1, options: GameOptions | None = None) -> MugginsApp:
    app = MugginsApp(url="ws://127.0.0.1:8765", name="Ann", goal=Goal("computer"), hint=True)
    app.link = FakeLink(
        app.post_server_message, seed=seed, options=options, on_status=app.post_link_status
    )
    return app


async def mid_deal(app: MugginsApp, pilot: Pilot[None]) -> None:
    await until(pilot, lambda: app.session.view is not None)
    await make_move(app, pilot)  # lay away two
    await make_move(app, pilot)  # play a card
    await pilot.pause()


async def test_resizing_mid_deal_lays_the_table_out_for_the_new_size_at_once() -> None:
    """120x40 -> 80x24 gives the compact table filling the middle at once (no move needed),
    and back to 120x40 gives the full layout again."""
    app = fake_app()
    async with app.run_test(size=(120, 40)) as pilot:
        await mid_deal(app, pilot)
        area = app.query_one(PlayArea)
        assert not area.compact and app.query_one(Pegboard).board.street == 30
        await pilot.resize_terminal(80, 24)
        await pilot.pause()
        await pilot.pause()
        assert area.compact and app.query_one(Pegboard).board.street == 60
        assert area.size.height >= 5, area.size
        assert "count" in plain(area, 80).lower()
        await pilot.resize_terminal(120, 40)
        await pilot.pause()
        await pilot.pause()
        assert not area.compact and app.query_one(Pegboard).board.street == 30
        assert area.size.height >= 12


async def test_pressing_h_again_replaces_the_hint_rather_than_piling_them_up() -> None:
    """Five presses of H leave one coach's note on screen; a move or the game's end clears it."""
    app = fake_app()
    async with app.run_test(size=(120, 40)) as pilot:
        await until(pilot, lambda: app.session.view is not None)
        for _ in range(5):
            await pilot.press("h")
        await pilot.pause()
        assert len(app._notifications) == 1
        await pilot.press("enter")
        await pilot.pause()
        assert len(app._notifications) == 0


async def count_prompt(app: MugginsApp, pilot: Pilot[None]) -> None:
    from muggins.client.prompts import show_prompt

    await until(pilot, lambda: app.session.view is not None)
    while show_prompt(app.session.view) != "count":
        await make_move(app, pilot)
    await pilot.pause()
    await pilot.pause()


async def test_the_count_box_is_on_screen_at_120_by_40_and_80_by_24() -> None:
    """In muggins mode the count box (and its prompt) is drawn inside the visible table at both
    sizes, focused, and the hand being counted is in view above it."""
    from textual.widgets import Input

    for size in ((120, 40), (80, 24)):
        app = fake_app(seed=2, options=GameOptions(target=61, muggins=True))
        async with app.run_test(size=size) as pilot:
            await count_prompt(app, pilot)
            box = app.query_one("#count", Input)
            middle = app.query_one("#middle")
            assert app.focused is box
            region = box.region
            assert region.height >= 1 and middle.region.contains_region(region), (size, region)
            widget, _ = app.screen.get_widget_at(region.x + 1, region.y + region.height // 2)
            assert widget is box, (size, widget)
            results = app.query_one("#show-results")
            await until(pilot, lambda results=results: results.scroll_y == results.max_scroll_y)


async def test_d_in_the_show_lays_out_each_count_part_by_part() -> None:
    """D shows each settled count as muggins score itemises it (what, cards, points); D again
    hides it; the show's heading keeps the play's last call."""
    from muggins.client.widgets.show import ShowResults
    from muggins.shared.scoring import score_hand

    app = fake_app()
    async with app.run_test(size=(120, 40)) as pilot:
        await until(pilot, lambda: app.session.view is not None)
        while not app._reviewable():
            await make_move(app, pilot)
        await pilot.pause()
        view = app.session.view
        assert view is not None and view.last_deal is not None
        first = view.last_deal.show[0]
        lines = score_hand(first.cards, first.starter, crib=first.kind == "crib").itemised()
        results = app.query_one(ShowResults)
        text = results.render().plain  # type: ignore[union-attr]
        assert "last call of the play:" in text and lines[0] not in text
        await pilot.press("d")
        await pilot.pause()
        text = results.render().plain  # type: ignore[union-attr]
        assert all(line in text for line in lines[:-1])
        await pilot.press("d")
        await pilot.pause()
        assert lines[0] not in results.render().plain  # type: ignore[union-attr]


async def test_the_latest_call_is_in_view_on_an_80_by_24_terminal() -> None:
    """On a short screen the compact table fits inside the visible table box, so the newest call
    of the play (the quoted one) is on screen, not the oldest ones with the newest cut off."""
    from muggins.client.widgets.table import PlayArea

    app = fake_app()
    async with app.run_test(size=(80, 24)) as pilot:
        await until(pilot, lambda: app.session.view is not None)
        await make_move(app, pilot)  # lay away two
        area = app.query_one(PlayArea)

        def calls() -> int:
            view = app.session.view
            return len(area.table.announcements) if view and view.phase == "play" else 99

        while calls() < 4:
            await make_move(app, pilot)
        await pilot.pause()
        await pilot.pause()
        view = app.session.view
        assert view is not None and view.phase == "play", view
        middle = app.query_one("#middle")
        assert area.compact
        assert middle.content_region.contains_region(area.region), (middle.region, area.region)
        latest = area.table.announcements[-1]
        visible = "\n".join(plain(area, 80).splitlines()[: middle.content_region.height])
        assert f"“{latest}”" in visible, (latest, visible)


def test_a_spectators_compact_table_names_the_dealers_crib() -> None:
    """80x24, watching: the one-line summary names whose crib it is by the dealer ("Alice's
    crib" while Alice deals), as the full layout does, not the seat drawn at the top."""
    from stacked import stacked_match

    from muggins.client.widgets.table import PlayState

    for dealer, owner in ((0, "Alice's crib"), (1, "Bob's crib")):
        match = stacked_match(
            dealer=dealer,
            dealer_cards="5S 4S 2S 8D 6H 8C",
            pone_cards="10S 6D JH 4H KC 7C",
            starter="5H",
        )
        area = PlayArea()
        area.table = PlayState(view=match.view(None), names=("Alice", "Bob"))
        area.compact = True
        line = area._summary(match.view(None), "Bob", 1).plain
        assert f"{owner}: " in line, line
