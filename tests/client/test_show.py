"""The show in muggins mode: the opponent's claim and the keys to answer it are on the table."""

from __future__ import annotations

import asyncio
import html
import io
import re

import pytest
from harness import STEP, computer_app, make_move, my_move, real_server, until
from stacked import discard, play_all, stacked_match
from textual.widgets import Static

from muggins.client.app import MugginsApp
from muggins.client.connection import Connection
from muggins.client.plain import PlainClient
from muggins.client.prompts import pending_claim, show_prompt
from muggins.client.session import Goal
from muggins.client.widgets.show import ShowPanel, ShowResults
from muggins.shared.actions import Accept, Count, GameOptions
from muggins.shared.match import Match
from muggins.shared.protocol import RoomOptions

OPTIONS = RoomOptions(game=GameOptions(target=121, muggins=True), private=True)


def rendered(widget: Static | ShowResults) -> str:
    return str(widget.render())


def screen_text(app: MugginsApp) -> str:
    """What the terminal shows now, as text (from the app's own screenshot)."""
    svg = app.export_screenshot()
    text = re.sub(r"<[^>]+>", "", svg.replace("</text>", "</text>\x00"))
    return html.unescape(text).replace("\xa0", " ").replace("\x00", "")


async def claim_waiting_for_ann(url: str) -> str:
    """Play against the expert until its claim waits for Ann's answer; return her token."""
    app = computer_app(url, level="expert", options=OPTIONS)
    async with app.run_test(size=(120, 40)) as pilot:
        await until(pilot, lambda: app.session.view is not None)
        for _ in range(200):
            await until(pilot, lambda: my_move(app))
            if show_prompt(app.session.view) == "answer":
                break
            await make_move(app, pilot)
        else:
            raise AssertionError("the computer never counted a hand")
        assert any(" counts " in line for line in app.session.log)
        token = app.link.token
    assert token is not None
    return token


@pytest.mark.parametrize("size", [(120, 40), (80, 24)])
async def test_the_claim_and_the_keys_are_on_the_table_after_a_resume(
    size: tuple[int, int],
) -> None:
    """A resumed client (empty log) shows the computer's claim on its hand and in the prompt,
    with what A, M and X do, visible at 120x40 and 80x24; X challenges and the result is shown."""
    async with real_server() as server:
        token = await claim_waiting_for_ann(server.url)
        app = MugginsApp(url=server.url, name="Ann", goal=Goal("computer"), hint=False)
        app.link = Connection(
            server.url,
            name="Ann",
            token=token,
            on_message=app.post_server_message,
            on_status=app.post_link_status,
        )
        async with app.run_test(size=size) as pilot:
            await until(pilot, lambda: show_prompt(app.session.view) == "answer")
            await pilot.pause()
            view = app.session.view
            assert view is not None
            claim = pending_claim(view.show)
            assert claim is not None and claim.seat != view.seat
            assert not any(" counts " in line for line in app.session.log)  # nothing in the log
            said = f"Computer (expert) counts {claim.claimed} for the {claim.kind}"
            prompt = app.query_one("#show-prompt", Static)
            text = rendered(prompt)
            assert said in text
            for key in (
                " A  accept – ",
                " M  Muggins! – it is short",
                " X  challenge – it is over",
            ):
                assert key in text, text
            assert "A wrong call gives Computer (expert) 2 points" in text
            assert f"counts {claim.claimed:>2} unanswered" in rendered(app.query_one(ShowResults))
            # The table is drawn on the next refresh (later on a busy machine): wait for it.
            unanswered = f"counts {claim.claimed:>2} unanswered"
            await until(pilot, lambda: unanswered in screen_text(app))  # on the hand
            on_screen = screen_text(app)
            for key in (" A  accept – ", " M  Muggins! – it is short", " X  challenge – it is"):
                assert key in on_screen, on_screen  # the keys, on screen, not scrolled away
            status = rendered(app.query_one("#status", Static))
            assert status.startswith(said)
            at = len(view.show) - 1
            await pilot.press("x")  # the expert counts exactly: a wrong challenge
            await until(pilot, lambda: app.query_one(ShowPanel).state.results[at].answer)
            await pilot.pause()
            note = rendered(app.query_one(ShowResults))
            assert "you challenged wrongly, Computer (expert) pegged 2 more" in note
            assert app.query_one(ShowPanel).state.results[at].penalty == 2


