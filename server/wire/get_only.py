"""A connection that answers a request other than GET or HEAD with 405 and closes.

It overrides ``data_received``, the asyncio protocol's method that websockets does not document
overriding, so it belongs with :mod:`~server.wire.ws_internals`; it sits apart because it must
stay interpreted. mypyc compiles a subclass of websockets' Python class into a native class
whose attributes lie past the end of the Python instance, and writing them corrupts the heap
(the compiled build crashed in garbage collection). setup.py's ``COMPILED`` leaves this file out.
"""

from __future__ import annotations

from websockets.asyncio.server import ServerConnection

_METHODS = (b"GET ", b"HEAD ")
_NOT_ALLOWED = (
    b"HTTP/1.1 405 Method Not Allowed\r\n"
    b"Allow: GET, HEAD\r\n"
    b"Content-Type: text/plain; charset=utf-8\r\n"
    b"X-Content-Type-Options: nosniff\r\n"
    b"Content-Length: 23\r\n"
    b"Connection: close\r\n\r\n"
    b"only GET and HEAD here\n"
)


class GetOnlyConnection(ServerConnection):
    """Answers a request other than GET or HEAD with 405, then closes.

    websockets reads any method, and drops a request with a body without a status line; the
    method is read here, from the first bytes, before websockets sees them (``data_received``
    is the asyncio protocol's, which websockets does not document overriding).
    """

    _start = b""
    _checked = False

    def data_received(self, data: bytes) -> None:
        if not self._checked:
            start = self._start + data[:8]
            if any(method.startswith(start[: len(method)]) for method in _METHODS):
                if len(start) < max(len(m) for m in _METHODS) and b" " not in start:
                    self._start = start  # too short to tell yet (a request sent byte by byte)
                elif not start.startswith(_METHODS):
                    self._refuse()
                    return
                else:
                    self._checked = True
            else:
                self._refuse()
                return
        super().data_received(data)

    def _refuse(self) -> None:
        self._checked = True
        self.transport.write(_NOT_ALLOWED)
        self.transport.close()
