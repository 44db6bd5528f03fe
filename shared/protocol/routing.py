"""Which room a connection is for, carried in the WebSocket URL so a proxy can route by it.

A cluster's proxy (docker/nginx.conf) sends every connection naming one room to the same node,
by a consistent hash on the room code, so a room's players meet on one node instead of two
nodes each applying and encoding every move. A client names its room whenever it knows it: when
it joins a room by its code and whenever it connects again to a room it is in. A connection
without a room (the lobby) goes to any node. Where no proxy routes (clients given the nodes'
own addresses), a node closes a connection for a room another node owns with :data:`MOVED`,
naming the owner's address, and the client connects there at once; one that could not reach it
comes back naming ``stay=1`` and is served where it is. A browser (a request with an ``Origin``)
is sent on only when its URL says it follows (``follow=1``, as the browser client's pages do):
a page from before it would come back to the same node for ever.

>>> room_url("ws://example.org:8765", "KXPWTR")
'ws://example.org:8765/?room=KXPWTR'
>>> room_url("ws://example.org:8765/?room=OLDONE&x=1", "KXPWTR")
'ws://example.org:8765/?x=1&room=KXPWTR'
>>> room_url("ws://example.org:8765/?room=OLDONE", None)
'ws://example.org:8765/'
>>> room_url("ws://example.org:8765", "KXPWTR", stay=True)
'ws://example.org:8765/?room=KXPWTR&stay=1'
"""

from __future__ import annotations

from urllib.parse import parse_qsl, urlencode, urlsplit, urlunsplit

ROOM_PARAMETER = "room"
"""The query parameter that names a connection's room."""
STAY_PARAMETER = "stay"
"""With ``1``: the client could not reach the node it was sent on to; serve it where it is."""

FOLLOW_PARAMETER = "follow"
"""With ``1``: a browser page that follows :data:`MOVED` (older pages did not)."""

MOVED = 4001
"""The close code of a connection for a room that another node owns: the close reason is the
address to connect to instead (``ws://`` or ``wss://``, the room named in it)."""


def room_of(path: str) -> tuple[str | None, bool]:
    """The room a request's path names, if any, and whether it asks to stay.

    >>> room_of("/?room=KXPWTR"), room_of("/"), room_of("/?room=KXPWTR&stay=1")
    (('KXPWTR', False), (None, False), ('KXPWTR', True))
    """
    query = dict(parse_qsl(urlsplit(path).query))
    return query.get(ROOM_PARAMETER) or None, query.get(STAY_PARAMETER) == "1"


def follows(path: str) -> bool:
    """Whether a request's path says its browser page follows :data:`MOVED`.

    >>> follows("/?room=KXPWTR&follow=1"), follows("/?room=KXPWTR")
    (True, False)
    """
    return dict(parse_qsl(urlsplit(path).query)).get(FOLLOW_PARAMETER) == "1"


def moved_to(code: int | None, reason: str, *, secure: bool = False) -> str | None:
    """The address a closed connection was sent on to, if it was (:data:`MOVED`) and may be
    followed. A connection made over TLS (``secure``) is never followed to a plain ``ws://``
    address, where the player's token would travel in the clear: its client asks to stay
    (:data:`STAY_PARAMETER`) where it was instead.

    >>> moved_to(4001, "ws://10.0.0.2:8765/?room=KXPWTR")
    'ws://10.0.0.2:8765/?room=KXPWTR'
    >>> moved_to(1000, "ws://10.0.0.2:8765/"), moved_to(4001, "javascript:alert(1)")
    (None, None)
    >>> moved_to(4001, "ws://10.0.0.2:8766/?room=KXPWTR", secure=True)
    >>> moved_to(4001, "wss://b.example/?room=KXPWTR", secure=True)
    'wss://b.example/?room=KXPWTR'
    """
    if code == MOVED and reason.startswith("wss://" if secure else ("ws://", "wss://")):
        return reason
    return None


def secure(url: str) -> bool:
    """Whether ``url`` is a TLS WebSocket address (``wss://``)."""
    return url.lower().startswith("wss://")


def room_url(url: str, code: str | None, *, stay: bool = False) -> str:
    """``url`` naming the room ``code`` (None: no room, the lobby); ``stay``: asking to be served
    there (the room's owner could not be reached)."""
    parts = urlsplit(url)
    query = [
        (k, v)
        for k, v in parse_qsl(parts.query, keep_blank_values=True)
        if k not in (ROOM_PARAMETER, STAY_PARAMETER)
    ]
    if code:
        query.append((ROOM_PARAMETER, code))
        if stay:
            query.append((STAY_PARAMETER, "1"))
    return urlunsplit((parts.scheme, parts.netloc, parts.path or "/", urlencode(query), ""))
