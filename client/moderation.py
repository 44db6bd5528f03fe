"""The players' side of moderation in the terminal: ``report``, ``block``/``unblock`` and
``hide``/``show`` (a player's chat), typed in plain mode or after a ``/`` in the chat line.

>>> asked = moderation_command("report Ann Smith: rude in chat", room="KXPWTR")
>>> asked.name, asked.reason, asked.room
('Ann Smith', 'rude in chat', 'KXPWTR')
>>> moderation_command("hide Bob", room=None)
Block(id=None, type='block', name='Bob', what='hide_chat', on=True)
"""

from __future__ import annotations

from muggins.shared.protocol.moderation import Block, Report

VERBS = ("report", "block", "unblock", "hide", "show")
USAGE = (
    "report NAME: REASON (or report NAME REASON);  block NAME / unblock NAME: never be paired "
    "by the rated queue;  hide NAME / show NAME: their chat"
)


def moderation_command(line: str, *, room: str | None) -> Report | Block | None:
    """The message a typed ``report``/``block``/``hide`` line asks for, or None if it is not
    one (or lacks its name or reason)."""
    verb, _, rest = line.strip().partition(" ")
    verb, rest = verb.lower(), rest.strip()
    if verb not in VERBS or not rest:
        return None
    if verb == "report":
        name, colon, reason = rest.partition(":")
        if not colon:
            name, _, reason = rest.partition(" ")
        name, reason = name.strip(), reason.strip()
        if not name or not reason:
            return None
        return Report(name=name, reason=reason[:500], room=room)
    what = "hide_chat" if verb in ("hide", "show") else "block"
    return Block(name=rest, what=what, on=verb in ("block", "hide"))
