"""A DM post whose outcome the bot never heard (Discord made the message, then answered 5xx) is
tried again under the same nonce whatever the seat is owed by then: Discord answers with the
message it made, which the bot brings up to date. Before, the retry of a newer version carried
another nonce, Discord made a second DM, and the first kept live buttons the bot knew nothing of
(the soak's "stale live buttons: old DMs"). Likewise an edit that gives a DM move buttons and
whose answer is lost: the seat's row counts them before it goes out."""
from __future__ import annotations

import sqlite3

import pytest

from tests.bot.harness import components, offers_moves, reply
from tests.bot.hostile import VERSIONED, HostileDiscord
from tests.bot.test_failing_discord import delivered, owed, start_pips


@pytest.fixture
def hostile(world, monkeypatch):
    return HostileDiscord(world, monkeypatch)


def versions_offered(message) -> set[int]:
    """The game versions a message's move buttons and menus were made for."""
    return {int(found.group(1)) for c in components(message) if (found := VERSIONED.match(c.get("custom_id", "")))}


def open_dm_id(world, seat: int) -> int | None:
    ((message_id,),) = world.query("SELECT message_id FROM seat_dms WHERE game_id = 1 AND seat = ?", (seat,))
    return message_id


async def bobs_dm_made_unseen_then_owed_anew(world, hostile):
    """Bob's DM for his new decision (version 1) is made by Discord, which answers 504; every
    retry fails (504, not made) until the decision is taken back and offered again (version 3),
    so the DM is owed for a newer version when Discord answers again."""
    alice, bob = await start_pips(world)
    seat = world.seats(1)[bob.id]
    path = f"/channels/{bob.user.dm_channel.id}/messages"
    hostile.hang("POST", path, seconds=0, lost_answer=True)  # made, then 504
    hostile.hang("POST", path, seconds=0, times=50)  # 504, not made
    await world.click(alice, world.latest_board(), label="High cards win")
    unseen = [m for m in world.dms(bob) if offers_moves(m)]
    assert len(unseen) == 1 and open_dm_id(world, seat) != unseen[0].id and seat in owed(world)["dms"]
    assert reply(await world.slash(alice, "game undo")).content
    await world.click(alice, world.latest_board(), label="High cards win")
    assert world.stored(1).version == 3
    hostile.clear()
    return bob, seat, unseen[0]


async def test_a_dm_made_unseen_is_the_one_brought_up_to_date_not_left_live_beside_a_second(world, hostile):
    bob, seat, unseen = await bobs_dm_made_unseen_then_owed_anew(world, hostile)
    assert await delivered(world)
    live = [m for m in world.dms(bob) if offers_moves(m)]
    assert [m.id for m in live] == [unseen.id], [(m.id, versions_offered(m)) for m in live]
    assert open_dm_id(world, seat) == unseen.id
    assert versions_offered(world.fresh(unseen)) == {3}


async def test_a_dm_made_unseen_whose_update_fails_is_known_and_loses_its_buttons(world, hostile):
    bob, seat, unseen = await bobs_dm_made_unseen_then_owed_anew(world, hostile)
    hostile.fail("PATCH", f"/channels/{unseen.channel.id}/messages/{unseen.id}", 500)
    assert await delivered(world)
    live = [m for m in world.dms(bob) if offers_moves(m)]
    assert len(live) == 1 and open_dm_id(world, seat) == live[0].id, [(m.id, versions_offered(m)) for m in live]
    assert live[0].id != unseen.id and not offers_moves(world.fresh(unseen))  # its edit failed: it was finished
    assert versions_offered(world.fresh(live[0])) == {3}





async def test_an_edit_giving_an_old_dm_buttons_that_lands_unheard_does_not_leave_them_live(world, hostile):
    """The soak's other old DM with live buttons: an edit that gives a DM move buttons (its
    seat, which had nothing to do, must move again) took effect, but the bot heard 5xx; the row
    still said the DM had none, so the seat's next decision got a new DM and the old one was
    never finished."""
    alice, bob = await start_pips(world)
    seat = world.seats(1)[alice.id]
    opening = world.dms(alice)[-1]
    # Alice's opening DM is a decision over: no buttons, and its row says so (as after a move).
    world.env.backend.edit_message(opening.channel.id, opening.id, {"components": []})
    with sqlite3.connect(world.database_path) as db:
        db.execute("UPDATE seat_dms SET buttons = 0 WHERE game_id = 1 AND seat = ?", (seat,))
    path = f"/channels/{opening.channel.id}/messages/{opening.id}"
    hostile.hang("PATCH", path, seconds=0, lost_answer=True)  # shown, then 504
    hostile.hang("PATCH", path, seconds=0, times=50)  # 504, not shown
    await world.click(alice, world.latest_board(), label="High cards win")  # she must play now: her DM gains a menu
    assert versions_offered(world.fresh(opening)) == {1}
    for who in (alice, bob):
        card = world.stored_state(1)["hands"][world.seats(1)[who.id]][0]
        assert reply(await world.slash(who, "move", action=f"play {card}")).content.startswith("✅")
    await world.click(bob, world.latest_board(), label="High cards win")  # round 2: Alice's new decision
    hostile.clear()
    assert await delivered(world)
    live = [m for m in world.dms(alice) if offers_moves(m)]
    assert len(live) == 1 and open_dm_id(world, seat) == live[0].id, [(m.id, versions_offered(m)) for m in live]
    assert versions_offered(world.fresh(live[0])) == {world.stored(1).version}
