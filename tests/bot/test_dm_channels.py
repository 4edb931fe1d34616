"""Opening DM channels (bot.delivery.dms.DmChannels): one at a time, so that a burst of DMs to
many users never overruns Discord's limit on the route, and each user's channel opened once."""
from __future__ import annotations

import asyncio

import discord

from bench.standin import StandIn, StandInConfig
from bench.standin.ratelimits import RateLimiter, RouteLimit
from bot.delivery import dms
from bot.delivery.dms import DmChannels
from bot.delivery.requests import Failure, attempt
from tests.standin.test_standin import needs_loopback

OPEN = ("POST", "/users/@me/channels")


@needs_loopback
async def test_a_burst_of_dms_to_many_users_opens_their_channels_within_the_routes_limit(monkeypatch):
    # The stand-in answers as Discord does (50 ms away), with the route's limit in its headers
    # and a 429 for a request over it; discord.py paces by those headers.
    limiter = RateLimiter(limits={OPEN: RouteLimit(3, 1.0), ("GET", "/users/@me"): RouteLimit(5, 1.0)})
    async with StandIn(StandInConfig(guilds=1, latency=0.05), limiter=limiter) as standin:
        monkeypatch.setattr(discord.http.Route, "BASE", standin.api_url)
        users = [standin.player(f"player{n}").id for n in range(10)]
        client = discord.Client(intents=discord.Intents.none())
        await client.login(standin.world.token)
        try:
            channels = DmChannels(client, attempt)
            # Every user twice at once (a DM of two tables each), all set off together.
            opened = await asyncio.gather(*(channels.open(user) for user in users + users))
            again = await asyncio.gather(*(channels.open(user) for user in users))
        finally:
            await client.close()
    assert not any(isinstance(channel, Failure) for channel in opened + again)
    assert [channel.id for channel in opened] == [standin.world.dm_by_user[user] for user in users + users]
    assert [channel.id for channel in again] == [standin.world.dm_by_user[user] for user in users]
    requests = sorted((r for r in standin.recorder.requests if (r.method, r.route) == OPEN), key=lambda r: r.at)
    assert len(requests) == len(users) == channels.opened  # each user's channel opened once
    assert limiter.hits == {"global": 0, "user": 0, "shared": 0}
    assert all(r.status == 200 for r in requests)
    # One at a time: each request arrived after the one before was answered.
    assert all(later.at >= earlier.at + earlier.seconds for earlier, later in zip(requests, requests[1:]))


class SlowClient:
    """A client whose opening of a DM channel takes `seconds` (a Discord that hangs on it)."""

    def __init__(self, seconds: float) -> None:
        self.seconds = seconds
        self.asked: list[int] = []

    async def create_dm(self, user: discord.abc.Snowflake) -> discord.Object:
        self.asked.append(user.id)
        await asyncio.sleep(self.seconds)
        return discord.Object(1000 + user.id)

    def get_partial_messageable(self, channel_id: int) -> discord.Object:
        return discord.Object(channel_id)


async def test_an_opening_that_hangs_holds_the_others_back_only_for_a_while(monkeypatch):
    monkeypatch.setattr(dms, "OPEN_TURN_WAIT", 0.05)
    client = SlowClient(0.3)
    channels = DmChannels(client, lambda call: attempt(call, timeout=0.2))  # type: ignore[arg-type]
    hung, waited = await asyncio.gather(channels.open(1), channels.open(2))
    assert isinstance(hung, Failure) and hung.kind == "retry" and hung.late  # the request's own timeout
    # The one behind it is tried again after a moment, not after the whole hang.
    assert isinstance(waited, Failure) and waited.kind == "retry" and waited.after > 0
    assert client.asked == [1]
    client.seconds = 0.0
    assert (await channels.open(2)).id == 1002 and client.asked == [1, 2]


async def test_a_channel_learnt_from_the_store_or_opened_once_is_not_opened_again():
    client = SlowClient(0.0)
    channels = DmChannels(client, attempt)  # type: ignore[arg-type]
    channels.learn(7, 4242)  # a seat's stored DM row names it
    assert (await channels.open(7)).id == 4242
    assert (await channels.open(8)).id == 1008 and (await channels.open(8)).id == 1008
    assert client.asked == [8] and channels.opened == 1


def test_the_channels_remembered_are_bounded(monkeypatch):
    monkeypatch.setattr(dms, "CHANNELS_KEPT", 3)
    channels = DmChannels(SlowClient(0.0), attempt)  # type: ignore[arg-type]
    for user in range(5):
        channels.learn(user, 100 + user)
    assert [channels.known(user) is not None for user in range(5)] == [False, False, True, True, True]


async def test_a_failed_opening_is_not_remembered():
    user = 3

    class Refusing(SlowClient):
        async def create_dm(self, user: discord.abc.Snowflake) -> discord.Object:
            self.asked.append(user.id)
            raise discord.HTTPException(_Response(502), "bad gateway")

    client = Refusing(0.0)
    channels = DmChannels(client, attempt)  # type: ignore[arg-type]
    assert isinstance(await channels.open(user), Failure)
    assert isinstance(await channels.open(user), Failure)
    assert client.asked == [user, user] and channels.known(user) is None


class _Response:
    def __init__(self, status: int) -> None:
        self.status = status
        self.reason = "injected"
