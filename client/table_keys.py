"""What the player's keys do at the table (each binding's ``action_*``), and the questions
and screens they lead to: confirming, agreeing to a restart, the game's end and its review.
A layer of ``muggins play``'s app (:mod:`client.app`) over the table it draws."""

from __future__ import annotations

from collections.abc import Callable
from typing import ClassVar

from pydantic import BaseModel
from textual import work
from textual.binding import Binding, BindingType
from textual.widgets import Input

from muggins.client.link import Link
from muggins.client.prompts import show_prompt
from muggins.client.screens import ConfirmScreen, GameOverScreen, HelpScreen, ReviewScreen
from muggins.client.table_view import TableView
from muggins.client.widgets.hand import Hand
from muggins.shared.actions import Action, Discard, Play
from muggins.shared.bots.coach import advise
from muggins.shared.invocation import play_command
from muggins.shared.protocol import (
    AcceptCount,
    AnswerRestart,
    CallMuggins,
    ChallengeCount,
    Claim,
    CountPoints,
    DiscardCards,
    GameOver,
    PlayCard,
    ProposeRestart,
    Rematch,
    ResignGame,
    Room,
    SeatBot,
    to_action,
)
from muggins.shared.view import SeatView


class TableKeys(TableView):
    """The keys of the table, and what this seat sends."""

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

    link: Link
    decisions: list[tuple[SeatView, Action]]
    restart_asked: int | None
    game_over_shown: set[tuple[int, int]]
    hints: bool
    embedded: bool

    @work(group="send")
    async def send(self, message: BaseModel) -> None:
        view = self.session.view
        if isinstance(message, DiscardCards | PlayCard | CountPoints) and view is not None:
            self.decisions.append((view, to_action(message)))
        if not await self.link.send(message):
            self.error = "Not connected: that was not sent. Try again once reconnected."
            self.refresh_status()

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
