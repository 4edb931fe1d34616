"""The archive of finished games (`ARCHIVE_AFTER_DAYS`): old games shrink to one compressed row of
moves, and records, `/game log`, exports and replays keep working."""
from __future__ import annotations

import json
import time

from bot.config import Settings
from tests.bot.harness import play_to_end, reply, seat_order, start_table


async def test_an_archived_game_keeps_its_records_log_and_replay(world):
    alice, bob = world.player("alice"), world.player("bob")
    await start_table(world, alice, bob)
    await play_to_end(world, seat_order(world, 1, [alice, bob]))
    before_stats = reply(await world.slash(alice, "game stats")).content
    before_log = reply(await world.slash(alice, "game log")).content
    moves = world.stored(1).actions

    archived = await world.parts.storage.games.archive_finished(before=int(time.time()) + 60)
    assert archived == 1
    assert world.stored(1).actions == 0 and world.stored(1).state is None  # one compressed row instead
    assert world.query("SELECT COUNT(*) FROM archived_actions") == [(1,)]
    assert len(await world.parts.storage.games.actions(1)) == moves

    assert reply(await world.slash(alice, "game stats")).content == before_stats
    assert reply(await world.slash(alice, "game log")).content == before_log
    export = reply(await world.slash(alice, "game export"))
    data = json.loads(world.env.backend.cdn.get(export.attachments[0].url))
    assert data["complete"] and len(data["moves"]) == moves and data["seed"] is not None
    assert await world.parts.storage.games.archive_finished(before=int(time.time()) + 60) == 0  # once


async def test_running_and_recent_games_are_not_archived(world):
    alice, bob = world.player("alice"), world.player("bob")
    await start_table(world, alice, bob)
    assert await world.parts.storage.games.archive_finished(before=int(time.time()) + 60) == 0
    channel = world.guild.create_text_channel("zwei")
    await start_table(world, alice, bob, channel=channel)
    await play_to_end(world, seat_order(world, 2, [alice, bob]), channel=channel)
    assert await world.parts.storage.games.archive_finished(before=int(time.time()) - 3600) == 0  # ended just now


def test_the_archive_setting():
    assert Settings.from_env({"DISCORD_TOKEN": "t"}).archive_days == 0
    assert Settings.from_env({"DISCORD_TOKEN": "t", "ARCHIVE_AFTER_DAYS": "365"}).archive_days == 365

