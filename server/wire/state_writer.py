"""The JSON text of a ``state``, written straight from the engine's objects.

A state is what the server sends most (one to each receiver of every move), and pydantic's
encoder spent more on it than the rules spent on the move: it calls back into Python for every
card. This writes the same text, byte for byte (``tests/server/test_wire_state_writer.py``
compares it with ``model_dump_json`` for every step of many random matches, both seats and a
spectator, brief and whole), by hand for the view and its parts:

- fields in the models' order, defaults included, ``null`` for None, no spaces;
- free text (names, sentences, the salt) through :mod:`json` with ``ensure_ascii`` off, which
  escapes exactly as pydantic does; tags, cards and numbers need no escaping;
- what every receiver of a step sees alike is written once for the step: the text of the
  latest view's common fields (and of a whole view's deal-long parts) is kept and reused for
  the next view whose fields are equal (:data:`_last`); the legal moves, which the engine makes
  once each and shares, are written once each (:func:`_kept`).

It only writes what :meth:`shared.match.Match.view` decided a seat may see: it is handed the
view, never the match.
"""

from __future__ import annotations

import json.encoder
from collections.abc import Callable, Iterable, Sequence
from operator import attrgetter, itemgetter
from typing import Any, Final, TypeVar

from pydantic import BaseModel

from muggins.shared.actions import (
    Accept,
    CardPlayed,
    Challenge,
    Count,
    CountAnswered,
    CountClaimed,
    CountReset,
    CutForDeal,
    DealRevealed,
    DealStarted,
    Discard,
    Discarded,
    GameOptions,
    GameOver,
    Go,
    HandScored,
    HandShown,
    Muggins,
    Outcome,
    Play,
    Points,
    Resign,
    Resigned,
    Scored,
    StarterCut,
)
from muggins.shared.cards import Card
from muggins.shared.protocol.brief import starts_phase
from muggins.shared.protocol.server import EventLine, SeatClock, State
from muggins.shared.view import (
    NOTHING,
    VIEW_FIELDS,
    BriefView,
    DealSummary,
    SeatView,
    ShowResult,
    left_out,
)

_dumps: Final = json.encoder.encode_basestring
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
    return _dumps(text)


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


def _cards(cards: Sequence[Card]) -> str:
    return '["' + '","'.join(map(_text_of, cards)) + '"]' if cards else "[]"


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


def _parts(parts: Sequence[Points]) -> str:
    return "[" + ",".join(map(_points, parts)) + "]" if parts else "[]"


def _show_result(r: ShowResult) -> str:
    answer = "null" if r.answer is None else f'"{r.answer}"'
    return (
        f'{{"seat":{r.seat},"kind":"{r.kind}","cards":{_cards(r.cards)},'
        f'"starter":"{r.starter.text}","total":{_int(r.total)},"parts":{_parts(r.parts)},'
        f'"spoken":{_dumps(r.spoken)},"claimed":{_int(r.claimed)},"answer":{answer},'
        f'"taken":{r.taken},"penalty":{r.penalty}}}'
    )


def _show(results: Iterable[ShowResult]) -> str:
    return "[" + ",".join([_show_result(r) for r in results]) + "]"


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


# --- events ---------------------------------------------------------------------------------


