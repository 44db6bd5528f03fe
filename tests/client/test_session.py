"""The session: the client's picture of the game, and its check of every revealed deal."""

from __future__ import annotations

from muggins.client.session import Goal, Session
from muggins.shared.actions import Discard, Play
from muggins.shared.bots import make_strategy
from muggins.shared.match import Match
from muggins.shared.protocol import Room, RoomOptions, SeatInfo, State

ROOM = Room(
    code="ABCDEF",
    options=RoomOptions(),
    seats=(
        SeatInfo(seat=0, name="Ann", kind="human", connected=True),
        SeatInfo(seat=1, name=None, kind="empty", connected=False),
    ),
    spectators=0,
    you=0,
    status="waiting",
    match_number=1,
)


def finished_deal(session: Session, seed: int = 4) -> Match:
    """Play one whole deal with computer moves, showing seat 0's states to the session."""
    match = Match(seed=seed)
    bots = [make_strategy("easy", seed=1), make_strategy("easy", seed=2)]
    session.receive(State(seq=0, view=match.view(0)))
    seq = 0
    while match.view(0).deal_number == 1:
        seat = match.waiting_for()[0]
        match.apply(seat, bots[seat].choose(match.view(seat)))
        seq += 1
        session.receive(State(seq=seq, view=match.view(0)))
    return match


def test_revealed_deal_is_checked_against_commitment_and_own_cards() -> None:
    """At the end of a deal the reveal matches the commitment and the six cards we were dealt."""
    session = Session(name="Ann")
    session.receive(ROOM)
    finished_deal(session)
    [check] = session.fairness
    assert check.ok and check.hand_checked and check.deal_number == 1
    assert session.fair is check
    assert "✓ deal 1" in session.log[-1]


def test_tampered_deck_gives_a_loud_warning() -> None:
    """A revealed deck that does not hash to the commitment is reported, never ticked."""
    session = Session(name="Ann")
    session.receive(ROOM)
    match = Match(seed=4)
    session.receive(State(seq=0, view=match.view(0)))
    other = Session(name="Ann")
    other.receive(ROOM)
    finished = finished_deal(other)
    view = finished.view(0)
    assert view.last_deal is not None
    deck = list(view.last_deal.reveal.deck)
    deck[0], deck[1] = deck[1], deck[0]
    reveal = view.last_deal.reveal.model_copy(update={"deck": tuple(deck)})
    bad = view.model_copy(
        update={"last_deal": view.last_deal.model_copy(update={"reveal": reveal})}
    )
    session.receive(State(seq=99, view=bad))
    fair = session.fair
    assert fair is not None and not fair.ok
    assert session.log[-1].startswith("WARNING: deal 1 does NOT match")


def test_computer_is_asked_for_once_per_room() -> None:
    """Wanting to play the computer, the session seats it once however often the room repeats."""
    session = Session(name="Ann", goal=Goal("computer", level="easy"))
    [first] = session.receive(ROOM)
    assert first.type == "seat_bot" and first.level == "easy"
    assert session.receive(ROOM) == []


def test_announcements_use_you_for_own_moves() -> None:
    """Calls in the play name the opponent and say "You" for the player's own cards."""
    from muggins.shared.protocol import EventLine

    session = Session(name="Ann")
    session.receive(
        ROOM.model_copy(
            update={
                "seats": (
                    ROOM.seats[0],
                    ROOM.seats[0].model_copy(update={"seat": 1, "name": "Bob"}),
                )
            }
        )
    )
    match = Match(seed=2)
    for seat in (0, 1):
        match.apply(seat, next(a for a in match.legal_actions(seat) if isinstance(a, Discard)))
    seat = match.waiting_for()[0]
    play = next(a for a in match.legal_actions(seat) if isinstance(a, Play))
    [event] = match.apply(seat, play)
    session.receive(State(seq=1, view=match.view(0), events=(EventLine(event=event, text="x"),)))
    who = "You" if seat == 0 else "Bob"
    assert session.announcements == [f"{who}: {event.spoken}"]  # type: ignore[union-attr]


def test_the_deal_check_reads_as_english() -> None:
    """ "the deck matches", "the deck and your six cards match": subject and verb agree."""
    from muggins.client.session import Fairness

    assert Fairness(3, True, False).sentence() == "✓ deal 3: the deck matches the commitment"
    assert Fairness(3, True, True).sentence() == (
        "✓ deal 3: the deck and your six cards match the commitment"
    )


