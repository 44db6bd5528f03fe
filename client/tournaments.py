"""Tournaments in words, for the terminal: the list, a tournament's standings and games, and
the plain mode's commands that make the messages."""

from __future__ import annotations

from muggins.shared.protocol.tournaments import (
    CreateTournament,
    TournamentInfo,
    Tournaments,
    TournamentSummary,
)


def facts(s: TournamentSummary) -> str:
    """'Arena · playing, 42 min left · 6 players · duplicate deals · people only'."""
    kind = "Arena" if s.kind == "arena" else f"Swiss, {s.rounds} rounds"
    if s.status == "playing":
        if s.kind == "arena" and s.ends_in is not None:
            state = f"playing, {max(1, round(s.ends_in / 60))} min left"
        else:
            state = f"playing, round {s.round}"
    else:
        state = "not started yet" if s.status == "waiting" else "finished"
    extras = [kind, state, f"{s.players} player{'' if s.players == 1 else 's'}"]
    if s.duplicate:
        extras.append("duplicate deals")
    extras.append("bots admitted" if s.bots else "people only")
    return " · ".join(extras)


def list_lines(listing: Tournaments) -> list[str]:
    if not listing.tournaments:
        return ["No tournaments on this server just now."]
    return [f"{s.tournament}  {s.name}: {facts(s)}" for s in listing.tournaments]


def standings_lines(info: TournamentInfo) -> list[str]:
    """The standings table, then the games, newest first."""
    s = info.summary
    swiss = s.kind == "swiss"
    lines = [f"{s.name} ({s.tournament}): {facts(s)}" + (" · you are in" if info.joined else "")]
    tie = "Buchholz" if swiss else "streak"
    lines.append(f"{'#':>3} {'player':<28} {'points':>6} {'games':>5}  W-D-L  {tie}")
    for r in info.standings:
        extra = f"{r.buchholz:g}" if swiss and r.buchholz is not None else str(r.streak)
        name = r.name + ("" if r.active else " (left)")
        lines.append(
            f"{r.rank:>3} {name:<28} {r.points:>6g} {r.games:>5}  "
            f"{r.wins}-{r.draws}-{r.losses}  {extra}"
        )
    for g in reversed(info.games):
        result = "playing" if g.result is None else RESULTS.get(g.result, "?")
        where = f"round {g.round}: " if g.round else ""
        lines.append(f"    {where}{g.names[0]} - {g.names[1]} {result}  ({g.game})")
    return lines


RESULTS = {1.0: "1-0", 0.0: "0-1", 0.5: "½-½"}


class Newest:
    """The newest info of each tournament heard on one connection. An answer can come after
    the news of a later change (see ``TournamentInfo.revision``), so the info with the highest
    revision is kept, not the last to come."""

    def __init__(self) -> None:
        self.infos: dict[str, TournamentInfo] = {}

    def take(self, info: TournamentInfo) -> TournamentInfo:
        """The info to show now: ``info``, unless one of a later revision came before it (an
        info of revision 0 is not numbered, and is taken as it comes).

        >>> s = TournamentSummary(tournament="T1", name="Cup", kind="arena", status="playing",
        ...                       duplicate=False, bots=False, players=2)
        >>> first, later = (TournamentInfo(summary=s, standings=(), games=(), revision=r)
        ...                 for r in (3, 4))
        >>> newest = Newest()
        >>> newest.take(later).revision, newest.take(first).revision
        (4, 4)
        """
        kept = self.infos.get(info.summary.tournament)
        if kept is not None and 0 < info.revision < kept.revision:
            return kept
        self.infos[info.summary.tournament] = info
        return info


def create_message(kind: str, args: list[str]) -> CreateTournament:
    """From ``arena MINUTES [duplicate] [bots] NAME...`` or ``swiss ROUNDS [...] NAME...``."""
    if not args or not args[0].isdigit():
        size_word = "long (minutes)" if kind == "arena" else "many rounds"
        raise ValueError(f"Say how {size_word} first: {kind} 4 duplicate Friday Cup")
    size = int(args[0])
    flags = {w for w in args[1:3] if w in ("duplicate", "bots")}
    name = " ".join(w for i, w in enumerate(args[1:]) if not (i < 2 and w in flags))
    duplicate, bots = "duplicate" in flags, "bots" in flags
    if kind == "arena":
        return CreateTournament(
            name=name, kind="arena", minutes=size, duplicate=duplicate, bots=bots
        )
    return CreateTournament(name=name, kind="swiss", rounds=size, duplicate=duplicate, bots=bots)
