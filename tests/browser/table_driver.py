"""Reading the table off a page and making moves on it by clicking, as a person would."""

from __future__ import annotations

import re
from typing import Any

from cdp import Page

from muggins.server.app import Server
from muggins.shared.cards import parse_card
from muggins.shared.view import SeatView

READ_TABLE = """(() => {
  const q = (s) => document.querySelector(s);
  const all = (s) => [...document.querySelectorAll(s)];
  const num = (e, a) => Number(e.getAttribute(a));
  const at = (e) => !e ? null : e.tagName === 'rect'
    ? [num(e, 'x') + num(e, 'width') / 2, num(e, 'y') + num(e, 'height') / 2]
    : [num(e, 'cx'), num(e, 'cy')];
  const pegs = all('#pegboard .peg').map(p => ({seat: +p.dataset.seat, kind: p.dataset.peg,
     hole: +p.dataset.hole, at: at(p),
     holeAt: at(q(`#pegboard .hole[data-hole="${p.dataset.hole}"]` +
        (p.dataset.hole === q('#pegboard').dataset.target ? ''
         : `[data-seat="${p.dataset.seat}"]`)))}));
  return {
    seq: Number(q('#table')?.dataset.seq ?? -1),
    path: location.pathname,
    scores: all('#scoreline .score').map(e => +e.dataset.score),
    pegs,
    count: q('#count') ? +q('#count').dataset.count : null,
    pile: all('#pile .card').map(e => e.dataset.card),
    calls: all('#calls li').map(e => [e.dataset.kind, e.textContent]),
    hand: all('#hand button').map(e => ({card: e.dataset.card, enabled: !e.disabled,
       label: e.getAttribute('aria-label')})),
    layAway: !!q('#lay-away'), playCard: !!q('#play-card'), cont: !!q('#continue'),
    countForm: !!q('#count-form'), answer: !!q('#answer'),
    show: all('#show .shown').map(e => ({kind: e.dataset.kind, seat: +e.dataset.seat,
       parts: all.call(null, '#show .shown[data-index="' + e.dataset.index + '"] .part')
          .map(p => +p.textContent.split('= ').pop()),
       total: e.querySelector('.total') ? +e.querySelector('.total').dataset.total : null,
       spoken: e.querySelector('.spoken')?.textContent ?? null})),
    over: q('#game-over')?.textContent ?? null,
    prompt: q('#prompt')?.textContent ?? '',
    status: q('#link-status')?.hidden ? '' : q('#link-status')?.textContent,
    announce: q('#announce')?.textContent ?? '',
  };
})()"""


async def read_table(page: Page) -> dict[str, Any]:
    table: dict[str, Any] = await page.js(READ_TABLE)
    return table


def room_code(table: dict[str, Any]) -> str:
    match = re.match(r"^/[rw]/([A-Z]+)$", table["path"])
    assert match, table["path"]
    return match.group(1)


def truth(server: Server, code: str, seat: int | None) -> SeatView:
    """What the server holds for this seat: the page must show exactly this."""
    state = server.lobby.rooms[code].state_for(seat)
    assert state is not None
    return state.view


def check_against(table: dict[str, Any], view: SeatView) -> None:
    """The page shows the server's scores, pegs, count, pile and show, whatever the step."""
    assert table["scores"] == list(view.scores), (table["scores"], view.scores)
    target = view.options.target
    for peg in table["pegs"]:
        expected = view.scores if peg["kind"] == "front" else view.previous_scores
        assert peg["hole"] == min(expected[peg["seat"]], target), (peg, view.scores)
        assert peg["at"] == peg["holeAt"], peg  # the peg stands in that very hole
    fronts = sorted(p["seat"] for p in table["pegs"] if p["kind"] == "front")
    assert fronts == [0, 1]
    if view.phase == "play":
        assert table["count"] == view.count
        assert table["pile"] == [str(p.card) for p in view.pile]
        played = [c for c in table["calls"] if c[0] == "card"]
        assert len(played) == len(view.played), (table["calls"], view.played)
        if view.pile and view.count in (15, 31) and table["calls"]:
            last = played[-1][1]
            assert ("fifteen" if view.count == 15 else "thirty-one") in last, last
    if view.seat is not None and not table["cont"]:
        assert sorted(h["card"] for h in table["hand"]) == sorted(str(c) for c in view.hand)
    for shown in table["show"]:
        if shown["total"] is not None:
            assert sum(shown["parts"]) == shown["total"], shown


async def first_enabled(page: Page) -> str | None:
    card: str | None = await page.js(
        "(() => { const b = document.querySelector('#hand button:not([disabled])');"
        " return b ? b.dataset.card : null; })()"
    )
    return card


async def take_turn(page: Page, table: dict[str, Any]) -> str | None:
    """Make this seat's move if it has one, by clicking; say what was done."""
    if table["cont"]:
        await page.click("#continue")
        return "continue"
    if table["layAway"]:
        enabled = [h["card"] for h in table["hand"] if h["enabled"]][:2]
        for card in enabled:
            await page.click(f'#hand button[data-card="{card}"]')
        await page.click("#lay-away")
        return "discard " + " ".join(enabled)
    if table["playCard"]:
        card = await first_enabled(page)
        if card is None:
            return None
        await page.click(f'#hand button[data-card="{card}"]')
        await page.click("#play-card")
        return "play " + card
    return None


def card_value(card: str) -> int:
    return parse_card(card).value
