"""``muggins play --plain``: the game as lines of text, for scripts, screen readers and slow links.

It prints what happens, one line each, and when it is your move a state line and a prompt.
It reads commands, one per line::

    discard 1 2     lay away the first and second cards (or: discard 5H JD)
    play 3          play the third card (or: play 5H)
    count 8         muggins mode: claim 8 for your hand or crib (any number 0-29)
    accept          let the opponent's count stand as claimed
    muggins         their count is short: take the points they missed
    challenge       their count is over: they are put back, you take the excess
                    (a wrong muggins or challenge gives the counter 2 points)
    say TEXT        chat;  state: print the table again;  hint: ask the coach
    resign          give up the game;  restart: start again;  rematch: after the match
    quit            leave (your seat is kept for a while)
    create [61] [muggins] [private] [clock=SECONDS [bank=SECONDS]]   open a room (a clock: each
                    move's seconds, then a bank for the match);  join CODE;  watch CODE;  rooms
    computer [LEVEL]                  seat the computer in your room's empty seat
    seek [3] [people] [duplicate]  signed in: wait for a rated opponent (one game, or best of
                    three; people: no bot accounts; duplicate: two tables on the same deals); cancel
    profile [NAME]  a rating and record (yours without a name);  history [NAME];  leaderboard
    report NAME: REASON  tell the moderators;  block NAME / unblock NAME: never paired by the
                    rated queue;  hide NAME / show NAME: their chat
    tournaments     the list;  enter ID / withdraw ID: join or leave one;  standings ID
    arena MINUTES [duplicate] [bots] NAME / swiss ROUNDS [duplicate] [bots] NAME: make one
                    (admins and moderators);  begin ID: start a Swiss you made
"""

from __future__ import annotations

import asyncio
import itertools
import sys
import threading
from collections.abc import Callable, Sequence
from typing import TextIO

from pydantic import BaseModel, ValidationError

from muggins.client.connection import Connection, LinkStatus
from muggins.client.link import Link
from muggins.client.moderation import USAGE, VERBS, moderation_command
from muggins.client.prompts import (
    answer_choices,
    claim_sentence,
    explain_invalid,
    need,
    own_state,
    parse_count,
    pending_claim,
    show_prompt,
    turn_prompt,
    wrong_call_sentence,
)
from muggins.client.session import Goal, Session, describe_levels, friend_url
from muggins.client.tournaments import Newest, create_message, list_lines, standings_lines
from muggins.shared.actions import GameOptions
from muggins.shared.bots.coach import advise
from muggins.shared.cards import Card, CardError, parse_card
from muggins.shared.invocation import join_command
from muggins.shared.protocol import (
    GAME_MOVES,
    AcceptCount,
    CallMuggins,
    ChallengeCount,
    Chat,
    Claim,
    CountPoints,
    CreateRoom,
    DiscardCards,
    Error,
    JoinRoom,
    ListRooms,
    PlayCard,
    ProposeRestart,
    Rematch,
    ResignGame,
    Room,
    RoomOptions,
    Rooms,
    SeatBot,
    ServerMessage,
    Spectate,
    State,
    Welcome,
)
from muggins.shared.protocol.accounts import (
    Account,
    CancelSeek,
    GetHistory,
    GetLeaderboard,
    GetProfile,
    History,
    Leaderboard,
    Profile,
    Seek,
    Seeking,
)
from muggins.shared.protocol.client import LIST_MAX
from muggins.shared.protocol.tournaments import (
    TOURNAMENT_REQUESTS,
    GetTournament,
    JoinTournament,
    LeaveTournament,
    ListTournaments,
    StartTournament,
    TournamentInfo,
    Tournaments,
)
from muggins.shared.view import SeatView

HELP = (__doc__ or "").split("::", 1)[-1].rstrip()


