"""The JSON of an engine event, written by hand for the commonest (one branch per type, each
the model's fields in order), by pydantic for the rest. Part of a ``state``'s text (see
:mod:`server.wire.state_writer`): the tests compare it with ``model_dump_json`` byte for byte.
"""

from __future__ import annotations

from typing import Any

from muggins.server.wire.json_parts import TF, cards_json, cut_json, dumps, outcome_json, parts_json
from muggins.shared.actions import (
    CardPlayed,
    CountAnswered,
    CountClaimed,
    CountReset,
    CutForDeal,
    DealRevealed,
    DealStarted,
    Discarded,
    GameOver,
    Go,
    HandScored,
    HandShown,
    Resigned,
    Scored,
    StarterCut,
)


def event_text(event: Any) -> str:
    """The JSON of an engine event: the commonest written here, the rest by pydantic.

    (``event`` is typed Any: each branch reads the fields of the type it has just checked,
    without a ``cast`` call per event.)"""
    kind = type(event)
    if kind is CardPlayed:
        e = event
        return (
            f'{{"type":"card_played","seat":{e.seat},"card":"{e.card.text}","count":{e.count},'
            f'"points":{e.points},"parts":{parts_json(e.parts)},"spoken":{dumps(e.spoken)},'
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
            f'"parts":{parts_json(s.parts)},"score":{s.score}}}'
        )
    if kind is StarterCut:
        c = event
        return f'{{"type":"starter_cut","card":"{c.card.text}","heels":{TF[c.heels]}}}'
    if kind is HandShown:
        h = event
        return (
            f'{{"type":"hand_shown","seat":{h.seat},"kind":"{h.kind}","cards":{cards_json(h.cards)},'
            f'"starter":"{h.starter.text}"}}'
        )
    if kind is HandScored:
        r = event
        return (
            f'{{"type":"hand_scored","seat":{r.seat},"kind":"{r.kind}","total":{r.total},'
            f'"parts":{parts_json(r.parts)},"spoken":{dumps(r.spoken)}}}'
        )
    if kind is DealStarted:
        d = event
        return (
            f'{{"type":"deal_started","game_number":{d.game_number},'
            f'"deal_number":{d.deal_number},"dealer":{d.dealer},'
            f'"commitment":{dumps(d.commitment)}}}'
        )
    if kind is DealRevealed:
        v = event
        return (
            f'{{"type":"deal_revealed","deal_number":{v.deal_number},'
            f'"commitment":{dumps(v.commitment)},"deck":{cards_json(v.deck)},'
            f'"salt":{dumps(v.salt)}}}'
        )
    if kind is CountClaimed:
        k = event
        return f'{{"type":"count_claimed","seat":{k.seat},"kind":"{k.kind}","claimed":{k.claimed}}}'
    if kind is CountAnswered:
        a = event
        right = "null" if a.right is None else TF[a.right]
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
            f'{{"type":"game_over","outcome":{outcome_json(o.outcome)},'
            f'"match_points":[{points[0]},{points[1]}],"match_over":{TF[o.match_over]}}}'
        )
    if kind is CutForDeal:
        f = event
        return f'{{"type":"cut_for_deal","rounds":{cut_json(f.rounds)},"dealer":{f.dealer}}}'
    return str(event.model_dump_json())
