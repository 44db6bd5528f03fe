"""Sign-in limits across a cluster: two nodes on one real redis-server count the failed
sign-ins per name and per address together, and answer a wrong name and a wrong password alike."""

from __future__ import annotations

import asyncio

from cluster_nodes import nodes
from redis_helpers import RedisServer
from wire_client import WireClient

PASSWORD = "the right one"


async def sign_in(client: WireClient, name: str, password: str) -> tuple[str, str]:
    reply = await client.request(type="sign_in", name=name, password=password)
    return reply["type"] if reply["type"] == "account" else reply["code"], reply.get("message", "")


async def test_failures_for_a_name_count_on_every_node(redis_server: RedisServer) -> None:
    """Five wrong passwords for one name, alternating between the nodes, lock it on both: the
    right password is then refused unchecked too; a wrong name gets the wrong password's answer."""
    async with nodes(redis_server, 2) as (a, b):
        owner = await WireClient.open(a.url, name="Alice")
        made = await owner.request(type="register", name="Alice", password=PASSWORD)
        assert made["type"] == "account"
        on_a = await WireClient.open(a.url, name="guesser")
        on_b = await WireClient.open(b.url, name="guesser")
        answers = [await sign_in(on_a if n % 2 else on_b, "Alice", f"guess {n}") for n in range(5)]
        assert {code for code, _ in answers} == {"bad_credentials"}
        nobody = await sign_in(on_a, "Nobody here", "guess 0")
        assert nobody == answers[0]  # the same code and sentence as a wrong password
        for client in (on_a, on_b):
            code, message = await sign_in(client, "Alice", PASSWORD)
            assert code == "rate_limited" and "try again in" in message
        for client in (owner, on_a, on_b):
            await client.close()


async def test_a_success_clears_the_name_and_attempts_at_once_count_one_by_one(
    redis_server: RedisServer,
) -> None:
    """Three failures then a success: five more failures are allowed again. Twelve guesses
    sent at once over both nodes: exactly five are checked, whatever node they reach."""
    async with nodes(redis_server, 2) as (a, b):
        owner = await WireClient.open(a.url, name="Bob")
        assert (await owner.request(type="register", name="Bob", password=PASSWORD))[
            "type"
        ] == "account"
        client = await WireClient.open(b.url, name="Bob")
        for n in range(3):
            assert (await sign_in(client, "Bob", f"wrong {n}"))[0] == "bad_credentials"
        assert (await sign_in(client, "Bob", PASSWORD))[0] == "account"
        guessers = [await WireClient.open((a, b)[n % 2].url, name="g") for n in range(12)]
        answers = await asyncio.gather(
            *(sign_in(g, "Bob", f"parallel {n}") for n, g in enumerate(guessers))
        )
        codes = sorted(code for code, _ in answers)
        assert codes == ["bad_credentials"] * 5 + ["rate_limited"] * 7
        for c in (owner, client, *guessers):
            await c.close()


async def test_failures_from_one_address_count_across_names_and_nodes(
    redis_server: RedisServer,
) -> None:
    """Twenty failures from one address over many names and both nodes: the next try from it
    is refused, even for a name never tried."""
    async with nodes(redis_server, 2) as (a, b):
        clients = [await WireClient.open(url, name="g") for url in (a.url, b.url)]
        for n in range(20):
            code, _ = await sign_in(clients[n % 2], f"name{n}", "not it at all")
            assert code == "bad_credentials"
        for client in clients:
            assert (await sign_in(client, "fresh name", "not it at all"))[0] == "rate_limited"
        for client in clients:
            await client.close()