def event_text(event: Any) -> str:
    """The JSON of an engine event: the commonest written here, the rest by pydantic.

    (``event`` is typed Any: each branch reads the fields of the type it has just checked,
    without a ``cast`` call per event.)"""
    kind = type(event)
    if kind is CardPlayed:
        e = event
        return (
            f'{{"type":"card_played","seat":{e.seat},"card":"{e.card.text}","count":{e.count},'
            f'"points":{e.points},"parts":{_parts(e.parts)},"spoken":{_dumps(e.spoken)},'
            f'"score":{e.score}}}'
        )
    if kind is Go:
        return f'{{"type":"go","seat":{event.seat}}}'
    if kind is Discarded:
        return f'{{"type":"discarded","seat":{event.seat}}}'
    if kind is CountReset:
        return f'{{"type":"count_reset","leader":{event.leader}}}'
    if kind is Scored:
        s = event
        return (
            f'{{"type":"scored","seat":{s.seat},"reason":"{s.reason}","points":{s.points},'
            f'"parts":{_parts(s.parts)},"score":{s.score}}}'
        )
    if kind is StarterCut:
        c = event
        return f'{{"type":"starter_cut","card":"{c.card.text}","heels":{_TF[c.heels]}}}'
    if kind is HandShown:
        h = event
        return (
            f'{{"type":"hand_shown","seat":{h.seat},"kind":"{h.kind}","cards":{_cards(h.cards)},'
            f'"starter":"{h.starter.text}"}}'
        )
    if kind is HandScored:
        r = event
        return (
            f'{{"type":"hand_scored","seat":{r.seat},"kind":"{r.kind}","total":{r.total},'
            f'"parts":{_parts(r.parts)},"spoken":{_dumps(r.spoken)}}}'
        )
    if kind is DealStarted:
        d = event
        return (
            f'{{"type":"deal_started","game_number":{d.game_number},'
            f'"deal_number":{d.deal_number},"dealer":{d.dealer},'
            f'"commitment":{_dumps(d.commitment)}}}'
        )
    if kind is DealRevealed:
        v = event
        return (
            f'{{"type":"deal_revealed","deal_number":{v.deal_number},'
            f'"commitment":{_dumps(v.commitment)},"deck":{_cards(v.deck)},'
            f'"salt":{_dumps(v.salt)}}}'
        )
    if kind is CountClaimed:
        k = event
        return f'{{"type":"count_claimed","seat":{k.seat},"kind":"{k.kind}","claimed":{k.claimed}}}'
    if kind is CountAnswered:
        a = event
        right = "null" if a.right is None else _TF[a.right]
        return (
            f'{{"type":"count_answered","seat":{a.seat},"kind":"{a.kind}",'
            f'"answer":"{a.answer}","claimed":{a.claimed},"total":{a.total},"right":{right}}}'
        )
    if kind is Resigned:
        return f'{{"type":"resigned","seat":{event.seat}}}'
    if kind is GameOver:
        o = event
        points = o.match_points
        return (
            f'{{"type":"game_over","outcome":{_outcome(o.outcome)},'
            f'"match_points":[{points[0]},{points[1]}],"match_over":{_TF[o.match_over]}}}'
        )
    if kind is CutForDeal:
        f = event
        return f'{{"type":"cut_for_deal","rounds":{_cut(f.rounds)},"dealer":{f.dealer}}}'
    return str(event.model_dump_json())


# --- the view --------------------------------------------------------------------------------


_COMMON: Final = (
    "phase",
    "game_number",
    "deal_number",
    "dealer",
    "turn",
    "waiting_for",
    "scores",
    "previous_scores",
    "match_points",
    "hand_counts",
    "discarded",
    "crib_count",
    "crib",
    "starter",
    "count",
    "pile",
    "played",
    "said_go",
    "show",
    "outcome",
    "games",
    "match_winner",
)
"""The fields every receiver of a step sees alike (all but the seat, its hand, its discards and
its legal moves)."""
_common_of: Final = itemgetter(*_COMMON)
_last: Final[list[tuple[Any, frozenset[str], tuple[str, str, str]]]] = [
    (None, NOTHING, ("", "", ""))
]
"""The common fields of the latest view written, the parts it left out, and its text in three
pieces: the views of one step's receivers differ only in their own fields, so the second one
reuses the text. Kept by equality of the values, never by identity, so a view equal in every
common field (whoever built it) gets exactly the text it would have been written."""


def _played(cards: Sequence[Any]) -> str:
    return ",".join([f'{{"seat":{p.seat},"card":"{p.card.text}"}}' for p in cards])


