"""Whether two players' addresses tell them apart (the rule of
:func:`server.results.settle.unrated_because`: a rated match between two accounts on one public
address moves no rating). Loopback and unknown addresses tell nobody apart.
"""

from __future__ import annotations

import ipaddress


def public_address(address: str | None) -> bool:
    """Whether an address tells players apart: not unknown and not this machine's loopback (a
    proxy in front of a server without ``--trusted-proxy`` makes every player 127.0.0.1)."""
    try:
        return address is not None and not ipaddress.ip_address(address).is_loopback
    except ValueError:
        return False


def one_public_address(first: str | None, second: str | None) -> bool:
    """Whether two players connected from one address that tells players apart (the rule of
    :func:`server.results.settle.unrated_because`)."""
    return first == second and public_address(first)
