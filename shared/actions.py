"""What a seat can do, what happens as a result, and the game options.

Every model here is a frozen pydantic model with a ``type`` tag, so the same objects travel on the
wire, go into the persisted action log and come back out for replays.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Annotated, Any, Final, Literal, Self

from pydantic import BaseModel, ConfigDict, Field, TypeAdapter, field_validator

from muggins.shared.cards import Card, format_cards
from muggins.shared.construct import DEFAULTS, trusted
from muggins.shared.counting import MAX_CLAIM, Answer
from muggins.shared.scoring import PartKind, number_word

Seat = int
"""0 or 1. The engine has no names; the server maps seats to players."""


class Model(BaseModel):
    model_config = ConfigDict(frozen=True, extra="forbid")

    @classmethod
    def trusted(cls, **values: Any) -> Self:
        """Build without validation, for values the engine made valid by construction.

        The result equals ``cls(**values)`` provided each value already has the type validation
        would give it (tuples, not lists; :class:`~shared.cards.Card`, not text). Validating every
        event, view and part would cost the engine more than the rules themselves. (This is
        :func:`shared.construct.trusted`, which the engine calls directly.)
        """
        return trusted(cls, **values)

    @classmethod
    def __pydantic_init_subclass__(cls, **kwargs: Any) -> None:
        super().__pydantic_init_subclass__(**kwargs)
        # Every field in order, with its default; required fields must be given to trusted().
        DEFAULTS[cls] = {
            name: None if field.is_required() else field.get_default()
            for name, field in cls.model_fields.items()
        }


class IllegalAction(ValueError):
    """An action the rules do not allow now. ``str(error)`` is a sentence for the player."""


class GameOptions(Model):
    """How a match is played."""

    target: Literal[121, 61] = 121
    muggins: bool = False
    scheme: Literal["standard", "acc", "games"] = Field(
        default="standard",
        description="game points: standard 1/2/3 (skunk, double skunk), acc 2/3/3, "
        "games 1 for any win (so match_to 2 is best of three)",
    )
    match_to: int = Field(default=1, ge=1, le=99, description="game points that win the match")

    @field_validator("target", mode="before")
    @classmethod
    def _whole_target(cls, value: object) -> object:
        """Strict even inside a literal: 61.0 or true is not the integer 61 or 121."""
        if isinstance(value, bool) or not isinstance(value, int):
            raise ValueError("target is the integer 121 or 61")
        return value

    @property
    def skunk_line(self) -> int:
        """The loser is skunked below this score (91 in a game to 121)."""
        return self.target - 30

    @property
    def double_skunk_line(self) -> int | None:
        """The loser is double-skunked below this (61 in a game to 121; none in a game to 61)."""
        return self.target - 60 if self.target == 121 else None

    def game_points(self, *, skunk: bool, double_skunk: bool) -> int:
        if self.scheme == "games":
            return 1
        win, skunked, doubled = (2, 3, 3) if self.scheme == "acc" else (1, 2, 3)
        return doubled if double_skunk else skunked if skunk else win


# --- actions -------------------------------------------------------------------------------------


class Discard(Model):
    """Lay two cards away to the dealer's crib."""

    type: Literal["discard"] = "discard"
    cards: tuple[Card, Card]


class Play(Model):
    """Play a card during the play."""

    type: Literal["play"] = "play"
    card: Card


class Count(Model):
    """Muggins mode: claim the points in your hand or crib (any number from 0 to 29)."""

    type: Literal["count"] = "count"
    points: int = Field(ge=0, le=MAX_CLAIM)


class Muggins(Model):
    """Muggins mode: call "Muggins!" on a short count and take the points it missed."""

    type: Literal["muggins"] = "muggins"


class Challenge(Model):
    """Muggins mode: challenge an over-count; the owner is put back and you take the excess."""

    type: Literal["challenge"] = "challenge"


class Accept(Model):
    """Muggins mode: let the opponent's count stand as claimed."""

    type: Literal["accept"] = "accept"


class Resign(Model):
    """Give up the game."""

    type: Literal["resign"] = "resign"


Action = Annotated[
    Discard | Play | Count | Muggins | Challenge | Accept | Resign, Field(discriminator="type")
]
ACTION: Final[TypeAdapter[Action]] = TypeAdapter(Action)

# Actions are frozen values, so each is made once and shared: legal_actions() runs around every
# move, and every match log on a server holds its moves for as long as the match is kept.
# Keyed by the cards' texts: a string hashes in C, a Card calls its Python __hash__.
_DISCARDS: dict[tuple[str, str], Discard] = {}
_PLAYS: dict[str, Play] = {}


