"""The opening tables shipped with the package: every opening lead of four ranks
(``data/lead.json``, made by ``tools/lead_table.py``) and the dealer's every answer to it
(``data/reply.json``, made by ``tools/reply_table.py``), read once. The expert plays from them;
:mod:`muggins.shared.bots.reading` reads an opponent's lead and answer by them.
"""

from __future__ import annotations

import json
from functools import cache
from importlib import resources

REPLY_WEIGHTS = ((0.5, 1.0), (1.0, 1.0), (1.0, 0.5))
"""The weightings (dealer's points, pone's points) the reply table is solved at."""


@cache
def lead_table() -> dict[tuple[int, ...], dict[int, tuple[float, float, float]]]:
    """The opening leads shipped with the package (made by ``tools/lead_table.py``): for every
    four ranks, each lead's mean balance with this seat's and the dealer's points weighted
    (0.5, 1), (1, 1) and (1, 0.5)."""
    text = resources.files("muggins.shared.bots").joinpath("data/lead.json").read_text()
    data = json.loads(text)
    if [tuple(w) for w in data["weights"]] != [(0.5, 1.0), (1.0, 1.0), (1.0, 0.5)]:
        raise ValueError("lead.json was solved at other weightings")
    return {
        tuple(int(r) for r in k.split("-")): {
            int(r): (float(v[0]), float(v[1]), float(v[2])) for r, v in leads.items()
        }
        for k, leads in data["leads"].items()
    }


@cache
def reply_table() -> dict[tuple[tuple[int, ...], int], dict[int, tuple[float, float, float]]]:
    """The dealer's answers to every opening lead (made by ``tools/reply_table.py``): for four
    ranks and the lead, each answer's mean balance at the three ``REPLY_WEIGHTS``."""
    text = resources.files("muggins.shared.bots").joinpath("data/reply.json").read_text()
    data = json.loads(text)
    if [tuple(w) for w in data["weights"]] != list(REPLY_WEIGHTS):
        raise ValueError("reply.json was solved at other weightings")
    out: dict[tuple[tuple[int, ...], int], dict[int, tuple[float, float, float]]] = {}
    for key, replies in data["replies"].items():
        hand, lead = key.split(":")
        out[(tuple(int(r) for r in hand.split("-")), int(lead))] = {
            int(r): (float(v[0]), float(v[1]), float(v[2])) for r, v in replies.items()
        }
    return out
