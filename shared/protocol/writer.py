"""The JSON text of a ``state``, written straight from the engine's objects.

A state is what the server sends most (one to each receiver of every move), and pydantic's
encoder spent more on it than the rules spent on the move: it calls back into Python for every
card. This writes the same text, byte for byte (``tests/shared/test_protocol_writer.py``
compares it with ``model_dump_json`` for every step of many random matches, both seats and a
spectator, brief and whole), by hand for the view and its parts:

- fields in the models' order, defaults included, ``null`` for None, no spaces;
- free text (names, sentences, the salt) through :mod:`json` with ``ensure_ascii`` off, which
  escapes exactly as pydantic does; tags, cards and numbers need no escaping;
- the engine's frozen parts that recur from state to state (played cards, legal moves, shown
  hands, the previous deal, outcomes, the options) are written once and their text kept while
  the object lives (see :func:`_kept`).

It only writes what :meth:`shared.match.Match.view` decided a seat may see: it is handed the
view, never the match.
"""

from __future__ import annotations

import json
from collections.abc import Callable, Iterable
from typing import Any, TypeVar

from pydantic import BaseModel

from muggins.shared.actions import (
    Accept,
    Challenge,
    Count,
    Discard,
    GameOptions,
    Muggins,
    Outcome,
    Play,
    Points,
    Resign,
)
from muggins.shared.cards import Card
from muggins.shared.view import BriefView, DealSummary, PlayedCard, SeatView, ShowResult

_dumps = json.JSONEncoder(ensure_ascii=False, separators=(",", ":")).encode
"""Free text as pydantic writes it (the same escapes; non-ASCII as it is)."""

T = TypeVar("T")

_KEPT: dict[int, tuple[Any, str]] = {}
_KEPT_MAX = 20_000
"""Texts kept by object identity; the object is held with its text, so its id is not reused
while the entry lives. Emptied when full (the engine's shared parts come back at once)."""


def _kept(obj: T, write: Callable[[T], str]) -> str:
    """The text of the frozen ``obj``, written once while it is kept."""
    hit = _KEPT.get(id(obj))
    if hit is not None and hit[0] is obj:
        return hit[1]
    text = write(obj)
    if len(_KEPT) >= _KEPT_MAX:
        _KEPT.clear()
    _KEPT[id(obj)] = (obj, text)
    return text


# --- small parts -----------------------------------------------------------------------------


def _cards(cards: Iterable[Card]) -> str:
    texts = [c.text for c in cards]
    return '["' + '","'.join(texts) + '"]' if texts else "[]"


def _card(card: Card | None) -> str:
    return "null" if card is None else f'"{card.text}"'


def _int(value: int | None) -> str:
    return "null" if value is None else str(value)


def _bool(value: bool) -> str:
    return "true" if value else "false"


def _pair(values: tuple[Any, Any]) -> str:
    first, second = values
    if type(first) is bool:
        return f"[{_bool(first)},{_bool(second)}]"
    return f"[{first},{second}]"


def _ints(values: Iterable[int]) -> str:
    return "[" + ",".join([str(v) for v in values]) + "]"


def _points(part: Points) -> str:
    return f'{{"kind":"{part.kind}","points":{part.points},"cards":{_cards(part.cards)}}}'


def _parts(parts: Iterable[Points]) -> str:
    return "[" + ",".join([_kept(p, _points) for p in parts]) + "]"


def _played(played: PlayedCard) -> str:
    return f'{{"seat":{played.seat},"card":"{played.card.text}"}}'


def _played_cards(cards: Iterable[PlayedCard]) -> str:
    return "[" + ",".join([_kept(p, _played) for p in cards]) + "]"


def _show_result(r: ShowResult) -> str:
    answer = "null" if r.answer is None else f'"{r.answer}"'
    return (
        f'{{"seat":{r.seat},"kind":"{r.kind}","cards":{_cards(r.cards)},'
        f'"starter":"{r.starter.text}","total":{_int(r.total)},"parts":{_parts(r.parts)},'
        f'"spoken":{_dumps(r.spoken)},"claimed":{_int(r.claimed)},"answer":{answer},'
        f'"taken":{r.taken},"penalty":{r.penalty}}}'
    )


