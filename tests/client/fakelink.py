"""An in-process stand-in for a server: one table against the easiest computer, no sockets.

Only for widget tests that need no network; the game tests use the real server.
"""

from __future__ import annotations

from collections.abc import Callable

from pydantic import BaseModel

from muggins.client.connection import LinkStatus
from muggins.server.rooms.step_states import StepStates
from muggins.shared.actions import GameOptions, IllegalAction
from muggins.shared.bots import make_strategy
from muggins.shared.match import Match
from muggins.shared.protocol import (
    PROTOCOL_VERSION,
    CreateRoom,
    Error,
    GameOver,
    Hello,
    Room,
    RoomOptions,
    SeatBot,
    SeatInfo,
    ServerMessage,
    State,
    Welcome,
    to_action,
)

NAMES = ("Ann", "Computer")


class FakeLink:
    def __init__(
        self,
        on_message: Callable[[ServerMessage], None],
        *,
        seed: int = 1,
        options: GameOptions | None = None,
        on_status: Callable[[LinkStatus], None] | None = None,
    ) -> None:
        self.on_status = on_status
        self.token: str | None = None
        self.on_message = on_message
        self.options = options or GameOptions()
        self.match = Match(seed=seed, options=self.options)
        self.bot = make_strategy("easy", seed=seed)
        self.seq = 0
        self.bot_seated = False

    async def run(self) -> None:
        """Like a connection: say welcome, as the server does after hello."""
        if self.on_status is not None:
            self.on_status(LinkStatus("connected"))
        await self.send(Hello(name="Ann", protocol=PROTOCOL_VERSION))

    async def close(self) -> None:
        return None

    def room(self) -> Room:
        bot = SeatInfo(seat=1, name="Computer", kind="bot", level="easy", connected=True)
        empty = SeatInfo(seat=1, name=None, kind="empty", connected=False)
        return Room(
            code="ABCDEF",
            options=RoomOptions(game=self.options, private=True),
            seats=(
                SeatInfo(seat=0, name="Ann", kind="human", connected=True),
                bot if self.bot_seated else empty,
            ),
            spectators=0,
            you=0,
            status="playing" if self.bot_seated else "waiting",
            match_number=1,
        )

    def state(self) -> None:
        self.on_message(State(seq=self.seq, view=self.match.view(0)))

    async def send(self, message: BaseModel) -> bool:
        if isinstance(message, Hello):
            self.on_message(
                Welcome(
                    player="p1",
                    name=message.name,
                    token="t",
                    protocol=PROTOCOL_VERSION,
                    server="fake",
                    levels=("easy",),
                    resumed=False,
                )
            )
        elif isinstance(message, CreateRoom):
            self.on_message(self.room())
        elif isinstance(message, SeatBot):
            self.bot_seated = True
            self.on_message(self.room())
            self.state()
        else:
            try:
                self.apply(0, to_action(message))  # type: ignore[arg-type]
            except IllegalAction as error:
                self.on_message(Error(code="illegal", message=str(error)))
                return True
            while 1 in self.match.waiting_for():
                self.apply(1, self.bot.choose(self.match.view(1)))
        return True

    def apply(self, seat: int, action: object) -> None:
        events = self.match.apply(seat, action)  # type: ignore[arg-type]
        self.seq += 1
        # The state the server sends after a step: its events inside, brief.
        self.on_message(StepStates(self.match, self.seq, events, NAMES)(0))


__all__ = ["FakeLink", "GameOver"]