def create_room(words: list[str]) -> CreateRoom:
    """``create 61 muggins private clock=30 bank=180``: a room with those options (default: to
    121, listed, no clock); ``clock`` is seconds a move, ``bank`` seconds beyond them a match."""
    lowered = [w.lower() for w in words]
    timed = {k: v for k, _, v in (w.partition("=") for w in lowered) if k in ("clock", "bank")}
    unknown = [w for w in lowered if w not in ("61", "121", "muggins", "private")]
    unknown = [
        w for w in unknown if w.partition("=")[0] not in timed or not w.partition("=")[2].isdigit()
    ]
    if unknown:
        raise ValueError(
            "create takes 61, 121, muggins, private, clock=SECONDS and bank=SECONDS, "
            f"not {' '.join(unknown)}"
        )
    game = GameOptions(target=61 if "61" in lowered else 121, muggins="muggins" in lowered)
    clock, bank = timed.get("clock"), timed.get("bank")
    if bank and not clock:
        raise ValueError("A time bank needs a per-move clock: add clock=SECONDS")
    options = RoomOptions(
        game=game,
        private="private" in lowered,
        turn_timer=int(clock) if clock else None,
        turn_bank=int(bank) if bank else None,
    )
    return CreateRoom(options=options)


def cards_text(cards: tuple[Card, ...], *, numbered: bool = False) -> str:
    if numbered:
        return " ".join(f"[{i}] {card}" for i, card in enumerate(cards, start=1))
    return " ".join(str(card) for card in cards) or "-"


