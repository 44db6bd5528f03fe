"""Frames the server writes itself: byte for byte what websockets writes."""

from __future__ import annotations

import pytest
from websockets.frames import Frame, Opcode
from websockets.protocol import Protocol, Side

from muggins.server.net.frames import text_frame


@pytest.mark.parametrize("length", [0, 1, 125, 126, 127, 1300, 65535, 65536, 70000])
def test_a_text_frame_is_what_websockets_writes(length: int) -> None:
    """Every length encoding (7 bits, 16 bits, 64 bits) and the bounds between them."""
    data = ("é" * length).encode()[:length]
    sender = Protocol(Side.SERVER)
    sender.send_text(data)
    assert text_frame(data) == b"".join(sender.data_to_send())
    assert text_frame(data) == Frame(Opcode.TEXT, data).serialize(mask=False)


def test_a_client_reads_the_frame_back() -> None:
    data = b'{"type":"pong","id":7}'
    reader = Protocol(Side.CLIENT, max_size=None)
    reader.receive_data(text_frame(data) + text_frame(b"x" * 70000))
    first, second = reader.events_received()
    assert first.opcode is Opcode.TEXT and first.fin and first.data == data
    assert second.data == b"x" * 70000
