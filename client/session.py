"""What the client knows of its table, built only from server messages.

A :class:`Session` takes every message the server sends, keeps the latest room and view, turns
events into the log and the spoken announcements, checks each revealed deal against its
commitment, and says which messages to send back on its own (joining the room the player asked
for, seating the computer). The full-screen app and the plain line mode both draw from it.
"""

from __future__ import annotations

import time
from dataclasses import dataclass, field
from typing import Literal

from muggins.client.clock import clock_text
from muggins.shared.actions import CardPlayed, CountReset, Go, Scored
from muggins.shared.duplicate import HandComparison
from muggins.shared.fairness import verify_deal
from muggins.shared.invocation import websocket_url
from muggins.shared.protocol import (
    ChatLine,
    ClientMessage,
    CreateRoom,
    DuplicateResult,
    Error,
    EventLine,
    GameOver,
    JoinRoom,
    Left,
    Notice,
    Room,
    RoomOptions,
    Rooms,
    SeatBot,
    SeatClock,
    ServerMessage,
    Spectate,
    State,
    Welcome,
)
from muggins.shared.protocol.accounts import Account, Seek, Seeking, SignIn
from muggins.shared.protocol.moderation import Moderated, Sanctioned
from muggins.shared.protocol.unpack import Unpacker
from muggins.shared.view import DealReveal, SeatView

PEGGED = {"go": "one for the go", "last_card": "one for last card", "heels": "two for his heels"}
GoalKind = Literal["computer", "join", "spectate", "lobby", "seek"]


@dataclass(frozen=True)
class Goal:
    """Where the player wants to be once connected."""

    kind: GoalKind = "lobby"
    code: str = ""
    level: str | None = None
    options: RoomOptions = field(default_factory=lambda: RoomOptions(private=True))
    session: str | None = None
    """An account's session token: the client signs in with it after every hello."""
    best_of: Literal[1, 3] = 1
    """For "seek": a rated match of one game or best of three."""
    duplicate: bool = False
    """For "seek": a duplicate match (two tables on the same deals, the seats swapped)."""


@dataclass
class Fairness:
    """The result of checking one revealed deal."""

    deal_number: int
    ok: bool
    hand_checked: bool

    def sentence(self) -> str:
        if not self.ok:
            return (
                f"WARNING: deal {self.deal_number} does NOT match the server's commitment. "
                "The cards were not dealt from the deck it promised!"
            )
        if self.hand_checked:
            return f"✓ deal {self.deal_number}: the deck and your six cards match the commitment"
        return f"✓ deal {self.deal_number}: the deck matches the commitment"


