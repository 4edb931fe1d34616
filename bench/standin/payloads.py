"""Discord's JSON objects as the stand-in sends them: ids, users, members, guilds, channels,
messages and interactions, shaped the way discord.py 2.7 parses them (its `types/` and the
`_from_data` methods of Guild, TextChannel, Message and Interaction)."""
from __future__ import annotations

import itertools
import time
from dataclasses import dataclass, field
from datetime import UTC, datetime
from typing import Any

DISCORD_EPOCH_MS = 1420070400000
ALL_PERMISSIONS = str((1 << 51) - 1 - 8)  # every permission bit but administrator (8)
EVERYONE_PERMISSIONS = "1071698660929"   # Discord's default @everyone permissions
SEND_MESSAGES = 1 << 11
MEMBER_OVERWRITE = 1                     # a permission overwrite for one member (0: a role)
ATTACHMENT_SIZE_LIMIT = 10 * 1024 * 1024

TEXT, DM, CATEGORY, PUBLIC_THREAD = 0, 1, 4, 11


class Snowflakes:
    """Increasing ids that carry the current time, as Discord's do (discord.py reads a message's
    age from its id, e.g. before deleting it)."""

    def __init__(self) -> None:
        self._last = 0
        self._worker = 1

    def next(self) -> int:
        candidate = ((int(time.time() * 1000) - DISCORD_EPOCH_MS) << 22) | (self._worker << 17)
        if candidate <= self._last:
            candidate = self._last + 1
        self._last = candidate
        return candidate


def iso(at: float | None = None) -> str:
    return datetime.fromtimestamp(time.time() if at is None else at, UTC).isoformat()


def user(user_id: int, name: str, *, bot: bool = False) -> dict[str, Any]:
    data = {"id": str(user_id), "username": name, "global_name": None if bot else name, "discriminator": "0",
            "avatar": None, "public_flags": 0, "flags": 0, "banner": None, "accent_color": None,
            "avatar_decoration_data": None, "primary_guild": None}
    if bot:
        data["bot"] = True
    return data


def member(user_payload: dict, *, joined: str, roles: list[str] = (), permissions: str | None = None) -> dict:
    data = {"user": user_payload, "nick": None, "avatar": None, "banner": None, "roles": list(roles),
            "joined_at": joined, "premium_since": None, "deaf": False, "mute": False, "pending": False,
            "flags": 0, "communication_disabled_until": None}
    if permissions is not None:
        data["permissions"] = permissions
    return data


@dataclass
class GuildShape:
    """How big each stand-in guild is. Defaults follow what a bot with discord.py's default
    intents receives: GUILD_CREATE lists only the bot itself among members (without the
    privileged GUILD_PRESENCES intent Discord sends no others), but `member_count` is large."""

    channels: int = 20            # text channels (tables are played in some of them)
    categories: int = 3
    roles: int = 20
    emojis: int = 20
    stickers: int = 2
    threads: int = 2              # active threads listed in GUILD_CREATE
    overwrites: int = 2           # permission overwrites per channel
    members: int = 0              # members listed besides the bot (0: what Discord sends here)
    member_count: int = 1500


@dataclass
class GuildSpec:
    """A guild kept compactly; its GUILD_CREATE payload is built when sent."""

    id: int
    name: str
    shape: GuildShape
    owner_id: int
    channel_ids: list[int] = field(default_factory=list)
    category_ids: list[int] = field(default_factory=list)
    thread_ids: list[int] = field(default_factory=list)
    role_ids: list[int] = field(default_factory=list)  # [0] is @everyone (the guild's id)
    emoji_ids: list[int] = field(default_factory=list)
    sticker_ids: list[int] = field(default_factory=list)
    member_ids: list[int] = field(default_factory=list)
    locale: str = "en-US"
    joined_at: str = field(default_factory=iso)


def build_guild(ids: Snowflakes, number: int, shape: GuildShape, owner_id: int) -> GuildSpec:
    guild_id = ids.next()
    spec = GuildSpec(id=guild_id, name=f"Guild {number}", shape=shape, owner_id=owner_id)
    spec.role_ids = [guild_id, *(ids.next() for _ in range(shape.roles))]
    spec.category_ids = [ids.next() for _ in range(shape.categories)]
    spec.channel_ids = [ids.next() for _ in range(shape.channels)]
    spec.thread_ids = [ids.next() for _ in range(shape.threads)]
    spec.emoji_ids = [ids.next() for _ in range(shape.emojis)]
    spec.sticker_ids = [ids.next() for _ in range(shape.stickers)]
    spec.member_ids = [ids.next() for _ in range(shape.members)]
    return spec


