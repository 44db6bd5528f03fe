"""One game of two-player cribbage as a sans-I/O state machine.

A :class:`Game` never shuffles by itself and never reads a clock: its :class:`Match` hands it a
:class:`~shared.fairness.DeckRandom`. ``apply(seat, action)`` returns the events it caused or
raises :class:`~shared.actions.IllegalAction`. The game ends the instant a score reaches the
target, wherever that happens: heels, a pegging point or part-way through the show.
"""

from __future__ import annotations

from itertools import combinations
from operator import attrgetter
from typing import Final

from muggins.shared.actions import (
    Action,
    CardPlayed,
    CountReset,
    DealRevealed,
    DealStarted,
    Discard,
    Discarded,
    Event,
    GameOptions,
    Go,
    IllegalAction,
    Outcome,
    Play,
    Resign,
    Resigned,
    Scored,
    Seat,
    StarterCut,
    discard_action,
    play_action,
)
from muggins.shared.cards import CARD_ORDER, JACK, Card
from muggins.shared.construct import trusted
from muggins.shared.fairness import DeckRandom, commit_deal
from muggins.shared.scoring import HandScore, score_play
from muggins.shared.show import ShowSteps, points_of
from muggins.shared.view import DealReveal, DealSummary, PlayedCard, ShowResult

# Played cards are frozen values, so the engine makes each one once and shares it (actions too:
# see shared.actions.play_action); the views around every move would otherwise build them again.
_PLAYED: Final[dict[tuple[Seat, str], PlayedCard]] = {}
"""By seat and the card's text (a string hashes in C, a Card in Python)."""
_PIPS: Final = (0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 10, 10, 10)  # Card.value by rank, without a call
_DISCARDING: Final = (((), (1,)), ((0,), (0, 1)))
"""Who is waited for in the discard phase, by whether seat 0 and seat 1 have yet to lay away."""
_ONE: Final = ((0,), (1,))
_CARD_OF: Final = attrgetter("card")


def _played_card(seat: Seat, card: Card) -> PlayedCard:
    played = _PLAYED.get((seat, card.text))
    if played is None:
        played = _PLAYED[seat, card.text] = trusted(PlayedCard, seat=seat, card=card)
    return played


