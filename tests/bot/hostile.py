"""A Discord that fails, around simcord: what its own `inject_error` (statuses) does not make.

- `hang(method, path, seconds)`: a request gets no answer for `seconds` (of the simulated clock);
  with `lost_answer=True` Discord carried it out and only its answer is lost (a post that was
  made, as far as Discord knows, while the bot heard nothing); with `lands_late=True` Discord
  carries it out only when the hang ends, long after the bot gave up on it (an edit that lands
  after a newer one), and answers then, should the bot still wait (an interaction's answer that
  reached Discord in time counts, late as it is carried out).
- Discord's nonce rule: a message created with `enforce_nonce` and a nonce already used by the
  same author in that channel in the last few minutes returns the first message instead of a
  second one (simcord accepts the field and ignores it).
- `delete_as_moderator(message)`: a member with Manage Messages deletes a message (Discord tells
  the bot by MESSAGE_DELETE).
- `revoke(channel, "send_messages")` / `restore(channel)`: the bot's permissions in a channel
  taken and given back (Discord tells the bot by CHANNEL_UPDATE).
- `close_dms(member)` / `reopen_dms(member)`.
- `gateway_down()` / `gateway_up()`: while down, clicks reach the bot too late to be answered
  (Discord answers 10062 Unknown interaction), as after a dropped gateway.
- `versions_shown(message)`: the game versions a message's buttons named after each edit that
  landed on it, in the order they landed (a message going back shows a smaller one later).
"""
from __future__ import annotations

import asyncio
import datetime
import fnmatch
import re

import discord
from simcord.backend.models.channel import Overwrite
from simcord.http import router
from simcord.http.client import FakeHTTPClient, FakeWebhookAdapter

NONCE_WINDOW = 300.0  # seconds Discord remembers a nonce ("the past few minutes")
LATE = datetime.timedelta(seconds=20)  # how late a click made during a gateway outage arrives
VERSIONED = re.compile(r"rk:(?:move|tog|pick):\d+:(\d+)")  # a move button's or menu's custom_id


