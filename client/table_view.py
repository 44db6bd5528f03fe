"""The table drawn from the session: "attributes down" for ``muggins play``'s app
(:mod:`client.app`). Each widget's attribute is set from the latest view, the room and the log;
nothing here reads a key or touches the network."""

from __future__ import annotations

from rich.text import Text
from textual import events
from textual.app import App
from textual.geometry import Size
from textual.widgets import ContentSwitcher, Input, RichLog, Static

from muggins.client.connection import LinkStatus
from muggins.client.prompts import need, show_prompt, unplayable
from muggins.client.session import Session
from muggins.client.texts import room_text, status_text, waiting_text
from muggins.client.widgets.hand import Hand
from muggins.client.widgets.pegboard import Board, Pegboard
from muggins.client.widgets.show import ShowPanel, ShowState
from muggins.client.widgets.table import PlayArea, PlayState

NARROW = 110
"""Below this width the log and chat column is hidden."""
SHORT = 36
"""Below this height the board and the table are drawn compactly."""


class TableView(App[None]):
    """The widgets of the table, set from the session whenever it changes."""

    url: str
    session: Session
    link_status: LinkStatus
    logged: int
    seen_commitments: set[str]
    reviewed: set[str]
    error: str
    show_details: bool
    terminal: Size | None

    @property
    def short(self) -> bool:
        """A screen too short for the full board and the card pictures."""
        return (self.terminal or self.size).height < SHORT

    def on_resize(self, event: events.Resize) -> None:
        # Lay out for the size in the event: the app's own size may not have caught up yet,
        # which left the table one resize behind.
        self.terminal = event.size
        self.screen.set_class(event.size.width < NARROW, "-narrow")
        self.screen.set_class(event.size.height < SHORT, "-short")
        self.refresh_table()

    def _reviewable(self) -> set[str]:
        """The finished deal whose show the player has not yet dismissed, if any."""
        view = self.session.view
        if view is None or view.last_deal is None or not view.last_deal.show:
            return set()
        commitment = view.last_deal.reveal.commitment
        if commitment in self.reviewed or commitment not in self.seen_commitments:
            return set()
        return {commitment}

    def refresh_table(self) -> None:
        session, view = self.session, self.session.view
        names = session.names
        you = session.seat if session.seat is not None else 0
        if view is not None:
            self.seen_commitments.add(view.commitment)
            shown = list(names)
            if session.seat is not None:
                shown[session.seat] = "You"
            self.query_one(Pegboard).board = Board.of(
                view, names=(shown[0], shown[1]), you=you, street=60 if self.short else 30
            )
        self.query_one(PlayArea).compact = self.short
        self.query_one(PlayArea).table = PlayState(
            view=view, names=names, announcements=tuple(session.announcements)
        )
        hand = self.query_one(Hand)
        hand.cards = view.hand if view else ()
        hand.need = need(view)
        hand.dimmed = unplayable(view)
        watching = view is not None and session.seat is None
        hand.hidden = view.hand_counts[0] if watching and view is not None else 0
        hand.border_title = f"{names[0]}'s hand (you are watching)" if watching else "Your hand"
        self._refresh_middle()
        self._refresh_side()
        self.refresh_status()

    def _refresh_middle(self) -> None:
        session, view = self.session, self.session.view
        switcher = self.query_one("#middle", ContentSwitcher)
        panel = self.query_one(ShowPanel)
        room = session.room
        if room is not None and room.status == "waiting" and room.you is not None:
            switcher.current = "waiting"
            self.query_one("#waiting", Static).update(waiting_text(self.session, room, self.url))
        elif view is not None and view.phase == "show":
            panel.state = ShowState(
                results=view.show,
                names=session.names,
                you=session.seat,
                title=self._show_title(view.game_number, view.deal_number),
                prompt=show_prompt(view),
                compact=self.short,
                details=self.show_details,
            )
            switcher.current = "show"
        elif self._reviewable() and view is not None and view.last_deal is not None:
            last = view.last_deal
            panel.state = ShowState(
                results=last.show,
                names=session.names,
                you=session.seat,
                title=self._show_title(view.game_number, last.deal_number),
                compact=self.short,
                details=self.show_details,
            )
            switcher.current = "show"
        else:
            switcher.current = "play"
        count = self.query_one("#count", Input)
        if self.focused is count and (not count.display or switcher.current != "show"):
            self.query_one(Hand).focus()  # the count is in: back to the cards

    def _show_title(self, game: int, deal: int) -> str:
        """The show's heading, with the play's last call, which the show replaces on screen."""
        call = self.session.last_calls.get((game, deal))
        return f"The show of deal {deal}" + (f"   · last call of the play: {call}" if call else "")

    def _refresh_side(self) -> None:
        room = self.session.room
        self.query_one("#match", Static).update(room_text(self.session))
        self._refresh_log()
        if room is not None:
            self.sub_title = f"room {room.code}"

    def _refresh_log(self) -> None:
        session = self.session
        log = self.query_one(RichLog)
        for line in session.log[self.logged :]:
            style = "bold red" if line.startswith("WARNING") else ""
            log.write(Text(line, style=style))
        self.logged = len(session.log)

    def refresh_status(self) -> None:
        status = status_text(self.session, self.link_status, self.error)
        for line in self.query("#status").results(Static):  # none while the app closes
            line.update(status)