async def printed(out: io.StringIO, text: str, timeout: float = 30.0) -> None:
    loop = asyncio.get_running_loop()
    deadline = loop.time() + timeout
    while text not in out.getvalue():
        assert loop.time() < deadline, f"{text!r} never printed: {out.getvalue()[-2000:]}"
        await asyncio.sleep(STEP)


async def test_plain_mode_prints_the_claim_and_the_answers() -> None:
    """--plain: the claim and the three answers are printed with the prompt; challenge works."""
    async with real_server() as server:
        token = await claim_waiting_for_ann(server.url)
        out = io.StringIO()
        client = PlainClient(url=server.url, name="Ann", goal=Goal("computer"), out=out)
        client.link = Connection(
            server.url,
            name="Ann",
            token=token,
            on_message=client.on_message,
            on_status=client.on_status,
        )
        lines: asyncio.Queue[str | None] = asyncio.Queue()
        task = asyncio.create_task(client.run(lines))
        await printed(out, "[accept, muggins or challenge]")
        view = client.session.view
        assert view is not None
        claim = pending_claim(view.show)
        assert claim is not None
        await lines.put("challenge")
        await printed(out, "challenges the count")
        await lines.put(None)
        assert await asyncio.wait_for(task, 10) == 0
    text = out.getvalue()
    said = f"Computer (expert) counts {claim.claimed} for the {claim.kind}"
    assert f"| {said}" in text
    assert "|   accept: " in text and "|   muggins: it is short" in text
    assert "|   challenge: it is over" in text
    assert f"> The show: {said}: accept it, call Muggins! if it is short" in text
    assert "but the count of" in text  # the expert's count was right: a wrong challenge


def crib_claimed() -> Match:
    """Ann (seat 0) is pone; both hands are settled and the computer claims 8 for its crib
    (which makes 6): the claim waiting for Ann is the third and last hand of the show."""
    match = stacked_match(
        dealer=1,
        dealer_cards="5S 4S 2S 8D 6H 8C",
        pone_cards="10S 6D JH 4H KC 7C",
        starter="5H",
        options=GameOptions(muggins=True),
    )
    discard(match, 1, "8D 8C")
    discard(match, 0, "10S KC")
    play_all(match, [(0, "JH"), (1, "5S"), (0, "7C"), (1, "6H")])
    play_all(match, [(1, "2S"), (0, "6D"), (1, "4S"), (0, "4H")])
    for seat, action in ((0, Count(points=9)), (1, Accept()), (1, Count(points=12))):
        match.apply(seat, action)
    match.apply(0, Accept())
    match.apply(1, Count(points=8))
    return match


async def test_the_keys_stay_in_view_when_the_crib_is_claimed_on_a_small_screen() -> None:
    """80x24, the last of three hands claimed: the table scrolls to it, and the claim and the
    keys are on screen; M (muggins on an over-count) is a wrong call that costs Ann 2."""
    from fakelink import FakeLink

    app = MugginsApp(url="ws://127.0.0.1:1", name="Ann", goal=Goal("computer"), hint=False)
    link = FakeLink(app.post_server_message, options=GameOptions(muggins=True))
    link.match = crib_claimed()
    app.link = link
    async with app.run_test(size=(80, 24)) as pilot:
        await until(pilot, lambda: show_prompt(app.session.view) == "answer")
        await until(pilot, lambda: "counts  8 unanswered" in screen_text(app))  # (once drawn)
        on_screen = screen_text(app)
        assert "Computer counts 8 for the crib." in on_screen
        for key in (" A  accept – ", " M  Muggins! – it is short", " X  challenge – it is"):
            assert key in on_screen, on_screen
        await pilot.press("m")
        await until(pilot, lambda: app.session.view and app.session.view.deal_number == 2)
        [crib] = [r for r in link.match.view(0).last_deal.show if r.kind == "crib"]  # type: ignore[union-attr]
        assert (crib.claimed, crib.total, crib.answer, crib.penalty) == (8, 6, "muggins", 2)


