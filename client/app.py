"""The full-screen table: ``muggins play``'s Textual app.

Attributes down, messages up: the connection posts :class:`ServerMessageReceived`, the app
feeds it to its :class:`Session` and then sets each widget's attribute from the session; the
widgets post what the player chose, and the app sends it to the server. Widgets never touch
the network.

The app is put together from layers, each in its own module: :mod:`client.table_view` draws the
table from the session (attributes down), :mod:`client.table_keys` holds the keys and what they
send, and this one the layout, the connection and the messages up.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence

from textual import work
from textual.app import ComposeResult
from textual.containers import Horizontal, Vertical
from textual.geometry import Size
from textual.widgets import ContentSwitcher, Footer, Header, Input, RichLog, Static

from muggins.client.connection import Connection, LinkStatus
from muggins.client.link import Link
from muggins.client.lobby import LobbyScreen
from muggins.client.messages import LinkChanged, ServerMessageReceived
from muggins.client.moderation import USAGE, moderation_command
from muggins.client.session import Goal, Session
from muggins.client.table_keys import TableKeys
from muggins.client.widgets.hand import Hand
from muggins.client.widgets.pegboard import Pegboard
from muggins.client.widgets.show import ShowPanel
from muggins.client.widgets.table import PlayArea
from muggins.shared.actions import Action
from muggins.shared.protocol import (
    Chat,
    CountPoints,
    DiscardCards,
    Error,
    PlayCard,
    Room,
    Rooms,
    ServerMessage,
    State,
    Welcome,
)
from muggins.shared.protocol.accounts import Account, Seeking
from muggins.shared.view import SeatView


class MugginsApp(TableKeys):
    """A seat (or a spectator's chair) at one table on a Muggins server."""

    CSS_PATH = "app.tcss"
    TITLE = "Muggins"

    def __init__(
        self,
        *,
        url: str,
        urls: Sequence[str] = (),
        name: str,
        goal: Goal | None = None,
        link: Link | None = None,
        hint: bool = True,
        embedded: bool = False,
        remember: Callable[[str | None, Session], None] | None = None,
    ) -> None:
        super().__init__()
        self.url = url
        self.session = Session(name=name, goal=goal or Goal())
        self.link: Link = link or Connection(
            urls or url,
            name=name,
            on_message=self.post_server_message,
            on_status=self.post_link_status,
            room=self.session.goal.code or None,
        )
        self.link_status = LinkStatus("connecting")
        self.logged = 0
        self.seen_commitments: set[str] = set()
        self.reviewed: set[str] = set()
        self.game_over_shown: set[tuple[int, int]] = set()
        self.decisions: list[tuple[SeatView, Action]] = []
        """This seat's moves with the views they were made from, for the review after a game."""
        self.restart_asked: int | None = None
        self.error = ""
        self.show_details = False
        self.terminal: Size | None = None
        """The terminal's size as of the latest resize."""
        self.hints = hint
        self.embedded = embedded
        self.remember = remember
        """Called with the resume token whenever the seat changes, so a crash loses nothing."""

    # --- layout ----------------------------------------------------------------------------------

    def compose(self) -> ComposeResult:
        yield Header(show_clock=False, icon="♣")
        with Horizontal(id="main"):
            with Vertical(id="left"):
                yield Pegboard(id="board")
                with ContentSwitcher(initial="play", id="middle"):
                    yield PlayArea(id="play")
                    yield ShowPanel(id="show")
                    yield Static(id="waiting")
                yield Hand(id="hand")
            with Vertical(id="right"):
                yield Static(id="match")
                yield RichLog(id="log", wrap=True, markup=False, auto_scroll=True, min_width=20)
                yield Input(placeholder="C to chat, Enter to send", id="chat", max_length=300)
        yield Static(id="status")
        yield Footer()

    def on_mount(self) -> None:
        self.query_one("#board").border_title = "Pegboard"
        self.query_one("#middle").border_title = "Table"
        self.query_one("#hand").border_title = "Your hand"
        self.query_one("#log").border_title = "Log"
        self.query_one(Hand).focus()
        if self.session.goal.kind == "lobby":
            self.push_screen(LobbyScreen(url=self.url, name=self.session.name))
        self.refresh_table()
        self.connect()
        self.set_interval(1.0, self.refresh_status)

    @work(exclusive=True, group="link")
    async def connect(self) -> None:
        await self.link.run()

    async def on_unmount(self) -> None:
        await self.link.close()

    def post_server_message(self, message: ServerMessage) -> None:
        self.post_message(ServerMessageReceived(message))

    def post_link_status(self, status: LinkStatus) -> None:
        self.post_message(LinkChanged(status))

    # --- messages up -----------------------------------------------------------------------------

    def on_server_message_received(self, event: ServerMessageReceived) -> None:
        message = event.message
        for reply in self.session.receive(message):
            self.send(reply)
        if isinstance(message, Error):
            self.error = message.message
            self.bell()
        elif not isinstance(message, Rooms):
            self.error = ""
        if isinstance(message, Rooms) and isinstance(self.screen, LobbyScreen):
            self.screen.show_rooms(message)
        if isinstance(message, Error) and isinstance(self.screen, LobbyScreen):
            self.screen.show_status(message.message)
        if isinstance(message, Seeking | Account) and isinstance(self.screen, LobbyScreen):
            self.screen.show_status(self.session.log[-1] if self.session.log else "")
        resumed = isinstance(message, Welcome) and message.resumed  # the old token is spent
        if (isinstance(message, Room) or resumed) and self.remember is not None:
            self.remember(self.link.token, self.session)
        if isinstance(message, Room):
            if isinstance(self.screen, LobbyScreen):
                self.pop_screen()
            self.ask_restart(message)
        self.refresh_table()
        if isinstance(message, State) and message.game_over is not None:
            self.show_game_over(message.game_over, message.seq)

    def on_link_changed(self, event: LinkChanged) -> None:
        if event.status.state == "connected" and self.link_status.state == "reconnecting":
            self.session.log.append("Reconnected.")
            self._refresh_log()
        elif event.status.state == "reconnecting" and self.link_status.state == "connected":
            self.session.log.append(f"Connection lost: {event.status.detail or 'reconnecting'}")
            self._refresh_log()
        if event.status.state == "replaced":
            self.session.log.append("Stopped: " + event.status.sentence())
            self._refresh_log()
            self.bell()
        self.link_status = event.status
        self.refresh_status()

    def on_lobby_screen_chosen(self, event: LobbyScreen.Chosen) -> None:
        self.send(event.request)

    def on_hand_submitted(self, event: Hand.Submitted) -> None:
        self.clear_notifications()  # the hint was for this move
        self.reviewed |= self._reviewable()
        if len(event.cards) == 2:
            self.send(DiscardCards(cards=event.cards, seq=self.session.seq))
        else:
            self.send(PlayCard(card=event.cards[0], seq=self.session.seq))
        self.refresh_table()

    def on_hand_refused(self, event: Hand.Refused) -> None:
        self.error = event.reason
        self.refresh_status()

    def on_show_panel_counted(self, event: ShowPanel.Counted) -> None:
        self.send(CountPoints(points=event.points, seq=self.session.seq))

    def on_show_panel_refused(self, event: ShowPanel.Refused) -> None:
        self.error = event.reason
        self.bell()
        self.refresh_status()

    def on_input_submitted(self, event: Input.Submitted) -> None:
        if event.input.id == "chat" and event.value.strip():
            text = event.value.strip()
            room = self.session.room.code if self.session.room else None
            asked = moderation_command(text[1:], room=room) if text.startswith("/") else None
            if text.startswith("/") and asked is None:
                self.error = f"Type {USAGE}"
                self.refresh_status()
                return
            self.send(asked or Chat(text=text))
            event.input.value = ""
