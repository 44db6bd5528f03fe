"""What the app needs of a link to a server, so tests and the plain mode can supply their own."""

from __future__ import annotations

from typing import Protocol

from pydantic import BaseModel


class Link(Protocol):
    token: str | None

    async def run(self) -> None:
        """Stay connected (reconnecting as needed) until closed."""

    async def send(self, message: BaseModel) -> bool:
        """Send one message; False if the link is down."""
        ...

    async def close(self) -> None: ...
