"""The JSON of a :class:`~shared.view.SeatView`, whole or brief, written by hand: the view is
most of a ``state``'s text (see :mod:`server.wire.state_writer`).

What every receiver of a step sees alike is written once for the step: the text of the latest
view's common fields (and of a whole view's deal-long parts) is kept and reused for the next
view whose fields are equal (:data:`_last`); the legal moves, which the engine makes once each
and shares, are written once each (:func:`~server.wire.json_parts.kept_text`).
"""

from __future__ import annotations

from collections.abc import Sequence
from operator import itemgetter
from typing import Any, Final

from muggins.server.wire.json_parts import (
    TF,
    action_json,
    card_json,
    cards_json,
    cut_json,
    dumps,
    int_json,
    ints_json,
    kept_text,
    last_deal_json,
    options_json,
    outcome_json,
    show_json,
)
from muggins.shared.view import NOTHING, BriefView, SeatView

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
    head.append(f'"turn":{int_json(v["turn"])},"waiting_for":{ints_json(v["waiting_for"])},')
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
        middle.append(f'"discarded":[{TF[discarded[0]]},{TF[discarded[1]]}],')
    if "crib_count" not in left:
        middle.append(f'"crib_count":{v["crib_count"]},')
    if "crib" not in left:
        crib = v["crib"]
        middle.append(f'"crib":{"null" if crib is None else cards_json(crib)},')
    if "starter" not in left:
        middle.append(f'"starter":{card_json(v["starter"])},')
    if "count" not in left:
        middle.append(f'"count":{v["count"]},')
    if "pile" not in left:
        middle.append(f'"pile":[{_played(v["pile"])}],')
    if "played" not in left:
        middle.append(f'"played":[{_played(v["played"])}],')
    if "said_go" not in left:
        said_go = v["said_go"]
        middle.append(f'"said_go":[{TF[said_go[0]]},{TF[said_go[1]]}],')
    if "show" not in left:
        show = v["show"]
        middle.append(f'"show":{show_json(show) if show else "[]"},')
    tail = []
    if "outcome" not in left:
        outcome = v["outcome"]
        tail.append(f'"outcome":{"null" if outcome is None else outcome_json(outcome)}')
    if "games" not in left:
        games = v["games"]
        tail.append(f'"games":[{",".join([outcome_json(o) for o in games]) if games else ""}]')
    if "match_winner" not in left:
        tail.append(f'"match_winner":{int_json(v["match_winner"])}')
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
        mine = f'"hand":{cards_json(v["hand"])},'
    if "discards" not in left:
        mine += f'"discards":{cards_json(v["discards"])},'
    text = (
        f'{{"seat":{"null" if seat is None else seat},{head}{mine}{middle}'
        f'"legal":[{",".join([kept_text(a, action_json) for a in legal]) if legal else ""}]'
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
        last_text = "null" if last is None else last_deal_json(last)
        rest = (
            f',"options":{options_json(options)},"commitment":{dumps(commitment)},'
            f'"cut_for_deal":{cut_json(cut)},"last_deal":{last_text}}}'
        )
        _last_whole[0] = (whole, rest)
    return text + rest


_whole_of: Final = itemgetter("options", "commitment", "cut_for_deal", "last_deal")
_last_whole: Final[list[tuple[Any, str]]] = [(None, "")]
"""The same for the parts only a whole view carries (they change only between deals)."""
