"""The stand-in's Discord: the bot's application, guilds, channels, users, DM channels,
messages and application commands. Only what the bot uses, but checked the way Discord
checks it (message sizes, components, the nonce)."""
from __future__ import annotations

import time
from collections import OrderedDict
from collections.abc import Iterable
from dataclasses import dataclass, field
from typing import Any

from bench.standin import payloads
from bench.standin.botview import MENTION
from bench.standin.payloads import DM, PUBLIC_THREAD, SEND_MESSAGES, TEXT, GuildShape, GuildSpec, Snowflakes

NONCE_SECONDS = 300.0   # enforce_nonce: "checked for uniqueness in the past few minutes"
MISSING_PERMISSIONS = 50013
CANNOT_DM = 50007
CONTENT_LIMIT = 2000
ROWS_LIMIT = 5
CUSTOM_ID_LIMIT = 100
LABEL_LIMIT = 80
OPTIONS_LIMIT = 25
EPHEMERAL = 1 << 6


class DiscordError(Exception):
    """An error answer: HTTP status, Discord's JSON error code and message."""

    def __init__(self, status: int, code: int, message: str) -> None:
        super().__init__(message)
        self.status, self.code, self.message = status, code, message

    def body(self) -> dict:
        return {"message": self.message, "code": self.code}


def unknown(what: str, code: int) -> DiscordError:
    return DiscordError(404, code, f"Unknown {what}")


@dataclass
class Channel:
    id: int
    type: int
    guild_id: int | None
    name: str = ""
    parent_id: int | None = None
    recipient_id: int | None = None   # a DM channel's user
    messages: OrderedDict[int, dict] = field(default_factory=OrderedDict)

    def payload(self, world: World) -> dict[str, Any]:
        """The partial channel an interaction carries."""
        if self.type == DM:
            return {"id": str(self.id), "type": DM, "last_message_id": None, "flags": 0,
                    "recipients": [world.user(self.recipient_id)]}
        data = {"id": str(self.id), "type": self.type, "guild_id": str(self.guild_id), "name": self.name,
                "position": 0, "permission_overwrites": [], "nsfw": False, "parent_id":
                None if self.parent_id is None else str(self.parent_id), "rate_limit_per_user": 0,
                "last_message_id": None, "flags": 0, "permissions": world.app_permissions(self.id), "topic": None}
        if self.type == PUBLIC_THREAD:
            data["thread_metadata"] = {"archived": False, "auto_archive_duration": 10080,
                                       "archive_timestamp": payloads.iso(), "locked": False}
            data["owner_id"] = str(world.bot_id)
        return data