@dataclass
class Session:
    """The client's picture of its room and game, from server messages alone."""

    name: str
    goal: Goal = field(default_factory=Goal)
    token: str | None = None
    player: str = ""
    levels: tuple[str, ...] = ()
    level_ratings: dict[str, int] = field(default_factory=dict)
    public_url: str | None = None
    """The address the server says players reach it at (its ``--public-url``), if it has one."""
    room: Room | None = None
    rooms: Rooms | None = None
    view: SeatView | None = None
    seq: int = -1
    log: list[str] = field(default_factory=list)
    announcements: list[str] = field(default_factory=list)
    last_calls: dict[tuple[int, int], str] = field(default_factory=dict)
    """The last call of each deal's play by (game, deal), kept for its show."""
    chat: list[str] = field(default_factory=list)
    errors: list[Error] = field(default_factory=list)
    game_over: GameOver | None = None
    fairness: list[Fairness] = field(default_factory=list)
    dealt: dict[str, tuple[str, ...]] = field(default_factory=dict)
    unpacker: Unpacker = field(default_factory=Unpacker)
    """Completes the brief views of this connection's states from the previous one."""
    """Our six dealt cards by deal commitment, to check against the reveal."""
    checked: set[str] = field(default_factory=set)
    """Commitments of the deals already verified."""
    goal_sent: bool = False
    claimable_at: float | None = None
    """When (monotonic clock) the absent opponent's game may be claimed."""
    clock: tuple[SeatClock | None, SeatClock | None] | None = None
    """The turn clock the latest state carried, and when (monotonic clock) it arrived."""
    clock_at: float = 0.0
    bot_asked: str = ""
    """The room we already asked the server to seat the computer in."""
    left: bool = False
    signed_in: bool = False
    duplicate: DuplicateResult | None = None
    """The result of the latest duplicate match played."""

    @property
    def seat(self) -> int | None:
        return self.room.you if self.room else None

    @property
    def names(self) -> tuple[str, str]:
        if self.room is None:
            return (self.name, "Opponent")
        first, second = (s.name or "(empty seat)" for s in self.room.seats)
        return (first, second)

    def opponent_status(self) -> str:
        """The opponent's connection, in words."""
        if self.room is None or self.room.you is None:
            return ""
        other = self.room.seats[1 - self.room.you]
        if other.kind == "empty":
            return "waiting for an opponent"
        if other.kind == "bot":
            return f"vs {other.name or 'the computer'}"
        if other.connected:
            return f"{other.name} connected"
        status = f"{other.name} DISCONNECTED"
        wait = self.claimable_in()
        if wait is not None:
            status += (
                " (you may claim the game: W, or hand the seat to the computer: B)"
                if wait <= 0
                else f" (you may claim the game in {wait:.0f} s)"
            )
        return status

    def clock_text(self) -> str:
        """The turn clock now, in words ("" when none runs)."""
        spent = time.monotonic() - self.clock_at
        return clock_text(self.room, self.clock, spent, self.names)

    def claimable_in(self) -> float | None:
        """Seconds until the absent opponent's game may be claimed (0: now), or None."""
        if self.room is None or self.room.you is None or self.claimable_at is None:
            return None
        return max(0.0, self.claimable_at - time.monotonic())

    def receive(self, message: ServerMessage) -> list[ClientMessage]:
        """Take in one server message; return what to send back on the player's behalf."""
        if isinstance(message, Welcome):
            return self._welcome(message)
        if isinstance(message, Room):
            return self._room(message)
        if isinstance(message, State):
            view = self.unpacker.whole(message)
            if message.seq >= self.seq or self.view is None:
                self.seq = message.seq
                self.clock, self.clock_at = message.clock, time.monotonic()
                for line in message.events:
                    self._event(line)
                over = message.game_over
                if over is not None:
                    self.game_over = over
                    if not self.log or self.log[-1] != over.text:  # its event said it already
                        self.log.append(over.text)
                self._state(view)
        elif isinstance(message, Rooms):
            self.rooms = message
        elif isinstance(message, ChatLine):
            self.chat.append(f"{message.sender}: {message.text}")
            self.log.append(f"💬 {message.sender}: {message.text}")
        elif isinstance(message, Notice | Moderated | Sanctioned):
            self.log.append(message.text)
        elif isinstance(message, Error):
            self.errors.append(message)
        elif isinstance(message, Left):
            self.room, self.view, self.left = None, None, True
        elif isinstance(message, DuplicateResult):
            self.duplicate = message
            self.log.extend(duplicate_lines(message))
        elif isinstance(message, Seeking):
            if message.active:
                self.log.append(
                    f"Looking for a rated opponent near {message.rating:.0f} "
                    f"({'best of three' if message.best_of == 3 else 'one game'}); "
                    "the range widens as you wait"
                )
            else:
                self.log.append("You left the rated queue")
        elif isinstance(message, Account):
            self.name = message.name
            if not self.signed_in:
                self.log.append(signed_in_text(message))
            self.signed_in = True
        return []

    def _welcome(self, message: Welcome) -> list[ClientMessage]:
        self.unpacker = Unpacker()  # a new connection: its first state is whole
        self.token, self.player, self.levels = message.token, message.player, message.levels
        self.level_ratings = dict(message.level_ratings)
        self.public_url = message.public_url
        self.name = message.name
        if message.resumed and message.room:
            if not self.goal_sent:
                self.log.append(f"Welcome back, {message.name}: your game in room {message.room}")
            self.goal_sent = True
            return [SignIn(session=self.goal.session)] if self.goal.session else []
        if self.goal_sent and self.room is not None and self.room.you is None:
            # A spectator holds no seat to resume: watch the same room again, quietly.
            sign_in = [SignIn(session=self.goal.session)] if self.goal.session else []
            return [*sign_in, Spectate(code=self.room.code)]
        if self.goal_sent and self.room is not None:
            self.log.append("The server no longer knows this table; it could not be resumed.")
        self.goal_sent = True
        goal = self.goal
        first: list[ClientMessage] = [SignIn(session=goal.session)] if goal.session else []
        if goal.kind == "computer":
            return [*first, CreateRoom(options=goal.options)]
        if goal.kind == "join":
            return [*first, JoinRoom(code=goal.code)]
        if goal.kind == "spectate":
            return [*first, Spectate(code=goal.code)]
        if goal.kind == "seek":
            return [*first, Seek(best_of=goal.best_of, duplicate=goal.duplicate)]
        return first

    def _room(self, message: Room) -> list[ClientMessage]:
        first = self.room is None or self.room.code != message.code
        if first and self.room is not None:
            # Another room (a duplicate match's second table): its seqs start again.
            self.seq, self.view, self.game_over = -1, None, None
        self.room = message
        self.claimable_at = None
        if message.you is not None:
            wait = message.seats[1 - message.you].claimable_in
            if wait is not None:
                self.claimable_at = time.monotonic() + wait
        self.left = False
        if first:
            self.log.append(f"Room {message.code}")
            if message.duplicate_table is not None:
                self.log.append(table_text(message.duplicate_table))
        you = message.you
        if (
            self.goal.kind == "computer"
            and you is not None
            and message.seats[1 - you].kind == "empty"
            and message.status == "waiting"
            and self.bot_asked != message.code
        ):
            self.bot_asked = message.code
            level = self.goal.level or (self.levels[-1] if self.levels else None)
            return [SeatBot(level=level)]
        return []

    def _state(self, view: SeatView) -> None:
        if view.phase != "game_over" and view.phase != "match_over":
            self.game_over = None
        if view.seat is not None and view.phase == "discard" and len(view.hand) == 6:
            self.dealt.setdefault(view.commitment, tuple(str(c) for c in view.hand))
        if view.last_deal is not None:
            self._check(view.last_deal.reveal, view.seat)
        previous = self.view
        new_deal = previous is None or previous.deal_number != view.deal_number
        if new_deal and view.phase == "discard":
            self.announcements.clear()
        self.view = view

    def _event(self, message: EventLine) -> None:
        event = message.event
        self.log.append(message.text)
        names = self.names
        if self.seat is not None:
            names = ("You", names[1]) if self.seat == 0 else (names[0], "You")
        call = ""
        if isinstance(event, CardPlayed):
            call = f"{names[event.seat]}: {event.spoken}"
        elif isinstance(event, Go):
            call = f"{names[event.seat]}: go"
        elif isinstance(event, Scored) and event.reason in PEGGED:
            call = f"{names[event.seat]}: {PEGGED[event.reason]}"
        elif isinstance(event, CountReset):
            self.announcements.append("the count starts again")
        if call:
            self.announcements.append(call)
            if self.view is not None:
                self.last_calls[(self.view.game_number, self.view.deal_number)] = call

    def _check(self, reveal: DealReveal, seat: int | None) -> None:
        """Verify a revealed deal once, with our own six cards when we saw them dealt."""
        if reveal.commitment in self.checked:
            return
        self.checked.add(reveal.commitment)
        hand = self.dealt.get(reveal.commitment) if seat is not None else None
        ok = verify_deal(
            reveal.commitment,
            reveal.deck,
            reveal.salt,
            hand=hand,
            dealer=reveal.dealer if hand else None,
            seat=seat if hand else None,
        )
        result = Fairness(reveal.deal_number, ok, hand is not None)
        self.fairness.append(result)
        self.log.append(result.sentence())

    @property
    def fair(self) -> Fairness | None:
        """The latest deal check."""
        return self.fairness[-1] if self.fairness else None


