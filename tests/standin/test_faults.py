"""The stand-in Discord's faults, as the soak (bench/soak.py) uses them, checked without the bot:
REST storms (429 global, 5xx before and after the request took effect, a hang after which the
request still lands), what moderators and users change (Send Messages revoked, DMs closed), the
nonce rule per channel, ids from the clock, and gateway drops with and without a RESUME."""
from __future__ import annotations

import asyncio
import json
import time

import aiohttp

from bench.standin import StandIn, StandInConfig
from bench.standin.faults import Storm
from bench.standin.payloads import DISCORD_EPOCH_MS, SEND_MESSAGES, GuildShape
from tests.standin.test_standin import needs_loopback

POST = ("POST", "/channels/{channel_id}/messages")


def storm(kind: str, **fields) -> Storm:
    now = time.monotonic()
    return Storm(kind, now, now + 60, fields.pop("routes", frozenset({POST})), share=1.0, **fields)


def snowflake_seconds(snowflake: int) -> float:
    return ((snowflake >> 22) + DISCORD_EPOCH_MS) / 1000


async def post(session: aiohttp.ClientSession, url: str, body: dict, timeout: float = 10.0) -> tuple[int, object]:
    async with session.post(url, json=body, timeout=aiohttp.ClientTimeout(total=timeout)) as response:
        text = await response.text()
        return response.status, json.loads(text) if response.content_type == "application/json" else text


@needs_loopback
async def test_storms_answer_as_discord_does_and_some_requests_still_take_effect():
    async with StandIn(StandInConfig(guilds=1, shape=GuildShape(channels=4))) as standin:
        channels = next(iter(standin.world.guilds.values())).channel_ids
        messages = [standin.world.channels[c].messages for c in channels]
        headers = {"Authorization": f"Bot {standin.world.token}"}
        url = [f"{standin.api_url}/channels/{c}/messages" for c in channels]
        async with aiohttp.ClientSession(headers=headers) as session:
            standin.faults.add(storm("5xx-after", channel_id=channels[0], status=503))
            status, _ = await post(session, url[0], {"content": "made"})
            assert status == 503 and [m["content"] for m in messages[0].values()] == ["made"]

            standin.faults.add(storm("5xx-before", channel_id=channels[1], status=502))
            status, _ = await post(session, url[1], {"content": "not made"})
            assert status == 502 and not messages[1]

            standin.faults.add(storm("hang-before", channel_id=channels[2], hang=(0.5, 0.5)))
            try:
                await post(session, url[2], {"content": "late"}, timeout=0.1)
                raise AssertionError("the request should have hung")
            except TimeoutError:
                pass
            assert not messages[2]  # the client gave up; the request lands later all the same
            await asyncio.sleep(0.8)
            assert [m["content"] for m in messages[2].values()] == ["late"]

            standin.faults.add(storm("429", routes=None, scope="global", retry_after=1.5))
            async with session.post(url[3], json={"content": "x"}) as response:
                body = await response.json()
                assert response.status == 429 and body["global"] is True and body["retry_after"] == 1.5
                assert response.headers["X-RateLimit-Global"] == "true"
                assert response.headers["X-RateLimit-Scope"] == "global"
    assert standin.faults.hits_by_kind() == {"5xx-after": 1, "5xx-before": 1, "hang-before": 1, "429": 1}