def test_the_win_is_logged_once() -> None:
    """The game-over event and the state's game_over say the same line: the log has it once."""
    from muggins.server.rooms.step_states import StepStates
    from muggins.shared.actions import Resign

    session = Session(name="Ann")
    session.receive(ROOM)
    match = Match(seed=3)
    session.receive(State(seq=1, view=match.view(0)))
    state = StepStates(match, 2, match.apply(0, Resign()), ("Ann", "Bob"))(0)
    assert state.game_over is not None and not state.brief
    session.receive(state)
    assert session.log.count(state.game_over.text) == 1
    assert session.game_over is state.game_over


def test_a_spectator_watches_again_after_a_server_restart_without_a_false_alarm() -> None:
    """A watcher the server does not know after a restart asks to watch the same room again,
    and is not told the table "could not be resumed"."""
    from muggins.shared.protocol import Spectate, Welcome

    session = Session(name="Cy", goal=Goal("spectate", code="ABCDEF"))
    welcome = Welcome(
        player="p1",
        name="Cy",
        token="t",
        protocol=1,
        server="x",
        levels=(),
        resumed=False,
        room=None,
    )
    assert session.receive(welcome) == [Spectate(code="ABCDEF")]
    session.receive(ROOM.model_copy(update={"you": None}))
    replies = session.receive(welcome.model_copy(update={"token": "t2"}))
    assert replies == [Spectate(code="ABCDEF")]
    assert not any("could not be resumed" in line for line in session.log)


def test_the_play_s_last_call_is_kept_for_the_show() -> None:
    """The last call of a deal's play ("one for last card", or a 31) stays for its show."""
    from muggins.server.rooms.step_states import StepStates

    session = Session(name="Ann")
    session.receive(ROOM)
    match = Match(seed=4)
    bots = [make_strategy("easy", seed=1), make_strategy("easy", seed=2)]
    session.receive(State(seq=0, view=match.view(0)))
    seq = 0
    while match.view(0).phase in ("discard", "play") and match.view(0).deal_number == 1:
        seat = match.waiting_for()[0]
        events = match.apply(seat, bots[seat].choose(match.view(seat)))
        seq += 1
        session.receive(StepStates(match, seq, events, ("Ann", "Bob"))(0))
    call = session.last_calls[(1, 1)]
    assert call.endswith(("one for last card", "thirty-one for two")) or "thirty-one" in call


def test_a_duplicate_match_moves_to_its_second_table_and_tells_the_result() -> None:
    """The second table's states are taken though their seqs start again; the result and each
    hand, as both played it, go to the log from this player's side."""
    from muggins.shared.cards import parse_card
    from muggins.shared.duplicate import HandComparison
    from muggins.shared.protocol import DuplicateResult

    session = Session(name="Ann")
    session.receive(ROOM.model_copy(update={"duplicate_table": 1}))
    assert "table 1 of 2" in session.log[-1]
    finished_deal(session)
    session.receive(ROOM.model_copy(update={"code": "GHIJKL", "duplicate_table": 2, "you": 1}))
    assert "table 2 of 2" in session.log[-1]
    match = Match(seed=9)
    session.receive(State(seq=0, view=match.view(1)))
    assert session.view is not None and session.view.seat == 1
    cards = tuple(parse_card(c) for c in ("5H", "5D", "JS", "4C", "6C", "KD"))
    hand = HandComparison(
        game_number=1,
        deal_number=1,
        dealer=False,
        cards=cards,
        discards=((cards[2], cards[5]), (cards[0], cards[1])),
        points=(14, 6),
    )
    session.receive(
        DuplicateResult(
            games=("ABCDEF-1", "GHIJKL-1"),
            names=("Ann", "Bob"),
            you=0,
            margin=9,
            rated=True,
            text="You won by 9 points on the same cards",
            hands=(hand,),
        )
    )
    assert session.log[-2] == "You won by 9 points on the same cards."
    assert session.log[-1] == (
        "Game 1, deal 1 (pone) 5H 5D JS 4C 6C KD: you laid away JS KD and made 14; "
        "Bob laid away 5H 5D and made 6"
    )