def text_channel(spec: GuildSpec, channel_id: int, position: int, *,
                 member_denies: dict[int, int] | None = None) -> dict[str, Any]:
    """A text channel as GUILD_CREATE and CHANNEL_UPDATE carry it; `member_denies`: user id ->
    permission bits denied to that member here (a moderator took Send Messages from the bot)."""
    parent = spec.category_ids[position % len(spec.category_ids)] if spec.category_ids else None
    overwrites = [{"id": str(spec.role_ids[i % len(spec.role_ids)]), "type": 0, "allow": "3072", "deny": "0"}
                  for i in range(spec.shape.overwrites)]
    overwrites += [{"id": str(user_id), "type": MEMBER_OVERWRITE, "allow": "0", "deny": str(bits)}
                   for user_id, bits in (member_denies or {}).items()]
    return {"id": str(channel_id), "type": TEXT, "guild_id": str(spec.id), "name": f"table-{position}",
            "position": position, "parent_id": None if parent is None else str(parent),
            "permission_overwrites": overwrites, "topic": "Board games: /game new", "nsfw": False,
            "last_message_id": None, "rate_limit_per_user": 0, "flags": 0, "icon_emoji": None,
            "theme_color": None}


def category(spec: GuildSpec, channel_id: int, position: int) -> dict[str, Any]:
    return {"id": str(channel_id), "type": CATEGORY, "guild_id": str(spec.id), "name": f"Category {position}",
            "position": position, "parent_id": None, "permission_overwrites": [], "nsfw": False, "flags": 0}


def thread(spec: GuildSpec, thread_id: int, parent_id: int, owner_id: int, name: str) -> dict[str, Any]:
    return {"id": str(thread_id), "type": PUBLIC_THREAD, "guild_id": str(spec.id), "parent_id": str(parent_id),
            "owner_id": str(owner_id), "name": name, "last_message_id": None, "rate_limit_per_user": 0,
            "message_count": 0, "member_count": 1, "total_message_sent": 0, "flags": 0, "applied_tags": [],
            "thread_metadata": {"archived": False, "auto_archive_duration": 10080, "archive_timestamp": iso(),
                                "locked": False, "create_timestamp": iso()}}


def role(spec: GuildSpec, role_id: int, position: int) -> dict[str, Any]:
    everyone = role_id == spec.id
    return {"id": str(role_id), "name": "@everyone" if everyone else f"role-{position}", "color": 0,
            "colors": {"primary_color": 0, "secondary_color": None, "tertiary_color": None},
            "hoist": False, "icon": None, "unicode_emoji": None, "position": position,
            "permissions": EVERYONE_PERMISSIONS if everyone else "0", "managed": False, "mentionable": False,
            "flags": 0, "description": None}


def guild_create(spec: GuildSpec, bot_user: dict, members: dict[int, dict],
                 member_denies: dict[int, dict[int, int]] | None = None) -> dict[str, Any]:
    """The whole GUILD_CREATE payload of a guild, as big as `spec.shape` says; `member_denies`:
    channel id -> the permissions denied to members there (see `text_channel`)."""
    guild_id = str(spec.id)
    denies = member_denies or {}
    channels = [category(spec, cid, i) for i, cid in enumerate(spec.category_ids)]
    channels += [text_channel(spec, cid, i, member_denies=denies.get(cid)) for i, cid in enumerate(spec.channel_ids)]
    threads = [thread(spec, tid, spec.channel_ids[i % len(spec.channel_ids)], spec.owner_id, f"thread-{i}")
               for i, tid in enumerate(spec.thread_ids)] if spec.channel_ids else []
    listed = [member(bot_user, joined=spec.joined_at, roles=[str(spec.role_ids[-1])] if len(spec.role_ids) > 1 else [])]
    listed += [member(members.get(mid) or user(mid, f"member{mid % 100000}"), joined=spec.joined_at)
               for mid in spec.member_ids]
    return {
        "id": guild_id, "name": spec.name, "icon": None, "splash": None, "discovery_splash": None, "banner": None,
        "owner_id": str(spec.owner_id), "afk_channel_id": None, "afk_timeout": 300, "widget_enabled": False,
        "verification_level": 1, "default_message_notifications": 1, "explicit_content_filter": 2,
        "roles": [role(spec, rid, i) for i, rid in enumerate(spec.role_ids)],
        "emojis": [{"id": str(eid), "name": f"emoji_{i}", "roles": [], "require_colons": True, "managed": False,
                    "animated": False, "available": True} for i, eid in enumerate(spec.emoji_ids)],
        "stickers": [{"id": str(sid), "name": f"sticker_{i}", "tags": "game", "type": 2, "format_type": 1,
                      "description": "A sticker", "available": True, "guild_id": guild_id}
                     for i, sid in enumerate(spec.sticker_ids)],
        "features": ["COMMUNITY", "NEWS"], "mfa_level": 0, "application_id": None,
        "system_channel_id": str(spec.channel_ids[0]) if spec.channel_ids else None, "system_channel_flags": 0,
        "rules_channel_id": None, "max_presences": None, "max_members": 500000, "vanity_url_code": None,
        "description": None, "premium_tier": 0, "premium_subscription_count": 0, "preferred_locale": spec.locale,
        "public_updates_channel_id": None, "max_video_channel_users": 25, "max_stage_video_channel_users": 50,
        "nsfw_level": 0, "premium_progress_bar_enabled": False, "safety_alerts_channel_id": None,
        "incidents_data": None, "hub_type": None, "nsfw": False, "lazy": True, "large": spec.shape.member_count >= 250,
        "unavailable": False, "joined_at": spec.joined_at, "member_count": spec.shape.member_count,
        "members": listed, "channels": channels, "threads": threads, "voice_states": [], "presences": [],
        "stage_instances": [], "guild_scheduled_events": [], "soundboard_sounds": [], "embedded_activities": [],
        "activity_instances": [], "application_command_counts": {},
    }


