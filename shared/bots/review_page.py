"""What the review page shows of a finished match, made from its seed and log (pure).

:func:`review_page` grades one seat's decisions with the reviewer
(:func:`~muggins.shared.bots.review.review_match`: each against the expert's, from what the seat
saw), then adds up the points given away per deal, ranks the worst moments, and follows the
seat's chance to win each game from the expert's win table
(:func:`~muggins.shared.bots.board.win_table`): one point at the start of every deal, and one at
each game's end (1 or 0).
"""

from __future__ import annotations

from collections.abc import Iterable

from muggins.shared.actions import Action, GameOptions, GameOver
from muggins.shared.bots.board import win_table
from muggins.shared.bots.review import review_match
from muggins.shared.match import Match
from muggins.shared.protocol.review import DealLoss, GameReview, ReviewedDecision, WinPoint

WORST = 5
"""How many of the costliest decisions the page names."""


def review_page(
    *,
    game: str,
    options: GameOptions,
    seed: bytes,
    log: Iterable[tuple[int, Action]],
    seat: int,
    names: tuple[str, str],
) -> GameReview:
    """The review of ``seat`` in a finished match (``names``: who held the seats at the end)."""
    actions = tuple(log)
    review = review_match(options, seed, actions, seat, names)
    decisions = tuple(
        ReviewedDecision(
            game=m.game,
            deal=m.deal,
            kind=m.kind,
            scores=m.scores,
            chosen=m.chosen,
            best=m.best,
            loss=round(m.loss, 3),
            win_loss=round(m.win_loss, 4),
            explanation=m.explanation,
        )
        for m in review.moments
    )
    ranked = sorted(range(len(decisions)), key=lambda i: (-decisions[i].loss, i))
    worst = tuple(i for i in ranked[:WORST] if decisions[i].loss > 0)
    deals: dict[tuple[int, int], dict[str, float]] = {}
    for d in decisions:
        kind = {"discard": "discards", "play": "play", "count": "counts"}[d.kind]
        per = deals.setdefault((d.game, d.deal), {"discards": 0.0, "play": 0.0, "counts": 0.0})
        per[kind] += d.loss
    return GameReview(
        game=game,
        seat=seat,
        names=names,
        target=options.target,
        decisions=decisions,
        worst=worst,
        deals=tuple(
            DealLoss(game=g, deal=n, **{k: round(v, 3) for k, v in per.items()})
            for (g, n), per in sorted(deals.items())
        ),
        win_chance=win_curve(options, seed, actions, seat),
        given_away=(
            round(review.loss("discard"), 3),
            round(review.loss("play"), 3),
            round(review.loss("count"), 3),
        ),
        agreed=sum(1 for d in decisions if d.loss <= 1e-9),
    )


def win_curve(
    options: GameOptions, seed: bytes, actions: Iterable[tuple[int, Action]], seat: int
) -> tuple[WinPoint, ...]:
    """The seat's chance to win the game at the start of each deal, and 1 or 0 at each game's
    end, replaying the match."""
    table = win_table(options.target)
    match = Match(seed=seed, options=options, keep_events=False)
    points: list[WinPoint] = []

    def deal_starts() -> None:
        game = match.game
        mine, theirs = game.scores[seat], game.scores[1 - seat]
        i_deal = game.dealer == seat
        points.append(
            WinPoint(
                game=game.game_number,
                deal=game.deal_number,
                scores=(mine, theirs),
                dealer=i_deal,
                chance=round(table.chance(mine, theirs, i_deal=i_deal), 4),
            )
        )

    deal_starts()
    for who, action in actions:
        game, deal = match.game, match.game.deal_number
        for event in match.apply(who, action):
            if isinstance(event, GameOver):
                o = event.outcome
                points.append(
                    WinPoint(
                        game=o.game_number,
                        deal=0,
                        scores=(o.scores[seat], o.scores[1 - seat]),
                        dealer=False,
                        chance=1.0 if o.winner == seat else 0.0,
                    )
                )
        if not match.over and (match.game is not game or match.game.deal_number != deal):
            deal_starts()
    return tuple(points)
