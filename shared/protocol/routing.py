"""Which room a connection is for, carried in the WebSocket URL so a proxy can route by it.

A cluster's proxy (docker/nginx.conf) sends every connection naming one room to the same node,
by a consistent hash on the room code, so a room's players meet on one node instead of two
nodes each applying and encoding every move. A client names its room whenever it knows it: when
it joins a room by its code and whenever it connects again to a room it is in. The server reads
nothing from the URL; a connection without a room (the lobby) goes to any node.

>>> room_url("ws://example.org:8765", "KXPWTR")
'ws://example.org:8765/?room=KXPWTR'
>>> room_url("ws://example.org:8765/?room=OLDONE&x=1", "KXPWTR")
'ws://example.org:8765/?x=1&room=KXPWTR'
>>> room_url("ws://example.org:8765/?room=OLDONE", None)
'ws://example.org:8765/'
"""

from __future__ import annotations

from urllib.parse import parse_qsl, urlencode, urlsplit, urlunsplit

ROOM_PARAMETER = "room"
"""The query parameter that names a connection's room."""


def room_url(url: str, code: str | None) -> str:
    """``url`` naming the room ``code`` (None: no room, the lobby)."""
    parts = urlsplit(url)
    query = [(k, v) for k, v in parse_qsl(parts.query, keep_blank_values=True) if k != "room"]
    if code:
        query.append((ROOM_PARAMETER, code))
    return urlunsplit((parts.scheme, parts.netloc, parts.path or "/", urlencode(query), ""))