def message(message_id: int, channel_id: int, author: dict, *, content: str = "", components: list | None = None,
            attachments: list | None = None, embeds: list | None = None, flags: int = 0,
            guild_id: int | None = None, nonce: str | None = None, webhook_id: int | None = None,
            interaction_metadata: dict | None = None, mentions: list | None = None) -> dict[str, Any]:
    data: dict[str, Any] = {
        "id": str(message_id), "type": 0 if interaction_metadata is None else 19, "channel_id": str(channel_id),
        "author": author, "content": content, "timestamp": iso(), "edited_timestamp": None, "tts": False,
        "mention_everyone": False, "mentions": mentions or [], "mention_roles": [], "attachments": attachments or [],
        "embeds": embeds or [], "pinned": False, "flags": flags, "components": components or [],
    }
    if guild_id is not None:
        data["guild_id"] = str(guild_id)
    if nonce is not None:
        data["nonce"] = nonce
    if webhook_id is not None:
        data["webhook_id"] = str(webhook_id)
        data["application_id"] = str(webhook_id)
    if interaction_metadata is not None:
        data["interaction_metadata"] = interaction_metadata
    return data


_tokens = itertools.count(1)


def interaction_token(interaction_id: int) -> str:
    return f"aW50ZXJhY3Rpb24-{interaction_id}-{next(_tokens):x}-standin"


def interaction(interaction_id: int, application_id: int, kind: int, data: dict, *, token: str,
                user_payload: dict, channel: dict, guild_id: int | None, locale: str = "en-US",
                guild_locale: str = "en-US", message_payload: dict | None = None,
                joined_at: str | None = None, app_permissions: str = ALL_PERMISSIONS) -> dict[str, Any]:
    """An INTERACTION_CREATE payload (kind 2: a slash command, 3: a component, 4: autocomplete);
    `app_permissions`: what the bot may do in the channel."""
    payload: dict[str, Any] = {
        "id": str(interaction_id), "application_id": str(application_id), "type": kind, "data": data,
        "token": token, "version": 1, "locale": locale, "app_permissions": app_permissions,
        "entitlements": [], "attachment_size_limit": ATTACHMENT_SIZE_LIMIT, "channel": channel,
        "channel_id": channel["id"],
    }
    if guild_id is not None:
        payload["guild_id"] = str(guild_id)
        payload["guild_locale"] = guild_locale
        payload["guild"] = {"id": str(guild_id), "locale": guild_locale, "features": []}
        payload["member"] = member(user_payload, joined=joined_at or iso(), permissions=EVERYONE_PERMISSIONS)
        payload["authorizing_integration_owners"] = {"0": str(guild_id)}
        payload["context"] = 0
    else:
        payload["user"] = user_payload
        payload["authorizing_integration_owners"] = {"0": "0"}
        payload["context"] = 1
    if message_payload is not None:
        payload["message"] = message_payload
    return payload