class PlainClient:
    """Prints the session as lines and turns typed commands into messages."""

    def __init__(
        self,
        *,
        url: str,
        urls: Sequence[str] = (),
        name: str,
        goal: Goal,
        out: TextIO = sys.stdout,
        link: Link | None = None,
        url_for_friend: str | None = None,
        remember: Callable[[str | None, Session], None] | None = None,
    ) -> None:
        self.session = Session(name=name, goal=goal)
        self.out = out
        self.url = url_for_friend or url
        self.link: Link = link or Connection(
            urls or url,
            name=name,
            on_message=self.on_message,
            on_status=self.on_status,
            room=goal.code or None,
        )
        self.remember = remember
        self.last_prompt = -2
        self.last_room_line = ""
        self.pending: object = None
        """own_state() when we sent a move, until the server has applied it."""
        self.logged = 0
        self.done = asyncio.Event()
        self.sent: list[BaseModel] = []
        self.tournaments = Newest()
        """Each tournament's newest info (a reply can come after the news of a later change)."""
        self.asked = itertools.count(1)
        """Ids for the tournament requests: a reply names its request, and is printed."""

    def say(self, text: str) -> None:
        print(text, file=self.out, flush=True)

    def on_status(self, status: LinkStatus) -> None:
        if status.state != "connected" or self.session.token:
            self.say(f"* {status.sentence()}")
        if status.state in ("failed", "replaced"):
            self.done.set()

    def on_message(self, message: ServerMessage) -> None:
        for reply in self.session.receive(message):
            self.send(reply)
        if isinstance(message, Welcome) and self.session.goal.kind == "lobby":
            self.say(
                f"* connected as {message.name}. Type: create [61] [muggins] [private], "
                "join CODE, watch CODE, rooms, or help"
            )
            levels = describe_levels(message.levels, dict(message.level_ratings))
            self.say(f"* computer levels (rating): {levels}")
        if isinstance(message, Seeking | Account) and self.session.log:
            self.say(f"* {self.session.log[-1]}")
        if isinstance(message, Tournaments):
            for line in list_lines(message):
                self.say(f"| {line}")
        if isinstance(message, TournamentInfo):
            newest = self.tournaments.take(message)
            if message.id is not None:  # a reply is printed: the newest standings heard
                for line in standings_lines(newest):
                    self.say(f"| {line}")
        if isinstance(message, Profile | History | Leaderboard):
            from muggins.client.account_cli import describe

            for line in describe(message):
                self.say(f"| {line}")
        if isinstance(message, Welcome) and message.resumed and self.remember is not None:
            self.remember(self.link.token, self.session)  # the old token is spent: keep the new
        if isinstance(message, Error):
            self.say(f"! {message.message}")
            self.pending = None
            if message.code == "stale":
                self.prompt(self.session.seq, force=True)
        elif isinstance(message, Room):
            self.room_line(message)
            if self.remember is not None:
                self.remember(self.link.token, self.session)
        elif isinstance(message, Rooms):
            for room in message.rooms:
                names = " vs ".join(n or "(open)" for n in room.names)
                self.say(f"room {room.code}: {names} ({room.status})")
            if not message.rooms:
                self.say("no open rooms")
            elif message.total > len(message.rooms):
                self.say(f"(the first {len(message.rooms)} of {message.total} rooms)")
        self.flush_log()
        if isinstance(message, State):
            if message.game_over is not None and message.game_over.match_over:
                self.say("> The match is over: type rematch, or quit")
            self.prompt(message.seq)

    def flush_log(self) -> None:
        for line in self.session.log[self.logged :]:
            self.say(f"  {line}")
        self.logged = len(self.session.log)

    def room_line(self, room: Room) -> None:
        seats = [
            ("you" if s.seat == room.you else s.name or "(empty seat)")
            + (" [computer]" if s.kind == "bot" else "")
            + ("" if s.connected or s.kind == "empty" else " [disconnected]")
            for s in room.seats
        ]
        line = f"= room {room.code} ({room.status}): {seats[0]} vs {seats[1]}"
        if line == self.last_room_line:
            return
        self.last_room_line = line
        self.say(line)
        if (
            room.status == "waiting"
            and room.you is not None
            and self.session.goal.kind != "computer"
        ):
            where = friend_url(self.session, self.url)
            self.say(f"= a friend joins with: {join_command(where, room.code)}")

    def table_line(self, view: SeatView) -> str:
        names = self.session.names
        you = view.seat if view.seat is not None else 0
        them = 1 - you
        parts = [
            f"game {view.game_number} deal {view.deal_number}",
            f"score you {view.scores[you]}, {names[them]} {view.scores[them]} "
            f"(to {view.options.target})",
        ]
        if view.starter:
            parts.append(f"starter {view.starter}")
        if view.phase == "play":
            parts.append(f"count {view.count}, pile {cards_text(tuple(p.card for p in view.pile))}")
        parts.append(f"{names[them]} holds {view.hand_counts[them]}")
        return "| " + "; ".join(parts)

    def prompt(self, seq: int, *, force: bool = False) -> None:
        view = self.session.view
        if view is None or view.seat is None:
            return
        if (view.seat not in view.waiting_for or seq == self.last_prompt) and not force:
            return
        if self.pending is not None and own_state(view) == self.pending and not force:
            return  # our move is on its way; the opponent moved meanwhile
        self.pending = None
        self.last_prompt = seq
        self.say(self.table_line(view))
        clock = self.session.clock_text()
        if clock:
            self.say(f"| {clock}")
        names = self.session.names
        if view.phase == "show":
            for result in view.show:
                counted = "" if result.total is None else f": {result.total}"
                self.say(
                    f"| {result.kind} of {names[result.seat]}: "
                    f"{cards_text(result.cards)} + {result.starter}{counted}"
                )
            claim = pending_claim(view.show)
            if claim is not None:
                self.say(f"| {claim_sentence(claim, names, view.seat)}")
                if show_prompt(view) == "answer":
                    for _, command, does in answer_choices(claim, names):
                        self.say(f"|   {command}: {does}")
                    self.say(f"|   {wrong_call_sentence(claim, names)}")
        if view.hand:
            self.say(f"| your hand: {cards_text(view.hand, numbered=True)}")
        words = {2: "discard N N", 1: "play N"}.get(need(view), "")
        if show_prompt(view) == "count":
            words = "count N"
        elif show_prompt(view) == "answer":
            words = "accept, muggins or challenge"
        sentence = turn_prompt(view, self.session.names, keys=False)
        self.say(f"> {sentence}" + (f"  [{words}]" if words else ""))

    def send(self, message: BaseModel) -> None:
        self.sent.append(message)
        asyncio.get_running_loop().create_task(self._send(message))

    async def _send(self, message: BaseModel) -> None:
        if not await self.link.send(message):
            self.say("! not connected: not sent; try again once reconnected")

    def command(self, line: str) -> None:
        """Act on one typed line."""
        words = line.split()
        if not words:
            return
        verb, args = words[0].lower(), words[1:]
        view, seq = self.session.view, self.session.seq
        handlers: dict[str, Callable[[], BaseModel | None]] = {
            "discard": lambda: DiscardCards(cards=self.pick(args, view), seq=seq),
            "play": lambda: PlayCard(card=self.pick(args, view)[0], seq=seq) if args else None,
            "count": lambda: CountPoints(points=parse_count(args[0]), seq=seq) if args else None,
            "muggins": lambda: CallMuggins(seq=seq),
            "accept": lambda: AcceptCount(seq=seq),
            "challenge": lambda: ChallengeCount(seq=seq),
            "resign": lambda: ResignGame(seq=seq),
            "restart": lambda: ProposeRestart(seq=seq),
            "rematch": lambda: Rematch(seq=seq),
            "say": lambda: Chat(text=line.split(None, 1)[1]) if args else None,
            "create": lambda: create_room(args),
            "join": lambda: JoinRoom(code=args[0].upper()) if args else None,
            "watch": lambda: Spectate(code=args[0].upper()) if args else None,
            "rooms": lambda: ListRooms(limit=LIST_MAX),
            "computer": lambda: SeatBot(level=args[0] if args else None),
            "claim": lambda: Claim(take="bot" if "bot" in args else "win", seq=seq),
            "seek": lambda: Seek(
                best_of=3 if "3" in args else 1,
                people_only="people" in args,
                duplicate="duplicate" in args,
            ),
            "cancel": lambda: CancelSeek(),
            "profile": lambda: GetProfile(name=" ".join(args) or None),
            "history": lambda: GetHistory(name=" ".join(args) or None),
            "leaderboard": lambda: GetLeaderboard(),
            "tournaments": lambda: ListTournaments(),
            "enter": lambda: JoinTournament(tournament=args[0]) if args else None,
            "withdraw": lambda: LeaveTournament(tournament=args[0]) if args else None,
            "standings": lambda: GetTournament(tournament=args[0]) if args else None,
            "arena": lambda: create_message("arena", args),
            "swiss": lambda: create_message("swiss", args),
            "begin": lambda: StartTournament(tournament=args[0]) if args else None,
        }
        if verb in VERBS:
            room = self.session.room.code if self.session.room else None
            asked = moderation_command(line, room=room)
            if asked is None:
                self.say(f"? {USAGE}")
            else:
                self.send(asked)
            return
        if verb in ("quit", "exit"):
            self.done.set()
        elif verb in ("help", "?"):
            self.say(HELP)
        elif verb == "hint":
            if view is None or not view.legal:
                self.say("! nothing to advise: it is not your move")
            else:
                advice = advise(view)
                self.say(f"coach: {advice.explanation}")
        elif verb == "state":
            self.prompt(self.session.seq, force=True)
        elif verb in handlers:
            try:
                message = handlers[verb]()
            except ValidationError as error:  # before ValueError: it is one
                self.say(f"! {explain_invalid(error)}")
                return
            except (CardError, ValueError, IndexError) as error:
                self.say(f"! {error}")
                return
            if message is None:
                self.say(f"! {verb} needs more: type help")
            else:
                if isinstance(message, GAME_MOVES):
                    self.pending = own_state(view)
                if isinstance(message, TOURNAMENT_REQUESTS):  # its reply is printed: it names it
                    message = message.model_copy(update={"id": next(self.asked)})
                self.send(message)
        else:
            self.say(f"! unknown command {verb!r}: type help")

    @staticmethod
    def pick(args: list[str], view: SeatView | None) -> tuple[Card, ...]:
        """Cards named by their number in the hand (1-6) or by name (5H)."""
        hand = view.hand if view else ()
        cards = []
        for arg in args:
            if arg.isdigit():
                index = int(arg)
                if not 1 <= index <= len(hand):
                    raise ValueError(f"there is no card {index}: you hold {len(hand)}")
                cards.append(hand[index - 1])
            else:
                cards.append(parse_card(arg))
        return tuple(cards)

    async def run(self, lines: asyncio.Queue[str | None]) -> int:
        connection = asyncio.create_task(self.link.run())
        reader = asyncio.create_task(self._read(lines))
        await self.done.wait()
        reader.cancel()
        await self.link.close()
        try:
            await asyncio.wait_for(connection, 5)
        except TimeoutError:
            connection.cancel()
        return 0

    async def _read(self, lines: asyncio.Queue[str | None]) -> None:
        while True:
            line = await lines.get()
            if line is None:
                self.done.set()
                return
            self.command(line)


def stdin_lines(loop: asyncio.AbstractEventLoop) -> asyncio.Queue[str | None]:
    """Lines typed on standard input, read by a helper thread (None at the end)."""
    queue: asyncio.Queue[str | None] = asyncio.Queue()

    def read() -> None:
        for line in sys.stdin:
            loop.call_soon_threadsafe(queue.put_nowait, line.strip())
        loop.call_soon_threadsafe(queue.put_nowait, None)

    threading.Thread(target=read, daemon=True, name="stdin").start()
    return queue
