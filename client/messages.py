"""Messages the connection posts to the app (messages up; the app sets attributes down)."""

from __future__ import annotations

from textual.message import Message

from muggins.client.connection import LinkStatus
from muggins.shared.protocol import ServerMessage


class ServerMessageReceived(Message):
    """One validated message from the server."""

    def __init__(self, message: ServerMessage) -> None:
        super().__init__()
        self.message = message


class LinkChanged(Message):
    """The link to the server went up, down, or is being retried."""

    def __init__(self, status: LinkStatus) -> None:
        super().__init__()
        self.status = status