class HostileDiscord:
    def __init__(self, world, monkeypatch) -> None:
        self.world = world
        self.env = world.env
        self.hangs: list[dict] = []
        self.nonces: dict[tuple[int, str], tuple[int, float]] = {}
        self.requests: list[tuple[str, str]] = []
        self.refused_interactions = 0
        self.late: list[asyncio.Task] = []  # requests Discord carries out after their hang
        self._gateway_fault: dict | None = None
        hostile = self

        original_request = FakeHTTPClient.request

        async def request(client, route, **kwargs):
            hostile.requests.append((route.method, _path(route.url)))
            return await hostile._carry_out(route.method, _path(route.url),
                                            lambda: original_request(client, route, **kwargs))

        original_webhook = FakeWebhookAdapter.request

        async def webhook_request(adapter, route, session, **kwargs):
            return await hostile._carry_out(route.method, _path(route.url),
                                            lambda: original_webhook(adapter, route, session, **kwargs))

        monkeypatch.setattr(FakeHTTPClient, "request", request)
        monkeypatch.setattr(FakeWebhookAdapter, "request", webhook_request)

        original_dispatch = router.dispatch

        def dispatch(backend, method, path, *, json=None, **kwargs):
            if method == "POST" and fnmatch.fnmatch(path, "/channels/*/messages") and isinstance(json, dict) \
                    and json.get("enforce_nonce") and json.get("nonce") is not None:
                channel_id = int(path.split("/")[2])
                seen = hostile.nonces.get((channel_id, str(json["nonce"])))
                now = backend.clock.elapsed
                if (seen is not None and now - seen[1] < NONCE_WINDOW
                        and seen[0] in backend.messages.get(channel_id, {})):
                    from simcord.http._helpers import message_response

                    context = router.RequestContext(backend, {"channel_id": str(channel_id)}, method=method, path=path)
                    return message_response(context, backend.get_message(channel_id, seen[0]))
                answer = original_dispatch(backend, method, path, json=json, **kwargs)
                hostile.nonces[(channel_id, str(json["nonce"]))] = (int(answer["id"]), now)
                return answer
            return original_dispatch(backend, method, path, json=json, **kwargs)

        monkeypatch.setattr(router, "dispatch", dispatch)

        self._shown: dict[int, list[int]] = {}
        backend = self.env.backend
        original_edit = backend.edit_message

        def edit_message(channel_id: int, message_id: int, fields):
            message = original_edit(channel_id, message_id, fields)
            versions = [int(found.group(1)) for custom_id in _custom_ids(message.components)
                        if (found := VERSIONED.match(custom_id))]
            if versions:
                self._shown.setdefault(message_id, []).append(max(versions))
            return message

        monkeypatch.setattr(backend, "edit_message", edit_message)

    async def _carry_out(self, method: str, path: str, call):
        for hang in list(self.hangs):
            if hang["method"] in (method, "*") and fnmatch.fnmatch(path, hang["path"]):
                hang["times"] -= 1
                if hang["times"] <= 0:
                    self.hangs.remove(hang)
                if hang["lost_answer"]:
                    await call()  # Discord did it; the answer never comes
                if hang["lands_late"]:
                    # Discord does it when the hang ends, whether or not the bot still waits.
                    landing = asyncio.get_running_loop().create_task(self._late(hang["seconds"], call, path))
                    self.late.append(landing)
                    return await asyncio.shield(landing)
                await asyncio.sleep(hang["seconds"])
                raise discord.HTTPException(_Response(504), "the request hung")  # pragma: no cover
        return await call()

    async def _late(self, seconds: float, call, path: str):
        await asyncio.sleep(seconds)
        if fnmatch.fnmatch(path, "/interactions/*/callback"):
            # It reached Discord within the interaction's 3 s: carried out, however late.
            record = self.env.backend.interactions.get(int(path.split("/")[2]))
            if record is not None:
                record.initial_response_deadline = None
        return await call()

    def versions_shown(self, message: discord.Message) -> list[int]:
        return list(self._shown.get(message.id, []))

    # ---------------------------------------------------------------------- faults

    def hang(self, method: str, path: str, seconds: float = 12.0, *, times: int = 1, lost_answer: bool = False,
             lands_late: bool = False) -> None:
        self.hangs.append({"method": method, "path": path, "seconds": seconds, "times": times,
                           "lost_answer": lost_answer, "lands_late": lands_late})

    def fail(self, method: str, path: str, status: int, *, code: int = 0, times: int | None = 1,
             message: str = "injected") -> None:
        self.env.inject_error(method, path, status=status, code=code, message=message, times=times)

    def clear(self) -> None:
        self.env.backend.faults.clear()
        self.hangs.clear()

    def close_dms(self, member) -> None:
        self.fail("POST", f"/channels/{member.user.dm_channel.id}/messages", 403, code=50007,
                  message="Cannot send messages to this user", times=None)

    def reopen_dms(self, member) -> None:
        path = f"/channels/{member.user.dm_channel.id}/messages"
        self.env.backend.faults[:] = [f for f in self.env.backend.faults if f["path"] != path]

    def revoke(self, channel, *permissions: str) -> None:
        value = discord.Permissions(**{name: True for name in permissions}).value
        self.env.backend.set_overwrite(channel.id, Overwrite(self.world.bot.user.id, _member_overwrite(), deny=value))

    def restore(self, channel) -> None:
        self.env.backend.delete_overwrite(channel.id, self.world.bot.user.id)

    async def delete_as_moderator(self, message: discord.Message) -> None:
        moderator = getattr(self, "_moderator", None)
        if moderator is None:
            moderator = self._moderator = self.world.player("moderator", manage_server=True)
            role = self.world.guild.create_role("mods", permissions=discord.Permissions(manage_messages=True))
            self.env.backend.add_member_role(self.world.guild.id, moderator.id, role.id)
        await moderator.delete(message)

    def delete_unheard(self, message: discord.Message) -> None:
        """A message deleted while the bot hears nothing of it (stopped, or its gateway down and
        the session lost): Discord does not tell the bot later."""
        del self.env.backend.messages[message.channel.id][message.id]

    def gateway_down(self) -> None:
        """Clicks now reach the bot only after the gateway is back: too late to be answered."""
        self._gateway_fault = {"method": "POST", "path": "/interactions/*/callback", "status": 404, "code": 10062,
                               "message": "Unknown interaction", "times": None}
        self.env.backend.faults.append(self._gateway_fault)
        self._created_at = discord.Interaction.created_at
        discord.Interaction.created_at = property(lambda interaction: discord.utils.utcnow() - LATE)

    def gateway_up(self) -> None:
        if self._gateway_fault in self.env.backend.faults:
            self.env.backend.faults.remove(self._gateway_fault)
        self._gateway_fault = None
        discord.Interaction.created_at = self._created_at


def _custom_ids(components) -> list[str]:
    """Every custom_id in a message's component rows (raw dicts, nested)."""
    found = []
    for component in components or []:
        if component.get("custom_id"):
            found.append(component["custom_id"])
        found.extend(_custom_ids(component.get("components")))
    return found


def _path(url: str) -> str:
    from simcord.http.client import _path_of

    return _path_of(url)


def _member_overwrite():
    from simcord.enums import OverwriteType

    return OverwriteType.MEMBER


class _Response:
    def __init__(self, status: int) -> None:
        self.status = status
        self.reason = "Gateway Timeout"
        self.headers: dict[str, str] = {}


