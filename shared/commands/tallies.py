"""The tournament's report: a match-up's tally and a round robin's cross-table, as rich tables.

Used by ``muggins tournament`` and by its games over real sockets (``client.commands.bot``).
"""

from __future__ import annotations

from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from rich.console import Console

    from muggins.shared.bots.arena import Tally


def cross_rates(tallies: list[Tally]) -> dict[str, dict[str, float]]:
    """Each player's win rate against each other player."""
    cross: dict[str, dict[str, float]] = {}
    for tally in tallies:
        a, b = tally.names()
        cross.setdefault(a, {})[b] = tally.win_rate(0)
        cross.setdefault(b, {})[a] = tally.win_rate(1)
    return cross


def print_tally(out: Console, tally: Tally) -> None:
    from rich.table import Table

    from muggins.shared.bots.arena import ROLES, wilson

    names = tally.names()
    table = Table(title=f"{names[0]} v {names[1]}: {tally.games} games")
    for column in ("player", "wins", "win %", "95% CI", "skunks"):
        table.add_column(column, justify="left" if column == "player" else "right")
    for p in (0, 1):
        low, high = wilson(tally.wins[p], tally.games)
        table.add_row(
            names[p],
            str(tally.wins[p]),
            f"{100 * tally.win_rate(p):.1f}",
            f"{100 * low:.1f}–{100 * high:.1f}",
            str(tally.skunks[p]),
        )
    out.print(table)
    sources = ["pegging", "hand", "crib"]
    if any(source == "muggins" and n for (_, _, source), n in tally.points.items()):
        sources.append("muggins")
    points = Table(title="Mean points per deal")
    for column in ("player", "role", "total", *sources):
        points.add_column(column, justify="left" if column in ("player", "role") else "right")
    for p in (0, 1):
        for role in ROLES:
            points.add_row(
                names[p],
                role,
                f"{tally.per_deal(p, role):.2f}",
                *(f"{tally.per_deal(p, role, s):.2f}" for s in sources),
            )
    out.print(points)
    rate = tally.first_dealer_wins / tally.games
    out.print(f"The first dealer won {100 * rate:.1f}% of games.\n")


def print_cross(out: Console, tallies: list[Tally]) -> None:
    from rich.table import Table

    cross = cross_rates(tallies)
    players = list(cross)
    table = Table(title="Cross-table: win % of the row against the column")
    table.add_column("")
    for p in players:
        table.add_column(p, justify="right")
    for row in players:
        table.add_row(
            row,
            *("—" if col == row else f"{100 * cross[row][col]:.1f}" for col in players),
        )
    out.print(table)
