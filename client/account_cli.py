"""What ``muggins account`` does (see :mod:`client.commands.account`)."""

from __future__ import annotations

import argparse
import asyncio
import getpass
import sys
import time
from collections.abc import Callable
from pathlib import Path

from platformdirs import user_data_dir

from muggins.client.accounts import Link, Sessions
from muggins.shared.names import marked
from muggins.shared.protocol import Error, Games, MyGames, ServerMessage, encode
from muggins.shared.protocol.accounts import (
    Account,
    Averages,
    ChangePassword,
    DeleteAccount,
    GameRecord,
    GetGame,
    GetHistory,
    GetLeaderboard,
    GetProfile,
    History,
    Leaderboard,
    Profile,
    Register,
    SignedOut,
    SignIn,
    SignOut,
    half_up,
)
from muggins.shared.protocol.review import GameReview, GetReview

NEEDS_NAME = ("register", "sign-in", "game", "review")
NEEDS_SESSION = ("sign-out", "password", "delete")


def sessions_for(args: argparse.Namespace) -> Sessions:
    data = (
        Path(args.data_dir) if getattr(args, "data_dir", None) else Path(user_data_dir("muggins"))
    )
    return Sessions(data / "sessions.json")


def password_reader(args: argparse.Namespace) -> Callable[[str], str]:
    if args.password_stdin:
        return lambda _prompt: sys.stdin.readline().rstrip("\n")
    return getpass.getpass


def run_account(args: argparse.Namespace) -> int:
    if not args.url.startswith(("ws://", "wss://")):
        print(f"muggins account: {args.url!r} is not a server address; write ws://HOST:PORT")
        return 2
    if args.action in NEEDS_NAME and not args.name:
        what = "a game id" if args.action in ("game", "review") else "a name"
        print(f"muggins account {args.action}: give {what}")
        return 2
    try:
        return asyncio.run(_run(args, sessions_for(args), password_reader(args)))
    except (OSError, TimeoutError) as error:
        reason = error.strerror or str(error) or "no answer in time"
        print(f"muggins account: cannot reach {args.url}: {reason}")
        return 1


async def _run(args: argparse.Namespace, sessions: Sessions, ask: Callable[[str], str]) -> int:
    async with Link(args.url) as link:
        action = args.action
        if action in ("register", "sign-in"):
            password = ask("Password: ")
            confirm = action == "register" and not args.password_stdin
            if confirm and ask("The same password again: ") != password:
                print("muggins account: the two passwords differ; nothing was changed")
                return 1
            message = (
                Register(name=args.name, password=password)
                if action == "register"
                else SignIn(name=args.name, password=password)
            )
            reply = await link.ask(message)
            if isinstance(reply, Account) and reply.session:
                sessions.save(args.url, reply.name, reply.session)
            return show(reply, args)
        signed = await link.resume(sessions)
        mine = action in NEEDS_SESSION or (action in ("profile", "history") and not args.name)
        if mine and not isinstance(signed, Account):
            print("muggins account: you are not signed in on this server; use sign-in NAME")
            return 1
        if action == "sign-out":
            reply = await link.ask(SignOut(everywhere=args.everywhere))
            if isinstance(reply, SignedOut):
                sessions.forget(args.url)
        elif action == "password":
            old = ask("Current password: ")
            new = ask("New password: ")
            if not args.password_stdin and ask("The new password again: ") != new:
                print("muggins account: the two passwords differ; nothing was changed")
                return 1
            reply = await link.ask(ChangePassword(old=old, new=new))
            if isinstance(reply, Account) and reply.session:
                sessions.save(args.url, reply.name, reply.session)
        elif action == "delete":
            reply = await link.ask(DeleteAccount(password=ask("Password, to confirm: ")))
            if isinstance(reply, SignedOut):
                sessions.forget(args.url)
        elif action == "profile":
            reply = await link.ask(GetProfile(name=args.name))
        elif action == "history":
            reply = await link.ask(GetHistory(name=args.name, limit=max(1, min(100, args.limit))))
        elif action == "games":
            reply = await link.ask(MyGames(tokens=saved_tokens(args)))
            if isinstance(reply, Games):
                return games_lines(reply, args.url)
        elif action == "leaderboard":
            reply = await link.ask(GetLeaderboard(limit=max(1, min(100, args.limit))))
        elif action == "review":
            reply = await link.ask(GetReview(game=args.name, seat=args.seat))
        else:
            reply = await link.ask(GetGame(game=args.name))
        return show(reply, args)


