"""Running as shards: settings, which servers a process serves, and one command sync for all."""
from __future__ import annotations

from types import SimpleNamespace

import pytest

from bot.app import GameBot, ShardedGameBot, create_bot
from bot.config import ConfigError, Settings

BASE = {"DISCORD_TOKEN": "x"}


def test_shard_settings_are_parsed_and_checked():
    plain = Settings.from_env(BASE)
    assert (plain.shard_count, plain.shard_ids) == (None, None)
    both = Settings.from_env({**BASE, "SHARD_COUNT": "4", "SHARD_IDS": "3, 1"})
    assert (both.shard_count, both.shard_ids) == (4, [1, 3])
    assert Settings.from_env({**BASE, "SHARD_COUNT": "2"}).shard_ids is None
    for wrong in ({"SHARD_IDS": "1"}, {"SHARD_COUNT": "two"}, {"SHARD_COUNT": "2", "SHARD_IDS": "2"},
                  {"SHARD_COUNT": "0"}):
        with pytest.raises(ConfigError):
            Settings.from_env({**BASE, **wrong})


def test_database_url_wins_over_the_sqlite_path():
    settings = Settings.from_env({**BASE, "DATABASE_URL": "postgresql://u@h/db", "DATABASE_PATH": "x.db"})
    assert settings.database_path == "postgresql://u@h/db"


def test_a_process_serves_only_the_servers_of_its_shards():
    single = create_bot("unused.sqlite3")
    assert type(single) is GameBot and single.owns_guild(123 << 22)
    half = create_bot("unused.sqlite3", shard_count=2, shard_ids=[1])
    assert isinstance(half, ShardedGameBot)
    assert half.owns_guild(1 << 22) and half.owns_guild(3 << 22)
    assert not half.owns_guild(2 << 22) and not half.owns_guild(0)


async def test_only_the_process_with_shard_0_registers_commands():
    calls = []
    other = create_bot("unused.sqlite3", shard_count=2, shard_ids=[1])

    async def sync(*args, **kwargs):
        calls.append(True)
        return []

    other.tree.sync = sync
    await other.sync_commands()
    assert calls == []
    first = create_bot("unused.sqlite3", shard_count=2, shard_ids=[0])
    first.tree.sync = sync
    await first.sync_commands()
    assert calls == [True]


async def test_a_process_of_some_shards_looks_for_owed_boards_every_few_seconds():
    """Moves applied by another process leave their boards owed; the process serving the
    server posts them at its next look (the scheduler's source `_check_owed_boards`)."""
    looked = []

    class Deliveries:
        async def owed_games(self):
            looked.append(True)
            return []

    class Store:
        delivery = Deliveries()

    class Worker:
        stopping = False

    bot = create_bot("unused.sqlite3", shard_count=2, shard_ids=[1])
    bot.parts = SimpleNamespace(storage=Store(), deliveries=Worker())  # the two parts the look reads, as if built
    assert await bot._next_owed_check() == 0.0  # at once after the start
    await bot._check_owed_boards(1000.0)
    assert looked == [True] and await bot._next_owed_check() == 1000.0 + bot.owed_board_every
    await bot._check_owed_boards(1000.0 + bot.owed_board_every / 2)
    assert looked == [True]
    await bot._check_owed_boards(1000.0 + bot.owed_board_every)
    assert looked == [True, True]
    bot.parts.deliveries.stopping = True
    await bot._check_owed_boards(5000.0)
    assert looked == [True, True]
