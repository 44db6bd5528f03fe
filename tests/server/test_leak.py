"""Leak test: over hundreds of complete random games, no receiver ever sees a hidden card.

Every frame each seat and a spectator receive is recorded. Afterwards the game is replayed from
the server's log, and each frame (each ``state``'s events and view alike) is checked against
what the rules had revealed to that receiver at that frame's ``seq``: not the opponent's
unplayed cards, not crib cards before the crib is shown, not undealt cards, and not the deck or
salt before the commitment is opened. Each state's view, completed from the previous one when
it is brief, must also be exactly the engine's view at its seq: nothing a client needs
is left out.

In muggins mode a shown hand's true total is hidden too until its claim is answered: no frame
may carry it (a total, a breakdown, a ``hand_scored``, ``count_answered`` or pegging event for
it), nor anything it can be derived from: the legal moves must be every count from 0 to 29 and
then all three answers whatever the hand makes, and no refusal may name the total. Players
claim any number from 0 to 29 (not only the legal ones), and now and then the seat not on turn
tries to count or answer, so refusals are exercised too.
"""

from __future__ import annotations

import asyncio
import json
import random
import re

import pytest
from wire_client import WireClient

from muggins.server.app import Server
from muggins.shared.cards import DECK
from muggins.shared.match import Match

GAMES = 200
AT_ONCE = 10
CARD = re.compile(r'"((?:10|[A2-9JQKT])[CDHS])"|((?:10|[A2-9JQK])[♣♦♥♠])')
SYMBOL = {"♣": "C", "♦": "D", "♥": "H", "♠": "S"}
Pending = tuple[int, str, int] | None
"""The shown hand whose claim is not yet answered: its owner, kind and true total."""
Hidden = tuple[frozenset[str], str | None, int, Pending]
COUNTS = [{"type": "count", "points": n} for n in range(30)]
ANSWERS = [{"type": "accept"}, {"type": "muggins"}, {"type": "challenge"}]
TOTAL_EVENTS = ("hand_scored", "count_answered", "scored")


NAME = {card: str(card) for card in DECK}
WAITING = re.compile(r'"waiting_for":\[([01,]*)\]')


def secrets_at(match: Match) -> dict[int | None, Hidden]:
    """Cards (and the salt) hidden from each seat and a spectator in the match's state now."""
    game = match.game
    if game.over:
        return {r: (frozenset(), None, game.deal_number, None) for r in (0, 1, None)}
    pending: Pending = None
    if game.phase == "show" and game.show and game.show[-1].total is None:
        shown = game.show[-1]
        pending = (shown.seat, shown.kind, game._show_score().total)
    undealt = {NAME[card] for card in game.deck[12:] if card != game.starter}
    crib_shown = any(r.kind == "crib" for r in game.show)
    held = [
        {NAME[c] for c in game.hands[seat]}
        | (set() if crib_shown else {NAME[c] for c in game.discards[seat]})
        for seat in (0, 1)
    ]
    return {
        0: (frozenset(undealt | held[1]), game.salt, game.deal_number, pending),
        1: (frozenset(undealt | held[0]), game.salt, game.deal_number, pending),
        None: (frozenset(undealt | held[0] | held[1]), game.salt, game.deal_number, pending),
    }


def visible_cards(text: str) -> set[str]:
    """Every card named in a JSON text, as a card string ("10S") or in prose ("10♠")."""
    found = set()
    for plain, pretty in CARD.findall(text):
        found.add(plain.replace("T", "10") if plain else pretty[:-1] + SYMBOL[pretty[-1]])
    return found


def scan(part: object) -> str:
    """A part of a frame as JSON text to search (suit symbols kept as they are)."""
    return json.dumps(part, separators=(",", ":"), ensure_ascii=False)


