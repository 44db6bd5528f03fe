"""The server's step-by-step replay of a finished match (the ``game`` answer's ``steps``)."""

from __future__ import annotations

import itertools
import random

from muggins.server.results.replays import ReplayCache, replay_steps
from muggins.shared.actions import Discard, GameOptions, Play
from muggins.shared.match import Match


def play_out(options: GameOptions, seed: bytes, pick: random.Random) -> Match:
    match = Match(seed=seed, options=options)
    while not match.over:
        seat = match.waiting_for()[0]
        match.apply(seat, pick.choice(match.legal_actions(seat)))
    return match


def test_steps_follow_the_engine_through_a_best_of_three() -> None:
    options = GameOptions(target=61, scheme="games", match_to=2)
    seed = b"replay-steps"
    match = play_out(options, seed, random.Random(3))
    names = ("Ann", "Bob")
    steps = replay_steps(options, seed, match.log, names)

    games = len(match.games)
    assert games >= 2
    # The opening, one step per action, and an opening for each later deal and game.
    openings = [s for s in steps if s.action is None]
    assert len(steps) == len(match.log) + len(openings)
    assert [s.game_number for s in openings if s.deal_number == 1] == list(range(1, games + 1))
    for opening in openings:
        assert [len(h) for h in opening.hands] == [6, 6] and opening.texts
        assert opening.scores == (0, 0) or opening.deal_number > 1
    # Before each later deal, the step that ended the last one shows its show, counted.
    for before, opening in itertools.pairwise(steps):
        if opening.action is None and opening.deal_number > 1:
            assert [r.kind for r in before.show] == ["hand", "hand", "crib"]
            assert all(r.total is not None for r in before.show)
            assert before.deal_number == opening.deal_number - 1
    # Each game ends on a step whose winner reached the target and whose texts say so.
    for outcome in match.games:
        [last] = [
            s
            for s in steps
            if s.action is not None
            and s.game_number == outcome.game_number
            and any("wins" in t for t in s.texts)
        ]
        assert last.scores[outcome.winner] >= 61 > last.scores[outcome.loser]
    acted = [s for s in steps if s.action is not None]
    for step, (seat, action) in zip(acted, match.log, strict=True):
        assert step.seat == seat and step.action == action
        if isinstance(action, Discard):
            assert set(action.cards) == set(step.discards[seat])
            assert not set(action.cards) & set(step.hands[seat])
        if isinstance(action, Play):
            assert action.card not in step.hands[seat]
        for seen in (step.hands[0], step.hands[1], step.discards[0], step.discards[1]):
            assert list(seen) == list(dict.fromkeys(seen))
    # Every card of a deal's show is one it was dealt: a hand shown is the four kept.
    shows = [s for s in steps if s.show]
    assert shows and all(len(r.cards) == 4 for s in shows for r in s.show)


async def test_the_cache_replays_a_match_once() -> None:
    """Asked again, a match's steps come from the cache; the oldest is forgotten past its size."""
    options = GameOptions(target=61)
    matches = {f"M{i}-1": play_out(options, bytes([i]), random.Random(i)) for i in range(3)}
    cache = ReplayCache(size=2)

    async def steps(key: str) -> object:
        match = matches[key]
        return await cache.steps(key, options, bytes(match.seed), match.log, ("Ann", "Bob"))  # type: ignore[arg-type]

    first = await steps("M0-1")
    assert first == replay_steps(options, bytes([0]), matches["M0-1"].log, ("Ann", "Bob"))
    assert await steps("M0-1") is first
    await steps("M1-1")
    await steps("M2-1")  # M0-1 is the oldest: forgotten
    again = await steps("M0-1")
    assert again == first and again is not first


def test_a_replay_says_a_winning_peg_at_the_game_hole() -> None:
    """A game won with points past the hole (the raw score beyond 61) is told at 61 in the
    server's replay steps and in the replay's text, as the board and the live log say it."""
    import re

    from muggins.shared.actions import Scored
    from muggins.shared.replay_text import replay_steps as text_steps

    options = GameOptions(target=61)
    names = ("Ann", "Bob")
    for n in itertools.count():
        seed = f"past-the-hole-{n}".encode()
        match, pick, past = Match(seed=seed, options=options), random.Random(n), False
        while not match.over:
            seat = match.waiting_for()[0]
            events = match.apply(seat, pick.choice(match.legal_actions(seat)))
            past = past or any(isinstance(e, Scored) and e.score > 61 for e in events)
        if past:
            break
    steps = replay_steps(options, seed, match.log, names)
    lines = [
        line
        for step in text_steps(
            game_id="g",
            seed=seed,
            options=options,
            names=names,
            actions=match.log,
            result="won",
            winner=match.winner,
        )
        for line in step
    ]
    for texts in ([t for s in steps for t in s.texts], lines):
        said = [int(x) for t in texts for x in re.findall(r"\((\d+)\)", t)]
        assert said and max(said) == 61, [t for t in texts if "(6" in t]
