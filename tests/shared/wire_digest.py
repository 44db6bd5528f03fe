"""Play seeded matches of random legal moves and print a SHA-256 of every state the server
would send for them (both seats and a spectator, encoded as on the wire), and the build.

    python tests/shared/wire_digest.py MATCHES

Run by ``test_build.py`` in the pure build and in the compiled one: the same digest means the
two builds apply the same rules and write the same bytes.
"""

from __future__ import annotations

import hashlib
import random
import sys

from muggins.server.rooms.step_states import StepStates
from muggins.server.wire.send_cache import encoded
from muggins.shared.actions import GameOptions
from muggins.shared.build import build
from muggins.shared.match import Match

OPTIONS = (GameOptions(), GameOptions(target=61, muggins=True))
NAMES = ("Ann", "Bob")


def digest(matches: int) -> tuple[str, int]:
    """The digest of ``matches`` matches' states, and how many states went into it."""
    sha = hashlib.sha256()
    states = 0
    for seed in range(matches):
        rng = random.Random(seed)
        match = Match(seed=seed, options=OPTIONS[seed % 2])
        seq = 0
        first = StepStates(match, seq, [], NAMES).many([(0, None), (1, None), (None, None)])
        for state in first:
            sha.update(encoded(state))
        while not match.over:
            seat = rng.choice(match.waiting_for())
            events = match.apply(seat, rng.choice(match.legal_actions(seat)))
            seq += 1
            for state in StepStates(match, seq, events, NAMES).many(
                [(0, seq), (1, None), (None, None)]
            ):
                sha.update(encoded(state))
                states += 1
    return sha.hexdigest(), states


if __name__ == "__main__":
    value, count = digest(int(sys.argv[1]))
    print(build(), value, count)