def friend_url(session: Session, url: str) -> str:
    """The address a friend joins by: the server's public one when it has one, else ``url`` (the
    one this client used)."""
    return websocket_url(session.public_url) if session.public_url else url


def signed_in_text(account: Account) -> str:
    """ "Signed in as Ann (rating 1523, provisional)"."""
    rating = account.rating
    provisional = ", provisional" if rating.provisional else ""
    return f"Signed in as {account.name} (rating {rating.rating:.0f}{provisional})"


def describe_levels(levels: tuple[str, ...], ratings: dict[str, int]) -> str:
    """ "random (792), easy (879), standard (1500), expert (1623)": levels with their strength."""
    return ", ".join(f"{lv} ({ratings[lv]})" if lv in ratings else lv for lv in levels)


def table_text(table: int) -> str:
    """What a table of a duplicate match is, in a sentence."""
    if table == 1:
        return (
            "Duplicate match, table 1 of 2: table 2 deals these same cards with the seats "
            "swapped, and the difference in points decides"
        )
    return "Duplicate match, table 2 of 2: the deals of table 1, the seats swapped"


def duplicate_lines(result: DuplicateResult) -> list[str]:
    """A duplicate match's result, then each hand as both players played it."""
    lines = [result.text + "."]
    you = result.you
    for hand in result.hands:
        lines.append(hand_line(hand, result.names, you))
    return lines


def hand_line(hand: HandComparison, names: tuple[str, str], you: int | None) -> str:
    """One hand of a duplicate match: 'Game 1, deal 2 (dealer) 5H 5D ...: you ..., Bob ...'."""
    role = "dealer" if hand.dealer else "pone"
    cards = " ".join(str(c) for c in hand.cards)
    parts = []
    for player in (0, 1):
        who = "you" if player == you else names[player]
        away = " ".join(str(c) for c in hand.discards[player]) or "nothing"
        parts.append(f"{who} laid away {away} and made {hand.points[player]}")
    return f"Game {hand.game_number}, deal {hand.deal_number} ({role}) {cards}: " + "; ".join(parts)
