"""The lobby of a remote server: create a room, join one by code, list open rooms, or watch."""

from __future__ import annotations

from typing import ClassVar

from rich.text import Text
from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import Horizontal, Vertical
from textual.message import Message
from textual.screen import Screen
from textual.widgets import Button, Checkbox, DataTable, Footer, Input, Select, Static

from muggins.shared.actions import GameOptions
from muggins.shared.protocol import (
    ClientMessage,
    CreateRoom,
    JoinRoom,
    ListRooms,
    RoomOptions,
    Rooms,
    Spectate,
)
from muggins.shared.protocol.accounts import Seek
from muggins.shared.protocol.client import LIST_MAX


def describe_options(options: RoomOptions) -> str:
    game = options.game
    parts = [f"to {game.target}"]
    if game.muggins:
        parts.append("muggins")
    if game.match_to > 1:
        parts.append(f"match to {game.match_to}")
    if options.turn_timer:
        parts.append(f"{options.turn_timer}s a move")
        if options.turn_bank:
            parts.append(f"{options.turn_bank}s bank")
    if options.rated:
        parts.append("rated")
    return ", ".join(parts)


CLOCKS = [("no clock", 0), ("30 s a move", 30), ("60 s a move", 60), ("2 min a move", 120)]
BANKS = [("no bank", 0), ("+ 1 min bank", 60), ("+ 3 min bank", 180), ("+ 5 min bank", 300)]
"""A room's clock: each move's seconds, then a bank for the match (with a clock only)."""


class LobbyScreen(Screen[None]):
    """Choices before a game. Each choice goes up as a :class:`LobbyScreen.Chosen` message."""

    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("f5", "refresh", "Refresh rooms"),
        Binding("ctrl+q", "app.quit", "Quit"),
    ]

    class Chosen(Message):
        def __init__(self, request: ClientMessage) -> None:
            super().__init__()
            self.request = request

    def __init__(self, *, url: str, name: str) -> None:
        super().__init__()
        self.url = url
        self.player_name = name

    def compose(self) -> ComposeResult:
        with Vertical(id="lobby"):
            yield Static(
                Text.assemble(
                    ("Muggins lobby", "bold"),
                    f"   {self.url}   playing as ",
                    (self.player_name, "bold"),
                )
            )
            with Horizontal(classes="lobby-row"):
                yield Button("Create a room", id="create", variant="primary")
                yield Select(
                    [("game to 121", 121), ("game to 61", 61)],
                    value=121,
                    allow_blank=False,
                    id="target",
                )
                yield Checkbox("Muggins (count your own)", id="muggins")
                yield Checkbox("Private (code only)", id="private")
                yield Select(CLOCKS, value=0, allow_blank=False, id="clock")
                yield Select(BANKS, value=0, allow_blank=False, id="bank")
            with Horizontal(classes="lobby-row"):
                yield Input(placeholder="room code, e.g. KXPWTR", id="code", max_length=12)
                yield Button("Join", id="join", variant="success")
                yield Button("Watch", id="watch")
                yield Button("Play a rated game", id="rated", variant="warning")
                yield Checkbox("People only", id="people-only")
                yield Checkbox("Duplicate", id="duplicate")
            yield Static(Text("Open rooms (Enter on a row joins it, or watches a full one)"))
            yield DataTable(id="rooms", cursor_type="row")
            yield Static(id="lobby-status")
        yield Footer()

    def on_mount(self) -> None:
        table = self.query_one(DataTable)
        table.add_columns("code", "players", "rules", "status", "watching")
        self.action_refresh()

    def action_refresh(self) -> None:
        self.post_message(self.Chosen(ListRooms(limit=LIST_MAX)))

    def show_rooms(self, rooms: Rooms) -> None:
        table = self.query_one(DataTable)
        table.clear()
        for room in rooms.rooms:
            players = " vs ".join(name or "(open seat)" for name in room.names)
            table.add_row(
                room.code,
                players,
                describe_options(room.options),
                room.status,
                str(room.spectators),
                key=f"{room.code}:{int(room.open_seat)}",
            )
        if not rooms.rooms:
            self.show_status("No open rooms yet: create one.")

    def show_status(self, text: str) -> None:
        self.query_one("#lobby-status", Static).update(Text(text, style="yellow"))

    def on_button_pressed(self, event: Button.Pressed) -> None:
        if event.button.id == "create":
            target = self.query_one("#target", Select).value
            game = GameOptions(
                target=121 if target != 61 else 61,
                muggins=self.query_one("#muggins", Checkbox).value,
            )
            private = self.query_one("#private", Checkbox).value
            clock = self.query_one("#clock", Select).value
            bank = self.query_one("#bank", Select).value
            timer = clock if isinstance(clock, int) and clock else None
            options = RoomOptions(
                game=game,
                private=private,
                turn_timer=timer,
                turn_bank=bank if timer and isinstance(bank, int) and bank else None,
            )
            self.post_message(self.Chosen(CreateRoom(options=options)))
            return
        if event.button.id == "rated":
            people_only = self.query_one("#people-only", Checkbox).value
            duplicate = self.query_one("#duplicate", Checkbox).value
            self.post_message(self.Chosen(Seek(people_only=people_only, duplicate=duplicate)))
            return
        code = self.query_one("#code", Input).value.strip().upper()
        if len(code) < 4 or not code.isalpha():
            self.show_status("Type the room code your friend gave you (letters only).")
            return
        join = event.button.id == "join"
        request: ClientMessage = JoinRoom(code=code) if join else Spectate(code=code)
        self.post_message(self.Chosen(request))

    def on_input_submitted(self, event: Input.Submitted) -> None:
        self.query_one("#join", Button).press()

    def on_data_table_row_selected(self, event: DataTable.RowSelected) -> None:
        key = event.row_key.value or ""
        code, open_seat = key.split(":")
        request: ClientMessage = JoinRoom(code=code) if open_seat == "1" else Spectate(code=code)
        self.post_message(self.Chosen(request))
