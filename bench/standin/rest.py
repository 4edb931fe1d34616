"""The REST routes the bot uses, under /api/v10: who the bot is, the gateway's address,
application commands, channel and DM messages, threads, and the interaction endpoints
(callback, followups, @original). Errors answer with Discord's JSON codes."""
from __future__ import annotations

import email.parser
import email.policy
import json
import math
import time
from typing import TYPE_CHECKING, Any

from aiohttp import web

from bench.standin import payloads
from bench.standin.botview import versions
from bench.standin.payloads import DM, PUBLIC_THREAD
from bench.standin.recorder import BoardEvent, InteractionRecord, MessageEvent
from bench.standin.world import EPHEMERAL, Channel, DiscordError, unknown

if TYPE_CHECKING:
    from bench.standin.server import StandIn

LOADING = 1 << 7
PONG, MESSAGE, DEFERRED_MESSAGE, DEFERRED_UPDATE, UPDATE, AUTOCOMPLETE, MODAL = 1, 4, 5, 6, 7, 8, 9
API = "/api/v10"


def answer(data: Any, status: int = 200, headers: dict[str, str] | None = None) -> web.Response:
    """A JSON answer whose Content-Type is exactly `application/json`, as Discord's is (discord.py
    reads any other body as text)."""
    return web.Response(body=json.dumps(data).encode(), status=status,
                        headers={"Content-Type": "application/json", **(headers or {})})


async def read_body(request: web.Request) -> tuple[Any, dict[int, dict]]:
    """The JSON body, or a multipart body's payload_json and its files (sizes kept, bytes dropped).
    The body is read whole first (aiohttp keeps it): a request held back by a fault
    (bench/standin/faults.py) is read before its client may give up, and carried out later."""
    if not request.body_exists:
        return {}, {}
    raw = await request.read()
    if request.content_type.startswith("multipart/"):
        return multipart_body(request.headers["Content-Type"], raw)
    return (json.loads(raw) if raw.strip() else {}), {}


def multipart_body(content_type: str, raw: bytes) -> tuple[Any, dict[int, dict]]:
    """payload_json and the files[n] of a multipart/form-data body."""
    message = email.parser.BytesParser(policy=email.policy.HTTP).parsebytes(
        b"Content-Type: " + content_type.encode() + b"\r\n\r\n" + raw)
    body: Any = {}
    uploads: dict[int, dict] = {}
    for part in message.iter_parts():
        name = part.get_param("name", header="content-disposition")
        data = part.get_payload(decode=True) or b""
        if name == "payload_json":
            body = json.loads(data)
        elif name and name.startswith("files["):
            uploads[int(name[6:-1])] = {"filename": part.get_filename() or "file", "size": len(data),
                                        "content_type": part.get_content_type()}
    return body, uploads


