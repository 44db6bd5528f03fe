"""A profile's figures: the rating as sent, and the averages per deal from an account's counters."""

from __future__ import annotations

from muggins.server.store.accounts import AccountRecord, Stats
from muggins.shared.protocol.accounts import Averages, RatingInfo


def rating_info(account: AccountRecord) -> RatingInfo:
    r = account.rating
    return RatingInfo(
        rating=round(r.rating, 1),
        deviation=round(r.deviation, 1),
        volatility=round(r.volatility, 6),
        provisional=r.provisional,
        games=account.rated_games,
    )


def averages(stats: Stats) -> Averages:
    def per(key: str, count: str) -> float:
        n = stats.get(count, 0)
        return round(stats.get(key, 0) / n, 2) if n else 0.0

    dealer = ("dealer_pegging", "dealer_hand", "dealer_crib")
    pone = ("pone_pegging", "pone_hand")
    deals_dealer, deals_pone = stats.get("deals_dealer", 0), stats.get("deals_pone", 0)
    reviewed = stats.get("reviewed_deals", 0)
    discards = stats.get("given_away_discard_milli", 0) / 1000
    play = stats.get("given_away_play_milli", 0) / 1000
    return Averages(
        dealer_pegging=per("dealer_pegging", "deals_dealer"),
        dealer_hand=per("dealer_hand", "deals_dealer"),
        dealer_crib=per("dealer_crib", "deals_dealer"),
        dealer_total=round(sum(stats.get(k, 0) for k in dealer) / deals_dealer, 2)
        if deals_dealer
        else 0.0,
        pone_pegging=per("pone_pegging", "deals_pone"),
        pone_hand=per("pone_hand", "deals_pone"),
        pone_total=round(sum(stats.get(k, 0) for k in pone) / deals_pone, 2) if deals_pone else 0.0,
        hand=per("hand_points", "hands"),
        crib=per("crib_points", "cribs"),
        given_away=round((discards + play) / reviewed, 2) if reviewed else None,
        given_away_discards=round(discards / reviewed, 2) if reviewed else None,
        given_away_play=round(play / reviewed, 2) if reviewed else None,
    )
