"""Private information: DMs, the fallback for closed DMs, and no leaks into public messages."""
from __future__ import annotations

import random

from tests.bot.harness import (
    buttons,
    move_buttons,
    play_to_end,
    reply,
    seat_order,
    start_table,
    take_turn,
    to_act,
)


def dm_attempts(world, member) -> int:
    path = f"/channels/{member.user.dm_channel.id}/messages"
    return sum(1 for r in world.env.http_requests if r.method == "POST" and r.path == path)


async def test_closed_dms_are_noted_in_the_channel_and_my_hand_takes_over(world, renderer):
    alice, bob, carol = (world.player(n) for n in ("alice", "bob", "carol"))
    world.close_dms(bob)

    await start_table(world, alice, bob, carol)

    board = world.latest_board()
    notes = [m.content for m in world.bot_messages() if "could not DM" in m.content]
    assert len(notes) == 1 and "📭 I could not DM **Bob** (DMs closed)" in notes[0] and "/game hand" in notes[0]
    assert "My hand" in [b["label"] for b in buttons(board)]
    assert world.dms(bob) == [] and world.dms(alice) and world.dms(carol)
    assert world.dm_ok(1) == {alice.id: True, bob.id: False, carol.id: True}

    # Bob plays the whole game through 'My hand' replies; the bot does not try his DMs at every
    # click (only when he is back after a while, or hours later).
    attempts = dm_attempts(world, bob)
    players = seat_order(world, 1, [alice, bob, carol])
    rng = random.Random(3)
    while "Game over" not in world.latest_board().content:
        player = to_act(world, players)[0]
        if player is bob and not move_buttons(world.latest_board()):
            hand = reply(await world.click(bob, world.latest_board(), label="My hand"))
            assert hand.ephemeral and renderer.viewer_of[world.png(hand)] == players.index(bob)
            await world.click(bob, hand, custom_id=rng.choice(move_buttons(hand))["custom_id"])
        else:
            await take_turn(world, player, rng)
    assert dm_attempts(world, bob) == attempts
    assert world.stored(1).status == "finished"


async def test_dms_closing_mid_game_are_noted_once(world):
    alice, bob = world.player("alice"), world.player("bob")
    await start_table(world, alice, bob)
    starter, other = seat_order(world, 1, [alice, bob])
    world.close_dms(other)

    await world.click(starter, world.latest_board(), label="High cards win")

    notes = [m for m in world.bot_messages() if "could not DM" in m.content]
    assert len(notes) == 1 and f"**{other.name.capitalize()}**" in notes[0].content
    assert world.dm_ok(1)[other.id] is False
    hand = reply(await world.click(other, world.latest_board(), label="My hand"))  # the fallback
    assert hand.ephemeral and move_buttons(hand)


async def test_no_public_message_carries_private_information(world, renderer):
    players = [world.player(n) for n in ("alice", "bob", "carol", "dave")]
    await start_table(world, *players)
    ordered = seat_order(world, 1, players)

    await play_to_end(world, ordered)

    public = world.messages()
    assert len(public) > 3  # one message per turn, edited in place
    for message in public:
        # Text: no private events, no labels of secret options.
        assert "You drew" not in message.content and "Play your" not in message.content
        # Components: nothing that names a card in someone's hand.
        assert not any(b["custom_id"].startswith("rk:move:") and " play " in b["custom_id"] for b in buttons(message))
        # Images: every public image was drawn from the public view.
        png = world.png(message)
        if png is not None:
            assert renderer.viewer_of[png] is None
    for seat, player in enumerate(ordered):
        for dm in world.dms(player):
            if (png := world.png(dm)) is not None:
                assert renderer.viewer_of[png] == seat  # a DM shows only that seat's view


async def test_the_log_shows_only_what_the_channel_saw(world):
    players = [world.player(n) for n in ("alice", "bob")]
    await start_table(world, *players)
    await play_to_end(world, seat_order(world, 1, players))

    log = reply(await world.slash(players[0], "game log")).content

    assert "has chosen a card" in log and "Revealed:" in log
    assert "Play your" not in log and "You drew" not in log
