"""Leak test: over hundreds of complete random games, no receiver ever sees a hidden card.

Every frame each seat and a spectator receive is recorded. Afterwards the game is replayed from
the server's log, and each frame is checked against what the rules had revealed to that
receiver at that frame's ``seq``: not the opponent's unplayed cards, not crib cards before the
crib is shown, not undealt cards, and not the deck or salt before the commitment is opened.
"""

from __future__ import annotations

import asyncio
import json
import random
import re

import pytest
from wire_client import WireClient

from server.app import Server
from shared.cards import DECK
from shared.match import Match

GAMES = 200
AT_ONCE = 10
EVENT_START = '{"id":null,"type":"event"'
CARD = re.compile(r'"((?:10|[A2-9JQKT])[CDHS])"|((?:10|[A2-9JQK])[♣♦♥♠])')
SYMBOL = {"♣": "C", "♦": "D", "♥": "H", "♠": "S"}
Hidden = tuple[frozenset[str], str | None, int]


NAME = {card: str(card) for card in DECK}
SEQ = re.compile(r'"seq":(\d+)')
EVENT = re.compile(r'"event":\{"type":"(\w+)"(?:,"deal_number":(\d+))?')
DEAL = re.compile(r'"deal_number":(\d+)')
WAITING = re.compile(r'"waiting_for":\[([01,]*)\]')


def secrets_at(match: Match) -> dict[int | None, Hidden]:
    """Cards (and the salt) hidden from each seat and a spectator in the match's state now."""
    game = match.game
    if game.over:
        return {r: (frozenset(), None, game.deal_number) for r in (0, 1, None)}
    undealt = {NAME[card] for card in game.deck[12:] if card != game.starter}
    crib_shown = any(r.kind == "crib" for r in game.show)
    held = [
        {NAME[c] for c in game.hands[seat]}
        | (set() if crib_shown else {NAME[c] for c in game.discards[seat]})
        for seat in (0, 1)
    ]
    return {
        0: (frozenset(undealt | held[1]), game.salt, game.deal_number),
        1: (frozenset(undealt | held[0]), game.salt, game.deal_number),
        None: (frozenset(undealt | held[0] | held[1]), game.salt, game.deal_number),
    }


def visible_cards(text: str) -> set[str]:
    """Every card named in a JSON text, as a card string ("10S") or in prose ("10♠")."""
    found = set()
    for plain, pretty in CARD.findall(text):
        found.add(plain.replace("T", "10") if plain else pretty[:-1] + SYMBOL[pretty[-1]])
    return found


def public_parts(text: str) -> tuple[str, str, str]:
    """A state frame split into the part to scan, its cut for deal and its last deal.

    The cut for deal (its own shuffles, before the first deal) and the last deal (a finished,
    revealed deal) are public but reuse the cards of the running deal, so they are checked
    on their own. SeatView serialises its fields in declaration order.
    """
    cut = text.index('"cut_for_deal":')
    legal = text.index('"legal":', cut)
    last = text.index('"last_deal":', legal)
    outcome = text.index('"outcome":', last)
    return text[:cut] + text[legal:last] + text[outcome:], text[cut:legal], text[last:outcome]


def check_frames(raw: list[str], receiver: int | None, timeline: list[Hidden], cut: str) -> int:
    """Assert no frame shows a card hidden at its seq; return how many frames held cards.

    An action that ends a deal sends the old deal's last events (the show), its reveal, then
    the new deal: the events up to the reveal belong to a deal whose whole deck is public then.
    """
    seqs = [int(m.group(1)) if (m := SEQ.search(text, 0, 60)) else None for text in raw]
    events = [EVENT.search(text, 0, 140) if text.startswith(EVENT_START) else None for text in raw]
    reveal_index = {
        seqs[i]: i for i, e in enumerate(events) if e is not None and e.group(1) == "deal_revealed"
    }
    seq, checked = 0, 0
    for i, text in enumerate(raw):
        seq = seqs[i] if seqs[i] is not None else seq
        hidden, salt, deal = timeline[max(seq - 1, 0)]
        if salt is not None:
            assert salt not in text, f"the running deal's salt leaked in {text}"
        scan = text
        event = events[i]
        if event is not None:
            if i < reveal_index.get(seq, -1) or event.group(1) == "cut_for_deal":
                continue
            if event.group(1) == "deal_revealed":
                assert int(event.group(2)) < deal or not hidden
                continue
        elif '"type":"state"' in text[:40]:
            scan, cut_part, last_part = public_parts(text)
            assert cut_part == cut
            last = DEAL.search(last_part)
            assert last is None or int(last.group(1)) < deal or not hidden
        shown = visible_cards(scan)
        leaked = shown & hidden
        assert not leaked, f"{text} at seq {seq} shows {leaked} to {receiver}"
        checked += bool(shown)
    return checked


async def play_fast(client: WireClient, rng: random.Random, seat: int | None) -> None:
    """Random legal moves, parsing only this seat's states; stop at the match's end."""
    seated = seat is not None
    while True:
        text = await client.ws.recv()
        assert isinstance(text, str)
        client.raw.append(text)
        if '"type":"state"' not in text[:40]:
            continue
        if '"phase":"match_over"' in text:
            return
        waiting = WAITING.search(text)
        if seated and waiting and str(seat) in waiting.group(1):
            view = json.loads(text)["view"]
            if view["legal"]:
                await client.send(**rng.choice(view["legal"]))


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
    cut = (
        '"cut_for_deal":'
        + json.dumps([[str(a), str(b)] for a, b in replay.cut_rounds], separators=(",", ":"))
        + ","
    )
    timelines: dict[int | None, list[Hidden]] = {0: [], 1: [], None: []}
    for step in range(len(match.log) + 1):
        if step:
            replay.apply(*match.log[step - 1])
        for receiver, hidden in secrets_at(replay).items():
            timelines[receiver].append(hidden)
    return sum(
        check_frames(client.raw, receiver, timelines[receiver], cut)
        for client, receiver in ((alice, 0), (bob, 1), (watcher, None))
    )


async def test_no_frame_to_any_seat_or_spectator_holds_a_hidden_card(server: Server) -> None:
    """Across 200 complete random games, every frame passes the hidden-card check."""
    gate = asyncio.Semaphore(AT_ONCE)

    async def gated(n: int) -> int:
        async with gate:
            return await one_game(server, n)

    checked = await asyncio.gather(*(gated(n) for n in range(GAMES)))
    assert len(checked) == GAMES and min(checked) > 50


def test_the_checker_catches_a_leaked_hand() -> None:
    """The check itself fails on a frame naming the opponent's card (so it can fail)."""
    match = Match(seed=4)
    opponent = match.game.hands[1][0]
    for shown in (opponent.pretty, str(opponent)):
        message = {"id": None, "type": "event", "seq": 1, "text": f"x {shown}", "c": shown}
        frame = json.dumps(message, separators=(",", ":"), ensure_ascii=False)
        with pytest.raises(AssertionError, match="shows"):
            check_frames([frame], 0, [secrets_at(match)[0]], "")
        check_frames([frame], 1, [secrets_at(match)[1]], "")
