"""discord.py's sweep of the rate limits it knows runs once a minute at most (bot.app)."""
from __future__ import annotations

import asyncio

import discord

from bot.app import RATE_LIMITS_SWEPT_EVERY, sweep_rate_limits_seldom


async def test_new_routes_in_a_minute_sweep_once():
    now = [0.0]
    http = discord.http.HTTPClient(asyncio.get_running_loop())
    sweeps: list[float] = []
    http._try_clear_expired_ratelimits = lambda: sweeps.append(now[0])  # stands for discord.py's own
    sweep_rate_limits_seldom(http, clock=lambda: now[0])
    for channel in range(5):
        http.get_ratelimit(f"PATCH /channels/{{channel_id}}/messages/{{message_id}}:{channel}")
    assert sweeps == [0.0]
    now[0] = RATE_LIMITS_SWEPT_EVERY - 1
    http.get_ratelimit("POST /channels/{channel_id}/messages:7")
    assert sweeps == [0.0]
    now[0] = RATE_LIMITS_SWEPT_EVERY
    http.get_ratelimit("POST /channels/{channel_id}/messages:8")
    assert sweeps == [0.0, RATE_LIMITS_SWEPT_EVERY]
    await http.close()


async def test_the_sweep_still_forgets_rate_limits_unused_for_five_minutes():
    loop = asyncio.get_running_loop()
    now = [0.0]
    http = discord.http.HTTPClient(loop)
    sweep_rate_limits_seldom(http, clock=lambda: now[0])
    for channel in range(300):
        http.get_ratelimit(f"PATCH /channels/{{channel_id}}/messages/{{message_id}}:{channel}")
    for ratelimit in http._buckets.values():
        ratelimit._last_request = loop.time() - 301  # unused for five minutes
    now[0] = RATE_LIMITS_SWEPT_EVERY
    http.get_ratelimit("POST /channels/{channel_id}/messages:1")
    assert list(http._buckets) == ["POST /channels/{channel_id}/messages:1"]
    await http.close()
