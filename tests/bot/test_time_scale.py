"""Shortened game time (bot.timing): deadlines, reminders, the reaction window and DM retries read
one set of durations on the scheduler's clock, so a test or the soak sets them once instead of
patching module constants."""
from __future__ import annotations

import random

import pytest

from bot.app import create_bot
from bot.config import ConfigError, Settings
from bot.timing import Durations
from tests.bot import fakegame, test_days_timers
from tests.bot.test_days_timers import start, tick, timers

clock = test_days_timers.clock  # the fake clock fixture, shared

SCALE = 0.001  # a 24-hour deadline in 86 seconds, a reminder after an hour in 4


@pytest.fixture
def make_bot(database_path, renderer, clock):
    def build():
        return create_bot(database_path, games={"pips": fakegame.GAME}, render=renderer,
                          seed_source=random.Random(7), clock=clock, durations=Durations(scale=SCALE))
    return build


async def test_a_table_s_deadline_and_reminders_run_on_shortened_time(world, clock):
    started = int(clock.now())
    _, (starter, other) = await start(world, options="deadline=24h reminder=1h")
    due = {kind: at - started for seat, kind, at in timers(world)}
    assert due == {"deadline": 86, "reminder": 4}
    await tick(world, clock, 5)
    assert any("waiting for you" in m.content for m in world.dms(starter))
    await tick(world, clock, 85)
    assert world.stored(1).version == 1  # the deadline passed: the computer moved for the starter
    assert any("ran out of time" in m.content for m in world.messages())


def test_durations_scale_game_time_and_keep_at_least_a_second():
    durations = Durations(scale=SCALE)
    assert durations.game(24 * 3600) == 86 and durations.game(60) == 1
    assert durations.dm_retry_after == 22 and Durations().dm_retry_after == 6 * 3600
    assert Durations().game(15 * 60) == 900


@pytest.mark.parametrize("value,scale", [("", 1.0), ("0.002", 0.002), ("1", 1.0)])
def test_time_scale_is_read_from_the_environment(value, scale):
    assert Settings.from_env({"DISCORD_TOKEN": "x", "TIME_SCALE": value}).time_scale == scale


@pytest.mark.parametrize("value", ["0", "-1", "2", "fast"])
def test_a_wrong_time_scale_says_what_to_put(value):
    with pytest.raises(ConfigError, match="TIME_SCALE"):
        Settings.from_env({"DISCORD_TOKEN": "x", "TIME_SCALE": value})
