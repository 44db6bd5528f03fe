"""A match: the cut for first deal, a sequence of games, and the only path from state to a seat.

>>> m = Match(seed=7)
>>> v = m.view(0)
>>> v.phase, len(v.hand), v.hand_counts
('discard', 6, (6, 6))
>>> replayed = Match.replay(m.options, 7, m.log)
>>> replayed.view(1) == m.view(1)
True
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Final, cast

from muggins.shared.actions import (
    Action,
    CutForDeal,
    Event,
    GameOptions,
    GameOver,
    IllegalAction,
    Outcome,
    Seat,
)
from muggins.shared.cards import CARD_ORDER, Card
from muggins.shared.construct import unvalidated
from muggins.shared.fairness import DeckRandom
from muggins.shared.game import Game
from muggins.shared.view import Phase, SeatView


class Match:
    """Games between seats 0 and 1 until one reaches ``options.match_to`` game points.

    Deterministic: the same ``seed``, options and actions give the same match. A real match
    should take its seed from :mod:`secrets`.
    """

    def __init__(
        self,
        *,
        seed: int | bytes,
        options: GameOptions | None = None,
        rng: DeckRandom | None = None,
        keep_events: bool = True,
    ) -> None:
        self.options = options or GameOptions()
        self.keep_events = keep_events
        """Whether ``events`` is the whole history or only the latest step's events (a server
        sends each step's events once and needs no history: thousands of matches would hold
        every event of every deal for nothing)."""
        self.seed = seed
        self.rng = rng or DeckRandom(seed)
        self.log: list[tuple[Seat, Action]] = []
        self.games: list[Outcome] = []
        self.match_points = [0, 0]
        self.winner: Seat | None = None
        """The seat that has won the match, once one has (kept by :meth:`apply`)."""
        self.over = False
        """Whether the match is won (``winner is not None``)."""
        self.events: list[Event] = []
        self.cut_rounds = self._cut_for_deal()
        dealer = 0 if self.cut_rounds[-1][0].rank < self.cut_rounds[-1][1].rank else 1
        self.events.append(CutForDeal(rounds=self.cut_rounds, dealer=dealer))
        self.game = self._new_game(dealer)
        self.events.extend(self.game.events)

    @classmethod
    def replay(
        cls,
        options: GameOptions,
        seed: int | bytes,
        log: Iterable[tuple[Seat, Action]],
        *,
        keep_events: bool = True,
    ) -> Match:
        """Rebuild a match exactly from its options, seed and applied actions."""
        match = cls(seed=seed, options=options, keep_events=keep_events)
        for seat, action in log:
            match.apply(seat, action)
        return match

    def _cut_for_deal(self) -> tuple[tuple[Card, Card], ...]:
        rounds: list[tuple[Card, Card]] = []
        while True:
            deck = self.rng.shuffled_deck()
            rounds.append((deck[0], deck[1]))
            if deck[0].rank != deck[1].rank:
                return tuple(rounds)

    def _new_game(self, dealer: Seat) -> Game:
        return Game(self.options, self.rng, dealer=dealer, game_number=len(self.games) + 1)

    def legal_actions(self, seat: Seat) -> list[Action]:
        return [] if self.over else self.game.legal_actions(seat)

    def waiting_for(self) -> tuple[Seat, ...]:
        return () if self.over else self.game.waiting_for()

    def apply(self, seat: Seat, action: Action) -> list[Event]:
        """Apply an action and return the events it caused (all public)."""
        if self.over:
            raise IllegalAction("The match is over")
        events = self.game.apply(seat, action)
        self.log.append((seat, action))
        outcome = self.game.outcome
        if outcome is not None:
            self.games.append(outcome)
            self.match_points[outcome.winner] += outcome.game_points
            points, match_to = self.match_points, self.options.match_to
            if points[outcome.winner] >= match_to:
                self.winner, self.over = outcome.winner, True
            events.append(
                GameOver(
                    outcome=outcome,
                    match_points=(self.match_points[0], self.match_points[1]),
                    match_over=self.over,
                )
            )
            if not self.over:
                previous = self.game
                # The loser of a game deals first in the next.
                self.game = self._new_game(dealer=outcome.loser)
                self.game.last_deal = previous.last_deal
                events.extend(self.game.events)
        if self.keep_events:
            self.events.extend(events)
        else:
            self.events = events
        return events

    def view(self, seat: Seat | None) -> SeatView:
        """Exactly what ``seat`` (or a spectator, for None) may see. The only path to a client."""
        return self.views((seat,))[0]

    def views(self, seats: Iterable[Seat | None]) -> list[SeatView]:
        """``[self.view(seat) for seat in seats]``, the parts every seat sees alike made once.

        The engine builds only valid states, so a view skips validating them (views are made for
        every receiver of every move; validation would cost more than the move itself). The
        values, in the fields' order, are those of ``SeatView.trusted(...)``: the test
        tests/shared/test_match.py compares them with what validation builds.
        """
        g = self.game
        points = self.match_points
        winner = self.winner
        phase: Phase
        if winner is not None:
            phase = "match_over"
        elif g.over:
            phase = "game_over"
        else:
            phase = cast(Phase, g.phase)
        hands, discards, scores, previous, said_go = (
            g.hands,
            g.discards,
            g.scores,
            g.previous_scores,
            g.said_go,
        )
        games = self.games
        crib = g.crib
        # Every field in order, the seat's own (seat, hand, discards, legal) as a spectator has
        # them; each view is a copy with its own filled in (a copy keeps the order).
        common: dict[str, object] = {
            "seat": None,
            "phase": phase,
            "game_number": g.game_number,
            "deal_number": g.deal_number,
            "dealer": g.dealer,
            "turn": None if g.over or g.phase == "discard" else g.turn,
            "waiting_for": () if winner is not None else g.waiting_for(),
            "scores": (scores[0], scores[1]),
            "previous_scores": (previous[0], previous[1]),
            "match_points": (points[0], points[1]),
            "hand": (),
            "discards": (),
            "hand_counts": (len(hands[0]), len(hands[1])),
            "discarded": (bool(discards[0]), bool(discards[1])),
            "crib_count": len(crib) if crib else len(discards[0]) + len(discards[1]),
            "crib": tuple(crib) if g._crib_shown() else None,
            "starter": g.starter,
            "count": g.count,
            "pile": tuple(g.pile),
            "played": tuple(g.played),
            "said_go": (said_go[0], said_go[1]),
            "show": tuple(g.show),
            "legal": (),
            "outcome": games[-1] if games else None,
            "games": tuple(games),
            "match_winner": winner,
            "options": self.options,
            "commitment": g.commitment,
            "cut_for_deal": self.cut_rounds,
            "last_deal": g.last_deal,
        }
        made = []
        for seat in seats:
            values = common.copy()
            values["seat"] = seat
            if seat == 0 or seat == 1:
                values["hand"] = tuple(sorted(hands[seat], key=CARD_ORDER))
                values["discards"] = discards[seat]
                if winner is None:
                    values["legal"] = tuple(g.legal_actions(seat))
            made.append(unvalidated(SeatView, values, _VIEW_FIELDS_SET))
        return made


_VIEW_FIELDS_SET: Final = set(SeatView.model_fields)
"""Every view's fields set, one set shared by all (a frozen model's is never changed: a copy
gets a set of its own)."""