@needs_loopback
async def test_revoked_send_messages_closed_dms_the_nonce_per_channel_and_ids_from_the_clock():
    async with StandIn(StandInConfig(guilds=1, shape=GuildShape(channels=2))) as standin:
        first, second = next(iter(standin.world.guilds.values())).channel_ids
        player = standin.player("alice")
        dm = standin.world.dm_channel(player.id).id
        headers = {"Authorization": f"Bot {standin.world.token}"}

        def url(channel_id: int) -> str:
            return f"{standin.api_url}/channels/{channel_id}/messages"

        async with aiohttp.ClientSession(headers=headers) as session:
            await standin.revoke_send_messages(first)
            status, body = await post(session, url(first), {"content": "no"})
            assert status == 403 and body["code"] == 50013
            assert not int(standin.world.app_permissions(first)) & SEND_MESSAGES
            listed = next(c for c in standin.world.guild_create(next(iter(standin.world.guilds)))["channels"]
                          if c["id"] == str(first))  # a new session's GUILD_CREATE shows the deny too
            assert {"id": str(standin.world.bot_id), "type": 1, "allow": "0", "deny": str(SEND_MESSAGES)} \
                in listed["permission_overwrites"]
            await standin.restore_send_messages(first)
            assert (await post(session, url(first), {"content": "yes"}))[0] == 200

            standin.close_dms(player.id)
            status, body = await post(session, url(dm), {"content": "psst"})
            assert status == 403 and body["code"] == 50007
            standin.open_dms(player.id)
            assert (await post(session, url(dm), {"content": "psst"}))[0] == 200

            nonce = {"nonce": "7", "enforce_nonce": True}
            _, a = await post(session, url(first), {"content": "a", **nonce})
            _, b = await post(session, url(second), {"content": "b", **nonce})
            _, again = await post(session, url(first), {"content": "c", **nonce})
            assert a["id"] != b["id"] and again["id"] == a["id"] and again["content"] == "a"

        message_id = int(a["id"])
        await standin.delete_message(first, message_id)
        assert message_id not in standin.world.channels[first].messages
        # Ids carry the time they were made: a click is not "late" to the bot for its id.
        click = await standin.send_interaction(player.id, second, 3, {"custom_id": "x", "component_type": 2}, name="x")
        assert abs(snowflake_seconds(click.id) - time.time()) < 1.0
        assert abs(snowflake_seconds(message_id) - time.time()) < 5.0


async def until_closed(ws: aiohttp.ClientWebSocketResponse) -> None:
    while (await ws.receive()).type not in (aiohttp.WSMsgType.CLOSE, aiohttp.WSMsgType.CLOSED,
                                            aiohttp.WSMsgType.CLOSING):
        pass  # events sent before the drop


@needs_loopback
async def test_a_dropped_connection_resumes_and_a_forgotten_session_identifies_anew():
    async with StandIn(StandInConfig(guilds=1, shape=GuildShape(channels=1))) as standin:
        token = standin.world.token
        async with aiohttp.ClientSession() as session:
            async def connect() -> aiohttp.ClientWebSocketResponse:
                ws = await session.ws_connect(standin.gateway_url)
                assert (await ws.receive_json())["op"] == 10  # HELLO
                return ws

            ws = await connect()
            await ws.send_json({"op": 2, "d": {"token": token, "intents": 1 << 9}})
            ready = await ws.receive_json()
            assert ready["t"] == "READY"
            session_id, seq = ready["d"]["session_id"], ready["s"]

            assert await standin.gateway.drop(resume=True) == 1
            await until_closed(ws)
            assert ws.close_code == 4000
            guild_id = next(iter(standin.world.guilds))
            await standin.dispatch("MESSAGE_DELETE", {"id": "1", "channel_id": "2", "guild_id": str(guild_id)},
                                   guild_id)  # missed meanwhile
            ws = await connect()
            await ws.send_json({"op": 6, "d": {"token": token, "session_id": session_id, "seq": seq}})
            replayed = [await asyncio.wait_for(ws.receive_json(), 5) for _ in range(3)]
            events = [event["t"] for event in replayed]
            assert "MESSAGE_DELETE" in events and "RESUMED" in events

            await standin.gateway.drop(resume=False)
            await until_closed(ws)
            ws = await connect()
            await ws.send_json({"op": 6, "d": {"token": token, "session_id": session_id, "seq": seq}})
            assert (await ws.receive_json())["op"] == 9  # INVALID_SESSION: identify anew
            await ws.close()
    assert standin.gateway.counts["dropped"] == 2 and standin.gateway.counts["sessions_forgotten"] == 1