def check_frames(
    raw: list[str],
    receiver: int | None,
    timeline: list[Hidden],
    cut: list[list[str]],
    views: list[dict[str, object]] | None = None,
) -> int:
    """Assert no frame shows a card hidden at its seq; return how many frames held cards.

    A ``state`` carries the events of its step: each is checked, then the view. A step that ends
    a deal carries the old deal's last events (the show), its reveal, then the new deal: the
    events up to the reveal belong to a deal whose whole deck is public then. The cut for deal
    (its own shuffles, before the first deal) and the last deal (a finished, revealed deal) are
    public but reuse the cards of the running deal, so they are checked on their own. With
    ``views`` (each step's whole view as JSON), every state's view, completed from the
    previous one when it is brief, must be exactly the engine's view at its seq.
    """
    seq, checked, whole = 0, 0, None
    for text in raw:
        frame = json.loads(text)
        seq = frame["seq"] if isinstance(frame.get("seq"), int) else seq
        hidden, salt, deal, pending = timeline[max(seq - 1, 0)]
        if salt is not None:
            assert salt not in text, f"the running deal's salt leaked in {text}"
        if pending is not None:
            check_pending_total(text, pending, receiver)
        parts = [text]
        if frame["type"] == "state":
            events = [line["event"]["type"] for line in frame["events"]]
            reveal = events.index("deal_revealed") if "deal_revealed" in events else -1
            parts = []
            for i, line in enumerate(frame["events"]):
                if i < reveal or events[i] == "cut_for_deal":
                    continue
                if events[i] == "deal_revealed":
                    assert line["event"]["deal_number"] < deal or not hidden
                    continue
                parts.append(scan(line))
            view = dict(frame["view"])
            assert frame["brief"] == ("options" not in view)
            if "cut_for_deal" in view:
                assert view.pop("cut_for_deal") == cut
            last = view.pop("last_deal", None)
            assert last is None or last["deal_number"] < deal or not hidden
            parts.append(scan({**frame, "events": [], "view": view}))
            if views is not None:
                whole = {**(whole or {}), **frame["view"]} if frame["brief"] else frame["view"]
                assert whole == views[seq - 1], f"state {seq} to {receiver} is not the view"
        shown = set().union(*(visible_cards(part) for part in parts))
        leaked = shown & hidden
        assert not leaked, f"{text} at seq {seq} shows {leaked} to {receiver}"
        checked += bool(shown)
    return checked


def check_pending_total(text: str, pending: tuple[int, str, int], receiver: int | None) -> None:
    """Assert a frame sent while a claim is unanswered tells nothing of the hand's total."""
    owner, kind, total = pending
    frame = json.loads(text)
    where = f"{text} tells {receiver} the {kind} of seat {owner} makes {total}"
    if frame["type"] == "state":
        view = frame["view"]
        assert view["phase"] == "show", where
        shown = view["show"][-1]
        assert (shown["seat"], shown["kind"]) == (owner, kind), where
        if view["legal"]:
            assert view["legal"] == (COUNTS if shown["claimed"] is None else ANSWERS), where
        assert (shown["total"], shown["parts"], shown["spoken"]) == (None, [], ""), where
        settled = (shown.get("answer"), shown.get("taken", 0), shown.get("penalty", 0))
        assert settled == (None, 0, 0), where
        for line in frame.get("events", []):
            event = line["event"]
            if event["type"] in TOTAL_EVENTS:
                whose = 1 - event["seat"] if event["type"] == "count_answered" else event["seat"]
                about = event.get("kind", event.get("reason"))
                assert (whose, about) != (owner, kind), where
    elif frame["type"] == "error":
        # A stale refusal names the seqs (its own and the room's), which may equal the total.
        said = re.sub(r"\bseq \d+", "seq", frame["message"])
        assert not re.search(rf"\b{total}\b", said), where


async def play_fast(client: WireClient, rng: random.Random, seat: int | None) -> None:
    """Random legal moves, parsing only this seat's states; stop at the match's end.

    In the show a player claims any number from 0 to 29, and the seat not on turn sometimes
    tries to count or answer anyway (the refusal must not tell the total either).
    """
    seated = seat is not None
    legal: list[dict[str, object]] = []
    while True:
        text = await client.ws.recv()
        assert isinstance(text, str)
        client.raw.append(text)
        if text.startswith('{"id":"own","type":"error"') and legal:
            await client.send(**rng.choice(legal))  # a refused claim: fall back to a legal move
            continue
        if '"type":"state"' not in text[:40]:
            continue
        if '"phase":"match_over"' in text:
            return
        waiting = WAITING.search(text)
        if not seated or not waiting:
            continue
        if str(seat) in waiting.group(1):
            state = json.loads(text)
            legal = state["view"]["legal"]
            if legal:
                move = rng.choice(legal)
                if move["type"] == "count":
                    move = {"type": "count", "points": rng.randrange(30)}
                await client.send(**move, seq=state["seq"], id="own")
        elif '"phase":"show"' in text and rng.random() < 0.3:
            state = json.loads(text)
            answer = rng.choice([*ANSWERS, {"type": "count", "points": 29}])
            await client.send(**answer, seq=state["seq"])