def discard_action(pair: tuple[Card, Card]) -> Discard:
    """The shared :class:`Discard` of ``pair`` (in that order)."""
    key = (pair[0].text, pair[1].text)
    action = _DISCARDS.get(key)
    if action is None:
        action = _DISCARDS[key] = Discard.trusted(cards=pair)
    return action


def play_action(card: Card) -> Play:
    """The shared :class:`Play` of ``card``."""
    action = _PLAYS.get(card.text)
    if action is None:
        action = _PLAYS[card.text] = Play.trusted(card=card)
    return action


# --- events --------------------------------------------------------------------------------------


class Points(Model):
    """A scoring combination as it travels: its kind, its points and its cards."""

    kind: PartKind
    points: int
    cards: tuple[Card, ...] = ()


class CutForDeal(Model):
    """Both seats cut; the low card deals. Tied rounds are listed before the deciding one."""

    type: Literal["cut_for_deal"] = "cut_for_deal"
    rounds: tuple[tuple[Card, Card], ...]
    dealer: Seat

    def describe(self, names: Sequence[str]) -> str:
        first, second = self.rounds[-1]
        return (
            f"{names[0]} cuts {first.pretty}, {names[1]} cuts {second.pretty}: "
            f"{names[self.dealer]} deals first"
        )


class DealStarted(Model):
    """A new deal: each seat has six cards. Only the commitment to the deck is public."""

    type: Literal["deal_started"] = "deal_started"
    game_number: int
    deal_number: int
    dealer: Seat
    commitment: str

    def describe(self, names: Sequence[str]) -> str:
        return f"{names[self.dealer]} deals (deal {self.deal_number})"


class Discarded(Model):
    type: Literal["discarded"] = "discarded"
    seat: Seat

    def describe(self, names: Sequence[str]) -> str:
        return f"{names[self.seat]} lays away two cards"


_SCORED_FIXED: Final = {
    "heels": "two for his heels",
    "go": "one for the go",
    "last_card": "one for last card",
}
_SCORED_COUNTED: Final = {
    "hand": "%s for the hand",
    "crib": "%s for the crib",
    "muggins": "Muggins! %s missed points",
    "challenge": "%s for the over-count",
    "wrong_call": "%s for a wrong call",
}
"""How a peg is said, by its reason: as it is, or with its points in words."""


class Scored(Model):
    """Points pegged outside a card play: heels, go, last card, a count, and in muggins mode
    the points taken for a short count or an over-count, or the penalty for a wrong call."""

    type: Literal["scored"] = "scored"
    seat: Seat
    reason: Literal[
        "heels", "go", "last_card", "hand", "crib", "muggins", "challenge", "wrong_call"
    ]
    points: int
    parts: tuple[Points, ...] = ()
    score: int

    def describe(self, names: Sequence[str]) -> str:
        fixed = _SCORED_FIXED.get(self.reason)
        what = (
            fixed if fixed is not None else _SCORED_COUNTED[self.reason] % number_word(self.points)
        )
        return f"{names[self.seat]} pegs {what} ({self.score})"


class StarterCut(Model):
    type: Literal["starter_cut"] = "starter_cut"
    card: Card
    heels: bool

    def describe(self, names: Sequence[str]) -> str:
        return f"The starter is {self.card.pretty}" + (": a jack, his heels!" if self.heels else "")


class CardPlayed(Model):
    type: Literal["card_played"] = "card_played"
    seat: Seat
    card: Card
    count: int
    points: int
    parts: tuple[Points, ...]
    spoken: str
    score: int

    def describe(self, names: Sequence[str]) -> str:
        return f"{names[self.seat]} plays {self.card.pretty}: {self.spoken}"


class Go(Model):
    type: Literal["go"] = "go"
    seat: Seat

    def describe(self, names: Sequence[str]) -> str:
        return f"{names[self.seat]}: go"


class CountReset(Model):
    type: Literal["count_reset"] = "count_reset"
    leader: Seat

    def describe(self, names: Sequence[str]) -> str:
        return f"The count starts again at zero; {names[self.leader]} leads"


class HandShown(Model):
    """A hand or the crib is laid face up in the show (and, unless counting by hand, scored)."""

    type: Literal["hand_shown"] = "hand_shown"
    seat: Seat
    kind: Literal["hand", "crib"]
    cards: tuple[Card, Card, Card, Card]
    starter: Card

    def describe(self, names: Sequence[str]) -> str:
        whose = f"{names[self.seat]}'s " + ("crib" if self.kind == "crib" else "hand")
        return f"{whose}: {format_cards(self.cards, pretty=True)} with {self.starter.pretty}"


