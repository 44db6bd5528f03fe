"""Leak audit of accounts and rated games: no password, password hash, session token or another
player's resume token is ever sent to anyone but its owner, written to the log, or stored in
clear (the SQLite file and its WAL are searched byte for byte); a running match's seed and log
are never sent."""

from __future__ import annotations

import asyncio
import logging
import random
from pathlib import Path

import pytest
from conftest import with_options
from wire_client import WireClient, play_randomly

from muggins.server.app import running_server

PASSWORDS = {"Ann": "ann's first secret", "Bob": "bob's only secret"}
NEW_PASSWORD = "ann's second secret"


async def test_no_secret_leaks_from_accounts_and_rated_games(
    tmp_path: Path, caplog: pytest.LogCaptureFixture
) -> None:
    """Over a whole rated match and every account message: secrets stay where they belong."""
    caplog.set_level(logging.DEBUG)
    db = tmp_path / "muggins.db"
    config = with_options(memory=False, db=db, log_json=True)
    owned: dict[str, set[str]] = {"Ann": set(), "Bob": set()}
    everyone: list[tuple[str, WireClient]] = []
    async with running_server(config) as server:
        clients = {}
        for name, password in PASSWORDS.items():
            client = await WireClient.open(server.url, name=name)
            everyone.append((name, client))
            made = await client.request(type="register", name=name, password=password)
            owned[name] |= {made["session"], client.token or ""}
            clients[name] = client
        ann, bob = clients["Ann"], clients["Bob"]
        phone = await WireClient.open(server.url, name="Ann's phone")
        everyone.append(("Ann", phone))
        signed = await phone.request(type="sign_in", name="Ann", password=PASSWORDS["Ann"])
        owned["Ann"] |= {signed["session"], phone.token or ""}
        room = await ann.request(
            type="create_room", options={"game": {"target": 61}, "rated": True}
        )
        await bob.request(type="join_room", code=room["code"])
        spectator = await WireClient.open(server.url, name="watcher")
        everyone.append(("watcher", spectator))
        await spectator.request(type="spectate", code=room["code"])
        running = await spectator.request(type="game", game=f"{room['code']}-1")
        assert running["code"] == "no_game"  # a running match's seed and log are never sent
        replay = await spectator.request(type="game", game=f"{room['code']}-1", steps=True)
        assert replay["code"] == "no_game"  # nor its replay, which shows every hand
        rng = random.Random(8)
        await asyncio.gather(play_randomly(ann, rng), play_randomly(bob, rng))
        changed = await ann.request(type="change_password", old=PASSWORDS["Ann"], new=NEW_PASSWORD)
        owned["Ann"].add(changed["session"])
        for client in (ann, bob, spectator, phone):
            for request in (
                {"type": "profile", "name": "Ann"},
                {"type": "history", "name": "Bob"},
                {"type": "leaderboard"},
                {"type": "game", "game": f"{room['code']}-1"},
                {"type": "game", "game": f"{room['code']}-1", "steps": True},
                {"type": "sign_in", "name": "Ann", "password": "a wrong guess"},
            ):
                await client.request(**request)
        store = server.lobby.store
        hashes = []
        for name in PASSWORDS:
            account = await store.find_account(key=name.lower())
            assert account is not None
            hashes.append(account.password_hash)
        for _, client in everyone:
            await client.close()
    passwords = [*PASSWORDS.values(), NEW_PASSWORD]
    for owner, client in everyone:
        received = "\n".join(client.raw)
        for secret in passwords + hashes:
            assert secret not in received
        for other, tokens in owned.items():
            if other != owner:
                for token in tokens:
                    assert token not in received, (owner, other)
    # What the server logs (its "muggins" loggers, which `muggins serve` writes out, at debug).
    ours = [r for r in caplog.records if r.name.startswith("muggins")]
    assert any(r.name == "muggins.accounts" for r in ours)
    logged = "\n".join(f"{r.getMessage()} {r.__dict__}" for r in ours)
    all_tokens = [t for tokens in owned.values() for t in tokens]
    for secret in passwords + hashes + all_tokens:
        assert secret not in logged
    stored = b"".join(p.read_bytes() for p in tmp_path.iterdir() if p.name.startswith("muggins.db"))
    for secret in passwords + all_tokens:
        assert secret.encode() not in stored
    assert hashes[0].encode() in stored  # the hash is what is kept
