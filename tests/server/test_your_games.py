"""A seat belongs to the player: ``my_games`` lists the account's and the tokens' games in
progress, and the same account on another device takes its seat over (the older connection is
told it was replaced)."""

from __future__ import annotations

from test_account_wire import register
from wire_client import WireClient

from muggins.server.app import Server


async def seated_against_computer(client: WireClient) -> str:
    """Create a room, seat the computer; return the room code once the match has begun."""
    room = await client.request(type="create_room")
    await client.request(type="seat_bot", level="random")
    await client.expect("state")
    code: str = room["code"]
    return code


async def test_another_device_of_the_same_account_takes_the_seat_over(server: Server) -> None:
    """Signed in on a second device, Alice finds her game in my_games, joins it and gets her
    seat and hand; the first device hears "replaced" and its socket is closed with 4000."""
    laptop, made = await register(server.url, "Alice")
    code = await seated_against_computer(laptop)
    hand = laptop.state["view"]["hand"] if laptop.state else None
    phone = await WireClient.open(server.url, name="Guest")
    await phone.request(type="sign_in", session=made["session"])
    games = await phone.request(type="my_games")
    [game] = games["games"]
    assert game["room"] == code and game["seat"] == 0 and game["status"] == "playing"
    assert game["opponent"].startswith("Computer") and game["your_move"] is True
    joined = await phone.request(type="join_room", code=code)
    assert joined["type"] == "room" and joined["you"] == 0, joined
    state = await phone.expect("state")
    assert state["view"]["hand"] == hand
    notice = await laptop.expect("notice")
    assert notice["code"] == "replaced"
    await laptop.ws.wait_closed()
    assert laptop.ws.close_code == 4000
    await phone.close()


async def test_a_guest_is_not_given_anothers_seat(server: Server) -> None:
    """Without the account, joining a full room is refused as before: no takeover."""
    alice, _ = await register(server.url, "Alice")
    code = await seated_against_computer(alice)
    guest = await WireClient.open(server.url, name="Mallory")
    refused = await guest.request(type="join_room", code=code)
    assert refused["code"] == "room_full"
    assert (await guest.request(type="my_games"))["games"] == []
    await alice.close()
    await guest.close()


async def test_my_games_lists_the_rooms_the_tokens_hold(server: Server) -> None:
    """A browser's tokens (one per room) name its games; a wrong token names nothing, and
    asking changes no token (a resume with it still works)."""
    first = await WireClient.open(server.url, name="Bob")
    one = await seated_against_computer(first)
    second = await WireClient.open(server.url, name="Bob")
    two = await seated_against_computer(second)
    tokens = [first.token, second.token]
    await first.close()
    await second.close()
    front = await WireClient.open(server.url, name="Bob")
    forged = f"{(first.token or '').split('.')[0]}.not-the-secret"
    games = await front.request(type="my_games", tokens=[*tokens, forged])
    assert sorted(g["room"] for g in games["games"]) == sorted([one, two])
    back = await WireClient.open(server.url, hello=False)
    welcome = await back.hello("Bob", token=first.token)
    assert welcome["resumed"] is True and welcome["room"] == one
    await front.close()
    await back.close()


async def test_two_seats_never_show_the_same_name(server: Server) -> None:
    """Two guests both called Guest are seated as "Guest" and "Guest (2)" in the room message."""
    first = await WireClient.open(server.url, name="Guest")
    room = await first.request(type="create_room")
    second = await WireClient.open(server.url, name="Guest")
    joined = await second.request(type="join_room", code=room["code"])
    assert [s["name"] for s in joined["seats"]] == ["Guest", "Guest (2)"]
    await first.close()
    await second.close()
