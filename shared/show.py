"""The show of a deal: each hand and then the crib laid face up and scored. Part of the Game.

With automatic counting each is scored at once. In muggins mode its owner claims any count
from 0 to 29 and the opponent answers (:mod:`shared.counting` settles it); nothing is scored
before the answer, so the legal moves, the refusals and the work done tell nothing of the total.
"""

from __future__ import annotations

from typing import Final

from muggins.shared.actions import (
    Accept,
    Action,
    Challenge,
    Count,
    CountAnswered,
    CountClaimed,
    Event,
    GameOptions,
    HandScored,
    HandShown,
    IllegalAction,
    Muggins,
    Points,
    Seat,
)
from muggins.shared.cards import Card
from muggins.shared.construct import trusted
from muggins.shared.counting import Answer, call_is_right, settle
from muggins.shared.scoring import HandScore, ScorePart, score_hand
from muggins.shared.view import ShowResult

SHOW_ORDER: Final = ("pone_hand", "dealer_hand", "crib")

# Muggins mode: the same choices whatever the cards make, so the legal moves tell nothing.
_COUNTS: Final = tuple(Count(points=n) for n in range(30))
_ANSWERS: Final = (Accept(), Muggins(), Challenge())
_ANSWER_OF: Final[dict[type[Action], Answer]] = {
    Accept: "accept",
    Muggins: "muggins",
    Challenge: "challenge",
}


def points_of(parts: tuple[ScorePart, ...]) -> tuple[Points, ...]:
    """A score's parts as they travel in events: each a :class:`Points`, made by the compiled
    :func:`~shared.construct.trusted` (the play's and the show's scores alike)."""
    return tuple([trusted(Points, kind=p.kind, points=p.points, cards=p.cards) for p in parts])


class ShowSteps:
    """The show's steps, mixed into :class:`~shared.game.Game`, whose deal state they use."""

    options: GameOptions
    dealer: Seat
    phase: str
    turn: Seat
    kept: list[tuple[Card, ...]]
    crib: list[Card]
    starter: Card | None
    show: list[ShowResult]
    events: list[Event]
    _show_step: int
    _show_scores: dict[int, HandScore]
    _claim: int | None

    @property
    def pone(self) -> Seat:
        return 1 - self.dealer

    def _peg(self, seat: Seat, points: int, reason: str) -> bool:
        """Peg points for ``seat``; say whether the game ended (the game does it)."""
        raise NotImplementedError

    def _end_deal(self) -> None:
        raise NotImplementedError

    def _show_legal(self) -> list[Action]:
        """Muggins mode: any claim, then any answer; neither list depends on the true total."""
        return list(_COUNTS if self._claim is None else _ANSWERS)

    def _show_action(self, seat: Seat, action: Action) -> None:
        if isinstance(action, Count):
            self._count(seat, action.points)
        else:
            self._answer_count(seat, _ANSWER_OF[type(action)])

    def _start_show(self) -> None:
        self.phase = "show"
        self._show_step = 0
        self._next_show_step()

    def _show_owner(self) -> Seat:
        return self.pone if SHOW_ORDER[self._show_step] == "pone_hand" else self.dealer

    def _show_cards(self) -> tuple[Card, ...]:
        if SHOW_ORDER[self._show_step] == "crib":
            return tuple(self.crib)
        return self.kept[self._show_owner()]

    def _show_score(self) -> HandScore:
        """The true score of the hand being shown (scored once per show step)."""
        cached = self._show_scores.get(self._show_step)
        if cached is None:
            assert self.starter is not None
            crib = SHOW_ORDER[self._show_step] == "crib"
            cached = score_hand(self._show_cards(), self.starter, crib=crib)
            self._show_scores[self._show_step] = cached
        return cached

    def _next_show_step(self) -> None:
        """Lay down the next hand; score it at once unless players count their own."""
        while self._show_step < len(SHOW_ORDER):
            owner, cards = self._show_owner(), self._show_cards()
            kind = "crib" if SHOW_ORDER[self._show_step] == "crib" else "hand"
            assert self.starter is not None and len(cards) == 4
            shown = {"seat": owner, "kind": kind, "cards": cards, "starter": self.starter}
            self.show.append(trusted(ShowResult, **shown))
            self.events.append(trusted(HandShown, **shown))
            if self.options.muggins:
                self.turn = owner
                self._claim = None
                return
            if self._settle():
                return
            self._show_step += 1
        self._end_deal()

    def _settle(self, answer: Answer | None = None) -> bool:
        """Record the shown hand's true score, peg what it earns, say whether the game ended.

        Automatic counting pegs the true total. In muggins mode the answered claim pegs what
        :func:`~shared.counting.settle` says, in its order: the owner's points, then the
        opponent's (missed points or excess) or the owner's penalty for a wrong call; the game
        ends at the first of these pegs that reaches the target.
        """
        owner, score = self._show_owner(), self._show_score()
        kind = "crib" if score.crib else "hand"
        total, spoken = score.total, score.spoken()
        parts = points_of(score.parts)
        claimed = self._claim
        if answer is None or claimed is None:
            credited, taken, penalty = total, 0, 0
        else:
            settlement = settle(claimed, total, answer)
            credited, taken, penalty = settlement.credited, settlement.taken, settlement.penalty
            self.events.append(
                CountAnswered(
                    seat=1 - owner,
                    kind=kind,
                    answer=answer,
                    claimed=claimed,
                    total=total,
                    right=call_is_right(claimed, total, answer),
                )
            )
        shown = self.show[-1]
        self.show[-1] = trusted(
            ShowResult,
            seat=shown.seat,
            kind=shown.kind,
            cards=shown.cards,
            starter=shown.starter,
            total=total,
            parts=parts,
            spoken=spoken,
            claimed=claimed,
            answer=answer,
            taken=taken,
            penalty=penalty,
        )
        self.events.append(
            trusted(HandScored, seat=owner, kind=kind, total=total, parts=parts, spoken=spoken)
        )
        if credited and self._peg(owner, credited, kind):
            return True
        if taken:
            return self._peg(1 - owner, taken, "muggins" if answer == "muggins" else "challenge")
        return bool(penalty) and self._peg(owner, penalty, "wrong_call")

    def _count(self, seat: Seat, points: int) -> None:
        """Muggins mode: any claim from 0 to 29 stands until answered; none is checked now."""
        if self.phase != "show" or self._claim is not None:
            raise IllegalAction("It is not time to count a hand")
        if seat != self.turn:
            raise IllegalAction("It is not your turn to count")
        what = "crib" if SHOW_ORDER[self._show_step] == "crib" else "hand"
        self._claim = points
        shown = self.show[-1]
        self.show[-1] = trusted(
            ShowResult,
            seat=shown.seat,
            kind=shown.kind,
            cards=shown.cards,
            starter=shown.starter,
            claimed=points,
        )
        self.events.append(CountClaimed(seat=seat, kind=what, claimed=points))
        self.turn = 1 - seat

    def _answer_count(self, seat: Seat, answer: Answer) -> None:
        if self.phase != "show" or self._claim is None:
            raise IllegalAction("There is no count to answer")
        if seat != self.turn:
            raise IllegalAction("It is not your turn")
        if self._settle(answer):
            return
        self._claim = None
        self._show_step += 1
        self._next_show_step()
