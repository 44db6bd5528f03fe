"""The JSON text of a ``state``, written straight from the engine's objects.

A state is what the server sends most (one to each receiver of every move), and pydantic's
encoder spent more on it than the rules spent on the move: it calls back into Python for every
card. This writes the same text, byte for byte (``tests/server/test_wire_state_writer.py``
compares it with ``model_dump_json`` for every step of many random matches, both seats and a
spectator, brief and whole), by hand, in parts:

- the view by :mod:`server.wire.view_writer`, which writes what every receiver of a step sees
  alike once for the step;
- each event by :mod:`server.wire.event_writer`;
- the small parts (cards, points, outcomes, free text escaped exactly as pydantic does) by
  :mod:`server.wire.json_parts`;
- the state around them here, its events' text once for all the step's receivers.

It only writes what :meth:`shared.match.Match.view` decided a seat may see: it is handed the
view, never the match.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any, Final

from muggins.server.wire.event_writer import event_text
from muggins.server.wire.json_parts import dumps, string
from muggins.server.wire.view_writer import view_text
from muggins.shared.protocol.brief import starts_phase
from muggins.shared.protocol.server import EventLine, SeatClock, State
from muggins.shared.view import NOTHING, VIEW_FIELDS, SeatView, left_out

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
        f'{{"id":{"null" if id is None else dumps(id) if isinstance(id, str) else id},'
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
