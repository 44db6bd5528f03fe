"""WebSocket frames made by hand, byte for byte as websockets makes them.

The plain twin is websockets' own framing (``protocol.send_text``); ``tests/server/test_frames.py``
checks this against it for every length class.
"""

from __future__ import annotations


def text_frame(data: bytes) -> bytes:
    """A server's unmasked, unfragmented, uncompressed text frame of ``data`` (UTF-8), byte for
    byte what websockets writes for it (RFC 6455 section 5.2): FIN and opcode 1, then the
    length in 7 bits, or 126 and 16 bits, or 127 and 64 bits, then the payload."""
    length = len(data)
    if length < 126:
        return bytes((0x81, length)) + data
    if length < 65536:
        return b"\x81\x7e" + length.to_bytes(2, "big") + data
    return b"\x81\x7f" + length.to_bytes(8, "big") + data
