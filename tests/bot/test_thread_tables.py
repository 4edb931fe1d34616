"""`/game new … thread:yes`: the table opens in a new public thread named after the game, so one
channel can hold many games; everything of that game then happens in the thread."""
from __future__ import annotations

import sqlite3

import discord
import simcord

from tests.bot.harness import buttons, play_to_end, reply


def channel_id_of(world, game_id: int) -> int:
    ((channel_id,),) = world.query("SELECT channel_id FROM games WHERE id = ?", (game_id,))
    return int(channel_id)


def thread_of(world, game_id: int) -> simcord.ChannelHandle:
    channel = world.env.backend.get_channel(channel_id_of(world, game_id))
    return simcord.ChannelHandle(world.env, world.guild, channel)


async def test_thread_yes_opens_the_lobby_in_a_new_public_thread_named_after_the_game(world):
    alice = world.player("alice")

    answer = reply(await world.slash(alice, "game new", game="pips", thread="yes"))

    stored = world.env.backend.get_channel(channel_id_of(world, 1))
    assert stored.is_thread and stored.parent_id == world.channel.id
    assert stored.name.startswith("Pips") and "Alice" in stored.name
    assert f"<#{stored.id}>" in answer.content and "game #1" in answer.content
    thread = thread_of(world, 1)
    assert [b["label"] for b in buttons(world.latest(thread))] == ["Join", "Leave", "Start"]
    # the channel itself holds no table, only Discord's note that a thread began
    assert not any(buttons(message) for message in world.bot_messages())


async def test_one_channel_holds_several_games_in_threads_and_each_plays_to_the_end(world):
    alice, bob, carol, dave = (world.player(name) for name in ("alice", "bob", "carol", "dave"))
    for host, guest, game_id in ((alice, bob, 1), (carol, dave, 2)):
        await world.slash(host, "game new", game="pips", thread="yes")
        thread = thread_of(world, game_id)
        await world.click(guest, world.latest(thread), label="Join")
        await world.click(host, world.latest(thread), label="Start")
    # a third table in the channel itself is still allowed: the threads are other places
    await world.slash(alice, "game new", game="pips")
    assert channel_id_of(world, 3) == world.channel.id

    await play_to_end(world, [alice, bob], seed=3, channel=thread_of(world, 1))

    assert world.stored(1).status == "finished" and world.stored(2).status == "active"


async def test_thread_yes_inside_a_thread_opens_the_table_right_there(world):
    alice = world.player("alice")
    thread = world.thread("talk", alice)

    await world.slash(alice, "game new", game="pips", thread="yes", channel=thread)

    assert channel_id_of(world, 1) == thread.id


async def test_bad_options_with_thread_yes_leave_no_thread_behind(world):
    alice = world.player("alice")
    before = len(world.env.backend.active_threads(world.guild.id))

    answer = reply(await world.slash(alice, "game new", game="pips", thread="yes", options="nonsense=1"))

    assert answer.ephemeral and "nonsense" in answer.content
    assert len(world.env.backend.active_threads(world.guild.id)) == before
    with sqlite3.connect(world.database_path) as db:
        assert db.execute("SELECT COUNT(*) FROM games").fetchone() == (0,)


async def test_thread_yes_without_the_right_to_open_threads_says_which_permission(world):
    alice = world.player("alice")
    channel = world.guild.create_text_channel(
        "no-threads", overwrites={world.bot.user: discord.PermissionOverwrite(create_public_threads=False)})

    answer = reply(await world.slash(alice, "game new", channel=channel, game="pips", thread="yes"))

    assert "Create Public Threads" in answer.content
    with sqlite3.connect(world.database_path) as db:
        assert db.execute("SELECT COUNT(*) FROM games").fetchone() == (0,)
