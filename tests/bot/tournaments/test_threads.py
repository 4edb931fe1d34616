"""A table's thread archived or deleted while its game is played, through the simulated Discord:
an archived thread is reopened; a deleted one, or one the bot may not reopen, is replaced by a
new thread where the game goes on, its players told; the tournament runs on to its next round."""
from __future__ import annotations

import json

import pytest

from tests.bot.harness import play_to_end
from tests.bot.hostile import HostileDiscord
from tests.bot.tournaments.helpers import announcement, play_round, settle, started_swiss, tables, thread_handle

THREAD_ARCHIVED = 50083


@pytest.fixture
def hostile(world, monkeypatch):
    return HostileDiscord(world, monkeypatch)


def first_table(world):
    """(thread id, game id, players) of round 1's table 1."""
    _, _, seated, _, thread_id, game_id = tables(world, round_no=1)[0]
    return thread_id, game_id, json.loads(seated)


def archived(world, thread_id: int) -> bool:
    return world.env.backend.get_channel(thread_id).thread_metadata.archived


def archive(world, thread_id: int, *, heard: bool = True) -> None:
    """Discord archives the thread (after a week without a message, or a moderator does)."""
    if heard:
        world.env.backend.edit_channel(thread_id, {}, thread_metadata={"archived": True})
    else:
        world.env.backend.get_channel(thread_id).thread_metadata.archived = True


async def finish_tournament(world, players, thread_id: int) -> None:
    """Table 1 played to its end in `thread_id`, table 2 in its own; round 2 after it."""
    by_id = {player.id: player for player in players}
    for _, number, seated, _status, thread, _ in tables(world, round_no=1):
        channel = thread_handle(world, thread_id if number == 1 else thread)
        await play_to_end(world, [by_id[user] for user in json.loads(seated)], channel=channel)
    await settle(world)
    assert len(tables(world, round_no=2)) == 2
    await play_round(world, players, 2)
    assert world.query("SELECT status FROM tournaments WHERE id = 1") == [("finished",)]


async def test_an_archived_table_thread_is_reopened_and_its_game_goes_on_there(world):
    organiser, players = await started_swiss(world)
    thread_id, game_id, _ = first_table(world)
    archive(world, thread_id)
    await settle(world)
    assert not archived(world, thread_id)
    assert first_table(world)[0] == thread_id
    await finish_tournament(world, players, thread_id)


async def test_a_deleted_table_thread_is_replaced_and_its_players_are_told_there(world, hostile):
    organiser, players = await started_swiss(world)
    thread_id, game_id, seated = first_table(world)
    world.env.backend.delete_channel(thread_id)  # a moderator deletes it
    await settle(world)
    new_thread, same_game, _ = first_table(world)
    assert new_thread not in (None, thread_id) and same_game == game_id
    assert world.query("SELECT channel_id, status FROM games WHERE id = ?", (game_id,)) == [(new_thread, "active")]
    said = world.bot_messages(thread_handle(world, new_thread))
    told = next(message for message in said if "the thread of this table was deleted or closed" in message.content)
    assert sorted(world.pinged(told)) == sorted(seated)
    assert "round 1, table 1" in told.content
    assert world.latest_board(thread_handle(world, new_thread)).attachments  # the turn, posted there
    assert f"<#{new_thread}>" in announcement(world).content and f"<#{thread_id}>" not in announcement(world).content
    await finish_tournament(world, players, new_thread)


async def test_a_thread_the_bot_may_not_reopen_is_replaced(world, hostile):
    organiser, players = await started_swiss(world)
    thread_id, game_id, _ = first_table(world)
    hostile.fail("PATCH", f"/channels/{thread_id}", 403, code=50013, times=None)  # locked by a moderator
    archive(world, thread_id)
    await settle(world)
    new_thread = first_table(world)[0]
    assert new_thread not in (None, thread_id)
    assert world.query("SELECT channel_id FROM games WHERE id = ?", (game_id,)) == [(new_thread,)]
    await finish_tournament(world, players, new_thread)


async def test_a_post_refused_in_a_thread_archived_unheard_reopens_it_and_goes_through(world, hostile):
    organiser, players = await started_swiss(world)
    thread_id, game_id, _ = first_table(world)
    archive(world, thread_id, heard=False)  # the bot missed the event (it was stopped, say)
    board = world.latest_board(thread_handle(world, thread_id))
    hostile.fail("PATCH", f"/channels/{thread_id}/messages/*", 400, code=THREAD_ARCHIVED, times=1)
    hostile.fail("POST", f"/channels/{thread_id}/messages", 400, code=THREAD_ARCHIVED, times=1)
    await finish_tournament(world, players, thread_id)
    assert not archived(world, thread_id) and first_table(world)[0] == thread_id
    assert ("PATCH", f"/channels/{thread_id}") in hostile.requests  # reopened by the delivery worker
    assert board.id in {message.id for message in world.bot_messages(thread_handle(world, thread_id))}


async def test_a_thread_deleted_while_the_bot_heard_nothing_is_replaced_at_the_new_session(world, hostile):
    organiser, players = await started_swiss(world)
    thread_id, game_id, _ = first_table(world)
    backend = world.env.backend
    backend.channels.pop(thread_id)  # deleted during a gateway outage: Discord does not tell the bot later
    backend.messages.pop(thread_id, None)
    backend.get_guild(world.guild.id).thread_ids.remove(thread_id)
    # Discord answers a look at a message of a deleted channel with "Unknown Channel".
    hostile.fail("GET", f"/channels/{thread_id}/messages/*", 404, code=10003, message="Unknown Channel", times=None)
    with world.env._bot_scope():
        await world.parts.deliveries.new_session()  # READY after the outage: the boards are looked for
    await settle(world)
    new_thread = first_table(world)[0]
    assert new_thread not in (None, thread_id)
    assert world.query("SELECT channel_id, status FROM games WHERE id = ?", (game_id,)) == [(new_thread, "active")]
    await finish_tournament(world, players, new_thread)
