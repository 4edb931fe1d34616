"""discord.py's wait for a global rate limit (bot.delivery.requests.release_global_wait): a request
that gives up while it waits one out must not leave every later request waiting for good."""
from __future__ import annotations

import discord

from bench.standin import StandIn, StandInConfig
from bot.delivery import requests
from bot.delivery.requests import Failure, attempt, release_global_wait
from tests.standin.test_standin import needs_loopback


@needs_loopback
async def test_a_request_that_gave_up_in_a_global_wait_does_not_hold_the_later_ones(monkeypatch):
    monkeypatch.setattr(requests, "GLOBAL_WAIT_RELEASE", 0.2)
    async with StandIn(StandInConfig(guilds=1)) as standin:
        monkeypatch.setattr(discord.http.Route, "BASE", standin.api_url)
        users = [standin.player(name).id for name in ("anna", "ben")]
        client = discord.Client(intents=discord.Intents.none())
        await client.login(standin.world.token)
        try:
            # Discord answers a global 429 (wait 2 s); the request gives up during that wait.
            standin.limiter.inject_429("POST", "/users/@me/channels", retry_after=2.0, scope="global")
            gave_up = await attempt(lambda: client.create_dm(discord.Object(users[0])), timeout=0.5)
            assert isinstance(gave_up, Failure) and gave_up.late
            # discord.py's wait was never let go: without the release the next request waits too.
            stuck = await attempt(lambda: client.create_dm(discord.Object(users[1])), timeout=3.0)
            assert isinstance(stuck, Failure) and stuck.late
            release_global_wait(client)
            opened = await attempt(lambda: client.create_dm(discord.Object(users[1])), timeout=3.0)
        finally:
            await client.close()
    assert not isinstance(opened, Failure) and opened.id == standin.world.dm_by_user[users[1]]
