"""The JSON of the engine's small parts (cards, points, a show, an outcome, an action, the
options, the last deal), written by hand as pydantic writes them: fields in the models' order,
defaults included, ``null`` for None, no spaces. The pieces that
:mod:`server.wire.view_writer` and :mod:`server.wire.event_writer` put together.
"""

from __future__ import annotations

import json.encoder
from collections.abc import Callable, Iterable, Sequence
from operator import attrgetter
from typing import Any, Final, TypeVar

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
from muggins.shared.view import DealSummary, ShowResult

dumps: Final = json.encoder.encode_basestring
"""Free text as pydantic writes it (the same escapes; non-ASCII as it is): the C function that
``json.JSONEncoder(ensure_ascii=False).encode`` calls for a string, without the method around it."""

T = TypeVar("T")

_KEPT: Final[dict[int, tuple[Any, str]]] = {}
_KEPT_MAX: Final = 2_000
"""Texts kept by object identity (the legal moves, which the engine makes once each and
shares); the object is held with its text, so its id is not reused while the entry lives.
Emptied when full, which the engine's moves alone never fill."""


_text_of: Final = attrgetter("text")
"""A card's text, read in C."""


def string(text: str) -> str:
    """The JSON of a string, as pydantic writes it."""
    return dumps(text)


def kept_text(obj: T, write: Callable[[T], str]) -> str:
    """The text of the frozen ``obj``, written once while it is kept."""
    hit = _KEPT.get(id(obj))
    if hit is not None and hit[0] is obj:
        return hit[1]
    text = write(obj)
    if len(_KEPT) >= _KEPT_MAX:
        _KEPT.clear()
    _KEPT[id(obj)] = (obj, text)
    return text


TF: Final = ("false", "true")
"""JSON of a bool, by indexing (False is 0, True is 1)."""


# --- small parts -----------------------------------------------------------------------------


def cards_json(cards: Sequence[Card]) -> str:
    return '["' + '","'.join(map(_text_of, cards)) + '"]' if cards else "[]"


def card_json(card: Card | None) -> str:
    return "null" if card is None else f'"{card.text}"'


def int_json(value: int | None) -> str:
    return "null" if value is None else str(value)


def _bool(value: bool) -> str:
    return "true" if value else "false"


def _pair(values: tuple[Any, Any]) -> str:
    first, second = values
    if type(first) is bool:
        return f"[{_bool(first)},{_bool(second)}]"
    return f"[{first},{second}]"


def ints_json(values: Iterable[int]) -> str:
    return "[" + ",".join([str(v) for v in values]) + "]"


def _points(part: Points) -> str:
    return f'{{"kind":"{part.kind}","points":{part.points},"cards":{cards_json(part.cards)}}}'


def parts_json(parts: Sequence[Points]) -> str:
    return "[" + ",".join(map(_points, parts)) + "]" if parts else "[]"


def _show_result(r: ShowResult) -> str:
    answer = "null" if r.answer is None else f'"{r.answer}"'
    return (
        f'{{"seat":{r.seat},"kind":"{r.kind}","cards":{cards_json(r.cards)},'
        f'"starter":"{r.starter.text}","total":{int_json(r.total)},"parts":{parts_json(r.parts)},'
        f'"spoken":{dumps(r.spoken)},"claimed":{int_json(r.claimed)},"answer":{answer},'
        f'"taken":{r.taken},"penalty":{r.penalty}}}'
    )


def show_json(results: Iterable[ShowResult]) -> str:
    return "[" + ",".join([_show_result(r) for r in results]) + "]"


def outcome_json(o: Outcome) -> str:
    return (
        f'{{"game_number":{o.game_number},"winner":{o.winner},"scores":{_pair(o.scores)},'
        f'"skunk":{_bool(o.skunk)},"double_skunk":{_bool(o.double_skunk)},'
        f'"game_points":{o.game_points},"reason":"{o.reason}"}}'
    )


def action_json(action: BaseModel) -> str:
    if type(action) is Play:
        return f'{{"type":"play","card":"{action.card.text}"}}'
    if type(action) is Discard:
        return f'{{"type":"discard","cards":{cards_json(action.cards)}}}'
    if type(action) is Count:
        return f'{{"type":"count","points":{action.points}}}'
    if type(action) in (Muggins, Challenge, Accept, Resign):
        return f'{{"type":"{action.type}"}}'  # type: ignore[attr-defined]
    return action.model_dump_json()  # an action this writer does not know: pydantic's text


def options_json(o: GameOptions) -> str:
    return (
        f'{{"target":{o.target},"muggins":{_bool(o.muggins)},"scheme":"{o.scheme}",'
        f'"match_to":{o.match_to}}}'
    )


def last_deal_json(d: DealSummary) -> str:
    r = d.reveal
    reveal = (
        f'{{"deal_number":{r.deal_number},"dealer":{r.dealer},"commitment":{dumps(r.commitment)},'
        f'"deck":{cards_json(r.deck)},"salt":{dumps(r.salt)}}}'
    )
    return (
        f'{{"deal_number":{d.deal_number},"dealer":{d.dealer},"starter":{card_json(d.starter)},'
        f'"crib":{cards_json(d.crib)},"show":{show_json(d.show)},"reveal":{reveal}}}'
    )


def cut_json(rounds: tuple[tuple[Card, Card], ...]) -> str:
    return "[" + ",".join([cards_json(pair) for pair in rounds]) + "]"