class World:
    def __init__(self, *, keep_messages: int = 100) -> None:
        self.ids = Snowflakes()
        self.application_id = self.ids.next()
        self.bot_id = self.application_id  # a bot user's id is its application's
        self.bot_user = payloads.user(self.bot_id, "Stand-in Bot", bot=True)
        self.token = f"standin-token.{self.bot_id}"
        self.owner = payloads.user(self.ids.next(), "owner")
        self.guilds: dict[int, GuildSpec] = {}
        self.channels: dict[int, Channel] = {}
        self.users: dict[int, dict] = {self.bot_id: self.bot_user}
        self.other_users: set[int] = set()  # users known by id only (many stored games' players)
        self.joined: dict[int, str] = {}
        self.dm_by_user: dict[int, int] = {}
        self.commands: dict[int | None, list[dict]] = {None: []}  # guild id (None: global) -> commands
        self.keep_messages = keep_messages
        self._nonces: dict[tuple[int, int, str], tuple[float, int]] = {}  # (author, channel, nonce) -> (when, message)
        # What moderators and users changed: channels where the bot lost Send Messages, and
        # users who take no DMs from the bot (soaks switch these on and off).
        self.send_denied: set[int] = set()
        self.dms_closed: set[int] = set()
        self.uploaded_bytes = 0
        self.uploads = 0

    # ---------------------------------------------------------------- guilds, users

    def add_guild(self, shape: GuildShape | None = None, *, locale: str = "en-US") -> GuildSpec:
        spec = payloads.build_guild(self.ids, len(self.guilds) + 1, shape or GuildShape(), int(self.owner["id"]))
        spec.locale = locale
        self.guilds[spec.id] = spec
        for position, channel_id in enumerate(spec.channel_ids):
            self.channels[channel_id] = Channel(channel_id, TEXT, spec.id, f"table-{position}")
        for position, thread_id in enumerate(spec.thread_ids):
            parent = spec.channel_ids[position % len(spec.channel_ids)] if spec.channel_ids else None
            self.channels[thread_id] = Channel(thread_id, PUBLIC_THREAD, spec.id, f"thread-{position}", parent)
        return spec

    def add_user(self, name: str) -> dict:
        user_id = self.ids.next()
        self.users[user_id] = payloads.user(user_id, name)
        self.joined[user_id] = payloads.iso()
        return self.users[user_id]

    def add_users(self, user_ids: Iterable[int]) -> None:
        """Users who exist without being kept as payloads (made when needed)."""
        self.other_users.update(user_ids)

    def knows(self, user_id: int) -> bool:
        return user_id in self.users or user_id in self.other_users

    def user(self, user_id: int) -> dict:
        found = self.users.get(user_id)
        if found is None:
            if user_id not in self.other_users:
                raise unknown("User", 10013)
            found = payloads.user(user_id, f"player{user_id % 100000}")
        return found

    def guild_create(self, guild_id: int) -> dict:
        spec = self.guilds[guild_id]
        denies = {channel_id: self.bot_denies(channel_id) for channel_id in spec.channel_ids
                  if channel_id in self.send_denied}
        return payloads.guild_create(spec, self.bot_user, self.users, denies)

    # ---------------------------------------------------------------- permissions

    def bot_denies(self, channel_id: int) -> dict[int, int]:
        """The bot's member overwrite in a channel: bot id -> permission bits denied (none: {})."""
        return {self.bot_id: SEND_MESSAGES} if channel_id in self.send_denied else {}

    def app_permissions(self, channel_id: int) -> str:
        """What the bot may do in a channel, as an interaction's `app_permissions` says it."""
        bits = int(payloads.ALL_PERMISSIONS)
        if channel_id in self.send_denied:
            bits &= ~SEND_MESSAGES
        return str(bits)

    def check_may_post(self, channel: Channel) -> None:
        """Discord's refusals of a new message: Send Messages taken from the bot in a server
        channel (403, 50013), or a user whose DMs are closed to it (403, 50007)."""
        if channel.id in self.send_denied:
            raise DiscordError(403, MISSING_PERMISSIONS, "Missing Permissions")
        if channel.type == DM and channel.recipient_id in self.dms_closed:
            raise DiscordError(403, CANNOT_DM, "Cannot send messages to this user")

    def channel(self, channel_id: int) -> Channel:
        channel = self.channels.get(channel_id)
        if channel is None:
            raise unknown("Channel", 10003)
        return channel

    def dm_channel(self, user_id: int) -> Channel:
        if not self.knows(user_id):
            raise unknown("User", 10013)
        channel_id = self.dm_by_user.get(user_id)
        if channel_id is None:
            channel_id = self.dm_by_user[user_id] = self.ids.next()
            self.channels[channel_id] = Channel(channel_id, DM, None, recipient_id=user_id)
        return self.channels[channel_id]

    def dm_payload(self, channel: Channel) -> dict:
        return {"id": str(channel.id), "type": DM, "last_message_id": None, "flags": 0,
                "recipients": [self.user(channel.recipient_id)]}

    def create_thread(self, parent: Channel, name: str) -> Channel:
        thread_id = self.ids.next()
        channel = self.channels[thread_id] = Channel(thread_id, PUBLIC_THREAD, parent.guild_id, name[:100], parent.id)
        return channel

    # ------------------------------------------------------------------ messages

    def message(self, channel_id: int, message_id: int) -> dict:
        found = self.channel(channel_id).messages.get(message_id)
        if found is None:
            raise unknown("Message", 10008)
        return found

    def newest(self, channel_id: int, *, with_components: bool = False) -> dict | None:
        channel = self.channels.get(channel_id)
        if channel is None:
            return None
        for message in reversed(channel.messages.values()):
            if not with_components or message.get("components"):
                return message
        return None

    def history(self, channel_id: int, limit: int, before: int | None = None, after: int | None = None) -> list[dict]:
        messages = list(self.channel(channel_id).messages.values())
        if before is not None:
            messages = [m for m in messages if int(m["id"]) < before]
        if after is not None:
            messages = [m for m in messages if int(m["id"]) > after][:limit]
            return list(reversed(messages))
        return list(reversed(messages[-limit:]))  # newest first, as Discord answers

    def seed_message(self, channel_id: int, message_id: int, content: str = "", components: list | None = None) -> dict:
        """A message the bot posted before this stand-in started (a stored game's board)."""
        channel = self.channel(channel_id)
        message = payloads.message(message_id, channel_id, self.bot_user, content=content,
                                   components=components, guild_id=channel.guild_id)
        channel.messages[message_id] = message
        return message

    def create_message(self, channel: Channel, body: dict, uploads: dict[int, dict], *,
                       author: dict | None = None, webhook_id: int | None = None,
                       interaction_metadata: dict | None = None, flags: int = 0, store: bool = True
                       ) -> tuple[dict, bool]:
        """A new message from `body` (the JSON or payload_json) and its uploaded files. Returns
        (message, created): with `enforce_nonce`, a repeat of a nonce the same author used in the
        same channel in the last few minutes returns the first message instead of a new one
        (whatever the repeat says: the nonce alone decides)."""
        author = author or self.bot_user
        nonce = body.get("nonce")
        if nonce is not None and body.get("enforce_nonce"):
            key = (int(author["id"]), channel.id, str(nonce))
            now = time.monotonic()
            known = self._nonces.get(key)
            if known is not None and now - known[0] < NONCE_SECONDS:
                found = channel.messages.get(known[1])
                if found is not None:
                    return found, False
        validate(body, uploads, creating=True)
        message_id = self.ids.next()
        message = payloads.message(
            message_id, channel.id, author, content=body.get("content") or "",
            components=body.get("components") or [], attachments=self._attachments(body, uploads, []),
            embeds=body.get("embeds") or [], flags=(int(body.get("flags") or 0) & ~EPHEMERAL) | flags,
            guild_id=channel.guild_id, nonce=None if nonce is None else str(nonce), webhook_id=webhook_id,
            interaction_metadata=interaction_metadata, mentions=self._mentions(body),
        )
        if nonce is not None and body.get("enforce_nonce"):
            self._nonces[(int(author["id"]), channel.id, str(nonce))] = (time.monotonic(), message_id)
            if len(self._nonces) > 100_000:
                cutoff = time.monotonic() - NONCE_SECONDS
                self._nonces = {k: v for k, v in self._nonces.items() if v[0] > cutoff}
        if store:
            channel.messages[message_id] = message
            while len(channel.messages) > self.keep_messages:
                channel.messages.popitem(last=False)
        return message, True

    def edit_message(self, message: dict, body: dict, uploads: dict[int, dict]) -> dict:
        validate(body, uploads, creating=False)
        if "content" in body:
            message["content"] = body["content"] or ""
            message["mentions"] = self._mentions(body)
        if "components" in body:
            message["components"] = body["components"] or []
        if "embeds" in body:
            message["embeds"] = body["embeds"] or []
        if "attachments" in body or uploads:
            message["attachments"] = self._attachments(body, uploads, message["attachments"])
        if "flags" in body and body["flags"] is not None:
            message["flags"] = int(body["flags"]) & ~EPHEMERAL | (message["flags"] & EPHEMERAL)
        message["edited_timestamp"] = payloads.iso()
        return message

    def _attachments(self, body: dict, uploads: dict[int, dict], existing: list[dict]) -> list[dict]:
        listed = body.get("attachments")
        by_id = {attachment["id"]: attachment for attachment in existing}
        if listed is None:
            chosen = list(existing)
            listed = [{"id": index} for index in uploads]
        else:
            chosen = []
        for item in listed:
            key = str(item.get("id"))
            if key in by_id:
                chosen.append(by_id[key])
            elif key.isdigit() and int(key) in uploads:
                upload = uploads[int(key)]
                attachment_id = self.ids.next()
                self.uploaded_bytes += upload["size"]
                self.uploads += 1
                chosen.append({
                    "id": str(attachment_id), "filename": item.get("filename") or upload["filename"],
                    "size": upload["size"], "content_type": upload["content_type"],
                    "url": f"https://cdn.standin.invalid/attachments/{attachment_id}/{upload['filename']}",
                    "proxy_url": f"https://media.standin.invalid/attachments/{attachment_id}/{upload['filename']}",
                    "width": 1080, "height": 1350, "description": item.get("description"), "flags": 0,
                })
        return chosen

    def _mentions(self, body: dict) -> list[dict]:
        allowed = body.get("allowed_mentions")
        content = body.get("content") or ""
        if allowed is not None and "users" not in allowed.get("parse", []):
            permitted = {int(user_id) for user_id in allowed.get("users", [])}
        else:
            permitted = None
        found = []
        for user_id in {int(part) for part in MENTION.findall(content)}:
            if self.knows(user_id) and (permitted is None or user_id in permitted):
                found.append(self.user(user_id))
        return found