async def one_game(server: Server, n: int) -> int:
    rng = random.Random(n)
    game = {
        "target": 121 if n % 8 == 0 else 61,
        "muggins": n % 3 == 0,
        "scheme": rng.choice(["standard", "acc"]),
    }
    alice = await WireClient.open(server.url, name=f"A{n}")
    bob = await WireClient.open(server.url, name=f"B{n}")
    watcher = await WireClient.open(server.url, name=f"W{n}")
    room = await alice.request(type="create_room", options={"game": game})
    await watcher.request(type="spectate", code=room["code"])
    await bob.request(type="join_room", code=room["code"])
    await asyncio.gather(
        play_fast(alice, rng, 0),
        play_fast(bob, rng, 1),
        play_fast(watcher, rng, None),
    )
    for client in (alice, bob, watcher):
        await client.close()
    match = server.lobby.find(room["code"]).match
    assert match is not None and match.over
    replay = Match(seed=match.seed, options=match.options)
    cut = [[str(a), str(b)] for a, b in replay.cut_rounds]
    timelines: dict[int | None, list[Hidden]] = {0: [], 1: [], None: []}
    views: dict[int | None, list[dict[str, object]]] = {0: [], 1: [], None: []}
    for step in range(len(match.log) + 1):
        if step:
            replay.apply(*match.log[step - 1])
        for receiver, hidden in secrets_at(replay).items():
            timelines[receiver].append(hidden)
            views[receiver].append(json.loads(replay.view(receiver).model_dump_json()))
    return sum(
        check_frames(client.raw, receiver, timelines[receiver], cut, views[receiver])
        for client, receiver in ((alice, 0), (bob, 1), (watcher, None))
    )


async def test_no_frame_to_any_seat_or_spectator_holds_a_hidden_card(server: Server) -> None:
    """Across 200 complete random games, every frame passes the hidden-card check."""
    gate = asyncio.Semaphore(AT_ONCE)

    async def gated(n: int) -> int:
        async with gate:
            return await one_game(server, n)

    checked = await asyncio.gather(*(gated(n) for n in range(GAMES)))
    # One state per step since protocol 3: a muggins game to 61 with wild claims can end after
    # two deals, so the floor per game is low; the average shows the games really were played.
    assert len(checked) == GAMES and min(checked) > 20 and sum(checked) > 50 * GAMES


def test_the_checker_catches_a_leaked_hand() -> None:
    """The check itself fails on a frame naming the opponent's card (so it can fail)."""
    match = Match(seed=4)
    opponent = match.game.hands[1][0]
    for shown in (opponent.pretty, str(opponent)):
        played = {"type": "card_played", "seat": 1, "card": shown}
        line = {"event": played, "text": f"x {shown}"}
        view = {"seat": 0, "hand": []}
        message = {"id": None, "type": "state", "seq": 1, "brief": True, "view": view, "events": []}
        for leaky in ({**message, "events": [line]}, {**message, "view": {**view, "c": shown}}):
            frame = json.dumps(leaky, separators=(",", ":"), ensure_ascii=False)
            with pytest.raises(AssertionError, match="shows"):
                check_frames([frame], 0, [secrets_at(match)[0]], [])
            check_frames([frame], 1, [secrets_at(match)[1]], [])


def test_the_checker_catches_a_total_told_before_the_answer() -> None:
    """An unanswered claim: a legal list, breakdown, event or refusal telling the total fails."""
    hidden, pending = frozenset[str](), (1, "hand", 9)
    timeline: list[Hidden] = [(hidden, None, 1, pending)]
    show = {"seat": 1, "kind": "hand", "total": None, "parts": [], "spoken": "", "claimed": None}
    show |= {"answer": None, "taken": 0, "penalty": 0}
    view = {"phase": "show", "show": [show], "legal": COUNTS}
    claimed = {"event": {"type": "count_claimed", "seat": 1}, "text": ""}
    fine = [
        {"id": None, "type": "state", "seq": 1, "brief": True, "view": view, "events": []},
        {"id": None, "type": "state", "seq": 1, "brief": True, "view": view, "events": [claimed]},
        {"id": 3, "type": "error", "seq": 1, "code": "illegal", "message": "It is not your turn"},
    ]
    leaks = [
        {**fine[0], "view": {**view, "legal": COUNTS[:10]}},
        {**fine[0], "view": {**view, "show": [{**show, "total": 9}]}},
        {**fine[1], "events": [{"event": {"type": "hand_scored", "seat": 1, "kind": "hand"}}]},
        {**fine[1], "events": [{"event": {"type": "scored", "seat": 1, "reason": "hand"}}]},
        {**fine[2], "message": "Your hand makes 9, not 12; count again"},
    ]
    for frame in fine:
        check_pending_total(json.dumps(frame), pending, 0)
    for frame in leaks:
        with pytest.raises(AssertionError, match="makes 9"):
            check_pending_total(json.dumps(frame), pending, 0)
    with pytest.raises(AssertionError, match="makes 9"):  # check_frames applies it at its seq
        check_frames([json.dumps(leaks[-1], separators=(",", ":"))], 0, timeline, [])