def saved_tokens(args: argparse.Namespace) -> tuple[str, ...]:
    """The resume tokens ``muggins play`` kept for this server (the newest 20)."""
    from muggins.client.seats import Seats

    seats = Seats(sessions_for(args).path.parent / "seats.json")
    return tuple(str(e["token"]) for e in seats.load().get(args.url, []))[-20:]


def games_lines(reply: Games, url: str) -> int:
    """Print your games in progress, each with the command that goes back to it."""
    if not reply.games:
        print("You have no games in progress on this server")
    for g in reply.games:
        against = f"against {g.opponent}" if g.opponent else "waiting for an opponent"
        mine, theirs = g.scores[g.seat], g.scores[1 - g.seat]
        turn = "" if g.status == "waiting" else ", your move" if g.your_move else ", their move"
        print(f"  {g.room}  {against}: {mine}-{theirs}{turn}  (muggins play {url} --join {g.room})")
    return 0


def show(reply: ServerMessage, args: argparse.Namespace) -> int:
    """Print an answer for a person (or as JSON); the exit status: 0, or 1 for an error."""
    if args.json:
        print(encode(reply))
        return 1 if isinstance(reply, Error) else 0
    for line in describe(reply):
        print(line)
    return 1 if isinstance(reply, Error) else 0


def describe(reply: ServerMessage) -> list[str]:
    if isinstance(reply, Error):
        return [f"muggins account: {reply.message}"]
    if isinstance(reply, Account):
        from muggins.client.session import signed_in_text

        kept = " (session saved)" if reply.session else ""
        return [signed_in_text(reply) + kept]
    if isinstance(reply, SignedOut):
        if reply.deleted:
            return [f"Account deleted; {reply.sessions} session(s) ended"]
        return [f"Signed out: {reply.sessions} session(s) ended"]
    if isinstance(reply, Profile):
        return profile_lines(reply)
    if isinstance(reply, History):
        lines = [f"Finished games of {reply.name}, newest first:"]
        for g in reply.games:
            when = time.strftime("%Y-%m-%d %H:%M", time.localtime(g.finished))
            change = ""
            if g.rating_before is not None and g.rating_after is not None:
                change = f"  {g.rating_before:.0f} -> {g.rating_after:.0f}"
            kind = "rated" if g.rated else "casual"
            lines.append(
                f"  {g.game:<10} {when}  {g.result:<5} v {g.opponent:<24} "
                f"{g.match_points[0]}-{g.match_points[1]}  {kind}{change}"
            )
        return lines if reply.games else [f"{reply.name} has no finished games here yet"]
    if isinstance(reply, Leaderboard):
        return leaderboard_lines(reply)
    if isinstance(reply, GameRecord):
        return game_lines(reply)
    if isinstance(reply, GameReview):
        return review_lines(reply)
    return [encode(reply)]