def validate(body: dict, uploads: dict[int, dict], *, creating: bool) -> None:
    """Discord's checks of a message body that a bot could get wrong (50035 Invalid Form Body)."""
    content = body.get("content") or ""
    if len(content) > CONTENT_LIMIT:
        raise DiscordError(400, 50035, f"Invalid Form Body: content longer than {CONTENT_LIMIT}")
    rows = body.get("components") or []
    if len(rows) > ROWS_LIMIT:
        raise DiscordError(400, 50035, f"Invalid Form Body: more than {ROWS_LIMIT} component rows")
    seen = set()
    for row in rows:
        children = row.get("components", [])
        if row.get("type") == 1 and not 1 <= len(children) <= 5:
            raise DiscordError(400, 50035, "Invalid Form Body: an action row holds 1 to 5 components")
        for component in children:
            custom_id = component.get("custom_id")
            if custom_id is not None:
                if len(custom_id) > CUSTOM_ID_LIMIT:
                    raise DiscordError(400, 50035, "Invalid Form Body: custom_id longer than 100")
                if custom_id in seen:
                    raise DiscordError(400, 50035, "Invalid Form Body: component custom id already used")
                seen.add(custom_id)
            if len(component.get("label") or "") > LABEL_LIMIT:
                raise DiscordError(400, 50035, "Invalid Form Body: label longer than 80")
            if component.get("type") == 3 and not 1 <= len(component.get("options", [])) <= OPTIONS_LIMIT:
                raise DiscordError(400, 50035, "Invalid Form Body: a select menu holds 1 to 25 options")
    if creating and not (content or uploads or body.get("embeds") or rows or body.get("sticker_ids")
                         or body.get("poll")):
        raise DiscordError(400, 50006, "Cannot send an empty message")