class CountClaimed(Model):
    """Muggins mode: the owner's claim for a hand or crib, before anyone is told its total."""

    type: Literal["count_claimed"] = "count_claimed"
    seat: Seat
    kind: Literal["hand", "crib"]
    claimed: int

    def describe(self, names: Sequence[str]) -> str:
        return f"{names[self.seat]} counts {number_word(self.claimed)} for the {self.kind}"


class CountAnswered(Model):
    """Muggins mode: the opponent's answer to a claim, and the true total it is settled by."""

    type: Literal["count_answered"] = "count_answered"
    seat: Seat = Field(description="who answered: the owner's opponent")
    kind: Literal["hand", "crib"]
    answer: Answer
    claimed: int
    total: int
    right: bool | None = Field(description="whether the call was right; None for accept")

    def describe(self, names: Sequence[str]) -> str:
        who, owner = names[self.seat], names[1 - self.seat]
        what = f"{owner}'s {self.kind} makes {number_word(self.total)}"
        claim = number_word(self.claimed)
        if self.answer == "accept":
            verdict = "" if self.claimed == self.total else f" ({what})"
            return f"{who} accepts the count of {claim}{verdict}"
        call = "calls Muggins!" if self.answer == "muggins" else "challenges the count"
        if self.right:
            return f"{who} {call}: {what}, not {claim}"
        wrong = "short" if self.answer == "muggins" else "over"
        return f"{who} {call}, but the count of {claim} was not {wrong}: {what}"


class HandScored(Model):
    """The true breakdown of a shown hand or crib, once it is settled."""

    type: Literal["hand_scored"] = "hand_scored"
    seat: Seat
    kind: Literal["hand", "crib"]
    total: int
    parts: tuple[Points, ...]
    spoken: str

    def describe(self, names: Sequence[str]) -> str:
        return f"{names[self.seat]}'s {self.kind}: {self.spoken}"


class DealRevealed(Model):
    """The deal is over: the deck order and salt behind the commitment."""

    type: Literal["deal_revealed"] = "deal_revealed"
    deal_number: int
    commitment: str
    deck: tuple[Card, ...]
    salt: str

    def describe(self, names: Sequence[str]) -> str:
        return f"Deal {self.deal_number}: the deck is revealed for checking"


class Resigned(Model):
    type: Literal["resigned"] = "resigned"
    seat: Seat

    def describe(self, names: Sequence[str]) -> str:
        return f"{names[self.seat]} resigns"


class Outcome(Model):
    """How a game ended."""

    game_number: int
    winner: Seat
    scores: tuple[int, int] = Field(
        description="the final scores by seat; the winner's stops at the game hole (121 or 61)"
    )
    skunk: bool = Field(
        description="the loser ended under the skunk line but not under the double-skunk line "
        "(exclusive with double_skunk: a double skunk has skunk false)"
    )
    double_skunk: bool = Field(description="the loser ended under the double-skunk line")
    game_points: int
    reason: Literal["score", "resign"]

    @property
    def loser(self) -> Seat:
        return 1 - self.winner


class GameOver(Model):
    type: Literal["game_over"] = "game_over"
    outcome: Outcome
    match_points: tuple[int, int]
    match_over: bool

    def describe(self, names: Sequence[str]) -> str:
        o = self.outcome
        how = " with a double skunk" if o.double_skunk else " with a skunk" if o.skunk else ""
        final = f"{o.scores[o.winner]}-{o.scores[o.loser]}"
        text = f"{names[o.winner]} wins game {o.game_number} {final}"
        text += f"{how} ({o.game_points} game point{'s' if o.game_points != 1 else ''})"
        if self.match_over:
            text += f" and the match {self.match_points[o.winner]}-{self.match_points[o.loser]}"
        return text


Event = Annotated[
    CutForDeal
    | DealStarted
    | Discarded
    | StarterCut
    | Scored
    | CardPlayed
    | Go
    | CountReset
    | HandShown
    | CountClaimed
    | CountAnswered
    | HandScored
    | DealRevealed
    | Resigned
    | GameOver,
    Field(discriminator="type"),
]
EVENT: Final[TypeAdapter[Event]] = TypeAdapter(Event)


def described(event: Event, names: Sequence[str], target: int) -> str:
    """The event's sentence as the table shows it: a winning peg past the game hole is said at
    the hole (121, not 124), as the board and the scores stop there.

    >>> won = Scored(seat=0, reason="go", points=1, score=122)
    >>> described(won, ["Ann", "Bob"], 121)
    'Ann pegs one for the go (121)'
    """
    if isinstance(event, Scored) and event.score > target:
        return event.model_copy(update={"score": target}).describe(names)
    return event.describe(names)