def _common_text(v: dict[str, Any], left: frozenset[str]) -> tuple[str, str, str]:
    """The text of the common fields less those in ``left`` (only the fields kept are
    written): the part before the hand and the part before the legal moves each end in a comma;
    the part after them has none."""
    head = [f'"phase":"{v["phase"]}",']
    if "game_number" not in left:
        head.append(f'"game_number":{v["game_number"]},')
    if "deal_number" not in left:
        head.append(f'"deal_number":{v["deal_number"]},')
    if "dealer" not in left:
        head.append(f'"dealer":{v["dealer"]},')
    head.append(f'"turn":{_int(v["turn"])},"waiting_for":{_ints(v["waiting_for"])},')
    if "scores" not in left:
        scores = v["scores"]
        head.append(f'"scores":[{scores[0]},{scores[1]}],')
    if "previous_scores" not in left:
        previous = v["previous_scores"]
        head.append(f'"previous_scores":[{previous[0]},{previous[1]}],')
    if "match_points" not in left:
        points = v["match_points"]
        head.append(f'"match_points":[{points[0]},{points[1]}],')
    middle = []
    if "hand_counts" not in left:
        counts = v["hand_counts"]
        middle.append(f'"hand_counts":[{counts[0]},{counts[1]}],')
    if "discarded" not in left:
        discarded = v["discarded"]
        middle.append(f'"discarded":[{_TF[discarded[0]]},{_TF[discarded[1]]}],')
    if "crib_count" not in left:
        middle.append(f'"crib_count":{v["crib_count"]},')
    if "crib" not in left:
        crib = v["crib"]
        middle.append(f'"crib":{"null" if crib is None else _cards(crib)},')
    if "starter" not in left:
        middle.append(f'"starter":{_card(v["starter"])},')
    if "count" not in left:
        middle.append(f'"count":{v["count"]},')
    if "pile" not in left:
        middle.append(f'"pile":[{_played(v["pile"])}],')
    if "played" not in left:
        middle.append(f'"played":[{_played(v["played"])}],')
    if "said_go" not in left:
        said_go = v["said_go"]
        middle.append(f'"said_go":[{_TF[said_go[0]]},{_TF[said_go[1]]}],')
    if "show" not in left:
        show = v["show"]
        middle.append(f'"show":{_show(show) if show else "[]"},')
    tail = []
    if "outcome" not in left:
        outcome = v["outcome"]
        tail.append(f'"outcome":{"null" if outcome is None else _outcome(outcome)}')
    if "games" not in left:
        games = v["games"]
        tail.append(f'"games":[{",".join([_outcome(o) for o in games]) if games else ""}]')
    if "match_winner" not in left:
        tail.append(f'"match_winner":{_int(v["match_winner"])}')
    return "".join(head), "".join(middle), ",".join(tail)


def view_text(view: SeatView | BriefView, left: frozenset[str] = NOTHING) -> str:
    """The JSON of ``view`` without the parts in ``left`` (a brief view: see
    :func:`left_out_of`), or all of it.

    Equal to ``model_dump_json()`` of the view (or of
    :func:`shared.view.brief` of it, for a brief one). A parsed brief view is written as it
    came: the parts it carries.
    """
    if not isinstance(view, SeatView):
        return str(view.model_dump_json())
    v = view.__dict__
    common = _common_of(v)
    kept = _last[0]  # one read and one write of the tuple: safe from any thread
    if kept[1] is left and common == kept[0]:
        head, middle, tail = kept[2]
    else:
        head, middle, tail = _common_text(v, left)
        _last[0] = (common, left, (head, middle, tail))
    seat = v["seat"]
    legal = v["legal"]
    mine = ""
    if "hand" not in left:
        mine = f'"hand":{_cards(v["hand"])},'
    if "discards" not in left:
        mine += f'"discards":{_cards(v["discards"])},'
    text = (
        f'{{"seat":{"null" if seat is None else seat},{head}{mine}{middle}'
        f'"legal":[{",".join([_kept(a, _action) for a in legal]) if legal else ""}]'
    )
    if tail:
        text += "," + tail
    if left:
        return text + "}"
    whole = _whole_of(v)
    kept_whole = _last_whole[0]
    if whole == kept_whole[0]:
        rest = kept_whole[1]
    else:
        options, commitment, cut, last = whole
        last_text = "null" if last is None else _last_deal(last)
        rest = (
            f',"options":{_options(options)},"commitment":{_dumps(commitment)},'
            f'"cut_for_deal":{_cut(cut)},"last_deal":{last_text}}}'
        )
        _last_whole[0] = (whole, rest)
    return text + rest


_whole_of: Final = itemgetter("options", "commitment", "cut_for_deal", "last_deal")
_last_whole: Final[list[tuple[Any, str]]] = [(None, "")]
"""The same for the parts only a whole view carries (they change only between deals)."""


