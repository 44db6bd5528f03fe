"""A finished match replayed step by step for the ``game`` answer, every card face up.

The browser's replay page draws these steps; the rules engine stays the only thing that knows
how a match unfolds. Only finished matches are ever replayed this way (the caller checks), so
both hands, the crib and every discard may be shown.
"""

from __future__ import annotations

import asyncio
from collections import OrderedDict
from collections.abc import Iterable, Sequence

from muggins.shared.actions import Action, DealRevealed, Event, GameOptions, GameOver, Seat
from muggins.shared.game import Game
from muggins.shared.handover import HandOver, holders
from muggins.shared.match import Match
from muggins.shared.protocol.accounts import ReplayStep


def _step(
    game: Game,
    seat: Seat | None,
    action: Action | None,
    events: Iterable[Event],
    names: Sequence[str],
) -> ReplayStep:
    hands = game.hands
    return ReplayStep(
        seat=seat,
        action=action,
        texts=tuple(event.describe(names) for event in events),
        game_number=game.game_number,
        deal_number=game.deal_number,
        dealer=game.dealer,
        scores=(game.scores[0], game.scores[1]),
        hands=(tuple(sorted(hands[0])), tuple(sorted(hands[1]))),
        discards=(tuple(game.discards[0]), tuple(game.discards[1])),
        starter=game.starter,
        count=game.count,
        pile=tuple(game.pile),
        show=tuple(game.show),
    )


def replay_steps(
    options: GameOptions,
    seed: bytes,
    actions: Iterable[tuple[Seat, Action]],
    names: tuple[str, str],
    hand_overs: Sequence[HandOver] = (),
) -> tuple[ReplayStep, ...]:
    """The opening (cut and first deal), then the table after each action.

    A step that ends a deal shows its show as counted, and one that ends a game that game's last
    table; the next deal (or game) is then a step of its own, with no seat and no action. So is
    a seat changing hands (the computer taking over): a step with the sentence that says so, the
    table unchanged. Each step's sentences name who held the seats then.
    """
    start = names
    match = Match(seed=seed, options=options)
    steps = [_step(match.game, None, None, match.events, names)]
    for index, (seat, action) in enumerate(actions):
        for h in hand_overs:
            if h.at == index:
                opening = _step(match.game, None, None, (), names)
                steps.append(opening.model_copy(update={"texts": (h.sentence(),)}))
        names = holders(start, hand_overs, action=index)
        game = match.game
        deal, discards = game.deal_number, (tuple(game.discards[0]), tuple(game.discards[1]))
        events = match.apply(seat, action)
        if match.game is game and game.deal_number == deal:
            steps.append(_step(game, seat, action, events, names))
            continue
        if match.game is not game:
            # The action ended a game and the match deals the next one: its own opening step.
            cut = next(i for i, e in enumerate(events) if isinstance(e, GameOver)) + 1
            steps.append(_step(game, seat, action, events[:cut], names))
            steps.append(_step(match.game, None, None, events[cut:], names))
            continue
        # The action ended a deal (its show was counted) and the next one was dealt: the show
        # as it ended, then the new deal as a step of its own.
        cut = next(i for i, e in enumerate(events) if isinstance(e, DealRevealed)) + 1
        last = game.last_deal
        assert last is not None
        steps.append(
            ReplayStep(
                seat=seat,
                action=action,
                texts=tuple(event.describe(names) for event in events[:cut]),
                game_number=game.game_number,
                deal_number=last.deal_number,
                dealer=last.dealer,
                scores=(game.scores[0], game.scores[1]),
                hands=((), ()),
                discards=discards,
                starter=last.starter,
                count=0,
                pile=(),
                show=last.show,
            )
        )
        steps.append(_step(game, None, None, events[cut:], names))
    return tuple(steps)


class ReplayCache:
    """The latest replays by match id: a finished match never changes, and replaying a long one
    costs tens of milliseconds, so a page asked for again (or by many people) is replayed once."""

    def __init__(self, size: int = 64) -> None:
        self.size = size
        self._steps: OrderedDict[str, tuple[ReplayStep, ...]] = OrderedDict()

    async def steps(
        self,
        match_id: str,
        options: GameOptions,
        seed: bytes,
        actions: Iterable[tuple[Seat, Action]],
        names: tuple[str, str],
        hand_overs: Sequence[HandOver] = (),
    ) -> tuple[ReplayStep, ...]:
        found = self._steps.get(match_id)
        if found is None:
            # Off the event loop: a long match takes tens of milliseconds to replay.
            found = await asyncio.to_thread(
                replay_steps, options, seed, tuple(actions), names, tuple(hand_overs)
            )
            self._steps[match_id] = found
            if len(self._steps) > self.size:
                self._steps.popitem(last=False)
        else:
            self._steps.move_to_end(match_id)
        return found
