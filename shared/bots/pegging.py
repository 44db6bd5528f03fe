"""Pegging lookahead for the expert: expectimax over the cards the opponent may hold.

The opponent holds ``n`` cards drawn from the ``U`` cards this seat has not seen (the deck less its
own six, the starter and everything played). For each rank the chance that the opponent holds at
least one card of it is ``1 - C(U-u, n) / C(U, n)``. The opponent is modelled as taking the reply
that is best for it one move ahead (its points less this seat's best answer), choosing among the
ranks it may hold; if it holds none that fit under 31 it says go. Suits never matter in the play,
so everything here works on ranks.

>>> Pegging(hand=(5, 10), unseen=tuple([0] + [4] * 13), opp_cards=4).best(pile=(), count=0)
10
"""

from __future__ import annotations

from dataclasses import dataclass

from muggins.shared.bots.evaluation import pip, play_points

Ranks = tuple[int, ...]


def hold_chance(unseen_of_rank: int, unseen: int, cards: int) -> float:
    """The chance that ``cards`` drawn from ``unseen`` include one of ``unseen_of_rank``."""
    if unseen_of_rank <= 0 or cards <= 0:
        return 0.0
    if unseen_of_rank >= unseen:
        return 1.0
    miss = 1.0
    for i in range(cards):
        miss *= (unseen - unseen_of_rank - i) / (unseen - i)
        if miss <= 0.0:
            return 1.0
    return 1.0 - miss


@dataclass
class Pegging:
    """One seat's pegging problem: its ranks in hand, what it has not seen, the opponent's count.

    ``mine`` and ``theirs`` weigh this seat's and the opponent's points (more than 1 near the end
    of the game, to go for pegging out or to defend). ``depth`` is how many extra pairs of moves
    the search looks past the first reply.
    """

    hand: Ranks
    unseen: Ranks
    opp_cards: int
    opp_said_go: bool = False
    mine: float = 1.0
    theirs: float = 1.0
    depth: int = 0

    def values(self, *, pile: Ranks, count: int) -> dict[int, float]:
        """The expected point balance of playing each playable rank."""
        out: dict[int, float] = {}
        for rank in set(self.hand):
            if count + pip(rank) <= 31:
                out[rank] = self._after_mine(
                    rank, self.hand, pile, count, self.unseen, self.opp_cards, self.depth
                )
        return out

    def best(self, *, pile: Ranks, count: int) -> int:
        """The rank to play; ties go to the higher card (low cards keep the go)."""
        values = self.values(pile=pile, count=count)
        return max(values, key=lambda r: (round(values[r], 6), r))

    # --- the search ------------------------------------------------------------------------------

    def _after_mine(
        self, rank: int, hand: Ranks, pile: Ranks, count: int, unseen: Ranks, n: int, depth: int
    ) -> float:
        points = play_points(pile, count, rank)
        hand = _without(hand, rank)
        count += pip(rank)
        pile = (*pile, rank)
        value = self.mine * points
        if count == 31:
            return value
        return value + self._their_turn(hand, pile, count, unseen, n, depth)

    def _their_turn(
        self, hand: Ranks, pile: Ranks, count: int, unseen: Ranks, n: int, depth: int
    ) -> float:
        if n == 0 or self.opp_said_go:
            return self._mine_alone(hand, pile, count)
        total = sum(unseen)
        options: list[tuple[float, float, float]] = []  # (their preference, chance, my value)
        for rank in range(1, 14):
            u = unseen[rank]
            if not u or count + pip(rank) > 31:
                continue
            chance = hold_chance(u, total, n)
            points = play_points(pile, count, rank)
            new_count = count + pip(rank)
            my_value = -self.theirs * points
            if new_count < 31:
                my_value += self._my_reply(
                    hand, (*pile, rank), new_count, _less(unseen, rank), n - 1, depth
                )
            options.append((-my_value, chance, my_value))
        options.sort(key=lambda o: -o[0])
        value = 0.0
        none = 1.0
        for _, chance, my_value in options:
            value += none * chance * my_value
            none *= 1.0 - chance
        if none > 0.0:
            value += none * self._mine_alone(hand, pile, count)
        return value

    def _my_reply(
        self, hand: Ranks, pile: Ranks, count: int, unseen: Ranks, n: int, depth: int
    ) -> float:
        playable = [r for r in set(hand) if count + pip(r) <= 31]
        if not playable:
            # A go: the opponent pegs at least one unless it ends the play at 31.
            return -self.theirs
        if depth <= 0:
            return self.mine * max(play_points(pile, count, r) for r in playable)
        return max(self._after_mine(r, hand, pile, count, unseen, n, depth - 1) for r in playable)

    def _mine_alone(self, hand: Ranks, pile: Ranks, count: int) -> float:
        """The opponent cannot play: this seat plays on greedily, then pegs the go."""
        points = 0
        while True:
            playable = [r for r in set(hand) if count + pip(r) <= 31]
            if not playable:
                break
            rank = max(playable, key=lambda r: (play_points(pile, count, r), r))
            points += play_points(pile, count, rank)
            hand = _without(hand, rank)
            pile = (*pile, rank)
            count += pip(rank)
            if count == 31:
                return self.mine * points
        return self.mine * (points + 1)


def _without(hand: Ranks, rank: int) -> Ranks:
    """``hand`` less one card of ``rank``."""
    i = hand.index(rank)
    return hand[:i] + hand[i + 1 :]


def _less(unseen: Ranks, rank: int) -> Ranks:
    """Counts per rank (index 1..13) less one of ``rank``."""
    counts = list(unseen)
    counts[rank] -= 1
    return tuple(counts)
