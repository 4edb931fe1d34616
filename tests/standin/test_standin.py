"""The stand-in Discord (bench/standin) and the real bot process playing on it, small: the
benches' set-up, checked. The figures are the benches' to print; nothing here times the bot
beyond Discord's own 3 s answer deadline."""
from __future__ import annotations

import asyncio
import socket

import aiohttp
import pytest

from bench.standin import BotProcess, StandIn, StandInConfig
from bench.standin.payloads import GuildShape
from bench.standin.ratelimits import RateLimiter, RouteLimit
from bench.standin.tables import Tables
from bot.config import ConfigError, Settings

MESSAGES = "/channels/{channel_id}/messages"


def loopback_available() -> bool:
    try:
        with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as probe:
            probe.bind(("127.0.0.1", 0))
            probe.listen(1)
        return True
    except OSError:
        return False


needs_loopback = pytest.mark.skipif(not loopback_available(),
                                    reason="no loopback sockets here: the stand-in Discord listens on 127.0.0.1")


def test_discord_api_url_is_optional_and_must_be_a_url():
    assert Settings.from_env({"DISCORD_TOKEN": "t"}).api_url is None
    stand_in = Settings.from_env({"DISCORD_TOKEN": "t", "DISCORD_API_URL": "http://127.0.0.1:8080/api/v10/"})
    assert stand_in.api_url == "http://127.0.0.1:8080/api/v10"
    with pytest.raises(ConfigError, match="DISCORD_API_URL"):
        Settings.from_env({"DISCORD_TOKEN": "t", "DISCORD_API_URL": "127.0.0.1:8080"})


def test_route_bucket_counts_per_channel_and_answers_429_with_discords_headers():
    now = [100.0]
    limiter = RateLimiter(limits={("POST", MESSAGES): RouteLimit(2, 5.0)}, clock=lambda: now[0])
    first = limiter.check("POST", MESSAGES, {"channel_id": "1"})
    second = limiter.check("POST", MESSAGES, {"channel_id": "1"})
    third = limiter.check("POST", MESSAGES, {"channel_id": "1"})
    other_channel = limiter.check("POST", MESSAGES, {"channel_id": "2"})
    assert first.allowed and second.allowed and other_channel.allowed
    assert first.headers["X-RateLimit-Remaining"] == "1" and second.headers["X-RateLimit-Remaining"] == "0"
    assert not third.allowed and third.scope == "user" and third.retry_after == pytest.approx(5.0)
    assert third.headers["X-RateLimit-Bucket"] == first.headers["X-RateLimit-Bucket"]
    now[0] += 5.0
    assert limiter.check("POST", MESSAGES, {"channel_id": "1"}).allowed


def test_global_limit_binds_all_routes_but_interaction_endpoints():
    now = [0.0]
    limiter = RateLimiter(limits={}, global_limit=3, clock=lambda: now[0])
    assert all(limiter.check("GET", "/channels/{channel_id}", {"channel_id": str(n)}).allowed for n in range(3))
    refused = limiter.check("GET", "/channels/{channel_id}", {"channel_id": "9"})
    assert not refused.allowed and refused.is_global and refused.headers["X-RateLimit-Global"] == "true"
    callback = "/interactions/{interaction_id}/{token}/callback"
    assert limiter.check("POST", callback, {"interaction_id": "1", "token": "t"}).allowed
    now[0] += 1.0
    assert limiter.check("GET", "/channels/{channel_id}", {"channel_id": "9"}).allowed


@needs_loopback
async def test_a_repeated_nonce_returns_the_first_message():
    async with StandIn(StandInConfig(guilds=1, shape=GuildShape(channels=2))) as standin:
        channel_id = next(iter(standin.world.guilds.values())).channel_ids[0]
        headers = {"Authorization": f"Bot {standin.world.token}"}
        url = f"{standin.api_url}/channels/{channel_id}/messages"
        async with aiohttp.ClientSession(headers=headers) as session:
            answers = []
            for body in ({"content": "a", "nonce": "42", "enforce_nonce": True},
                         {"content": "b", "nonce": "42", "enforce_nonce": True},
                         {"content": "c", "nonce": "42"}):
                async with session.post(url, json=body) as response:
                    answers.append(await response.json())
        assert answers[1]["id"] == answers[0]["id"] and answers[1]["content"] == "a"
        assert answers[2]["id"] != answers[0]["id"]  # without enforce_nonce a nonce is only echoed
        assert len(standin.world.channels[channel_id].messages) == 2


@needs_loopback
async def test_the_bot_process_plays_knatsch_on_the_stand_in(tmp_path):
    """The real bot (`python -m bot`) logs into the stand-in (3 guilds), three players open a
    Knatsch table (/game new, Join, Start) and make moves through the bot's buttons: every
    interaction is answered within 3 s, every move's board appears, a 429 from the channel's
    message bucket is waited out and the board posted after it, and a RESUME loses nothing."""
    database = tmp_path / "bot.sqlite3"
    async with StandIn(StandInConfig(guilds=3, shape=GuildShape(channels=4))) as standin:
        bot = BotProcess(api_url=standin.api_url, token=standin.world.token, database_path=database,
                         log_path=tmp_path / "bot.log")
        await bot.start()
        tables = Tables(standin, database, seed=3)
        try:
            await asyncio.wait_for(standin.wait_connected(), 60)
            assert bot.rss_mib() > 20
            players = [standin.player(f"player{n}") for n in range(3)]
            channel_id = list(standin.world.guilds.values())[1].channel_ids[2]
            # The first board's post meets a 429 from its route bucket; discord.py waits and retries.
            standin.limiter.inject_429("POST", MESSAGES, times=1, retry_after=0.3, scope="user")
            table = await tables.open(channel_id, "knatsch", players)
            await tables.play(table, moves=3)
            await standin.gateway.reconnect()  # Discord's op 7: the bot comes back with RESUME
            await tables.play(table, moves=1)
        finally:
            tables.close()
            returncode = await bot.stop()

    assert table.moves == 4 and not table.stuck and table.unanswered == 0
    assert returncode == 0, "\n".join(bot.lines)
    assert bot.errors() == [], "\n".join(bot.errors())
    records = table.records
    assert all(r.acked_at is not None and r.ack_seconds < 3.0 and not r.late for r in records)
    moved = [r for r in records if r.outcome == "moved"]
    assert len(moved) == 4 and all(r.board_at is not None for r in moved)
    start = next(r for r in records if r.name.endswith(":start"))
    assert start.board_at is not None

    posts = [r for r in standin.recorder.requests if r.method == "POST" and r.route == MESSAGES]
    refused = [n for n, r in enumerate(posts) if r.status == 429]
    assert len(refused) == 1 and posts[refused[0]].scope == "user"
    retried = posts[refused[0] + 1]
    assert retried.status == 200 and retried.channel_id == posts[refused[0]].channel_id == channel_id
    assert retried.at - posts[refused[0]].at >= 0.3
    assert any("rate limited" in line for line in bot.lines)

    assert standin.gateway.counts["identify"] == 1 and standin.gateway.counts["resume"] == 1
    assert standin.gateway.counts["invalid_session"] == 0
    in_order, wrong = standin.recorder.boards_in_order()
    assert in_order, wrong
    assert standin.unknown_routes == []
