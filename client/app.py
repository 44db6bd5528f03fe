"""The full-screen table: ``muggins play``'s Textual app.

Attributes down, messages up: the connection posts :class:`ServerMessageReceived`, the app
feeds it to its :class:`Session` and then sets each widget's attribute from the session; the
widgets post what the player chose, and the app sends it to the server. Widgets never touch
the network.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import ClassVar

from pydantic import BaseModel
from rich.text import Text
from textual import events, work
from textual.app import App, ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import Horizontal, Vertical
from textual.geometry import Size
from textual.widgets import ContentSwitcher, Footer, Header, Input, RichLog, Static

from muggins.client.connection import Connection, LinkStatus
from muggins.client.link import Link
from muggins.client.lobby import LobbyScreen
from muggins.client.messages import LinkChanged, ServerMessageReceived
from muggins.client.moderation import USAGE, moderation_command
from muggins.client.prompts import need, show_prompt, unplayable
from muggins.client.screens import ConfirmScreen, GameOverScreen, HelpScreen, ReviewScreen
from muggins.client.session import Goal, Session
from muggins.client.texts import room_text, status_text, waiting_text
from muggins.client.widgets.hand import Hand
from muggins.client.widgets.pegboard import Board, Pegboard
from muggins.client.widgets.show import ShowPanel, ShowState
from muggins.client.widgets.table import PlayArea, PlayState
from muggins.shared.actions import Action, Discard, Play
from muggins.shared.bots.coach import advise
from muggins.shared.invocation import play_command
from muggins.shared.protocol import (
    AcceptCount,
    AnswerRestart,
    CallMuggins,
    ChallengeCount,
    Chat,
    Claim,
    CountPoints,
    DiscardCards,
    Error,
    GameOver,
    PlayCard,
    ProposeRestart,
    Rematch,
    ResignGame,
    Room,
    Rooms,
    SeatBot,
    ServerMessage,
    State,
    Welcome,
    to_action,
)
from muggins.shared.protocol.accounts import Account, Seeking
from muggins.shared.view import SeatView

NARROW = 110
"""Below this width the log and chat column is hidden."""
SHORT = 36
"""Below this height the board and the table are drawn compactly."""


class MugginsApp(App[None]):
    """A seat (or a spectator's chair) at one table on a Muggins server."""

    CSS_PATH = "app.tcss"
    TITLE = "Muggins"
    BINDINGS: ClassVar[list[BindingType]] = [
        *(Binding(str(n), f"pick({n - 1})", "Choose", show=False) for n in range(1, 7)),
        Binding("enter", "submit", "Lay away / play"),
        Binding("m,M", "muggins", "Muggins!", show=False),
        Binding("a,A", "accept", "Accept", show=False),
        Binding("x,X", "challenge", "Challenge", show=False),
        Binding("h,H", "hint", "Hint"),
        Binding("d,D", "details", "Count details", show=False),
        Binding("c,C", "chat", "Chat"),
        Binding("escape", "table", "Back to the table", show=False),
        Binding("question_mark,f1", "help", "Help"),
        Binding("r,R", "resign", "Resign"),
        Binding("n,N", "restart", "Restart"),
        Binding("q,Q", "quit_game", "Quit"),
        Binding("w,W", "claim('win')", "Claim", show=False),
        Binding("b,B", "claim('bot')", "Seat computer", show=False),
    ]

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

    @work(group="send")
    async def send(self, message: BaseModel) -> None:
        view = self.session.view
        if isinstance(message, DiscardCards | PlayCard | CountPoints) and view is not None:
            self.decisions.append((view, to_action(message)))
        if not await self.link.send(message):
            self.error = "Not connected: that was not sent. Try again once reconnected."
            self.refresh_status()

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

    # --- actions (keys) --------------------------------------------------------------------------

    def action_pick(self, index: int) -> None:
        self.query_one(Hand).toggle(index)

    def action_submit(self) -> None:
        hand = self.query_one(Hand)
        # Enter leaves the last deal's show unless it lays away or plays the chosen cards; with
        # nothing to choose (a spectator, or not this seat's move) it always leaves the show.
        if self._reviewable() and (hand.need == 0 or len(hand.selected) != hand.need):
            self.reviewed |= self._reviewable()
            self.refresh_table()
            return
        hand.submit()

    def action_muggins(self) -> None:
        if show_prompt(self.session.view) == "answer":
            self.send(CallMuggins(seq=self.session.seq))

    def action_accept(self) -> None:
        if show_prompt(self.session.view) == "answer":
            self.send(AcceptCount(seq=self.session.seq))

    def action_challenge(self) -> None:
        if show_prompt(self.session.view) == "answer":
            self.send(ChallengeCount(seq=self.session.seq))

    def action_hint(self) -> None:
        """Ask the coach; its choice of cards is selected in the hand, ready for Enter."""
        view = self.session.view
        self.clear_notifications()  # one note at a time: a new hint replaces the last
        if not self.hints:
            self.notify("Hints are turned off.", severity="warning")
            return
        if view is None or not view.legal:
            self.notify("Nothing to advise: it is not your move.")
            return
        advice = advise(view)
        self.notify(advice.explanation, title="Coach", timeout=8)
        hand = self.query_one(Hand)
        action = advice.action
        chosen = (
            action.cards
            if isinstance(action, Discard)
            else ((action.card,) if isinstance(action, Play) else ())
        )
        if chosen:
            hand.selected = frozenset(hand.cards.index(c) for c in chosen if c in hand.cards)

    def action_details(self) -> None:
        """Show or hide each count of the show part by part."""
        self.show_details = not self.show_details
        self._refresh_middle()

    def action_chat(self) -> None:
        self.query_one("#chat", Input).focus()

    def action_table(self) -> None:
        self.query_one(Hand).focus()

    def action_help(self) -> None:
        self.push_screen(HelpScreen())

    def confirm(self, question: str, then: Callable[[], object]) -> None:
        """Ask first; do ``then`` only on yes."""

        def answer(yes: bool | None) -> None:
            if yes:
                then()

        self.push_screen(ConfirmScreen(question), answer)

    def action_resign(self) -> None:
        """R: resign the game; once the match is over (as the prompt says), a rematch."""
        view = self.session.view
        if self.session.seat is not None and view is not None and view.phase == "match_over":
            self.send(Rematch(seq=self.session.seq))
        elif self.session.seat is not None:
            self.confirm("Resign this game?", lambda: self.send(ResignGame(seq=self.session.seq)))

    def action_restart(self) -> None:
        if self.session.seat is not None:
            question = "Start the match again with a new deal?"
            self.confirm(question, lambda: self.send(ProposeRestart(seq=self.session.seq)))

    def action_quit_game(self) -> None:
        question = (
            f"Quit? The game is saved: run {play_command()} again to carry on."
            if self.embedded
            else "Quit? Your seat is kept for a while: run the same command to come back."
        )
        self.confirm(question, self.exit)

    def action_claim(self, take: str) -> None:
        room = self.session.room
        if room is None or room.you is None:
            return
        other = room.seats[1 - room.you]
        if other.kind == "human" and not other.connected:
            self.send(Claim(take="bot" if take == "bot" else "win", seq=self.session.seq))
        elif other.kind == "empty" and take == "bot":
            self.send(SeatBot())

    def ask_restart(self, room: Room) -> None:
        proposer = room.restart_proposed_by
        if proposer is None or proposer == room.you or self.restart_asked == room.match_number:
            return
        self.restart_asked = room.match_number

        def answer(yes: bool | None) -> None:
            self.send(AnswerRestart(accept=bool(yes), seq=self.session.seq))

        name = self.session.names[proposer]
        self.push_screen(ConfirmScreen(f"{name} proposes to restart the match. Agree?"), answer)

    def show_game_over(self, message: GameOver, seq: int) -> None:
        key = (self.session.room.match_number if self.session.room else 0, seq)
        if key in self.game_over_shown:
            return
        self.game_over_shown.add(key)
        self.clear_notifications()  # nothing over the result

        def chosen(choice: str | None) -> None:
            if choice == "rematch":
                self.send(Rematch(seq=self.session.seq))
            elif choice == "quit":
                self.exit()
            elif choice == "review":
                self.push_screen(ReviewScreen(self.review_text(message.outcome.game_number)))

        screen = GameOverScreen(message, you=self.session.seat, names=self.session.names)
        self.push_screen(screen, chosen)

    def review_text(self, game_number: int) -> str:
        """The coach's review of this seat's decisions in game ``game_number``."""
        from muggins.shared.bots.review import format_review, review_decisions

        moves = [(v, a) for v, a in self.decisions if v.game_number == game_number]
        if not moves:
            return "Nothing to review: no decision of yours was seen in this game."
        review = review_decisions(moves, self.session.names)
        return format_review(review, title=f"Review of game {game_number}")

    # --- attributes down -------------------------------------------------------------------------

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