def review_lines(review: GameReview) -> list[str]:
    """A finished game's review for the terminal: the same facts as the browser's page."""
    me, them = review.names[review.seat], review.names[1 - review.seat]
    discards, play, counts = review.given_away
    lines = [
        f"Review of {review.game}: {me} (seat {review.seat}) against {them}",
        f"{len(review.decisions)} decisions, {review.agreed} the same as the expert's; points "
        f"given away {discards + play + counts:.2f} (discards {discards:.2f}, play {play:.2f}"
        + (f", counts {counts:.2f}" if counts else "")
        + ")",
        "",
        "Chance to win, deal by deal:",
    ]
    for p in review.win_chance:
        bar = "#" * round(30 * p.chance)
        where = f"game {p.game} " + ("end   " if p.deal == 0 else f"deal {p.deal:>2}")
        lines.append(f"  {where} {p.scores[0]:>3}-{p.scores[1]:<3} {100 * p.chance:5.1f}% {bar}")
    if review.worst:
        lines += ["", "The worst moments:"]
        for n, i in enumerate(review.worst, 1):
            d = review.decisions[i]
            lines.append(
                f"  {n}. game {d.game} deal {d.deal} ({d.scores[0]}-{d.scores[1]}) {d.kind} "
                f"{d.chosen}; the expert: {d.best}; -{d.loss:.2f} points, "
                f"-{100 * d.win_loss:.1f}% win chance"
            )
            if d.explanation:
                lines.append(f"     {d.explanation}")
    lines += ["", "Points given away per deal:"]
    for deal in review.deals:
        total = deal.discards + deal.play + deal.counts
        lines.append(
            f"  game {deal.game} deal {deal.deal:>2}: {total:5.2f} "
            f"(discards {deal.discards:.2f}, play {deal.play:.2f}, counts {deal.counts:.2f})"
        )
    return lines


def profile_lines(p: Profile) -> list[str]:
    c, a, r = p.counts, p.averages, p.rating
    status = "provisional" if r.provisional else "established"
    return [
        f"{marked(p.name, p.bot)}: rating {r.text()} ({status}, {r.games} rated)",
        f"  matches {c['matches']} (won {c['match_wins']}); games {c['games']}: "
        f"won {c['wins']}, lost {c['losses']}",
        f"  skunks given {c['skunks_given']}, taken {c['skunks_taken']} "
        f"(double: {c['double_skunks_given']} / {c['double_skunks_taken']})",
        f"  per deal as dealer {a.dealer_total:.2f}: pegging {a.dealer_pegging:.2f}, "
        f"hand {a.dealer_hand:.2f}, crib {a.dealer_crib:.2f} ({c['deals_dealer']} deals)",
        f"  per deal as pone {a.pone_total:.2f}: pegging {a.pone_pegging:.2f}, "
        f"hand {a.pone_hand:.2f} ({c['deals_pone']} deals)",
        f"  average hand {a.hand:.2f} ({c['hands']}), average crib {a.crib:.2f} ({c['cribs']})",
        given_away_line(a, c.get("reviewed_deals", 0)),
    ]


def given_away_line(a: Averages, deals: int) -> str:
    if a.given_away is None:
        return "  points given away per deal: not reviewed yet"
    return (
        f"  points given away per deal {a.given_away:.2f}: discards "
        f"{a.given_away_discards or 0:.2f}, play {a.given_away_play or 0:.2f} "
        f"({deals} deals reviewed)"
    )


def leaderboard_lines(board: Leaderboard) -> list[str]:
    if not board.entries:
        return ["No established ratings here yet (a rating is provisional while RD > 110)"]
    lines = [f"{'#':>3}  {'name':<24} {'rating':>6} {'± RD':>5}  {'rated':>5}  won-lost"]
    for e in board.entries:
        lines.append(
            f"{e.rank:>3}  {marked(e.name, e.bot):<24} {half_up(e.rating.rating):>6} "
            f"{half_up(e.rating.deviation):>5}  "
            f"{e.rating.games:>5}  {e.counts.get('match_wins', 0)}-"
            f"{e.counts.get('matches', 0) - e.counts.get('match_wins', 0)}"
        )
    return lines


def game_lines(record: GameRecord) -> list[str]:
    from muggins.shared.replay_text import replay_steps

    steps = replay_steps(
        game_id=record.game,
        seed=bytes.fromhex(record.seed),
        options=record.options,
        names=record.names,
        hand_overs=record.hand_overs,
        actions=[(a.seat, a.action) for a in record.actions],
        result=record.result,
        winner=record.winner,
    )
    return [line for step in steps for line in step]