class Rest:
    def __init__(self, standin: StandIn) -> None:
        self.standin = standin
        self.world = standin.world
        self.recorder = standin.recorder
        self.commands_synced_at: float | None = None

    def routes(self) -> list[web.RouteDef]:
        r = web
        return [
            r.get(API + "/gateway", self.gateway),
            r.get(API + "/gateway/bot", self.gateway_bot),
            r.get(API + "/users/@me", self.me),
            r.get(API + "/oauth2/applications/@me", self.application),
            r.put(API + "/applications/{application_id}/commands", self.put_commands),
            r.get(API + "/applications/{application_id}/commands", self.get_commands),
            r.put(API + "/applications/{application_id}/guilds/{guild_id}/commands", self.put_commands),
            r.get(API + "/applications/{application_id}/guilds/{guild_id}/commands", self.get_commands),
            r.post(API + "/users/@me/channels", self.open_dm),
            r.get(API + "/channels/{channel_id}", self.get_channel),
            r.delete(API + "/channels/{channel_id}", self.delete_channel),
            r.post(API + "/channels/{channel_id}/threads", self.create_thread),
            r.post(API + "/channels/{channel_id}/typing", self.typing),
            r.post(API + "/channels/{channel_id}/messages", self.create_message),
            r.get(API + "/channels/{channel_id}/messages", self.get_messages),
            r.get(API + "/channels/{channel_id}/messages/{message_id}", self.get_message),
            r.patch(API + "/channels/{channel_id}/messages/{message_id}", self.edit_message),
            r.delete(API + "/channels/{channel_id}/messages/{message_id}", self.delete_message),
            r.post(API + "/interactions/{interaction_id}/{token}/callback", self.callback),
            r.post(API + "/webhooks/{application_id}/{token}", self.followup),
            r.get(API + "/webhooks/{application_id}/{token}/messages/{message_id}", self.webhook_get),
            r.patch(API + "/webhooks/{application_id}/{token}/messages/{message_id}", self.webhook_edit),
            r.delete(API + "/webhooks/{application_id}/{token}/messages/{message_id}", self.webhook_delete),
        ]

    # ---------------------------------------------------------------- identity

    async def gateway(self, request: web.Request) -> web.Response:
        return answer({"url": self.standin.gateway_url})

    async def gateway_bot(self, request: web.Request) -> web.Response:
        shards = max(1, math.ceil(len(self.world.guilds) / 1000))
        return answer({"url": self.standin.gateway_url, "shards": shards, "session_start_limit": {
            "total": 1000, "remaining": 999, "reset_after": 86_400_000, "max_concurrency": 1}})

    async def me(self, request: web.Request) -> web.Response:
        return answer(dict(self.world.bot_user, verified=True, mfa_enabled=False, email=None))

    async def application(self, request: web.Request) -> web.Response:
        world = self.world
        return answer({
            "id": str(world.application_id), "name": "Stand-in Bot", "icon": None, "description": "",
            "summary": "", "type": None, "bot": world.bot_user, "bot_public": True,
            "bot_require_code_grant": False, "owner": world.owner, "team": None, "verify_key": "0" * 64,
            "flags": 0, "hook": True, "redirect_uris": [], "interactions_endpoint_url": None,
            "rpc_origins": [], "tags": [], "install_params": None, "integration_types_config": {},
        })

    # ---------------------------------------------------------------- commands

    async def put_commands(self, request: web.Request) -> web.Response:
        body, _ = await read_body(request)
        guild_id = int(request.match_info["guild_id"]) if "guild_id" in request.match_info else None
        known = {command["name"]: command["id"] for command in self.world.commands.get(guild_id, [])}
        stored = []
        for command in body:
            entry = {"type": 1, "description": "", "options": [], "default_member_permissions": None,
                     "dm_permission": True, "nsfw": False, **command}
            entry.update(id=known.get(command["name"]) or str(self.world.ids.next()),
                         application_id=str(self.world.application_id), version=str(self.world.ids.next()))
            if guild_id is not None:
                entry["guild_id"] = str(guild_id)
            stored.append(entry)
        self.world.commands[guild_id] = stored
        self.commands_synced_at = time.monotonic()
        self.standin.commands_synced.set()
        return answer(stored)

    async def get_commands(self, request: web.Request) -> web.Response:
        guild_id = int(request.match_info["guild_id"]) if "guild_id" in request.match_info else None
        return answer(self.world.commands.get(guild_id, []))

    # ---------------------------------------------------------------- channels

    async def open_dm(self, request: web.Request) -> web.Response:
        body, _ = await read_body(request)
        channel = self.world.dm_channel(int(body["recipient_id"]))
        return answer(self.world.dm_payload(channel))

    async def get_channel(self, request: web.Request) -> web.Response:
        return answer(self._channel(request).payload(self.world))

    async def delete_channel(self, request: web.Request) -> web.Response:
        channel = self._channel(request)
        del self.world.channels[channel.id]
        data = channel.payload(self.world)
        await self.standin.dispatch("THREAD_DELETE" if channel.type == PUBLIC_THREAD else "CHANNEL_DELETE",
                                    data, channel.guild_id)
        return answer(data)

    async def create_thread(self, request: web.Request) -> web.Response:
        parent = self._channel(request)
        body, _ = await read_body(request)
        thread = self.world.create_thread(parent, body.get("name") or "thread")
        data = dict(thread.payload(self.world), newly_created=True)
        await self.standin.dispatch("THREAD_CREATE", data, thread.guild_id)
        return answer(data, status=201)

    async def typing(self, request: web.Request) -> web.Response:
        self._channel(request)
        return web.Response(status=204)

    # ---------------------------------------------------------------- messages

    async def create_message(self, request: web.Request) -> web.Response:
        channel = self._channel(request)
        body, uploads = await read_body(request)
        self.world.check_may_post(channel)
        message, created = self.world.create_message(channel, body, uploads)
        if created:
            await self._announce("MESSAGE_CREATE", channel, message, uploads)
        return answer(message)

    async def get_messages(self, request: web.Request) -> web.Response:
        channel = self._channel(request)
        query = request.query
        limit = max(1, min(100, int(query.get("limit", 50))))
        found = self.world.history(channel.id, limit, before=_int(query.get("before")), after=_int(query.get("after")))
        return answer(found)

    async def get_message(self, request: web.Request) -> web.Response:
        channel = self._channel(request)
        return answer(self.world.message(channel.id, int(request.match_info["message_id"])))

    async def edit_message(self, request: web.Request) -> web.Response:
        channel = self._channel(request)
        message = self.world.message(channel.id, int(request.match_info["message_id"]))
        if message["author"]["id"] != self.world.bot_user["id"]:
            raise DiscordError(403, 50005, "Cannot edit a message authored by another user")
        body, uploads = await read_body(request)
        self.world.edit_message(message, body, uploads)
        await self._announce("MESSAGE_UPDATE", channel, message, uploads)
        return answer(message)

    async def delete_message(self, request: web.Request) -> web.Response:
        channel = self._channel(request)
        await self.standin.delete_message(channel.id, int(request.match_info["message_id"]))
        return web.Response(status=204)

    # ------------------------------------------------------------ interactions

    async def callback(self, request: web.Request) -> web.Response:
        record = self.recorder.by_token.get(request.match_info["token"])
        if record is None or str(record.id) != request.match_info["interaction_id"]:
            raise unknown("interaction", 10062)
        now = time.monotonic()
        if record.acked_at is not None:
            raise DiscordError(400, 40060, "Interaction has already been acknowledged.")
        if now - record.sent_at > self.standin.config.ack_deadline:
            record.late = True
            record.errors.append((404, "answered after the deadline"))
            record.note("callback after the deadline")
            raise unknown("interaction", 10062)
        body, uploads = await read_body(request)
        kind, data = body.get("type"), body.get("data") or {}
        record.acked_at, record.ack_type = now, kind
        record.answered.set()
        record.note(f"callback {kind}")
        message = None
        ephemeral = bool(int(data.get("flags") or 0) & EPHEMERAL)
        if kind in (MESSAGE, DEFERRED_MESSAGE):
            flags = (EPHEMERAL if ephemeral else 0) | (LOADING if kind == DEFERRED_MESSAGE else 0)
            message = await self._interaction_message(record, data if kind == MESSAGE else {}, uploads, flags)
            record.original = message
        elif kind == UPDATE:
            message = self._component_message(record)
            self.world.edit_message(message, data, uploads)
            record.original = message
            await self._announce_if_channel("MESSAGE_UPDATE", message, uploads)
        elif kind == AUTOCOMPLETE:
            record.autocomplete = data.get("choices", [])
        if "with_response" not in request.query:
            return web.Response(status=204)
        response: dict[str, Any] = {"interaction": {
            "id": str(record.id), "type": 2 if record.kind == "command" else 3,
            "response_message_loading": kind == DEFERRED_MESSAGE, "response_message_ephemeral": ephemeral}}
        if message is not None:
            response["interaction"]["response_message_id"] = message["id"]
            response["resource"] = {"type": kind, "message": message}
        elif kind is not None:
            response["resource"] = {"type": kind}
        return answer(response)

    async def followup(self, request: web.Request) -> web.Response:
        record = self._acked(request)
        body, uploads = await read_body(request)
        flags = EPHEMERAL if int(body.get("flags") or 0) & EPHEMERAL else 0
        message = await self._interaction_message(record, body, uploads, flags)
        record.note("followup")
        if request.query.get("wait") in ("true", "1", "True"):
            return answer(message)
        return web.Response(status=204)

    async def webhook_get(self, request: web.Request) -> web.Response:
        record = self._acked(request)
        return answer(self._webhook_message(record, request.match_info["message_id"]))

    async def webhook_edit(self, request: web.Request) -> web.Response:
        record = self._acked(request)
        message = self._webhook_message(record, request.match_info["message_id"])
        body, uploads = await read_body(request)
        self.world.edit_message(message, body, uploads)
        message["flags"] &= ~LOADING
        record.note("edit original" if request.match_info["message_id"] == "@original" else "edit followup")
        await self._announce_if_channel("MESSAGE_UPDATE", message, uploads)
        return answer(message)

    async def webhook_delete(self, request: web.Request) -> web.Response:
        record = self._acked(request)
        message = self._webhook_message(record, request.match_info["message_id"])
        channel = self.world.channels.get(int(message["channel_id"]))
        if channel is not None:
            channel.messages.pop(int(message["id"]), None)
        record.note("delete")
        return web.Response(status=204)

    # ---------------------------------------------------------------- helpers

    def _channel(self, request: web.Request) -> Channel:
        return self.world.channel(int(request.match_info["channel_id"]))

    def _acked(self, request: web.Request) -> InteractionRecord:
        record = self.recorder.by_token.get(request.match_info["token"])
        if record is None or request.match_info["application_id"] != str(self.world.application_id):
            raise unknown("Webhook", 10015)
        if record.acked_at is None:
            raise unknown("Webhook", 10015)  # followups and edits need the callback first
        return record

    def _component_message(self, record: InteractionRecord) -> dict:
        if record.component_message is None:
            raise DiscordError(400, 50035, "Invalid Form Body: this interaction has no message to update")
        channel_id, message_id = record.component_message
        if record.source_message is not None and record.source_message["flags"] & EPHEMERAL:
            return record.source_message  # an ephemeral message lives with the interaction that made it
        return self.world.message(channel_id, message_id)

    def _webhook_message(self, record: InteractionRecord, which: str) -> dict:
        if which == "@original":
            if record.ack_type == DEFERRED_UPDATE or (record.original is None and record.ack_type == UPDATE):
                return self._component_message(record)
            if record.original is None:
                raise unknown("Message", 10008)
            return record.original
        for message in record.ephemeral:
            if message["id"] == which:
                return message
        if record.original is not None and record.original["id"] == which:
            return record.original
        return self.world.message(record.channel_id, int(which))

    async def _interaction_message(self, record: InteractionRecord, body: dict, uploads: dict[int, dict],
                                   flags: int) -> dict:
        channel = self.world.channel(record.channel_id)
        metadata = {"id": str(record.id), "type": 2 if record.kind == "command" else 3,
                    "user": self.world.user(record.user_id),
                    "authorizing_integration_owners": {"0": str(record.guild_id or 0)}}
        if flags & LOADING:
            message = self._loading(channel, metadata, flags)  # "… is thinking", edited later
        else:
            body = {key: value for key, value in body.items() if key not in ("nonce", "enforce_nonce")}
            message, _ = self.world.create_message(
                channel, body, uploads, webhook_id=self.world.application_id, interaction_metadata=metadata,
                flags=flags, store=not flags & EPHEMERAL)
        if flags & EPHEMERAL:
            if not flags & LOADING:  # "… is thinking" is the response (@original), told nothing yet
                record.ephemeral.append(message)
        else:
            await self._announce("MESSAGE_CREATE", channel, message, uploads)
        return message

    def _loading(self, channel: Channel, metadata: dict, flags: int) -> dict:
        message = payloads.message(self.world.ids.next(), channel.id, self.world.bot_user, flags=flags,
                                   guild_id=channel.guild_id, webhook_id=self.world.application_id,
                                   interaction_metadata=metadata)
        if not flags & EPHEMERAL:
            channel.messages[int(message["id"])] = message
        return message

    async def _announce_if_channel(self, event: str, message: dict, uploads: dict[int, dict]) -> None:
        if message["flags"] & EPHEMERAL:
            return
        channel = self.world.channels.get(int(message["channel_id"]))
        if channel is not None:
            await self._announce(event, channel, message, uploads)

    async def _announce(self, event: str, channel: Channel, message: dict, uploads: dict[int, dict]) -> None:
        """Tell the gateway, and note a board: a message in a server channel with an image uploaded."""
        now = time.monotonic()
        self.recorder.message(MessageEvent(now, channel.id, int(message["id"]), event == "MESSAGE_CREATE",
                                           channel.type == DM, message.get("content") or "",
                                           list(message.get("components") or [])))
        if uploads and channel.type != DM:
            self.recorder.board(BoardEvent(now, channel.id, int(message["id"]),
                                           event == "MESSAGE_CREATE", versions(message.get("components"))))
        if event == "MESSAGE_CREATE" and channel.type != DM:
            member = payloads.member(self.world.bot_user, joined=payloads.iso())
            member.pop("user")
            data = dict(message, member=member)
        else:
            data = message
        await self.standin.dispatch(event, data, channel.guild_id)


def _int(text: str | None) -> int | None:
    return int(text) if text else None