def own_crib_to_count() -> Match:
    """Ann (seat 0) deals; the computer's hand was counted 2 over and challenged, Ann's own
    hand counted 2 short and mugged: what is left is Ann's crib (10S KC 8D 8C, 5H: six)."""
    from muggins.shared.actions import Challenge, Muggins

    match = stacked_match(
        dealer=0,
        dealer_cards="10S 6D JH 4H KC 7C",
        pone_cards="5S 4S 2S 8D 6H 8C",
        starter="5H",
        options=GameOptions(muggins=True),
    )
    discard(match, 1, "8D 8C")
    discard(match, 0, "10S KC")
    play_all(match, [(1, "5S"), (0, "JH"), (1, "6H"), (0, "7C"), (1, "2S")])
    play_all(match, [(0, "6D"), (1, "4S"), (0, "4H")])
    for seat, action in (
        (1, Count(points=14)),
        (0, Challenge()),
        (0, Count(points=3)),
        (1, Muggins()),
    ):
        match.apply(seat, action)
    return match


async def test_a_spectator_sees_each_newly_settled_count_without_scrolling() -> None:
    """A spectator is never asked anything, yet each new result of the show (here the crib
    counted 2 over and accepted) is scrolled into view as it arrives, with how it was settled."""
    from textual.app import App, ComposeResult
    from textual.containers import VerticalScroll

    from muggins.client.widgets.show import ShowState

    class Table(App[None]):
        def compose(self) -> ComposeResult:
            yield ShowPanel(id="show")

    match = own_crib_to_count()
    names = ("Ann", "Computer")
    steps = [match.view(None).show]
    match.apply(0, Count(points=8))
    steps.append(match.view(None).show)
    match.apply(1, Accept())
    last = match.view(None).last_deal
    assert last is not None
    steps.append(last.show)
    app = Table()
    async with app.run_test(size=(84, 12)) as pilot:
        panel = app.query_one(ShowPanel)
        for results in steps:
            panel.state = ShowState(results=results, names=names, you=None, title="The show")
            await pilot.pause()
            await pilot.pause()
        scroll = app.query_one("#show-results", VerticalScroll)
        assert scroll.max_scroll_y > 0
        assert scroll.scroll_y == scroll.max_scroll_y, (scroll.scroll_y, scroll.max_scroll_y)
        on_screen = screen_text(app)  # type: ignore[arg-type]
        assert "counted 8, accepted: 8 pegged" in on_screen, on_screen


async def test_a_spectator_goes_on_from_the_show_with_enter() -> None:
    """A spectator, who has no cards to lay away or play, leaves the last deal's show with
    Enter and sees the new deal's play, as a player does (Enter used to answer "It is not your
    move" and keep the old show on the table for the rest of the deal)."""
    import random

    from textual.widgets import ContentSwitcher
    from wire_client import WireClient

    async with real_server() as server:
        ann = await WireClient.open(server.url, name="Ann")
        room = await ann.request(type="create_room", options={"private": True})
        code = room["code"]
        await ann.request(type="seat_bot", level="easy")
        rng = random.Random(3)

        async def ann_plays_one_deal() -> None:
            while True:
                view = ann.state["view"] if ann.state else None
                if view and view["deal_number"] >= 2:
                    return
                if ann.my_turn():
                    assert view is not None
                    await ann.send(**rng.choice(view["legal"]))
                await ann.recv()

        app = MugginsApp(url=server.url, name="Cy", goal=Goal("spectate", code=code), hint=False)
        async with app.run_test(size=(120, 40)) as pilot:
            await until(pilot, lambda: app.session.view is not None)
            assert app.session.seat is None
            await asyncio.wait_for(ann_plays_one_deal(), 60)
            switcher = app.query_one("#middle", ContentSwitcher)
            await until(pilot, lambda: switcher.current == "show")
            view = app.session.view
            assert view is not None and view.deal_number == 2 and view.phase == "discard"
            await pilot.press("enter")
            await pilot.pause()
            assert switcher.current == "play"
            assert "not your move" not in str(app.query_one("#status", Static).render())
        await ann.close()
