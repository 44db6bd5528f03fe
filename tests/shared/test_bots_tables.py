"""The expert's tables: a few entries recomputed independently from the scripts' seeds."""

from __future__ import annotations

import importlib.util
import json
import random
import sys
from collections import Counter
from importlib import resources
from pathlib import Path
from types import ModuleType

import pytest

from muggins.shared.bots.belief import Belief
from muggins.shared.bots.evaluation import play_points
from muggins.shared.bots.expert import lead_table, lead_value, play_tables, reply_table
from tests.shared.test_bots_playout import brute

TOOLS = Path(__file__).resolve().parents[2] / "tools"


def tool(name: str) -> ModuleType:
    """A script of tools/ loaded as a module (they are scripts, not part of the package)."""
    spec = importlib.util.spec_from_file_location(name, TOOLS / f"{name}.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules[name] = module
    spec.loader.exec_module(module)
    return module


def source(name: str) -> str:
    text = resources.files("muggins.shared.bots").joinpath(f"data/{name}.json").read_text()
    return str(json.loads(text)["source"])


@pytest.mark.parametrize(
    ("role", "keep"), [("pone", (1, 4, 5, 6)), ("pone", (4, 5, 6, 12)), ("dealer", (3, 6, 13, 13))]
)
def test_pegging_entries_match_plain_minimax(role: str, keep: tuple[int, ...]) -> None:
    """An entry is the mean of the play solved by plain minimax against the seeded opponents."""
    play = tool("play_tables")
    assert source("play") == "tools/play_tables.py --hands 40000 --opponents 48 --seed 1"
    pool = play.opponent_pool(role, opponents=48, seed=1)
    mine = Counter(keep)
    total, used = 0.0, 0
    for theirs in pool:
        if any(mine[r] + n > 4 for r, n in Counter(theirs).items()):
            continue
        total += brute(keep, theirs, (), 0, 0 if role == "pone" else 1, None)
        used += 1
        if used == 48:
            break
    assert play_tables().pegging[role][keep] == pytest.approx(total / used, abs=0.001)


def test_keep_weights_favour_what_each_role_keeps() -> None:
    """Pones keep fives (they would feed the dealer's crib); weights average about one."""
    keep = play_tables().keep
    assert keep["pone"][5] == max(keep["pone"][1:])
    for role in ("dealer", "pone"):
        assert sum(keep[role][1:]) / 13 == pytest.approx(1.0, abs=0.02)


@pytest.mark.parametrize("hand", [(2, 6, 6, 6), (1, 4, 9, 13)])
def test_lead_entries_match_plain_minimax(hand: tuple[int, ...]) -> None:
    """An opening-lead entry is the mean, over the tool's seeded dealer hands, of each lead's
    play solved by plain minimax, at each of the three weightings of the two sides' points."""
    assert source("lead") == "tools/lead_table.py --draws 48 --seed 1"
    unseen = [0] + [4] * 13
    for r in hand:
        unseen[r] -= 1
    belief = Belief(unseen=tuple(unseen), cards=4, weights=play_tables().keep["dealer"])
    draws = belief.sample(random.Random(f"lead-table:1:{hand}"), 48)
    for lead in set(hand):
        rest = list(hand)
        rest.remove(lead)
        for k, w in enumerate([(0.5, 1.0), (1.0, 1.0), (1.0, 0.5)]):
            total = sum(
                brute(tuple(rest), theirs, (lead,), min(lead, 10), 1, 0, w) for theirs in draws
            )
            assert lead_table()[hand][lead][k] == pytest.approx(total / 48, abs=0.001)


@pytest.mark.parametrize(
    ("hand", "lead"), [((2, 3, 7, 10), 5), ((5, 5, 6, 11), 4), ((1, 1, 8, 13), 7)]
)
def test_reply_entries_match_plain_minimax(hand: tuple[int, ...], lead: int) -> None:
    """A reply entry is the mean, over the tool's seeded pone hands (its three cards after the
    lead), of each answer's play solved by plain minimax, at each of the three weightings of the
    dealer's and the pone's points."""
    assert source("reply") == "tools/reply_table.py --draws 32 --seed 1"
    unseen = [0] + [4] * 13
    for r in (*hand, lead):
        unseen[r] -= 1
    belief = Belief(unseen=tuple(unseen), cards=3, weights=play_tables().keep["pone"])
    draws = belief.sample(random.Random(f"reply-table:1:{hand}:{lead}"), 32)
    entry = reply_table()[(hand, lead)]
    assert set(entry) == set(hand)
    for reply in set(hand):
        rest = list(hand)
        rest.remove(reply)
        count = min(lead, 10) + min(reply, 10)
        for k, w in enumerate([(0.5, 1.0), (1.0, 1.0), (1.0, 0.5)]):
            total = sum(
                play_points((lead,), min(lead, 10), reply) * w[0]
                + brute(tuple(rest), theirs, (lead, reply), count, 1, 0, w)
                for theirs in draws
            )
            assert entry[reply][k] == pytest.approx(total / 32, abs=0.001)


def test_lead_values_between_the_weightings() -> None:
    """Scaling both weights scales the balance, and between the solved weightings the table is
    read on a straight line: exact at the three solved, and at twice them."""
    entry = (-3.0, -2.0, -1.5)
    assert lead_value(entry, (1.0, 1.0)) == pytest.approx(-2.0)
    assert lead_value(entry, (0.5, 1.0)) == pytest.approx(-3.0)
    assert lead_value(entry, (1.0, 0.5)) == pytest.approx(-1.5)
    assert lead_value(entry, (1.5, 0.75)) == pytest.approx(1.5 * -1.5)
    assert lead_value(entry, (0.75, 1.0)) == pytest.approx(-2.5)  # halfway from (0.5, 1)