class Game(ShowSteps):
    """A single game to 121 (or 61) between seats 0 and 1."""

    def __init__(
        self, options: GameOptions, rng: DeckRandom, *, dealer: Seat, game_number: int = 1
    ) -> None:
        self.options = options
        self.rng = rng
        self.game_number = game_number
        self.dealer = dealer
        self.scores = [0, 0]
        self.previous_scores = [0, 0]
        self.deal_number = 0
        self.outcome: Outcome | None = None
        self.over = False
        """Whether the game has ended (``outcome`` is set)."""
        self.last_deal: DealSummary | None = None
        self.events: list[Event] = []
        """The events of the latest step only (the start, then each apply); the match keeps all."""
        self._start_deal()

    # --- public API ------------------------------------------------------------------------------

    def waiting_for(self) -> tuple[Seat, ...]:
        """The seats whose action the game is waiting for."""
        if self.over:
            return ()
        if self.phase == "discard":
            discards = self.discards
            return _DISCARDING[not discards[0]][not discards[1]]
        return _ONE[self.turn]

    def legal_actions(self, seat: Seat) -> list[Action]:
        """Every game move ``seat`` may make now. Resigning is always allowed and not listed."""
        if self.over or seat not in self.waiting_for():
            return []
        if self.phase == "discard":
            choices = self._discard_choices[seat]
            if choices is None:  # the hand cannot change until this seat discards
                hand = sorted(self.hands[seat], key=CARD_ORDER)
                choices = [discard_action(pair) for pair in combinations(hand, 2)]
                self._discard_choices[seat] = choices
            return list(choices)
        if self.phase == "play":
            room = 31 - self.count
            return [play_action(c) for c in self.hands[seat] if _PIPS[c.rank] <= room]
        return self._show_legal()

    def apply(self, seat: Seat, action: Action) -> list[Event]:
        """Apply ``seat``'s action; return the events it caused, in order."""
        if seat not in (0, 1):
            raise IllegalAction("There are only seats 0 and 1 at this table")
        if self.over:
            raise IllegalAction("The game is over")
        self.events = []
        if isinstance(action, Resign):
            self.events.append(Resigned(seat=seat))
            self._finish(winner=1 - seat, reason="resign")
        elif isinstance(action, Discard):
            self._discard(seat, action.cards)
        elif isinstance(action, Play):
            self._play(seat, action.card)
        else:
            self._show_action(seat, action)
        return self.events

    # --- the deal and the crib -------------------------------------------------------------------

    def _start_deal(self) -> None:
        self.deal_number += 1
        self.deck = self.rng.shuffled_deck()
        self.salt = self.rng.token()
        self.commitment = commit_deal(self.deck, self.salt)
        self.hands: list[list[Card]] = [[], []]
        for i in range(12):
            self.hands[(self.pone + i) % 2].append(self.deck[i])
        self.kept: list[tuple[Card, ...]] = [(), ()]
        self._discard_choices: list[list[Discard] | None] = [None, None]
        self.discards: list[tuple[Card, ...]] = [(), ()]
        self.crib: list[Card] = []
        self.starter: Card | None = None
        self.phase = "discard"
        self.turn: Seat = self.pone
        self.count = 0
        self.pile: list[PlayedCard] = []
        self.played: list[PlayedCard] = []
        self.said_go = [False, False]
        self.show: list[ShowResult] = []
        self._show_step = 0
        self._show_scores: dict[int, HandScore] = {}
        self._claim: int | None = None
        self.events.append(
            trusted(
                DealStarted,
                game_number=self.game_number,
                deal_number=self.deal_number,
                dealer=self.dealer,
                commitment=self.commitment,
            )
        )

    def _discard(self, seat: Seat, cards: tuple[Card, Card]) -> None:
        if self.phase != "discard":
            raise IllegalAction("It is not time to discard")
        if self.discards[seat]:
            raise IllegalAction("You have already laid away your two cards")
        if cards[0] == cards[1]:
            raise IllegalAction("Discard two different cards")
        for card in cards:
            if card not in self.hands[seat]:
                raise IllegalAction(f"{card.pretty} is not in your hand")
        self.discards[seat] = tuple(sorted(cards, key=CARD_ORDER))
        self.hands[seat] = [c for c in self.hands[seat] if c not in cards]
        self.kept[seat] = tuple(self.hands[seat])
        self.events.append(trusted(Discarded, seat=seat))
        if all(self.discards):
            self.crib = sorted(
                [*self.discards[self.pone], *self.discards[self.dealer]], key=CARD_ORDER
            )
            self._cut_starter()

    def _cut_starter(self) -> None:
        starter = self.deck[12 + self.rng.randbelow(40)]
        self.starter = starter
        self.events.append(trusted(StarterCut, card=starter, heels=starter.rank == JACK))
        if starter.rank == JACK and self._peg(self.dealer, 2, "heels"):
            return
        self.phase = "play"
        self.turn = self.pone

    # --- the play --------------------------------------------------------------------------------

    def _play(self, seat: Seat, card: Card) -> None:
        if self.phase != "play":
            raise IllegalAction("It is not time to play a card")
        if seat != self.turn:
            raise IllegalAction("It is not your turn")
        if card not in self.hands[seat]:
            raise IllegalAction(f"{card.pretty} is not in your hand")
        pips = _PIPS[card.rank]
        if self.count + pips > 31:
            raise IllegalAction(
                f"{card.pretty} would take the count past 31 (the count is {self.count})"
            )
        self.hands[seat].remove(card)
        played = _played_card(seat, card)
        self.pile.append(played)
        self.played.append(played)
        self.count += pips
        result = score_play(list(map(_CARD_OF, self.pile)))
        total = result.total
        if total:
            self.previous_scores[seat] = self.scores[seat]
            self.scores[seat] += total
        self.events.append(
            trusted(
                CardPlayed,
                seat=seat,
                card=card,
                count=self.count,
                points=total,
                parts=points_of(result.parts),
                spoken=result.spoken(),
                score=self.scores[seat],
            )
        )
        if self._check_win(seat):
            return
        self.turn = 1 - seat
        self._advance_play()

    def _can_play(self, seat: Seat) -> bool:
        room = 31 - self.count
        for card in self.hands[seat]:  # noqa: SIM110 (a loop: no generator made each call)
            if _PIPS[card.rank] <= room:
                return True
        return False

    def _advance_play(self) -> None:
        """Say go for whoever cannot play, score go and last card, restart the count."""
        while True:
            last = self.pile[-1].seat if self.pile else None
            if self.count == 31 and last is not None:
                self._reset(leader=1 - last)
                continue
            if not self.hands[0] and not self.hands[1]:
                if last is not None and self._peg(last, 1, "last_card"):
                    return
                self._start_show()
                return
            if self._can_play(self.turn):
                return
            other = 1 - self.turn
            if self.hands[self.turn] and not self.said_go[self.turn]:
                self.said_go[self.turn] = True
                self.events.append(trusted(Go, seat=self.turn))
            if self._can_play(other):
                self.turn = other
                continue
            assert last is not None, "someone has played since the count restarted"
            if self._peg(last, 1, "go"):
                return
            self._reset(leader=1 - last)

    def _reset(self, *, leader: Seat) -> None:
        self.count = 0
        self.pile = []
        self.said_go = [False, False]
        self.turn = leader if self.hands[leader] else 1 - leader
        if self.hands[self.turn]:
            self.events.append(trusted(CountReset, leader=self.turn))

    # --- scoring and the end ---------------------------------------------------------------------

    def _peg(self, seat: Seat, points: int, reason: str) -> bool:
        self.previous_scores[seat] = self.scores[seat]
        self.scores[seat] += points
        score = self.scores[seat]
        self.events.append(trusted(Scored, seat=seat, reason=reason, points=points, score=score))
        return self._check_win(seat)

    def _check_win(self, seat: Seat) -> bool:
        if self.scores[seat] >= self.options.target:
            self._finish(winner=seat, reason="score")
            return True
        return False

    def _finish(self, *, winner: Seat, reason: str) -> None:
        # The winner's peg stops in the game hole; the Scored event keeps the raw points.
        self.scores[winner] = min(self.scores[winner], self.options.target)
        loser_score = self.scores[1 - winner]
        double_line = self.options.double_skunk_line
        double = double_line is not None and loser_score < double_line
        skunk = loser_score < self.options.skunk_line
        self.outcome = Outcome(
            game_number=self.game_number,
            winner=winner,
            scores=(self.scores[0], self.scores[1]),
            skunk=skunk and not double,
            double_skunk=double,
            game_points=self.options.game_points(skunk=skunk, double_skunk=double),
            reason=reason,
        )
        self.over = True
        self.phase = "game_over"
        self._reveal()

    def _end_deal(self) -> None:
        self._reveal()
        self.dealer = self.pone
        self._start_deal()

    def _reveal(self) -> None:
        deck = tuple(self.deck)
        reveal = trusted(
            DealReveal,
            deal_number=self.deal_number,
            dealer=self.dealer,
            commitment=self.commitment,
            deck=deck,
            salt=self.salt,
        )
        self.last_deal = trusted(
            DealSummary,
            deal_number=self.deal_number,
            dealer=self.dealer,
            starter=self.starter,
            crib=tuple(self.crib) if self._crib_shown() else (),
            show=tuple(self.show),
            reveal=reveal,
        )
        self.events.append(
            trusted(
                DealRevealed,
                deal_number=self.deal_number,
                commitment=self.commitment,
                deck=deck,
                salt=self.salt,
            )
        )

    def _crib_shown(self) -> bool:
        # The crib is shown last (pone's hand, dealer's hand, crib): shown when it is the last.
        show = self.show
        return bool(show) and show[-1].kind == "crib"