_TF: Final = ("false", "true")
"""JSON of a bool, by indexing (False is 0, True is 1)."""


_events_kept: Final[list[tuple[Any, str]]] = [(None, "")]
"""The events of the latest state encoded and their text: every receiver of a step gets the
same tuple of event lines, so it is written once per step."""
_utf8_kept: Final[list[tuple[str, bytes]]] = [("", b"")]
"""The latest events' text and its UTF-8, for the same reason (kept by the text's identity)."""


def _events_utf8(text: str) -> bytes:
    kept = _utf8_kept[0]  # one read and one write of the pair: safe from any thread
    if kept[0] is text:
        return kept[1]
    data = text.encode()
    _utf8_kept[0] = (text, data)
    return data


def state_text(state: State) -> str:
    """The text pydantic would write for ``state`` (the tests compare them), made in parts.

    States are what the server sends most: the view is written by :func:`view_text` (the brief
    parts left out for a brief state, no BriefView built) and the step's events once for all
    its receivers.
    """
    return "".join(_state_parts(state))


def left_out_of(state: State) -> frozenset[str]:
    """The parts of the view that ``state``'s text leaves out: none for a whole state; for a
    brief one, those a deal cannot change, and unless its step entered the view's phase, those
    the phase cannot change (:func:`shared.view.left_out`)."""
    if not state.brief:
        return NOTHING
    view = state.view
    if not isinstance(view, SeatView):  # a parsed brief view: what it carries
        given = view.model_fields_set
        return frozenset([name for name in VIEW_FIELDS if name not in given])
    values = view.__dict__
    lines: Sequence[EventLine] = state.events
    dealer: int = values["dealer"]
    phase: str = values["phase"]
    kept = _left_kept[0]  # one read and one write of the tuple: safe from any thread
    if kept[0] is lines and kept[1] == dealer and kept[2] == phase:
        return kept[3]
    started = False
    for line in lines:
        if starts_phase(line, dealer):
            started = True
            break
    left = left_out(phase, phase_started=started)
    if type(lines) is tuple:  # immutable and held here: the same object, the same answer
        _left_kept[0] = (lines, dealer, phase, left)
    return left


_left_kept: Final[list[tuple[object, int, str, frozenset[str]]]] = [((), -1, "", NOTHING)]
"""The latest brief state's events, dealer and phase, and the parts it left out: every receiver
of a step gets the same tuple of event lines, so the answer is worked out once per step."""


def _state_parts(state: State) -> tuple[str, str, str, str]:
    """The text of ``state`` in four parts: up to the view, the view, the events' text (from
    its opening bracket to its closing one) and the rest."""
    view = state.view
    text = view_text(view, left_out_of(state))
    lines = state.events
    kept = _events_kept[0]  # one read and one write of the pair: safe from any thread
    if kept[0] is lines:
        events = kept[1]
    else:
        joined = ",".join(
            [f'{{"event":{event_text(line.event)},"text":{string(line.text)}}}' for line in lines]
        )
        events = f',"events":[{joined}]'
        if type(lines) is tuple:  # immutable, and held here: the same object, the same text
            _events_kept[0] = (lines, events)
    over = "null" if state.game_over is None else state.game_over.model_dump_json()
    id = state.id
    head = (
        f'{{"id":{"null" if id is None else _dumps(id) if isinstance(id, str) else id},'
        f'"type":"state","seq":{state.seq},'
        f'"brief":{"true" if state.brief else "false"},"view":'
    )
    return head, text, events, f',"game_over":{over},"clock":{_clock(state.clock)}}}'


def _clock(clock: tuple[SeatClock | None, SeatClock | None] | None) -> str:
    if clock is None:
        return "null"
    seats = ["null" if c is None else f'{{"move":{c.move!r},"bank":{c.bank!r}}}' for c in clock]
    return f"[{seats[0]},{seats[1]}]"


def state_utf8(state: State) -> bytes:
    """``state_text(state).encode()``, made in parts (see :mod:`server.wire.send_cache`)."""
    head, view, events, tail = _state_parts(state)
    return b"".join([head.encode(), view.encode(), _events_utf8(events), tail.encode()])
