"""A finished match replayed step by step for the ``game`` answer, every card face up.

The browser's replay page draws these steps; the rules engine stays the only thing that knows
how a match unfolds. Only finished matches are ever replayed this way (the caller checks), so
both hands, the crib and every discard may be shown.
"""

from __future__ import annotations

import asyncio
from collections import OrderedDict
from collections.abc import Iterable, Sequence
from typing import Final

from muggins.server.store.games import Store
from muggins.server.wire.send_cache import utf8
from muggins.shared.actions import (
    Action,
    DealRevealed,
    Event,
    GameOptions,
    GameOver,
    Seat,
    described,
)
from muggins.shared.game import Game
from muggins.shared.handover import HandOver, holders
from muggins.shared.match import Match
from muggins.shared.protocol.accounts import GameRecord, LoggedAction, ReplayStep


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
        texts=tuple(described(event, names, game.options.target) for event in events),
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
                texts=tuple(described(e, names, options.target) for e in events[:cut]),
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


RECORDS_BYTES: Final = 32 * 1024 * 1024
"""The most the :class:`GameRecords` cache holds, in bytes of encoded answers."""


class GameRecords:
    """Finished matches as the ``game`` answer sends them: loaded, replayed, built and encoded
    once, then served from here (a finished match never changes), so that a flood of requests
    for replays costs a copy each and not a rebuild. Requests for one match that arrive while it
    is being built wait for that build. The oldest answers go past :data:`RECORDS_BYTES`."""

    def __init__(self, store: Store, *, limit: int = RECORDS_BYTES) -> None:
        self.store = store
        self.limit = limit
        self.held = 0
        self.built = 0
        """How many answers were built (not served from the cache)."""
        self.replays = ReplayCache()
        self._answers: OrderedDict[tuple[str, bool], tuple[GameRecord, bytes]] = OrderedDict()
        self._building: dict[tuple[str, bool], asyncio.Future[tuple[GameRecord, bytes] | None]] = {}

    async def get(self, code: str, number: int, *, steps: bool) -> tuple[GameRecord, bytes] | None:
        """The answer for a finished match (its ``id`` None) and its JSON, or None if there is
        no such finished match."""
        key = (f"{code.upper()}-{number}", steps)
        found = self._answers.get(key)
        if found is not None:
            self._answers.move_to_end(key)
            return found
        building = self._building.get(key)
        if building is not None:
            return await asyncio.shield(building)
        future: asyncio.Future[tuple[GameRecord, bytes] | None]
        future = asyncio.get_running_loop().create_future()
        self._building[key] = future
        try:
            answer = await self._build(code, number, steps=steps)
            future.set_result(answer)
        except BaseException as error:
            future.set_exception(error)
            future.exception()  # retrieved: nobody else may be waiting
            raise
        finally:
            del self._building[key]
        if answer is not None:
            self._keep(key, answer)
        return answer

    def _keep(self, key: tuple[str, bool], answer: tuple[GameRecord, bytes]) -> None:
        self._answers[key] = answer
        self.held += len(answer[1])
        while self.held > self.limit and len(self._answers) > 1:
            _, (_, data) = self._answers.popitem(last=False)
            self.held -= len(data)

    async def _build(
        self, code: str, number: int, *, steps: bool
    ) -> tuple[GameRecord, bytes] | None:
        match = await self.store.load_match(code, number)
        if match is None or match.finished is None:
            return None
        self.built += 1
        record = GameRecord(
            game=match.id,
            names=match.names,
            hand_overs=match.hand_overs,
            options=match.options,
            seed=match.seed.hex(),
            actions=tuple(LoggedAction(seat=s, action=a) for s, a in match.actions),
            started=match.started,
            finished=match.finished,
            result=match.result,
            winner=match.winner,
            steps=await self.replays.steps(
                match.id, match.options, match.seed, match.actions, match.names, match.hand_overs
            )
            if steps
            else (),
        )
        data = await asyncio.to_thread(utf8, record)  # large: encoded off the event loop
        return record, data
