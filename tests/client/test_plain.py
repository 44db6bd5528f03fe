"""``--plain`` line mode: a whole game typed as commands, read back as plain lines."""

from __future__ import annotations

import asyncio
import io

from harness import mine, real_server, wait_for

from muggins.client.plain import PlainClient
from muggins.client.prompts import need
from muggins.client.session import Goal
from muggins.shared.actions import Count, GameOptions, Play
from muggins.shared.bots.strength import level_ratings
from muggins.shared.protocol import RoomOptions
from muggins.shared.scoring import score_hand


async def test_plain_mode_plays_a_game_from_typed_commands() -> None:
    """Typed commands (discard 1 2, play N, count N) finish a muggins game to 61; the output is
    plain text lines with the table, the hand and a prompt whenever it is the player's move."""
    out = io.StringIO()
    options = RoomOptions(game=GameOptions(target=61, muggins=True), private=True)
    async with real_server() as server:
        client = PlainClient(
            url=server.url,
            name="Ann",
            goal=Goal("computer", level="easy", options=options),
            out=out,
        )
        lines: asyncio.Queue[str | None] = asyncio.Queue()
        task = asyncio.create_task(client.run(lines))
        session = client.session
        typed = 0
        while session.game_over is None or not session.game_over.match_over:
            await wait_for(
                lambda: (
                    (session.view and session.view.legal and client.last_prompt == session.seq)
                    or session.game_over is not None
                )
            )
            view = session.view
            if session.game_over is not None or view is None:
                continue
            before = mine(view)
            if need(view) == 2:
                command = "discard 1 2"
            elif need(view) == 1:
                playable = [a.card for a in view.legal if isinstance(a, Play)]
                command = f"play {view.hand.index(playable[0]) + 1}"
            elif any(isinstance(a, Count) for a in view.legal):
                shown = view.show[-1]
                exact = score_hand(shown.cards, shown.starter, crib=shown.kind == "crib").total
                command = f"count {exact}"
            else:
                command = "accept"
            await lines.put(command)
            typed += 1
            await wait_for(lambda before=before: mine(session.view) != before or session.errors)
            assert not session.errors, (session.errors, out.getvalue()[-3000:])
        await lines.put("quit")
        assert await asyncio.wait_for(task, 10) == 0
    text = out.getvalue()
    assert typed > 10
    assert "> Lay away two cards" in text and "[discard N N]" in text
    assert "| your hand: [1] " in text
    assert "> The show: count your hand and type the points (0-29)" in text
    assert "> The match is over" in text
    assert "\x1b[" not in text


async def test_plain_mode_refuses_bad_commands_with_a_sentence() -> None:
    """Unknown commands, missing cards and illegal moves get a one-line reason, nothing sent."""
    out = io.StringIO()
    async with real_server() as server:
        client = PlainClient(url=server.url, name="Ann", goal=Goal("computer"), out=out)
        lines: asyncio.Queue[str | None] = asyncio.Queue()
        task = asyncio.create_task(client.run(lines))
        await wait_for(lambda: client.session.view is not None and client.session.view.legal)
        long_chat = "say " + "x" * 400
        for command in ("fly", "discard 9", "play", "create 99", "hint", "count 30", "count x"):
            await lines.put(command)
        for command in (long_chat, "discard 1", "count -1"):
            await lines.put(command)
        await lines.put("discard 1 1")
        await wait_for(lambda: client.session.errors)
        await lines.put(None)
        assert await asyncio.wait_for(task, 10) == 0
    text = out.getvalue()
    assert "! unknown command 'fly'" in text
    assert "! there is no card 9: you hold 6" in text
    assert "! play needs more" in text
    assert "! create takes 61, 121" in text
    assert "coach: " in text
    assert "! No hand or crib makes 30: a count is 0 to 29" in text
    assert "! 'x' is not a number: type your count, 0 to 29" in text
    assert "! No hand or crib makes -1: a count is 0 to 29" in text
    assert "! That is too long for a chat line (at most 300 characters)" in text
    assert "pydantic" not in text and "validation error" not in text.lower()
    assert f"! {client.session.errors[0].message}" in text


async def test_plain_mode_shows_profiles_and_the_leaderboard() -> None:
    """Signed in by session, `profile` prints your rating and record; `leaderboard` answers."""
    from muggins.client.accounts import Link
    from muggins.shared.protocol.accounts import Account, Register

    out = io.StringIO()
    async with real_server() as server:
        async with Link(server.url) as link:
            made = await link.ask(Register(name="Ann", password="long enough"))
        assert isinstance(made, Account)
        client = PlainClient(
            url=server.url, name="Ann", goal=Goal("lobby", session=made.session), out=out
        )
        lines: asyncio.Queue[str | None] = asyncio.Queue()
        task = asyncio.create_task(client.run(lines))
        await wait_for(lambda: client.session.signed_in)
        await lines.put("profile")
        await wait_for(lambda: "| Ann: rating 1500" in out.getvalue())
        await lines.put("leaderboard")
        await wait_for(lambda: "No established ratings" in out.getvalue())
        await lines.put(None)
        await task
    text = out.getvalue()
    assert "* Signed in as Ann (rating 1500, provisional)" in text
    rated = level_ratings()  # the calibrated strengths shipped with the package
    assert f"* computer levels (rating): random ({rated['random']}), easy ({rated['easy']})" in text


async def test_plain_mode_reports_blocks_and_hides_and_tells_a_mute() -> None:
    """`report NAME: REASON` reaches the moderators' open reports, `block` and `hide` answer
    with a sentence, a malformed one gets the usage, and a mute is printed when it comes."""
    from muggins.client.accounts import Link
    from muggins.server.accounts.roles import grant
    from muggins.shared.protocol.accounts import Account, Register
    from muggins.shared.protocol.moderation import GetModeration, Moderate, ModerationView

    out = io.StringIO()
    async with real_server() as server:
        async with Link(server.url) as link:
            assert isinstance(await link.ask(Register(name="Bob", password="long enough")), Account)
        async with Link(server.url) as link:
            made = await link.ask(Register(name="Ann", password="long enough"))
        assert isinstance(made, Account)
        client = PlainClient(
            url=server.url, name="Ann", goal=Goal("lobby", session=made.session), out=out
        )
        lines: asyncio.Queue[str | None] = asyncio.Queue()
        task = asyncio.create_task(client.run(lines))
        await wait_for(lambda: client.session.signed_in)
        await lines.put("report Bob: rude in chat")
        await wait_for(lambda: "Bob is reported to the moderators" in out.getvalue())
        await lines.put("block Bob")
        await wait_for(lambda: "Bob is blocked" in out.getvalue())
        await lines.put("hide Bob")
        await wait_for(lambda: "Bob is hidden" in out.getvalue())
        await lines.put("report")
        await wait_for(lambda: "? report NAME: REASON" in out.getvalue())
        await grant(server.store, "Bob", "moderator")
        async with Link(server.url) as link:
            from muggins.shared.protocol.accounts import SignIn

            await link.ask(SignIn(name="Bob", password="long enough"))
            view = await link.ask(GetModeration())
            assert isinstance(view, ModerationView)
            [report] = view.reports
            assert (report.by, report.name, report.reason) == ("Ann", "Bob", "rude in chat")
            await link.ask(Moderate(action="mute", name="Ann", minutes=5, reason="spam"))
        await wait_for(lambda: "You are muted until" in out.getvalue())
        await lines.put(None)
        await task