def _show(results: Iterable[ShowResult]) -> str:
    return "[" + ",".join([_kept(r, _show_result) for r in results]) + "]"


def _outcome(o: Outcome) -> str:
    return (
        f'{{"game_number":{o.game_number},"winner":{o.winner},"scores":{_pair(o.scores)},'
        f'"skunk":{_bool(o.skunk)},"double_skunk":{_bool(o.double_skunk)},'
        f'"game_points":{o.game_points},"reason":"{o.reason}"}}'
    )


def _action(action: BaseModel) -> str:
    if type(action) is Play:
        return f'{{"type":"play","card":"{action.card.text}"}}'
    if type(action) is Discard:
        return f'{{"type":"discard","cards":{_cards(action.cards)}}}'
    if type(action) is Count:
        return f'{{"type":"count","points":{action.points}}}'
    if type(action) in (Muggins, Challenge, Accept, Resign):
        return f'{{"type":"{action.type}"}}'  # type: ignore[attr-defined]
    return action.model_dump_json()  # an action this writer does not know: pydantic's text


def _options(o: GameOptions) -> str:
    return (
        f'{{"target":{o.target},"muggins":{_bool(o.muggins)},"scheme":"{o.scheme}",'
        f'"match_to":{o.match_to}}}'
    )


def _last_deal(d: DealSummary) -> str:
    r = d.reveal
    reveal = (
        f'{{"deal_number":{r.deal_number},"dealer":{r.dealer},"commitment":{_dumps(r.commitment)},'
        f'"deck":{_cards(r.deck)},"salt":{_dumps(r.salt)}}}'
    )
    return (
        f'{{"deal_number":{d.deal_number},"dealer":{d.dealer},"starter":{_card(d.starter)},'
        f'"crib":{_cards(d.crib)},"show":{_show(d.show)},"reveal":{reveal}}}'
    )


def _cut(rounds: tuple[tuple[Card, Card], ...]) -> str:
    return "[" + ",".join([_cards(pair) for pair in rounds]) + "]"


# --- the view --------------------------------------------------------------------------------


def view_text(view: BriefView, *, brief: bool) -> str:
    """The JSON of ``view``: brief (without the parts a deal cannot change), or all of it.

    Equal to ``model_dump_json()`` of the view (of :func:`shared.view.brief` of it, for brief).
    """
    v = view.__dict__
    crib = v["crib"]
    outcome = v["outcome"]
    text = (
        f'{{"seat":{_int(v["seat"])},"phase":"{v["phase"]}","game_number":{v["game_number"]},'
        f'"deal_number":{v["deal_number"]},"dealer":{v["dealer"]},"turn":{_int(v["turn"])},'
        f'"waiting_for":{_ints(v["waiting_for"])},"scores":{_pair(v["scores"])},'
        f'"previous_scores":{_pair(v["previous_scores"])},'
        f'"match_points":{_pair(v["match_points"])},"hand":{_cards(v["hand"])},'
        f'"discards":{_cards(v["discards"])},"hand_counts":{_pair(v["hand_counts"])},'
        f'"discarded":{_pair(v["discarded"])},"crib_count":{v["crib_count"]},'
        f'"crib":{"null" if crib is None else _cards(crib)},"starter":{_card(v["starter"])},'
        f'"count":{v["count"]},"pile":{_played_cards(v["pile"])},'
        f'"played":{_played_cards(v["played"])},"said_go":{_pair(v["said_go"])},'
        f'"show":{_show(v["show"])},'
        f'"legal":[{",".join([_kept(a, _action) for a in v["legal"]])}],'
        f'"outcome":{"null" if outcome is None else _kept(outcome, _outcome)},'
        f'"games":[{",".join([_kept(o, _outcome) for o in v["games"]])}],'
        f'"match_winner":{_int(v["match_winner"])}'
    )
    if brief or not isinstance(view, SeatView):
        return text + "}"
    last = v["last_deal"]
    return (
        f'{text},"options":{_kept(v["options"], _options)},'
        f'"commitment":{_dumps(v["commitment"])},'
        f'"cut_for_deal":{_kept(v["cut_for_deal"], _cut)},'
        f'"last_deal":{"null" if last is None else _kept(last, _last_deal)}}}'
    )
